// The server's process tree as /proc shows it: a process's command line and environment are
// read as those of one program, even when it execs between the reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { programOf } from '../../src/runner/server-tree.js';

/** /proc of one pid that execs `echo hi` right after its environment is first read (a worker's child between fork and exec). */
function execingAfterEnviron() {
  let execed = false;
  return (file) => {
    if (file.endsWith('/cmdline')) return execed ? 'echo\0hi\0' : '/usr/bin/node\0worker.js\0';
    const env = execed ? 'PATH=/usr/bin\0' : 'PATH=/usr/bin\0NODE_CHANNEL_FD=3\0';
    execed = true;
    return env;
  };
}

test('a process that execs while it is read: its command line and environment are both the new program\'s, no channel variable, so no third worker', () => {
  const { cmdline, env } = programOf(4242, execingAfterEnviron());
  assert.equal(cmdline, 'echo\0hi\0');
  assert.equal(env.has('NODE_CHANNEL_FD'), false);
});

test('a process that does not exec: its command line and its environment, read once', () => {
  const reads = [];
  const { cmdline, env } = programOf(7, (file) => {
    reads.push(file);
    return file.endsWith('/cmdline') ? 'node\0app.js\0' : 'NODE_UNIQUE_ID=1\0';
  });
  assert.deepEqual([cmdline, env.get('NODE_UNIQUE_ID')], ['node\0app.js\0', '1']);
  assert.deepEqual(reads, ['/proc/7/cmdline', '/proc/7/environ', '/proc/7/cmdline']);
});
