// A fork-pool worker: runs each command it is sent (Bun.spawn, Deno.Command or
// child_process.spawn: lib/spawn-command.js) and sends back the whole stdout. It is a
// small process, so each of its spawns forks little memory.
import { Buffer } from 'node:buffer';
import { onParentGone } from '../lib/fork.js';
import { collectOutput } from '../lib/spawn-command.js';

/** Outputs above this are an error (500), not a memory problem; the large fixture is 163 KB. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

process.on('message', async ([id, command, ...args]) => {
  const result = await collectOutput(command, args, MAX_OUTPUT_BYTES);
  // Like baseline, a command that ran answers its stdout whatever its exit code;
  // latin1 keeps every byte through JSON IPC.
  if ('error' in result) process.send([id, 'error', result.error]);
  else process.send([id, 'ok', Buffer.from(result.stdout.buffer, result.stdout.byteOffset, result.stdout.length).toString('latin1')]);
});
onParentGone();
process.send('ready');
