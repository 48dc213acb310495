#!/usr/bin/env node
/**
 * bench:machines: what spawnbench recommends for the CPU it really gets. On this
 * machine, with no limit, under `taskset -c 0` (affinity), and inside cgroup CPU
 * quotas of 1.5, 1.0 and 0.5 CPU (where this process can make a cgroup: root on
 * Linux; it says which it skipped and why): the default pool, run's recommendation
 * from `--pool-size 4`, and tune's recommendation and best size over 1,2,3,4, side
 * by side, with whether tune's throughput at run's size is within 5% of tune's best
 * (src/analysis/run-vs-tune.js: on a large machine "within one size" means nothing),
 * and whether the quota is named.
 *
 *   npm run bench:machines [-- --conditions none,taskset,1.5,1.0,0.5 --strategy fork-pool --repeat 3 --shares 8192]
 *
 * `--shares N` (root): every condition also runs in a cgroup with cpu.shares N (v2:
 * cpu.weight), a weight against the other programs of a shared machine, so that a
 * quota, not their load, is what the runs meet (a pod's CPU request does the same).
 * The cgroup has no quota for `none` and `taskset`, so their budget stays the host's
 * and the affinity's. Other programs get less CPU while it runs.
 * Each spawnbench runs as its own process inside the condition (a cgroup is
 * entered before spawnbench's first instruction). Runs measure 5 s after 1 s of
 * warm-up, tune steps 2 s after 500 ms, three repeats: about a minute per
 * condition on a 2-vCPU machine. Every cgroup it makes is removed on every exit
 * path (processes moved out, rmdir).
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { makeQuotaCgroup } from '../test/helpers/cpu-cgroup.js';
import { cpuBudgetLabel } from '../src/base/labels.js';
import { adviceParagraphs } from '../src/report/run-advice-text.js';
import { runAgainstTune } from '../src/analysis/run-vs-tune.js';

const BIN = fileURLToPath(new URL('../bin/spawnbench.js', import.meta.url));
const { values: opts } = parseArgs({
  options: {
    conditions: { type: 'string', default: 'none,taskset,1.5,1.0,0.5' },
    strategy: { type: 'string', default: 'fork-pool' },
    repeat: { type: 'string', default: '3' },
    shares: { type: 'string' },
  },
});
const RUN = ['--strategy', opts.strategy, '--duration', '5s', '--warmup', '1s'];
const TUNE = ['--strategy', opts.strategy, '--sizes', '1,2,3,4', '--balance-policies', 'round-robin', '--repeat', opts.repeat, '--duration', '2s', '--warmup', '500ms'];

const cgroups = [];
let current = null;
const cleanup = () => {
  current?.kill('SIGTERM');
  for (const cg of cgroups.splice(0)) if (!cg.remove()) process.stderr.write(`could not remove ${cg.dir}\n`);
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    cleanup();
    process.exit(130);
  });
}

const shares = opts.shares === undefined ? null : Number(opts.shares);
if (shares !== null && !(shares >= 2 && shares <= 262_144)) throw new Error(`--shares: '${opts.shares}' is not a CPU weight from 2 to 262144`);

/** The conditions asked for, each `{ name, wrap }` or `{ name, skip }`. */
function conditions() {
  return opts.conditions.split(',').map((c) => {
    if (c === 'none') return weighted({ name: 'no limit', wrap: (argv) => argv });
    if (c === 'taskset') {
      const found = spawnSync('taskset', ['--version']).status === 0;
      return found ? weighted({ name: 'taskset -c 0', wrap: (argv) => ['taskset', '-c', '0', ...argv] }) : { name: 'taskset -c 0', skip: 'taskset is not installed (util-linux)' };
    }
    const cpus = Number(c);
    if (!(cpus > 0)) throw new Error(`--conditions: '${c}' is not none, taskset or a CPU quota like 1.5`);
    const name = `quota ${cpus.toFixed(1)} CPU`;
    const cg = makeQuotaCgroup(cpus, { shares });
    if (cg.skip) return { name, skip: cg.skip };
    cgroups.push(cg);
    return { name: `${name} (cgroup v${cg.version})`, wrap: cg.wrap };
  });
}

/** With --shares, a condition without a quota runs in a cgroup of that weight and no quota. */
function weighted(condition) {
  if (shares === null) return condition;
  const cg = makeQuotaCgroup(null, { shares });
  if (cg.skip) return { name: condition.name, skip: `--shares: ${cg.skip}` };
  cgroups.push(cg);
  return { name: condition.name, wrap: (argv) => cg.wrap(condition.wrap(argv)) };
}

/** One spawnbench as its own process in the condition; its --json result. */
async function spawnbench(wrap, args) {
  const argv = wrap([process.execPath, BIN, ...args, '--json']);
  const child = spawn(argv[0], argv.slice(1), { env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
  current = child;
  const out = [];
  let err = '';
  child.stdout.on('data', (c) => out.push(c));
  child.stderr.setEncoding('utf8').on('data', (c) => { err = (err + c).slice(-2000); });
  const [code] = await once(child, 'exit');
  current = null;
  if (out.length === 0) throw new Error(`spawnbench ${args.join(' ')} exited ${code}: ${err.trim().split('\n').at(-1)}`);
  return JSON.parse(Buffer.concat(out).toString());
}

const loadAtStart = loadavg()[0];
const rows = [];
try {
  for (const condition of conditions()) {
    if (condition.skip) {
      rows.push({ name: condition.name, skip: condition.skip });
      continue;
    }
    process.stderr.write(`\n== ${condition.name}: run (default pool), run --pool-size 4, tune ${TUNE.join(' ')}\n`);
    const plain = await spawnbench(condition.wrap, ['run', ...RUN.slice(0, 2), '--duration', '2s', '--warmup', '500ms']);
    const four = await spawnbench(condition.wrap, ['run', ...RUN, '--pool-size', '4']);
    const tune = await spawnbench(condition.wrap, ['tune', ...TUNE]);
    rows.push({ name: condition.name, plain, four, tune, load: loadavg()[0] });
  }
} finally {
  cleanup();
}

const pad = (text, n) => String(text).padEnd(n);
const pct = (v) => (Number.isFinite(v) ? `${Math.round(v * 100)}%` : '–');
console.log(`\nbench:machines · ${opts.strategy}${shares ? ` · cpu.shares ${shares}` : ''} · load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`);
console.log(`${pad('condition', 28)}${pad('CPU as spawnbench says it', 44)}${pad('default', 9)}${pad('run(4)→', 9)}${pad('tune→', 7)}${pad('best', 6)}${pad('rps at run\'s size', 21)}${pad('throttled', 11)}quota named (run / tune)`);
for (const row of rows) {
  if (row.skip) {
    console.log(`${pad(row.name, 28)}skipped: ${row.skip}`);
    continue;
  }
  const runSize = row.four.recommendation?.size ?? null;
  const rec = row.tune.recommendation;
  const tuneSize = rec?.size ?? null;
  const check = runAgainstTune(runSize, rec?.sizes ?? []);
  const within = check?.within == null ? '–' : `${check.within ? 'yes' : 'no'} (${pct(check.share)} of best)`;
  const throttled = row.four.samples?.throttling?.[0]?.fraction;
  const quota = row.plain.machine.cpu?.source === 'quota';
  const runNames = row.four.recommendation?.reasons.some((r) => r.id === 'quota-limit' || (r.id === 'cpu-budget' && r.figures.source === 'quota'));
  const tuneText = rec?.sentences?.join(' ') ?? '';
  const tuneNames = /CPU quota|cgroup quota/.test(tuneText);
  const named = quota ? `${runNames ? 'yes' : 'no'} / ${tuneNames ? 'yes' : 'no'}` : '–';
  console.log(`${pad(row.name, 28)}${pad(cpuBudgetLabel(row.plain.machine), 44)}${pad(row.plain.plan.target.poolSize, 9)}${pad(runSize ?? '–', 9)}${pad(tuneSize ?? '–', 7)}${pad(rec?.best?.size ?? '–', 6)}${pad(within, 21)}${pad(pct(throttled), 11)}${named}`);
}
console.log('\nrun --pool-size 4, its recommendation:');
for (const row of rows.filter((r) => !r.skip)) {
  console.log(`- ${row.name}: ${Math.round(row.four.load.rps)} req/s`);
  for (const line of adviceParagraphs(row.four.recommendation, row.four.plan.target)) console.log(`  ${line}`);
}
console.log('\nrps per size (tune medians) and the limit sentence:');
for (const row of rows.filter((r) => !r.skip)) {
  const rec = row.tune.recommendation;
  const curve = (rec?.sizes ?? []).map((x) => `${x.size}: ${Math.round(x.rps.median)}`).join(', ');
  console.log(`- ${row.name} (load ${row.load.toFixed(1)}): ${curve}`);
  console.log(`  ${rec?.sentences?.at(-1) ?? '–'}`);
  if (/no limit reached/.test(rec?.sentences?.join(' ') ?? '') && rec?.sizes?.some((x) => x.size > rec.best.size)) console.log('  !! "no limit reached" with sizes past the best: a false sentence');
}
