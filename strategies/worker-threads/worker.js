// A worker thread: runs each command it is posted with execFile and posts stdout back
// (a Uint8Array, copied by structured clone; pooled Buffers must not be transferred).
import { execFile } from 'node:child_process';
import { parentPort } from 'node:worker_threads';

/** Outputs above this are an error (500), not a memory problem; the large fixture is 163 KB. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

parentPort.on('message', ([id, command, ...args]) => {
  execFile(command, args, { encoding: 'buffer', maxBuffer: MAX_OUTPUT_BYTES }, (error, stdout) => {
    // A string code (ENOENT, EACCES, maxBuffer) means the command did not run.
    if (error && typeof error.code === 'string') parentPort.postMessage([id, 'error', error.message]);
    else parentPort.postMessage([id, 'ok', stdout]);
  });
});
parentPort.postMessage('ready');
