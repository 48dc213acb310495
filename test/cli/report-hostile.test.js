// `spawnbench report` on what is not a result file: it read without limit (/dev/zero: 3.5 GB
// in 10 s, never ending) and a file with spawnbench's header but another body printed raw
// TypeErrors. Now: at most MAX_RESULT_FILE_BYTES are read, the shape is checked, and any
// failure is one line, exit 2 (bad input, as the same file given to --against; it was 1).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli.js';
import { fakeIo } from '../helpers/io.js';
import { MAX_RESULT_FILE_BYTES } from '../../src/base/thresholds.js';
import { createTune } from '../../src/tune/tune-engine.js';
import { fakeRuns, MACHINE, tuneBase } from '../tune/fake-run.js';

let dir;
before(() => { dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-test-report-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

const header = { tool: 'spawnbench', format: 1 };

/** A tune result as tune writes it (a fake engine, no processes). */
async function savedTune() {
  const base = tuneBase({ connections: 4, durationMs: 1000, warmupMs: 0 });
  const plan = { command: 'tune', base, sizes: [1, 2, 3], policies: ['round-robin'], repeat: 1, search: 'full', output: base.output };
  const rps = { 1: 600, 2: 1100, 3: 1500 };
  const result = await createTune(plan, { createRun: fakeRuns((size) => ({ rps: rps[size] })).createRun, readMachine: async () => MACHINE }).start();
  return JSON.parse(JSON.stringify(result));
}
const run = { ...header, kind: 'run', plan: { target: { kind: 'url' }, load: {} }, machine: {}, load: { requests: 1, errors: {} }, notes: [], failures: [] };

// [name, file content or a path, message]
const CASES = [
  ['/dev/zero', { path: '/dev/zero' }, new RegExp(`^spawnbench: /dev/zero is larger than ${MAX_RESULT_FILE_BYTES / 1024 / 1024} MB, more than any result file`)],
  ['a run without load', { ...run, load: undefined }, /has the header of a spawnbench run result but its "load" is not an object/],
  ['a run whose requests is text', { ...run, load: { requests: 'many', errors: {} } }, /its "load\.requests" is not a number/],
  ['a run with plan.target null', { ...run, plan: { target: null, load: {} } }, /its "plan\.target" is not an object/],
  ['a run with machine null', { ...run, machine: null }, /its "machine" is not an object/],
  ['a diagnose without a diagnosis', { ...run, kind: 'diagnose' }, /its "diagnosis" is not an object/],
  ['a tune with plan a list', { ...header, kind: 'tune', plan: [] }, /its "plan" is not an object/],
  // Passes the field checks, fails inside the formatter: still one line about the file.
  ['a run whose workload is null', { ...run, plan: { ...run.plan, target: { kind: 'strategy' }, workload: null } }, /has the header of a spawnbench run result but not a shape the report can read \(the report stopped at its "plan\.workload": null\); give a file written by --out, unedited\n$/],
  // A tune result's plan was not checked: its sizes made null printed an internal TypeError.
  ['a tune whose plan.sizes is null', { ...header, kind: 'tune', plan: { base: { target: {}, load: {} }, sizes: null, policies: [] } }, /has the header of a spawnbench tune result but its "plan\.sizes" is not a list; give a file written by --out, unedited\n$/],
  ['a tune whose usl.sigma is text', 'TUNE', /has the header of a spawnbench tune result but not a shape the report can read \(the report stopped at its "usl\.sigma": text\); give a file written by --out, unedited\n$/],
];

for (const [name, content, pattern] of CASES) {
  test(`report of ${name}: one line, exit 2, at once`, async () => {
    let file = content.path;
    if (content === 'TUNE') {
      file = path.join(dir, 'tune-usl.json');
      writeFileSync(file, JSON.stringify({ ...await savedTune(), usl: { sigma: 'x', kappa: 0.01, r2: 0.9 } }));
    } else if (!file) {
      file = path.join(dir, `${name.replace(/\W+/g, '-')}.json`);
      writeFileSync(file, JSON.stringify(content));
    }
    const io = fakeIo();
    const started = Date.now();
    const code = await runCli(['report', file], io);
    const err = io.err();
    assert.equal(code, 2, err);
    assert.match(err, pattern);
    assert.match(err, /^[^\n]*\n$/, 'one line');
    assert.doesNotMatch(err, /\n\s+at /);
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });
}

// A file edited to nest 10,000 deep (JSON.parse takes it; JSON.stringify, behind report --json,
// ran out of stack: "Maximum call stack size exceeded", exit 1): refused when read, in every view.
test('report of a file nested 10,000 deep: one line naming the depth, exit 2, with --json too', async () => {
  const file = path.join(dir, 'deep.json');
  const body = JSON.stringify(run).slice(0, -1);
  writeFileSync(file, `${body},"extra":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
  for (const args of [['report', file, '--json'], ['report', file], ['report', path.join(dir, 'ok.json'), '--against', file]]) {
    if (args.includes('--against')) writeFileSync(args[1], JSON.stringify(run));
    const io = fakeIo();
    const code = await runCli(args, io);
    assert.equal(code, 2, `${args.join(' ')}: ${io.err()}`);
    assert.match(io.err(), /^spawnbench: (--against )?.*deep\.json nests 10001 levels deep, deeper than any spawnbench result \(at most 100\); give a file written by --out, unedited\n$/);
    assert.equal(io.out(), '');
  }
});

test('nestingDepth counts brackets outside strings only', async () => {
  const { nestingDepth } = await import('../../src/report/result-shape.js');
  assert.equal(nestingDepth('{"a":[1,{"b":"[[[{{{\\\\"}]}'), 3);
  assert.equal(nestingDepth('{"a":"\\"[["}'), 1);
  assert.equal(nestingDepth('1'), 0);
});
