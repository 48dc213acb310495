// A send-advanced worker: spawns each command and forwards every stdout/stderr chunk
// and the exit status to the main process with process.send (advanced serialization).
import { spawn } from 'node:child_process';
import { onParentGone } from '../lib/fork.js';
import { STDOUT, STDERR, EXIT, SPAWN_ERROR } from './message-types.js';

process.on('message', ([id, command, ...args]) => {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let failed = false;
  child.once('error', (error) => {
    failed = true;
    process.send([id, SPAWN_ERROR, error.message]);
  });
  // No pipes when the start failed early (EMFILE, ENFILE: Node gives up before making them).
  child.stdout?.on('data', (chunk) => process.send([id, STDOUT, chunk]));
  child.stderr?.on('data', (chunk) => process.send([id, STDERR, chunk]));
  // 'close': the process exited and its pipes are drained, so EXIT follows the last chunk.
  child.once('close', (code, signal) => {
    if (!failed) process.send([id, EXIT, code ?? signal]);
  });
});
onParentGone();
process.send('ready');
