// A fork-pool worker: runs each command it is sent (Bun.spawn, Deno.Command or
// child_process.spawn: lib/spawn-command.js) and sends back the whole stdout. It is a
// small process, so each of its spawns forks little memory.
import { Buffer } from 'node:buffer';
import { onParentGone } from '../lib/fork.js';
import { runCommand } from '../lib/spawn-command.js';

/** Outputs above this are an error (500), not a memory problem; the large fixture is 163 KB. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

process.on('message', ([id, command, ...args]) => {
  const chunks = [];
  let bytes = 0;
  runCommand(command, args, {
    onStdout(chunk) {
      bytes += chunk.length;
      if (bytes <= MAX_OUTPUT_BYTES) chunks.push(chunk);
    },
    // Like baseline, a command that ran answers its stdout whatever its exit code;
    // latin1 keeps every byte through JSON IPC.
    onExit() {
      if (bytes > MAX_OUTPUT_BYTES) process.send([id, 'error', `stdout maxBuffer length exceeded (${bytes} > ${MAX_OUTPUT_BYTES} bytes)`]);
      else process.send([id, 'ok', Buffer.concat(chunks).toString('latin1')]);
    },
    onError: (message) => process.send([id, 'error', message]),
  });
});
onParentGone();
process.send('ready');
