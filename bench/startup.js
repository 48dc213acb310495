#!/usr/bin/env node
// bench:startup: how long `spawnbench --version` and `--help` take, wall clock, next
// to `node -e 0` (the floor no CLI on this Node goes under), side by side in one run.
// Issue 28's target: --version and --help ≤ 0.15 s wall. Uses hyperfine where it is
// installed (its JSON export gives every run), else runs each command itself.
// Prints min and median wall and the mean CPU (user + system) of each command.
// Where NODE_EXTRA_CA_CERTS is set (this machine's environment sets it to the system CA
// bundle), the same commands run again without it, side by side: Node 20 reads and parses
// that bundle as every process starts, before any JavaScript, which is part of every
// figure of the first table and none of the second.
//
// Usage: node bench/startup.js [--runs 30]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const BIN = fileURLToPath(new URL('../bin/spawnbench.js', import.meta.url));
const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '30' } } });
const runs = Number(args.runs);
const BASE = [
  { name: 'node -e 0', argv: [process.execPath, '-e', '0'] },
  { name: 'spawnbench --version', argv: [process.execPath, BIN, '--version'] },
  { name: 'spawnbench --help', argv: [process.execPath, BIN, '--help'] },
];
const EXTRA_CA = process.env.NODE_EXTRA_CA_CERTS;
const COMMANDS = [
  ...BASE,
  ...(EXTRA_CA ? BASE.map((c) => ({ ...c, withoutCa: true, argv: ['env', '-u', 'NODE_EXTRA_CA_CERTS', ...c.argv] })) : []),
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

function hasHyperfine() {
  return spawnSync('hyperfine', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** hyperfine, every command in one invocation (interleaved warm-up, same conditions): seconds per run. */
function withHyperfine() {
  const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-startup-'));
  try {
    const file = path.join(dir, 'out.json');
    execFileSync('hyperfine', ['-N', '--warmup', '3', '--runs', String(runs), '--export-json', file, ...COMMANDS.map((c) => c.argv.join(' '))], { stdio: 'ignore' });
    return JSON.parse(readFileSync(file, 'utf8')).results.map((r) => ({ times: r.times, cpu: r.user + r.system }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Without hyperfine: each command `runs` times, rounds interleaved. */
function byHand() {
  const out = COMMANDS.map(() => ({ times: [], cpu: 0 }));
  for (let i = 0; i < runs; i++) {
    COMMANDS.forEach((c, k) => {
      const t = performance.now();
      spawnSync(c.argv[0], c.argv.slice(1), { stdio: 'ignore' });
      out[k].times.push((performance.now() - t) / 1000);
    });
  }
  return out;
}

const tool = hasHyperfine() ? 'hyperfine' : 'repeated runs (hyperfine not installed)';
const load = loadavg().map((l) => l.toFixed(2)).join(' ');
const results = tool === 'hyperfine' ? withHyperfine() : byHand();
console.log(`bench:startup: ${runs} runs each, ${tool}; load average before: ${load}`);
const table = (withoutCa) => {
  console.log(`${'command'.padEnd(22)} ${'min s'.padStart(7)} ${'median s'.padStart(9)} ${'CPU s'.padStart(7)}`);
  COMMANDS.forEach((c, k) => {
    if (Boolean(c.withoutCa) !== withoutCa) return;
    const r = results[k];
    const cpu = tool === 'hyperfine' ? r.cpu.toFixed(3) : '—';
    console.log(`${c.name.padEnd(22)} ${Math.min(...r.times).toFixed(3).padStart(7)} ${median(r.times).toFixed(3).padStart(9)} ${cpu.padStart(7)}`);
  });
};
if (EXTRA_CA) console.log(`with this environment's NODE_EXTRA_CA_CERTS=${EXTRA_CA}:`);
table(false);
if (EXTRA_CA) {
  console.log('the same without NODE_EXTRA_CA_CERTS (Node 20 parses the bundle it names as every process starts):');
  table(true);
}
console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (target: --version and --help ≤ 0.150 s wall)`);
