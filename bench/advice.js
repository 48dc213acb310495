#!/usr/bin/env node
/**
 * bench:advice: does one run's recommendation agree with a sweep? For fork-pool
 * and comm-channel, in one session: `run --pool-size 1`, `run --pool-size 4` and
 * `tune --sizes 1,2,3,4`, the three answers side by side, and whether tune's
 * throughput at each run's size is within 5% of tune's best (the target;
 * src/analysis/run-vs-tune.js: a size is judged by what it serves, not by how
 * many sizes it is from tune's, which means nothing on a large machine).
 *
 *   npm run bench:advice [-- --strategies fork-pool --repeat 3]
 *
 * Runs measure 5 s after 1 s of warm-up (long enough for a recommendation on a
 * busy machine); tune steps 2 s after 500 ms, three repeats (the median of three
 * is what keeps one disturbed step from deciding tune's answer), round-robin
 * only: about 3.5 minutes in all on a 2-vCPU machine. Tune's spread per size and
 * the sizes it could not tell apart are printed too: on a machine other programs
 * load, they say how much its own answer is worth.
 */
import { PassThrough } from 'node:stream';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { runCli } from '../src/cli.js';
import { runAgainstTune } from '../src/analysis/run-vs-tune.js';

const { values: opts } = parseArgs({
  options: {
    strategies: { type: 'string', default: 'fork-pool,comm-channel' },
    repeat: { type: 'string', default: '3' },
  },
});
const RUN = ['--duration', '5s', '--warmup', '1s'];
const TUNE = ['--sizes', '1,2,3,4', '--balance-policies', 'round-robin', '--repeat', opts.repeat, '--duration', '2s', '--warmup', '500ms'];
/** Step time tune was given (2 s + 500 ms), to work out the per-step overhead the confirm estimate assumes. */
const TUNE_STEP_MS = 2500;

async function spawnbench(args) {
  const chunks = [];
  const stdout = new PassThrough();
  stdout.on('data', (chunk) => chunks.push(chunk));
  const io = { stdout, stderr: new PassThrough(), stdin: new PassThrough(), env: { ...process.env, CI: 'true' } };
  const started = Date.now();
  const code = await runCli([...args, '--json'], io);
  if (chunks.length === 0) throw new Error(`spawnbench ${args.join(' ')} failed with exit code ${code}`);
  return { result: JSON.parse(Buffer.concat(chunks).toString()), ms: Date.now() - started };
}

const loadAtStart = loadavg()[0];
const rows = [];
for (const strategy of opts.strategies.split(',')) {
  process.stderr.write(`\n== ${strategy}: run --pool-size 1, run --pool-size 4, tune ${TUNE.join(' ')}\n`);
  const one = await spawnbench(['run', '--strategy', strategy, '--pool-size', '1', ...RUN]);
  const four = await spawnbench(['run', '--strategy', strategy, '--pool-size', '4', ...RUN]);
  const tune = await spawnbench(['tune', '--strategy', strategy, ...TUNE]);
  rows.push({ strategy, one, four, tune });
}

const pad = (text, n) => String(text).padEnd(n);
console.log(`\nbench:advice · ${rows[0]?.tune.result.machine.cores} cores · load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`);
console.log(`${pad('strategy', 13)}${pad('answer from', 22)}${pad('size', 6)}${pad('policy', 15)}${pad('confidence', 12)}${pad('rps', 7)}tune's rps at that size, of its best`);
let met = 0;
let total = 0;
for (const { strategy, one, four, tune } of rows) {
  const best = tune.result.recommendation;
  for (const [label, { result }] of [['run --pool-size 1', one], ['run --pool-size 4', four]]) {
    const rec = result.recommendation;
    const check = runAgainstTune(rec.size, best.sizes ?? []);
    const within = check?.within === true;
    total += 1;
    met += within ? 1 : 0;
    const share = check?.share == null ? 'not measured by tune' : `${Math.round(check.share * 100)}%${check.interpolated ? ' (between measured sizes)' : ''}`;
    console.log(`${pad(strategy, 13)}${pad(label, 22)}${pad(rec.size ?? '–', 6)}${pad(rec.policy ?? '–', 15)}${pad(rec.confidence ?? '–', 12)}${pad(Math.round(result.load.rps), 7)}${within ? `yes, ${share}` : `NO, ${share} (${rec.reasons.map((r) => r.id).join(', ')})`}`);
  }
  const perSize = (best.sizes ?? []).map((s) => `${s.size}: ${Math.round(s.rps.median)} (${Math.round(s.rps.min)}–${Math.round(s.rps.max)})`).join(', ');
  console.log(`${pad(strategy, 13)}${pad('tune --sizes 1,2,3,4', 22)}${pad(best.size ?? '–', 6)}${pad(best.policy ?? '–', 15)}${pad('', 12)}rps per size, median (min–max):`);
  console.log(`${pad('', 13)}${perSize}`);
  const ties = best.ties?.sizes ?? [];
  console.log(`${pad('', 13)}sizes tune could not tell from ${best.size} (repeats overlap): ${ties.length ? ties.join(', ') : 'none'}`);
  const steps = tune.result.steps.length;
  console.log(`${pad('', 13)}tune took ${(tune.ms / 1000).toFixed(0)} s for ${steps} steps: ${((tune.ms / steps - TUNE_STEP_MS) / 1000).toFixed(1)} s per step beyond warm-up and measurement`);
}
console.log(`\nrun sizes whose throughput in tune is within 5% of tune's best: ${met}/${total} ${met === total ? 'MET' : 'NOT MET'}`);
