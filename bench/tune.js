#!/usr/bin/env node
/**
 * bench:tune: the exhaustive sweep and `--search adaptive` on fork-pool, one after
 * the other in one run, with the same options. Prints the steps each measured,
 * the saving, and whether both recommend the same pool size (target: ≥ 40% fewer
 * steps, same size).
 *
 *   npm run bench:tune [-- extra tune options, e.g. --repeat 3 --duration 3s]
 *
 * Defaults keep it near three minutes on a 2-vCPU machine: every default size,
 * all four policies, two repeats of 2 s after 500 ms of warm-up.
 */
import { PassThrough } from 'node:stream';
import { runCli } from '../src/cli.js';

const DEFAULTS = ['--strategy', 'fork-pool', '--repeat', '2', '--duration', '2s', '--warmup', '500ms'];
/** The share of steps adaptive search must save to be worth its extra logic: 40% fewer steps than exhaustive. */
const TARGET_SAVING = 0.4;

async function tune(mode, extra) {
  const chunks = [];
  const stdout = new PassThrough();
  stdout.on('data', (chunk) => chunks.push(chunk));
  const io = { stdout, stderr: process.stderr, stdin: new PassThrough(), env: { ...process.env, CI: 'true' } };
  const started = Date.now();
  const code = await runCli(['tune', ...DEFAULTS, ...extra, '--search', mode, '--json'], io);
  if (code !== 0 && chunks.length === 0) throw new Error(`tune --search ${mode} failed with exit code ${code}`);
  return { result: JSON.parse(Buffer.concat(chunks).toString()), seconds: (Date.now() - started) / 1000 };
}

const extra = process.argv.slice(2);
const runs = {};
for (const mode of ['exhaustive', 'adaptive']) {
  process.stderr.write(`\n== tune --search ${mode} ${[...DEFAULTS, ...extra].join(' ')}\n`);
  runs[mode] = await tune(mode, extra);
}

const line = (mode) => {
  const { result, seconds } = runs[mode];
  const rec = result.recommendation;
  const best = rec.best ? `${rec.best.size} workers, ${Math.round(rec.best.rps.median)} rps (median over its policies)` : '–';
  return `${mode.padEnd(10)}  ${String(result.search.measuredSteps).padStart(5)}  ${`${seconds.toFixed(0)} s`.padStart(6)}  ${`${rec.size ?? '–'} / ${rec.policy ?? '–'}`.padEnd(22)}  ${best}`;
};
const ex = runs.exhaustive.result;
const ad = runs.adaptive.result;
const saving = 1 - ad.search.measuredSteps / ex.search.measuredSteps;
const same = ex.recommendation.size === ad.recommendation.size;
console.log('\nbench:tune · fork-pool · steps measured by each search, same options');
console.log(`${'search'.padEnd(10)}  steps    time  ${'recommended size/policy'.padEnd(22)}  best size`);
console.log(line('exhaustive'));
console.log(line('adaptive'));
console.log(`\nadaptive/exhaustive steps: ${(ad.search.measuredSteps / ex.search.measuredSteps).toFixed(2)} (${Math.round(saving * 100)}% fewer; target ≥ ${TARGET_SAVING * 100}%) ${saving >= TARGET_SAVING ? 'MET' : 'NOT MET'}`);
console.log(`time ratio: ${(runs.adaptive.seconds / runs.exhaustive.seconds).toFixed(2)}`);
console.log(`same recommended size: ${same ? 'yes' : 'no'} (exhaustive ${ex.recommendation.size}, adaptive ${ad.recommendation.size})`);
if (!same) {
  const ties = ex.recommendation.ties.sizes;
  console.log(`  exhaustive saw no meaningful difference between ${ex.recommendation.size} and ${ties.length ? ties.join(', ') : 'no other size'}`);
}
