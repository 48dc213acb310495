// A SIGTERM to tune while a step's server is stopping (a server that ignores SIGTERM, so
// its stop waits out the grace): the step's measured phase had completed, so the step is
// complete, recommended from, and the sentences agree with the note (#36 medium 11).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { startSpawnbench, processTree, stillAlive } from '../helpers/spawnbench-process.js';
import { waitFor } from '../helpers/harness.js';

const IGNORES_TERM = fileURLToPath(new URL('../../fixtures/servers/ignores-sigterm.js', import.meta.url));

test('SIGTERM while a tune step\'s server is stopping: the step is complete, and the words agree', async (t) => {
  const sb = startSpawnbench(['tune', '--sizes', '1,2', '--size-env', 'WORKERS', '--repeat', '1', '-d', '1s', '-w', '0s', '-c', '2', '--json', '--', process.execPath, IGNORES_TERM]);
  t.after(sb.removeLog);
  const tree = [];
  await waitFor(() => {
    tree.push(...processTree(sb.child.pid));
    return sb.err().includes('stopping…');
  }, { timeoutMs: 60_000, what: () => `the first step to stop; stderr: ${sb.err()}` });
  sb.child.kill('SIGTERM');
  const { code, out, err } = await sb.exited;
  assert.equal(code, 143, err);
  const result = JSON.parse(out);
  assert.equal(result.stoppedEarly, true);
  assert.equal(result.steps.length, 1, 'no step after the stop');
  assert.equal(result.steps[0].partial, false, 'its measured phase had completed');
  assert.ok(result.steps[0].requests > 0);
  assert.equal(result.recommendation.size, 1);
  const words = [...result.recommendation.sentences, ...result.notes].join(' ');
  assert.doesNotMatch(words, /Nothing was measured to completion/);
  assert.match(words, /the recommendation covers what was measured/);
  const gone = await waitFor(() => stillAlive(tree).length === 0, { timeoutMs: 10_000 });
  assert.ok(gone, `still running: ${JSON.stringify(stillAlive(tree))}`);
});
