// The published JSON Schema of result documents (schema/result.schema.json): what
// --json and --out write conforms to it, checked with ajv as CI users would, and
// `report` refuses a file that does not, naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { run } from 'spawnbench';
import { RESULT_SCHEMA_URL, resultSchemaErrors } from '../../src/report/result-shape.js';

const Ajv = createRequire(import.meta.url)('ajv');
const validate = new Ajv().compile(JSON.parse(readFileSync(RESULT_SCHEMA_URL, 'utf8')));
const fixture = (name) => JSON.parse(readFileSync(new URL(`../gates/fixtures/${name}.json`, import.meta.url), 'utf8'));

test('a real run --json document conforms to the schema (ajv, strict mode, as a CI user would check it)', async () => {
  const result = await run({ strategy: 'baseline', duration: '1s', warmup: '200ms', connections: 2 });
  assert.ok(validate(result), JSON.stringify(validate.errors));
  assert.deepEqual(resultSchemaErrors(result), []);
  // Every metric of the table, measured by the engine (src/analysis/metrics.js).
  assert.deepEqual(result.metrics.map((m) => m.id), ['rps', 'p50', 'p90', 'p99', 'p999', 'max', 'errors', 'blocked-in-spawn', 'elu', 'busy']);
  assert.deepEqual(result.metrics[0], { id: 'rps', value: result.load.rps, unit: 'rps', better: 'higher', format: 'rps' });
});

test('saved run, diagnose and compare results conform; so does one with --assert outcomes and --against', () => {
  for (const name of ['run', 'diagnose', 'compare']) assert.ok(validate(fixture(name)), `${name}: ${JSON.stringify(validate.errors)}`);
  const gated = {
    ...fixture('run'),
    assertions: [{ id: 'assert-fail', expr: 'p99<1ms', metric: 'p99', op: '<', limit: 1, unit: 'ms', measured: 12, where: null, process: null, pass: false }],
    against: { id: 'against', file: 'old.json', deltas: [], summary: { changes: 0, better: 0, worse: 0 } },
  };
  assert.ok(validate(gated), JSON.stringify(validate.errors));
});

test('what does not conform is said by field, in the words report prints', () => {
  const run = fixture('run');
  assert.deepEqual(resultSchemaErrors({ ...run, load: { ...run.load, requests: 'many' } }), ['its "load.requests" is not a number']);
  assert.deepEqual(resultSchemaErrors({ ...run, notes: 'none' }), ['its "notes" is not a list']);
  const { machine, ...noMachine } = run;
  assert.deepEqual(resultSchemaErrors(noMachine), ['its "machine" is not an object']);
  assert.deepEqual(resultSchemaErrors({ ...run, assertions: [{ id: 'assert-pass' }] })[0], 'its "assertions.0.expr" is not text');
  assert.equal(validate({ ...run, kind: 'benchmark' }), false);
});
