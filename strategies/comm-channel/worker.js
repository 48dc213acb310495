// A comm-channel worker: connects to the channel the main process made for it
// (argv[2], as JSON), presents its secret (from its environment) as the first frame,
// says 'ready' over IPC, then spawns each command it is sent and writes
// every stdout/stderr chunk and the exit status to the channel as frames.
import net from 'node:net';
import { spawn } from 'node:child_process';
import { onParentGone } from '../lib/fork.js';
import { writeFrame, exitData, STDOUT, STDERR, EXIT, SPAWN_ERROR } from './frames.js';
import { helloFrame, SECRET_ENV } from './channel-guard.js';

const address = JSON.parse(process.argv[2]); // JSON, because argv cannot carry a \0
// Taken out of the environment at once, so the commands this worker spawns never see it.
const secret = Buffer.from(process.env[SECRET_ENV] ?? '', 'hex');
delete process.env[SECRET_ENV];
const channel = net.connect(address);
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
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let failed = false;
  child.once('error', (error) => {
    failed = true;
    writeFrame(channel, id, SPAWN_ERROR, Buffer.from(error.message));
  });
  child.stdout.on('data', (chunk) => writeFrame(channel, id, STDOUT, chunk));
  child.stderr.on('data', (chunk) => writeFrame(channel, id, STDERR, chunk));
  // 'close': exited and both pipes drained, so EXIT is the request's last frame.
  child.once('close', (code) => {
    if (!failed) writeFrame(channel, id, EXIT, exitData(code));
  });
});
onParentGone();
