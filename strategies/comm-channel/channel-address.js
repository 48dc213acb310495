/**
 * Where a worker's channel lives. Linux abstract Unix sockets (a name starting
 * with \0: no file, gone with the process) are the idea; but runtimes disagree on
 * how long such a name is. Node on libuv < 1.48 (Node 20) pads it with zeros to
 * the full 108 bytes of sun_path; libuv 1.48 (Node 22), Bun and Deno use the
 * name's exact length, and two sockets only meet when the bytes match. Deno can
 * connect to the padded form; Bun cannot (it refuses a 108-byte path), and a
 * padding Node cannot make the exact form. For those pairs the channel is a
 * socket file in a private (0700) temp directory instead. Either way, who may write to a
 * channel is decided by channel-guard.js, not by the name.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** sizeof(sockaddr_un.sun_path) on Linux: what Node 20 pads abstract names to. */
const SUN_PATH_BYTES = 108;

/**
 * Whether a Node on this libuv pads abstract names: libuv 1.48 gave them their
 * exact length (libuv#4266).
 * @param {string} [uvVersion] `process.versions.uv`
 */
export function libuvPadsAbstractNames(uvVersion = process.versions.uv) {
  const [major, minor] = uvVersion.split('.').map(Number);
  return major === 1 && minor < 48;
}

/**
 * Longest socket-file name the pool can ask for: a slot and a generation (workers started
 * in that slot) of up to 4 and 7 digits. The check is made for this one, up front.
 */
const LONGEST_FILE = '9999-9999999.sock';

/**
 * Plans the channels for one pool.
 * @param {'node'|'bun'|'deno'} mainKind runtime of the main process (the listener), this process
 * @param {'node'|'bun'|'deno'} workerKind runtime of the workers (they connect)
 * @param {string} [baseDir] where to make the socket files' directory: the run's `tempDir`
 *   (private to the run, and removed by spawnbench even if this process is killed), else the
 *   system's temp dir
 * @returns {{ abstract: boolean, address(slot: number, generation: number): {listen: string, connect: string}, cleanup(): void }}
 * @throws where a socket file's path would not fit in sun_path (a long TMPDIR): the message says what to set
 */
export function planChannels(mainKind, workerKind, baseDir) {
  const padded = mainKind === 'node' && libuvPadsAbstractNames();
  // Node workers under another main: their libuv is not known here, so a file.
  const meets = mainKind === 'node' ? !padded || workerKind !== 'bun' : workerKind !== 'node';
  if (meets) {
    // Random too: a name another local user cannot guess, so cannot take first (bind) to stop a worker from meeting its main.
    const prefix = `spawnbench-comm-${process.pid}-${randomBytes(6).toString('hex')}`;
    return {
      abstract: true,
      address(slot, generation) {
        const name = `\0${prefix}-${slot}-${generation}`;
        return { listen: name, connect: padded && workerKind === 'deno' ? name.padEnd(SUN_PATH_BYTES, '\0') : name };
      },
      cleanup() {},
    };
  }
  // A file's whole path must fit in sun_path (107 bytes and a NUL), so the names are short:
  // inside the run's own directory `comm-XXXXXX` is enough; in the shared temp dir the name
  // says whose it is. mkdtemp makes the directory 0700 with a random suffix.
  const template = baseDir ? join(baseDir, 'comm-') : join(tmpdir(), `spawnbench-comm-${process.pid}-`);
  const longest = Buffer.byteLength(join(`${template}XXXXXX`, LONGEST_FILE));
  if (longest >= SUN_PATH_BYTES) {
    throw new Error(
      `comm-channel: a ${mainKind} main with ${workerKind} workers needs socket files, and their paths under ${dirname(template)} ` +
        `would be ${longest} bytes, over the ${SUN_PATH_BYTES - 1} Linux allows; set TMPDIR to a shorter directory (e.g. TMPDIR=/tmp)`,
    );
  }
  let dir = null;
  return {
    abstract: false,
    address(slot, generation) {
      dir ??= mkdtempSync(template);
      const file = join(dir, `${slot}-${generation}.sock`);
      return { listen: file, connect: file };
    },
    cleanup() {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
