/**
 * Files spawnbench writes (--out, --html, --log-file) are written whole or not at all:
 * into a temporary file in the target's own directory, then renamed over the target
 * (a rename within one file system replaces it in one step). A write that fails midway
 * (a full disk, a file size limit, an I/O error) used to leave a baseline for --against
 * as 8 KB of cut JSON; now the previous file stays as it was and the temporary one is
 * removed.
 *
 * Only a regular file (or a new path) is replaced. A FIFO, a character device (/dev/null,
 * a tty) and spawnbench's own stdout or stderr (/dev/stdout, /dev/fd/N) are written
 * through, as a shell's `>` does: a rename over /dev/null, as root, used to turn the
 * machine's /dev/null into a plain file (issue 36). Anything else (a directory, a block
 * device, a socket) is refused.
 */
import { closeSync, fchmodSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Why a file system call failed, in words. */
export function fsReason(error) {
  const words = {
    ENOENT: 'no such file or directory', EACCES: 'permission denied', EPERM: 'not permitted', EROFS: 'read-only file system',
    ENOTDIR: 'a part of the path is not a directory', EISDIR: 'it is a directory', ENOSPC: 'no space left on the device',
    EDQUOT: 'the disk quota is used up', EFBIG: 'the file size limit was reached (ulimit -f)', EIO: 'an input/output error on the device',
    EPIPE: 'the reading end of the pipe was closed', ENXIO: 'no reader or device behind it', EBADF: 'it is open for reading only',
  };
  return words[error?.code] ?? error?.code ?? error?.message ?? String(error);
}

/**
 * The path a write really replaces: a symbolic link's target (so the link stays a link),
 * or, when the file does not exist yet, its directory's real path and its name (so two
 * spellings of one file compare equal).
 * @param {string} file
 */
export function realTarget(file) {
  try {
    return realpathSync(file);
  } catch {
    const full = path.resolve(file);
    try {
      return path.join(realpathSync(path.dirname(full)), path.basename(full));
    } catch {
      return full;
    }
  }
}

/** Whether `file` exists now (as anything: a dangling link counts as missing). */
export function fileExists(file) {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The end of a failed write's message: whether a previous file is still there, untouched
 * (a device or pipe written through has no previous content to keep).
 * @param {string} file
 */
export function keptAsItWas(file) {
  return destinationKind(file).kind === 'file' ? `; the previous ${file} is left as it was` : '';
}

/**
 * The paths that name one of spawnbench's own open files, and that file's descriptor.
 * @type {Array<[RegExp, (match: RegExpExecArray) => number|null]>}
 */
const OWN_FD_PATHS = [
  [/^\/dev\/(stdin|stdout|stderr)$/, (m) => ['stdin', 'stdout', 'stderr'].indexOf(m[1])],
  [/^\/dev\/fd\/(\d+)$/, (m) => Number(m[1])],
  [/^\/proc\/(self|thread-self|\d+)\/fd\/(\d+)$/, (m) => (m[1] === 'self' || m[1] === 'thread-self' || Number(m[1]) === process.pid ? Number(m[2]) : null)],
];

/** The descriptor `file` names when it is one of spawnbench's own (/dev/stdout is 1), else null. */
function ownDescriptor(file) {
  const full = path.resolve(file);
  for (const [pattern, fd] of OWN_FD_PATHS) {
    const match = pattern.exec(full);
    if (match) return fd(match);
  }
  return null;
}

/** What a non-regular file is, in words (for a refusal). */
function specialKind(stat) {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * What a write to `file` meets: 'new' (nothing there yet) and 'file' (a regular file) are
 * written next to it and renamed over it; 'through' (a FIFO, a character device such as
 * /dev/null or a tty, or spawnbench's own stdout or stderr) is written as it is, never
 * replaced; 'refused' (a directory, a block device, a socket) is not written, and `what`
 * says what it is. `fd`: the descriptor a path like /dev/stdout names, written itself:
 * a file there gets the result after what was printed (at the descriptor's offset), and
 * a socket (what Node gives a child's stdout) can be written though not opened.
 * @param {string} file
 * @returns {{ kind: 'new'|'file'|'through'|'refused', what?: string, fd?: number }}
 */
export function destinationKind(file) {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return { kind: 'new' };
  }
  // A pipe or socket on stdout cannot be opened anew (a socket by no means): its descriptor is written.
  const fd = ownDescriptor(file);
  if (fd !== null && !stat.isDirectory()) return { kind: 'through', fd };
  if (stat.isFile()) return { kind: 'file' };
  if (stat.isFIFO() || stat.isCharacterDevice()) return { kind: 'through' };
  return { kind: 'refused', what: specialKind(stat) };
}

/** Waits `ms` milliseconds without returning to the event loop. */
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Writes all of `buffer` to `fd`, waiting while a non-blocking pipe or socket is full
 * (spawnbench's own stdout is non-blocking once Node has used it).
 */
function writeAll(fd, buffer) {
  for (let offset = 0; offset < buffer.length;) {
    try {
      offset += writeSync(fd, buffer, offset);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      pause(1);
    }
  }
}

/**
 * A writer with openAtomicFile's interface for a destination written through: a FIFO or a
 * device is opened, spawnbench's own descriptor (/dev/stdout) written as it is.
 * @param {string} file
 * @param {number|undefined} ownFd
 */
function openThrough(file, ownFd) {
  const fd = ownFd ?? openSync(file, 'w');
  let failure = null;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    if (ownFd === undefined) closeSync(fd);
  };
  return {
    temp: null,
    write(data) {
      if (failure || !open) return;
      try {
        writeAll(fd, typeof data === 'string' ? Buffer.from(data) : data);
      } catch (error) {
        failure = error;
      }
    },
    failed: () => failure,
    commit() {
      close();
      if (failure) throw failure;
    },
    abandon: close,
  };
}

/**
 * Opens a temporary file next to `file` to be written piece by piece; `commit()` renames
 * it over `file`, `abandon()` removes it. A write that fails is remembered, not thrown
 * (a log line must never end a run): `commit()` then removes the temporary file and
 * throws that first error, and the target is untouched. A FIFO, a device or spawnbench's
 * own stdout is written through instead (destinationKind), and anything else that is not
 * a regular file is refused (thrown).
 * @param {string} file
 * @returns {{ write: (data: string|Buffer) => void, failed: () => Error|null, commit: () => void, abandon: () => void, temp: string|null }}
 */
export function openAtomicFile(file) {
  const destination = destinationKind(file);
  if (destination.kind === 'refused') throw new Error(`it is ${destination.what}, not a regular file`);
  if (destination.kind === 'through') return openThrough(file, destination.fd);
  const target = realTarget(file);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const fd = openSync(temp, 'wx', 0o644);
  let failure = null;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    closeSync(fd);
  };
  const remove = () => {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
  };
  return {
    temp,
    write(data) {
      if (failure || !open) return;
      try {
        const buffer = typeof data === 'string' ? Buffer.from(data) : data;
        for (let offset = 0; offset < buffer.length;) offset += writeSync(fd, buffer, offset);
      } catch (error) {
        failure = error;
      }
    },
    failed: () => failure,
    commit() {
      if (!open) return;
      try {
        if (!failure) {
          // The new file keeps the permissions of the one it replaces.
          if (fileExists(target)) fchmodSync(fd, statSync(target).mode & 0o7777);
          fsyncSync(fd);
        }
      } catch (error) {
        failure = error;
      }
      close();
      if (failure) {
        remove();
        throw failure;
      }
      try {
        renameSync(temp, target);
      } catch (error) {
        remove();
        throw error;
      }
    },
    abandon() {
      if (!open) return;
      close();
      remove();
    },
  };
}

/**
 * Writes `data` to `file` whole or not at all (see above); throws the file system's
 * error, with the target untouched, when the write fails.
 * @param {string} file
 * @param {string|Buffer} data
 */
export function writeFileAtomic(file, data) {
  const out = openAtomicFile(file);
  out.write(data);
  out.commit();
}
