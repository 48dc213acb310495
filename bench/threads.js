#!/usr/bin/env node
/**
 * bench:threads: the seed's worker_threads sweep (shared/BACKGROUND.md: SHA-256 of
 * 4,096 × 64 KB messages) through piscina (default options but its size) and
 * through a hand-made pool (`new Worker(code, { eval: true })`, round-robin) at
 * 1, cores, 2 × cores and 4 × cores threads, each in a fresh process that
 * spawnbench's probe and sampler watch as they watch a server: the batch's wall
 * time, each thread's busy share (its CPU time where ELU counted waiting in
 * Atomics.wait) and ELU, the main thread's ELU, the cores; then what spawnbench
 * says of each (the diagnose verdict on those figures) and which size it would
 * keep (the smallest within 5% of the best time, tune's rule).
 *
 *   npm run bench:threads [-- --messages 4096 --rounds 3 --repeat 1 --sizes 1,2,4,8]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import { openProbeChannel } from '../src/probe/channel.js';
import { startSampler } from '../src/sample/index.js';
import { readMachine } from '../src/machine/machine.js';
import { budgetWorkers, ownCpuBudget } from '../src/machine/cpu-budget.js';
import { buildEvidence } from '../src/diagnose/evidence.js';
import { diagnoseEvidence } from '../src/analysis/verdicts.js';
import { wordDiagnosis } from '../src/report/diagnose-words.js';
import { median } from '../src/analysis/stats.js';
import { RPS_BAND } from '../src/base/thresholds.js';

const cores = budgetWorkers(ownCpuBudget());
const { values: opts } = parseArgs({
  options: {
    messages: { type: 'string', default: '4096' },
    rounds: { type: 'string', default: '3' },
    repeat: { type: 'string', default: '1' },
    sizes: { type: 'string', default: [...new Set([1, cores, 2 * cores, 4 * cores])].join(',') },
    pools: { type: 'string', default: 'piscina,hand' },
  },
});
const MESSAGES = Number(opts.messages);
const ROUNDS = Number(opts.rounds);
const SIZES = opts.sizes.split(',').map(Number);
const POOLS = opts.pools.split(',');
const SAMPLE_MS = 100;
const JOB = new URL('./threads-job.js', import.meta.url).pathname;

/** Reads the job's JSON lines; resolves each awaited key's line. */
function jobLines(child) {
  const waiting = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    for (const [key, resolve] of waiting) if (message[key]) resolve(message);
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the job exited with code ${code} before it was done`);
  });
  return (key) => Promise.race([new Promise((resolve) => waiting.set(key, resolve)), exited]);
}

async function measure(kind, size, machine) {
  const channel = await openProbeChannel({ intervalMs: SAMPLE_MS });
  const child = spawn(process.execPath, [JOB, kind, String(size), String(MESSAGES), String(ROUNDS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...channel.env },
  });
  try {
    const next = jobLines(child);
    await next('ready');
    const sampler = startSampler({ rootPid: child.pid, channel, intervalMs: SAMPLE_MS });
    // Every thread is seen once its parent reported it; measure from then on.
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 3000);
      sampler.on('sample', (s) => {
        if (s.processes.filter((p) => p.role === 'thread' && Number.isFinite(p.cpuPct)).length >= size) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    sampler.reset();
    child.stdin.write('go\n');
    const { ms } = await next('done');
    const samples = await sampler.stop();
    const batchMs = median(ms);
    const result = {
      kind: 'diagnose',
      plan: { target: { kind: 'command' }, load: { threads: 1 } },
      machine,
      load: { mode: 'closed', rps: MESSAGES / (batchMs / 1000), requests: MESSAGES * ROUNDS, errors: { total: 0 }, latency: {} },
      samples,
    };
    const diagnosis = wordDiagnosis(diagnoseEvidence(buildEvidence(result)));
    const threads = samples.processes.filter((p) => p.role === 'thread').map((p) => p.summary);
    const main = samples.processes.find((p) => p.role === 'main')?.summary ?? {};
    return {
      kind, size, ms, batchMs,
      threadsSeen: threads.length,
      busy: mean(threads.map((t) => t.busy)),
      busyFrom: [...new Set(threads.map((t) => t.busyFrom).filter(Boolean))].join('+') || '–',
      elu: mean(threads.map((t) => t.elu)),
      threadCpuPct: mean(threads.map((t) => t.cpuPct)),
      mainElu: main.elu ?? null,
      coresPct: mean(samples.system.cpus),
      verdict: diagnosis.verdict,
      capacity: diagnosis.capacity,
    };
  } finally {
    child.stdin.end();
    await once(child, 'exit').catch(() => {});
    await channel.close();
  }
}

function mean(values) {
  const finite = values.filter(Number.isFinite);
  return finite.length ? finite.reduce((a, b) => a + b, 0) / finite.length : null;
}

const machine = await readMachine();
const loadAtStart = loadavg()[0];
const rows = [];
for (let r = 0; r < Number(opts.repeat); r += 1) {
  for (const size of SIZES) {
    for (const kind of POOLS) {
      process.stderr.write(`${kind} × ${size} threads (repeat ${r + 1})…\n`);
      rows.push(await measure(kind, size, machine));
    }
  }
}

const pct = (v) => (Number.isFinite(v) ? `${Math.round(v * 100)}%` : '–');
const fixed = (v) => (Number.isFinite(v) ? v.toFixed(2) : '–');
const int = (v) => Math.round(v).toLocaleString('en-US');
const SAYS = { 'pool-saturated': 'pool at capacity', 'handoff-limited': 'main hand-off is the limit', healthy: 'healthy' };
console.log(`\nbench:threads · SHA-256 of ${int(MESSAGES)} × 64 KB per batch, median of ${ROUNDS} batches per pool · ${cores} CPUs (${machine.cpuModel}) · Node ${process.versions.node} · load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`);
const header = ['pool', 'threads', 'batch ms (min–max)', 'vs 1', 'busy', 'by', 'thread ELU', 'thread CPU', 'main ELU', 'cores', 'spawnbench says'];
const byKind = (kind) => rows.filter((x) => x.kind === kind);
const table = rows.map((x) => {
  const one = median(byKind(x.kind).filter((y) => y.size === 1).map((y) => y.batchMs));
  return [
    x.kind === 'hand' ? 'hand-made' : x.kind,
    String(x.size),
    `${int(x.batchMs)} (${int(Math.min(...x.ms))}–${int(Math.max(...x.ms))})`,
    one ? `${(one / x.batchMs).toFixed(2)}×` : '–',
    pct(x.busy),
    x.busyFrom,
    fixed(x.elu),
    Number.isFinite(x.threadCpuPct) ? `${Math.round(x.threadCpuPct)}%` : '–',
    fixed(x.mainElu),
    pct(x.coresPct / 100),
    `${SAYS[x.verdict.id] ?? x.verdict.id}; capacity ${x.capacity.capacityRps ? `${int(x.capacity.capacityRps)} msg/s (${x.capacity.limit})` : '–'}`,
  ];
});
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
const line = (r) => r.map((v, i) => (i === 0 || i === 5 || i === 10 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ').trimEnd();
console.log(line(header));
for (const r of table) console.log(line(r));
for (const kind of POOLS) {
  const sizes = SIZES.map((size) => ({ size, ms: median(byKind(kind).filter((x) => x.size === size).map((x) => x.batchMs)) }));
  const best = Math.min(...sizes.map((s) => s.ms));
  const keep = sizes.find((s) => s.ms <= best * (1 + RPS_BAND));
  console.log(`${kind === 'hand' ? 'hand-made' : kind}: fastest ${int(best)} ms; spawnbench keeps ${keep.size} thread${keep.size === 1 ? '' : 's'} (the smallest within ${RPS_BAND * 100}% of the fastest)`);
}
console.log('busy: a thread\'s ELU, or its CPU time (on a CPU or waiting for one) where its ELU counted waiting for work (Atomics.wait) as busy; "by" says which.');
