// Requests that failed because the server's commands could not start (its 500s say
// `spawn echo EAGAIN`, as Node words it): diagnose's "N% of requests failed" finding names
// the limit they ran into and how to raise it. The failed spawns were counted after the
// verdict was made, so the finding said "check --path, --method, --header and --body".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, waitFor } from '../helpers/harness.js';
import { processesMatching } from '../helpers/processes.js';

// A server whose every answer is a 500 carrying a failed spawn's words (the marker names its process).
const SERVER = "/* sbspawnlimit */ require('node:http').createServer((q, s) => { q.resume(); s.statusCode = 500; s.end('spawn echo EAGAIN\\n'); }).listen(process.env.PORT, '127.0.0.1')";

test('diagnose on a server whose spawns fail with EAGAIN: the failed-requests finding names the process limit and the fix', async () => {
  const { code, out, err } = await cli('diagnose', '--json', '-d', '500ms', '-w', '0', '-c', '2', '--', process.execPath, '-e', SERVER);
  assert.equal(code, 1, err);
  const result = JSON.parse(out);
  assert.equal(result.spawnFailures.failures[0].code, 'EAGAIN');
  const found = [result.diagnosis.verdict, ...result.diagnosis.findings].find((f) => f.id === 'errors' || f.id === 'no-responses');
  assert.equal(found.id, 'errors', JSON.stringify(result.diagnosis.verdict));
  assert.deepEqual([found.figures.spawnFailure.code, found.figures.spawnFailure.limit], ['EAGAIN', 'processes']);
  assert.match(found.next.join('\n'), /^raise the process limit the server runs under \(ulimit -u\), or start fewer commands at once/);
  await waitFor(() => processesMatching('sbspawnlimit').length === 0, { what: 'the server to end' });
});
