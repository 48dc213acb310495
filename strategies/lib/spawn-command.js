/**
 * Runs one command the cheapest way the current runtime offers, streaming its
 * stdout: `Bun.spawn` on Bun, `Deno.Command` on Deno, `child_process.spawn` on
 * Node. Bun's and Deno's `node:child_process` are compatibility layers built on
 * those same APIs, with a ChildProcess, two Socket-like streams and their events
 * on top. Measured on the project's 2-core machine (600 × `echo hi`, 4 at a time,
 * CPU of the spawning process per spawn): Bun 0.38–0.45 ms through
 * node:child_process, 0.18 ms through Bun.spawn; Deno 0.58–0.60 ms vs 0.37 ms
 * through Deno.Command; Node 0.70–0.78 ms. The commands' own CPU was the same
 * (~1.06 ms each on Bun and Deno, which spawn without copying the process).
 * Where an FFI loads (`node:ffi` on Node ≥ 26.1, else the koffi package), Node spawns with
 * glibc's posix_spawn instead of libuv's fork (posix-spawn.js): 0.84 → 0.27 ms per spawn,
 * and 1.09 → 0.79 ms for each command, whose start no longer tears down a copy of the
 * worker's memory.
 *
 * stderr is not read: the body is stdout only, as in baseline, so a pipe for
 * stderr would be one more file descriptor and stream per request for nothing.
 */
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { loadPosixSpawn } from './posix-spawn.js';

/** Bun's and Deno's own APIs, where this runs on them (undefined on Node, whose types know neither). */
const { Bun, Deno } = /** @type {{ Bun?: any, Deno?: any }} */ (globalThis);

/**
 * @typedef {object} CommandHandlers
 * @property {(chunk: Uint8Array) => void} onStdout each chunk of stdout, in order
 * @property {(code: number) => void} onExit after the last chunk: the exit code (-1 when killed by a signal)
 * @property {(message: string) => void} onError the command could not start ("spawn <command> ENOENT", as Node words it)
 */

const loaded = Bun || Deno ? null : await loadPosixSpawn();
const posixSpawn = loaded && 'run' in loaded ? loaded : null;

/** How this runtime spawns here: 'Bun.spawn', 'Deno.Command', 'posix_spawn' (Node with node:ffi or koffi) or 'child_process'. */
export const SPAWN_API = Bun ? 'Bun.spawn' : Deno ? 'Deno.Command' : posixSpawn ? 'posix_spawn' : 'child_process';

/** @type {(command: string, args: string[], handlers: CommandHandlers) => void} */
export const runCommand = Bun ? runWithBun : Deno ? runWithDeno : posixSpawn?.run ?? runWithNode;

/** Node words a failed start `spawn <command> <code>`; the other runtimes are made to say the same. */
const startError = (command, error) => `spawn ${command} ${error.code ?? CODES[error.name] ?? error.message}`;
/** Deno's error classes for a command that cannot start, as errno codes. */
const CODES = { NotFound: 'ENOENT', PermissionDenied: 'EACCES' };

function runWithNode(command, args, { onStdout, onExit, onError }) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let failed = false;
  child.once('error', (error) => {
    failed = true;
    onError(startError(command, error));
  });
  // No stdout when the start failed early (EMFILE, ENFILE: Node gives up before making the pipes).
  child.stdout?.on('data', onStdout);
  // 'close': exited and stdout drained, so the exit comes after the last chunk.
  child.once('close', (code) => failed || onExit(code ?? -1));
}

function runWithBun(command, args, { onStdout, onExit, onError }) {
  let proc;
  try {
    proc = Bun.spawn([command, ...args], { stdin: 'ignore', stdout: 'pipe', stderr: 'ignore' });
  } catch (error) {
    return onError(startError(command, error));
  }
  drain(proc.stdout, onStdout, proc.exited).then((code) => onExit(proc.signalCode ? -1 : code));
}

function runWithDeno(command, args, { onStdout, onExit, onError }) {
  let child;
  try {
    child = new Deno.Command(command, { args, stdin: 'null', stdout: 'piped', stderr: 'null' }).spawn();
  } catch (error) {
    return onError(startError(command, error));
  }
  drain(child.stdout, onStdout, child.status).then((status) => onExit(status.signal ? -1 : status.code));
}

/** Reads a ReadableStream to its end, chunk by chunk, then waits for `exited`. */
async function drain(stream, onChunk, exited) {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onChunk(value);
  }
  return exited;
}

/**
 * Runs one command and collects its whole stdout, for strategies that answer in one
 * piece (fork-pool). Deno collects it natively (`Deno.Command#output()`, no stream
 * reader in JavaScript): measured side by side in fork-pool, the Deno workers' CPU per
 * `echo` request fell from 0.45 to 0.33 ms. Bun's native `stdout.bytes()` measured no
 * better than runCommand's chunks (0.18 vs 0.17 ms), so Bun and Node use those.
 * @param {string} command
 * @param {string[]} args
 * @param {number} maxBytes more stdout than this is an error
 * @returns {Promise<{ stdout: Uint8Array, code: number } | { error: string }>}
 */
export async function collectOutput(command, args, maxBytes) {
  let result;
  if (Deno) {
    let output;
    try {
      output = await new Deno.Command(command, { args, stdin: 'null', stdout: 'piped', stderr: 'null' }).output();
    } catch (error) {
      return { error: startError(command, error) };
    }
    result = { stdout: output.stdout, code: output.signal ? -1 : output.code };
  } else {
    result = await new Promise((resolve) => {
      const chunks = [];
      runCommand(command, args, {
        onStdout: (chunk) => chunks.push(chunk),
        onExit: (code) => resolve({ stdout: Buffer.concat(chunks), code }),
        onError: (error) => resolve({ error }),
      });
    });
  }
  if (result.stdout && result.stdout.length > maxBytes) {
    return { error: `stdout maxBuffer length exceeded (${result.stdout.length} > ${maxBytes} bytes)` };
  }
  return result;
}
