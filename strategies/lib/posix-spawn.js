/**
 * posix_spawn for Node workers, through Node's own FFI (`node:ffi`, Node ≥ 26.1) or, on the
 * Nodes without it (20–26.0), through koffi (an FFI library with prebuilt binaries, an
 * optional dependency of spawnbench).
 *
 * Node's `child_process.spawn` goes through libuv's `uv_spawn`, which up to libuv 1.52
 * (every Node release so far) calls `fork()`: the kernel copies the worker's page
 * tables for each command, the worker waits until the child has exec'd, and the child
 * tears the copy down again. glibc's `posix_spawn` clones with CLONE_VM|CLONE_VFORK
 * instead: nothing is copied (what Go, Bun and Deno do, and what libuv 1.53 will do).
 * Measured on the project's 2-core machine, Node 26.10, 400 × `echo hi`, 4 at a time:
 * the spawning process's CPU per spawn 0.84 → 0.27 ms, each command's own 1.09 → 0.79 ms.
 * On Node 20.20 through koffi (bench:strategies, echo, 3 rounds side by side): comm-channel
 * from 0.49× to 0.94× the Go reference, the commands' CPU per request 1.81 → 1.22 ms.
 *
 * What it does, as `child_process.spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] })`
 * does: PATH lookup (`posix_spawnp`), stdin and stderr on /dev/null, stdout on a pipe
 * (read through a `net.Socket`, as Node reads a child's stdout), every signal back to its
 * default and none blocked in the child, this process's environment as it is now. The
 * child is reaped with `waitpid(pid, WNOHANG)` once its stdout has closed (libuv's SIGCHLD
 * handler only waits for pids it started itself).
 *
 * Per request it does no more than it must (issue 28, the worker's CPU per request): the
 * argv of the last command is kept (a server runs the same one every time), and stdout is
 * read into one buffer of this process (net's `onread`) and copied out at each read, so
 * no Readable stream state, 'data' event or pooled Buffer is made per read.
 *
 * Used only where it loads: Linux on x86-64 or arm64 (glibc and musl both clone with
 * CLONE_VM|CLONE_VFORK; the opaque structs are given more room than either needs), a Node with
 * `node:ffi` or where koffi loads; `SPAWNBENCH_SPAWN_API=child_process` turns it off (for
 * side-by-side runs). `node:ffi` is experimental; its one warning per process is not printed.
 */
import net from 'node:net';
import diagnosticsChannel from 'node:diagnostics_channel';
import { Buffer } from 'node:buffer';
import { constants } from 'node:os';

/** Sizes on glibc (x86-64 and arm64), rounded up: posix_spawn_file_actions_t 80, posix_spawnattr_t 336, sigset_t 128 bytes. */
const FILE_ACTIONS_BYTES = 128;
const ATTR_BYTES = 512;
const SIGSET_BYTES = 128;
const POSIX_SPAWN_SETSIGDEF = 0x04;
const POSIX_SPAWN_SETSIGMASK = 0x08;
const O_RDONLY = 0;
const O_WRONLY = 1;
const O_CLOEXEC = /** @type {{ O_CLOEXEC?: number }} */ (constants).O_CLOEXEC ?? 0o2000000;
const WNOHANG = 1;
/**
 * Published around each posix_spawnp call, so spawnbench's probe counts these spawns and
 * the time they block this thread, as it does for child_process (src/probe/spawn-timer.js).
 */
const spawnStart = diagnosticsChannel.channel('spawnbench:spawn:start');
const spawnEnd = diagnosticsChannel.channel('spawnbench:spawn:end');

/** Longest wait between two tries to reap a command whose stdout closed before it exited (ms). */
const MAX_REAP_WAIT_MS = 50;

const SIGNATURES = {
  pipe2: { arguments: ['pointer', 'i32'], return: 'i32' },
  close: { arguments: ['i32'], return: 'i32' },
  waitpid: { arguments: ['i32', 'pointer', 'i32'], return: 'i32' },
  posix_spawnp: { arguments: ['pointer', 'pointer', 'pointer', 'pointer', 'pointer', 'pointer'], return: 'i32' },
  posix_spawn_file_actions_init: { arguments: ['pointer'], return: 'i32' },
  posix_spawn_file_actions_destroy: { arguments: ['pointer'], return: 'i32' },
  posix_spawn_file_actions_adddup2: { arguments: ['pointer', 'i32', 'i32'], return: 'i32' },
  posix_spawn_file_actions_addopen: { arguments: ['pointer', 'i32', 'pointer', 'i32', 'u32'], return: 'i32' },
  posix_spawnattr_init: { arguments: ['pointer'], return: 'i32' },
  posix_spawnattr_setflags: { arguments: ['pointer', 'i16'], return: 'i32' },
  posix_spawnattr_setsigdefault: { arguments: ['pointer', 'pointer'], return: 'i32' },
  posix_spawnattr_setsigmask: { arguments: ['pointer', 'pointer'], return: 'i32' },
  sigemptyset: { arguments: ['pointer'], return: 'i32' },
};

/** errno number → name ('ENOENT'), for the error Node itself would give. */
const ERRNO_NAMES = new Map(Object.entries(constants.errno).map(([name, number]) => [number, name]));

/** How the two FFIs are loaded (a test hands in its own, to see the fallbacks). */
/** node:ffi by a name in a variable: Node 26.1+ has it, and @types/node for Node 20 does not declare it. */
const NODE_FFI = 'node:ffi';
const IMPORTS = { nodeFfi: () => import(NODE_FFI), koffi: () => import('koffi') };

/**
 * Loads posix_spawn through node:ffi, else koffi, or says why not.
 * @param {Record<string, string|undefined>} [env]
 * @param {typeof IMPORTS} [imports]
 * @returns {Promise<{ run: typeof import('./spawn-command.js').runCommand, ffi: string } | { unavailable: string }>}
 */
export async function loadPosixSpawn(env = process.env, imports = IMPORTS) {
  if (env.SPAWNBENCH_SPAWN_API === 'child_process') return { unavailable: 'SPAWNBENCH_SPAWN_API=child_process' };
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) return { unavailable: `${process.platform}/${process.arch}` };
  const builtIn = await nodeFfi(imports.nodeFfi);
  const loaded = builtIn.native ? builtIn : await koffiFfi(imports.koffi);
  const native = loaded.native;
  if (!native) return { unavailable: `${'unavailable' in builtIn ? builtIn.unavailable : ''}, and ${'unavailable' in loaded ? loaded.unavailable : ''}` };
  try {
    return { run: bind(native), ffi: native.name };
  } catch (error) {
    return { unavailable: `${native.name}: ${error.message}` };
  }
}

/**
 * What bind() needs of an FFI: the C functions of SIGNATURES, a pointer to pass for a
 * buffer, a buffer's address to store in argv, and the current value of `environ`.
 * @typedef {object} Native
 * @property {string} name 'node:ffi' or 'koffi'
 * @property {Record<keyof typeof SIGNATURES, (...args: any[]) => number>} c
 * @property {(buffer: ArrayBufferView) => any} at what to pass for a pointer argument
 * @property {(buffer: Buffer) => bigint} addressOf a buffer's address, to store in memory
 * @property {() => any} environ the process's environment as it is now (char **)
 */

/**
 * Node's own FFI (Node ≥ 26.1).
 * @param {() => Promise<any>} load
 * @returns {Promise<{ native: Native } | { native?: undefined, unavailable: string }>}
 */
async function nodeFfi(load) {
  let ffi;
  // Node warns once that node:ffi is experimental; the strategy's stderr is for its errors.
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning, ...rest) => {
    if (!/\bFFI\b.*experimental/.test(String(warning?.message ?? warning))) emitWarning.call(process, warning, ...rest);
  };
  try {
    ffi = (await load()).default;
  } catch {
    return { unavailable: `node:ffi is not in Node ${process.version}` };
  } finally {
    process.emitWarning = emitWarning;
  }
  try {
    const { lib, functions: c } = ffi.dlopen(null, SIGNATURES);
    const environAddress = lib.getSymbol('environ');
    const at = (buffer) => ffi.getRawPointer(buffer);
    return { native: { name: 'node:ffi', c, at, addressOf: at, environ: () => ffi.getUint64(environAddress, 0) } };
  } catch (error) {
    return { unavailable: `node:ffi: ${error.message}` };
  }
}

/** koffi's C types for SIGNATURES' kinds. */
const KOFFI_TYPES = { pointer: 'void *', i32: 'int', i16: 'short', u32: 'unsigned int' };

/**
 * koffi (an optional dependency: an FFI for every Node from 16, with prebuilt binaries),
 * for the Nodes without node:ffi.
 * @param {() => Promise<any>} load
 * @returns {Promise<{ native: Native } | { native?: undefined, unavailable: string }>}
 */
async function koffiFfi(load) {
  let koffi;
  try {
    koffi = (await load()).default;
  } catch {
    return { unavailable: 'koffi is not installed' };
  }
  try {
    const lib = koffi.load(null);
    const c = /** @type {Native['c']} */ (Object.fromEntries(Object.entries(SIGNATURES).map(([name, { arguments: args, return: result }]) =>
      [name, lib.func(name, KOFFI_TYPES[result], args.map((type) => KOFFI_TYPES[type]))])));
    const environSymbol = lib.symbol('environ');
    return { native: { name: 'koffi', c, at: (buffer) => buffer, addressOf: (buffer) => koffi.address(buffer), environ: () => koffi.decode(environSymbol, 'void *') } };
  } catch (error) {
    return { unavailable: `koffi: ${error.message}` };
  }
}

/** @param {Native} native */
function bind({ c, at, addressOf, environ }) {
  // One attribute set for every spawn: every signal to its default, none blocked.
  const attr = Buffer.alloc(ATTR_BYTES);
  const allSignals = Buffer.alloc(SIGSET_BYTES);
  const noSignals = Buffer.alloc(SIGSET_BYTES);
  const ok = (what, result) => {
    if (result !== 0) throw new Error(`${what} failed (${ERRNO_NAMES.get(result) ?? result})`);
  };
  ok('posix_spawnattr_init', c.posix_spawnattr_init(at(attr)));
  // Every bit set, not sigfillset(): that leaves out glibc's two internal signals (32, 33),
  // which its posix_spawn then sets to SIG_IGN in the child, and an ignored signal stays
  // ignored across exec. With them in the set, the command starts as under child_process.
  allSignals.fill(0xff);
  ok('sigemptyset', c.sigemptyset(at(noSignals)));
  ok('posix_spawnattr_setsigdefault', c.posix_spawnattr_setsigdefault(at(attr), at(allSignals)));
  ok('posix_spawnattr_setsigmask', c.posix_spawnattr_setsigmask(at(attr), at(noSignals)));
  ok('posix_spawnattr_setflags', c.posix_spawnattr_setflags(at(attr), POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK));

  const devNull = Buffer.from('/dev/null\0');
  const actions = Buffer.alloc(FILE_ACTIONS_BYTES);
  const pipeEnds = new Int32Array(2);
  const pidOut = new Int32Array(1);
  const status = new Int32Array(1);
  // Every pipe of this process reads into this one buffer: a read is copied out before the next.
  const readBuffer = Buffer.allocUnsafe(64 * 1024);
  // The argv of the last command (the C strings and the NULL-terminated pointer array).
  let lastCommand = null;
  let lastArgs = [];
  let strings = null;
  let argv = null;

  /** @type {typeof import('./spawn-command.js').runCommand} */
  return function runWithPosixSpawn(command, args, { onStdout, onExit, onError }) {
    // pipe2 returns -1 and sets errno, which node:ffi does not give back: running out of
    // file descriptors is what fails it here, and Node words that EMFILE.
    if (c.pipe2(at(pipeEnds), O_CLOEXEC) !== 0) return onError(`spawn ${command} EMFILE`);
    const [readEnd, writeEnd] = pipeEnds;
    if (command !== lastCommand || args.length !== lastArgs.length || args.some((arg, i) => arg !== lastArgs[i])) {
      strings = [command, ...args].map((s) => Buffer.from(`${s}\0`));
      argv = new BigUint64Array(strings.length + 1); // NULL-terminated
      strings.forEach((s, i) => {
        argv[i] = addressOf(s);
      });
      lastCommand = command;
      lastArgs = [...args];
    }
    c.posix_spawn_file_actions_init(at(actions));
    c.posix_spawn_file_actions_addopen(at(actions), 0, at(devNull), O_RDONLY, 0);
    c.posix_spawn_file_actions_adddup2(at(actions), writeEnd, 1); // dup2 clears O_CLOEXEC on 1
    c.posix_spawn_file_actions_addopen(at(actions), 2, at(devNull), O_WRONLY, 0);
    const observed = spawnStart.hasSubscribers;
    if (observed) spawnStart.publish({ command, args });
    // `environ` read now: process.env changes reach it (setenv/unsetenv).
    const failed = c.posix_spawnp(at(pidOut), at(strings[0]), at(actions), at(attr), at(argv), environ());
    if (observed) spawnEnd.publish({ command, args, error: failed });
    c.posix_spawn_file_actions_destroy(at(actions));
    c.close(writeEnd);
    if (failed !== 0) {
      c.close(readEnd);
      return onError(`spawn ${command} ${ERRNO_NAMES.get(failed) ?? failed}`);
    }
    const pid = pidOut[0];
    // `onread` is a documented option of net.Socket (it reads into one buffer of ours), missing from @types/node's SocketConstructorOpts.
    const stdout = new net.Socket(/** @type {import('node:net').SocketConstructorOpts} */ ({
      fd: readEnd, readable: true, writable: false,
      onread: { buffer: readBuffer, callback: (nread, buffer) => onStdout(Buffer.from(buffer.subarray(0, nread))) },
    }));
    stdout.on('error', () => {}); // a read error ends the stream: 'close' follows
    stdout.once('close', () => {
      let waitMs = 0;
      const reap = () => {
        if (c.waitpid(pid, at(status), WNOHANG) === pid) return onExit(exitCode(status[0]));
        waitMs = Math.min(MAX_REAP_WAIT_MS, Math.max(1, waitMs * 2));
        setTimeout(reap, waitMs);
      };
      reap();
    });
  };
}

/** A wait status as child_process gives it: the exit code, or -1 when a signal ended the command. */
export function exitCode(waitStatus) {
  return (waitStatus & 0x7f) === 0 ? (waitStatus >> 8) & 0xff : -1;
}
