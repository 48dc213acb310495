// A strategy that breaks the output protocol is the strategy's fault: exit 1, a message
// naming the strategy and quoting the line. It used to be an internal error ("Cannot read
// properties of null"), a usage error blaming --url (exit 2), or "join is not a function".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli.js';
import { fakeIo } from '../helpers/io.js';
import { trackedGroupCount } from '../../src/runner/cleanup.js';

const FIXTURE_STRATEGIES = fileURLToPath(new URL('../../fixtures/strategies/', import.meta.url));
const BAD_META = fileURLToPath(new URL('../../fixtures/bad-strategies/', import.meta.url));
// An open loop at a low rate: the run ends at the strategy's first bad line (250 ms after ready), whatever the load.
const QUICK = ['-s', 'bad-protocol', '-d', '1s', '-w', '0s', '-c', '2', '-r', '20', '--no-dashboard'];
const saved = {};
before(() => {
  for (const k of ['SPAWNBENCH_STRATEGY_PATH', 'BAD_PROTOCOL_LINE', 'BAD_PROTOCOL_WHEN']) saved[k] = process.env[k];
});
after(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

// [when, line, what the message says]
const CASES = [
  ['workers', '{"spawnbench":"workers","workers":[null]}', /its workers line lists null, not a worker object/],
  ['workers', '{"spawnbench":"workers","workers":"all"}', /"workers" must be a list, not "all"/],
  ['workers', '{"spawnbench":"workers","workers":[{"id":"a"}]}', /has "id" "a", not a whole number/],
  ['workers', '{"spawnbench":"workers","workers":[{"id":0,"inFlight":-3}]}', /worker 0 in its workers line has "inFlight" -3, not a count/],
  ['ready', '{"spawnbench":"ready","port":"abc"}', /ready line's "port" must be a whole number from 1 to 65535, not "abc"/],
  ['ready', '{"spawnbench":"ready","port":70000}', /not 70000/],
  ['ready', '{"spawnbench":"ready","port":-5}', /not -5/],
  ['ready', '{"spawnbench":"ready"}', /not undefined/],
];

for (const [when, line, pattern] of CASES) {
  test(`a strategy whose ${when} line is ${line}: its fault, exit 1, the line quoted`, async () => {
    process.env.SPAWNBENCH_STRATEGY_PATH = FIXTURE_STRATEGIES;
    process.env.BAD_PROTOCOL_LINE = line;
    process.env.BAD_PROTOCOL_WHEN = when;
    const io = fakeIo();
    const code = await runCli(QUICK, io);
    const text = `${io.out()}${io.err()}`;
    assert.equal(code, 1, text);
    assert.match(text, /strategy 'bad-protocol' broke the protocol: /);
    assert.match(text, pattern);
    assert.ok(text.includes(`the line was: ${line}`), text);
    assert.doesNotMatch(text, /internal error|--url/);
    assert.equal(trackedGroupCount(), 0);
  });
}

test('a strategy.json with "runtimes": "deno" (a string): one line naming the strategy and the field', async () => {
  process.env.SPAWNBENCH_STRATEGY_PATH = BAD_META;
  const io = fakeIo();
  const code = await runCli(['list'], io);
  assert.equal(code, 1);
  assert.match(io.err(), /^spawnbench: strategy 'runtimes-string': .*strategy\.json: "runtimes" must be a list of strings, like \["node"\], not "deno"\n$/);
});
