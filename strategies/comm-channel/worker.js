// A comm-channel worker: connects to the channel the main process made for it
// (argv[2], as JSON), presents its secret (from its environment) as the first frame,
// says 'ready' over IPC, then runs each command it is sent
// (Bun.spawn, Deno.Command or child_process.spawn: lib/spawn-command.js) and writes
// every stdout chunk and the exit status to the channel as frames, batched per turn
// of the event loop.
import net from 'node:net';
import { Buffer } from 'node:buffer';
import { onParentGone } from '../lib/fork.js';
import { runCommand } from '../lib/spawn-command.js';
import { createFrameWriter, exitData, STDOUT, EXIT, SPAWN_ERROR } from './frames.js';
import { helloFrame, SECRET_ENV } from './channel-guard.js';

const address = JSON.parse(process.argv[2]); // JSON, because argv cannot carry a \0
// Taken out of the environment at once, so the commands this worker spawns never see it.
const secret = Buffer.from(process.env[SECRET_ENV] ?? '', 'hex');
delete process.env[SECRET_ENV];
const channel = net.connect(address);
const send = createFrameWriter(channel);
channel.once('connect', () => {
  channel.write(helloFrame(secret));
  process.send('ready');
});
// Without its channel a worker is useless: exit, and the pool replaces it.
channel.once('error', (error) => {
  process.stderr.write(`comm-channel worker: channel ${JSON.stringify(address.replace(/\0+$/, ''))}: ${error.message}\n`);
  process.exit(1);
});
channel.once('close', () => process.exit(1));

process.on('message', ([id, command, ...args]) => {
  runCommand(command, args, {
    onStdout: (chunk) => send(id, STDOUT, chunk),
    onExit: (code) => send(id, EXIT, exitData(code)),
    onError: (message) => send(id, SPAWN_ERROR, Buffer.from(message)),
  });
});
onParentGone();
