// A fork-pool worker: runs each command it is sent with execFile and sends back the
// whole stdout. It is a small process, so each of its spawns forks little memory.
import { execFile } from 'node:child_process';
import { onParentGone } from '../lib/fork.js';

/** Outputs above this are an error (500), not a memory problem; the large fixture is 163 KB. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

process.on('message', ([id, command, ...args]) => {
  execFile(command, args, { encoding: 'latin1', maxBuffer: MAX_OUTPUT_BYTES }, (error, stdout) => {
    // A string code (ENOENT, EACCES, maxBuffer) means the command did not run; a
    // numeric one is its exit status, and like baseline we still answer its stdout.
    if (error && typeof error.code === 'string') process.send([id, 'error', error.message]);
    else process.send([id, 'ok', stdout]);
  });
});
onParentGone();
process.send('ready');
