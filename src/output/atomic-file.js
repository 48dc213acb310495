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
import { closeSync, fchmodSync, fchownSync, fstatSync, fsyncSync, lstatSync, openSync, readlinkSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Why a file system call failed, in words. */
export function fsReason(error) {
  const words = {
    ENOENT: 'no such file or directory', EACCES: 'permission denied', EPERM: 'not permitted', EROFS: 'read-only file system',
    ENOTDIR: 'a part of the path is not a directory', EISDIR: 'it is a directory', ENOSPC: 'no space left on the device',
    EDQUOT: 'the disk quota is used up', EFBIG: 'the file size limit was reached (ulimit -f)', EIO: 'an input/output error on the device',
    EPIPE: 'the reading end of the pipe was closed', ENXIO: 'no reader or device behind it', EBADF: 'it is open for reading only',
    ENAMETOOLONG: 'the file name is too long', ELOOP: 'too many symbolic links (a loop?)',
  };
  return words[error?.code] ?? error?.code ?? error?.message ?? String(error);
}

/**
 * The path a write really replaces: a symbolic link's target (so the link stays a link),
 * or, when the file does not exist yet, its directory's real path and its name (so two
 * spellings of one file compare equal). A link to a file not made yet is followed too, as
 * a shell's `>` follows it: the link used to be replaced by a regular file, and the
 * destination check left an empty file where it pointed.
 * @param {string} file
 */
export function realTarget(file) {
  try {
    return realpathSync(file);
  } catch {
    const full = followLinks(path.resolve(file));
    try {
      return path.join(realpathSync(path.dirname(full)), path.basename(full));
    } catch {
      return full;
    }
  }
}

/**
 * What makes `file` a link spawnbench will not follow, or null: a link that another user put in a
 * shared directory (sticky and writable by all, as /tmp), owned neither by this user nor by the
 * directory's owner. The kernel's fs.protected_symlinks refuses such a link to a shell's `>`;
 * spawnbench follows links itself (realTarget), so as root `--out /tmp/r.json` over another user's
 * link to /etc/shadow would have replaced that file.
 * @param {string} file
 * @returns {string|null}
 */
export function foreignLink(file) {
  const me = typeof process.geteuid === 'function' ? process.geteuid() : null;
  try {
    const link = lstatSync(file);
    if (me === null || !link.isSymbolicLink() || link.uid === me) return null;
    const dir = statSync(path.dirname(path.resolve(file)));
    const shared = (dir.mode & 0o1000) !== 0 && (dir.mode & 0o002) !== 0;
    return shared && link.uid !== dir.uid ? `a link of uid ${link.uid} in a directory every user can write (sticky, as /tmp)` : null;
  } catch {
    return null;
  }
}

/**
 * Whether two paths name one file: the same real path, or, both existing, the same file
 * on the same device. A bind mount (a volume mounted at two paths) shows one directory
 * under two real paths: `report /data/r.json --html /mnt/data/r.json` replaced the
 * result with its own HTML.
 * @param {string} a
 * @param {string} b
 */
export function sameFile(a, b) {
  if (realTarget(a) === realTarget(b)) return true;
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** The links the kernel follows before it gives up (ELOOP): Linux's MAXSYMLINKS. */
const MAX_LINKS = 40;

/**
 * `full` with its last part's chain of symbolic links followed to the path they end at
 * (which may not exist yet); `full` itself when it is no link.
 * @param {string} full an absolute path
 */
function followLinks(full) {
  let current = full;
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    let link;
    try {
      link = readlinkSync(current);
    } catch {
      return current;
    }
    current = path.resolve(path.dirname(current), link);
  }
  return current;
}

/** The longest file name most Linux file systems take (NAME_MAX), bytes. */
const NAME_MAX_BYTES = 255;

/**
 * The temporary file written next to `target`: its name shortened to fit NAME_MAX, since
 * a target whose own name fits (250 bytes) used to be found too long only after the run.
 * @param {string} target
 */
function tempPathFor(target) {
  const suffix = `.${process.pid}.${Date.now().toString(36)}.tmp`;
  const chars = Array.from(path.basename(target));
  while (chars.length > 1 && Buffer.byteLength(`.${chars.join('')}${suffix}`) > NAME_MAX_BYTES) chars.pop();
  return path.join(path.dirname(target), `.${chars.join('')}${suffix}`);
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
  if (stat.isCharacterDevice()) return `a device (character ${deviceNumber(stat.rdev).join(':')}) other than a terminal or /dev/null`;
  return 'not a regular file';
}

/** A device number's major and minor (Linux's encoding, as glibc's gnu_dev_major/minor read it). */
function deviceNumber(rdev) {
  const n = BigInt(rdev);
  return [Number(((n >> 8n) & 0xfffn) | ((n >> 32n) & ~0xfffn)), Number((n & 0xffn) | ((n >> 12n) & ~0xffn))];
}

/**
 * The character devices written through: the memory devices that discard or take any write (null, zero, full,
 * random, urandom) and terminals (tty, ttyS, /dev/tty, /dev/console, pseudo-terminals). Any other was written through
 * too, as root: a copy of /dev/mem, /dev/port or a watchdog (opened, it arms a reboot) took the result.
 */
function writtenThroughDevice(stat) {
  const [major, minor] = deviceNumber(stat.rdev);
  if (major === 1) return [3, 5, 7, 8, 9].includes(minor);
  return major === 4 || (major === 5 && minor <= 1) || (major >= 136 && major <= 143);
}

/**
 * What a write to `file` meets: 'new' (nothing there yet) and 'file' (a regular file) are
 * written next to it and renamed over it; 'through' (a FIFO, /dev/null or a terminal
 * (writtenThroughDevice), or spawnbench's own stdout or stderr) is written as it is, never
 * replaced; 'refused' (a directory, a block device, a socket, another character device) is not written, and `what`
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
  if (stat.isFIFO() || (stat.isCharacterDevice() && writtenThroughDevice(stat))) return { kind: 'through' };
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
  // Checked before the run too (output-destinations.js); again here, for a link made during it.
  if (foreignLink(file)) throw Object.assign(new Error(`${file} is another user's link in a shared directory`), { code: 'EACCES' });
  const destination = destinationKind(file);
  if (destination.kind === 'refused') throw new Error(`it is ${destination.what}, not a regular file`);
  if (destination.kind === 'through') return openThrough(file, destination.fd);
  const target = realTarget(file);
  const temp = tempPathFor(target);
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
        // A log that filled the disk is lost anyway: its temporary file goes now, so that the
        // result (--out, written after the run) still finds the space it took.
        close();
        remove();
      }
    },
    failed: () => failure,
    commit() {
      if (!open && failure) throw failure;
      if (!open) return;
      try {
        if (!failure) {
          // The new file keeps the owner and permissions of the one it replaces.
          if (fileExists(target)) keepOwnerAndMode(fd, statSync(target));
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
 * Gives the new file `fd` the owner and mode of the file it replaces: root writing over a
 * user's result used to leave it root's, and the user's next run could not write it. The
 * owner is set first (a change of owner clears set-id bits); where it cannot be set (not
 * root), the file stays the writer's, as a new file would be.
 * @param {number} fd
 * @param {import('node:fs').Stats} previous
 */
function keepOwnerAndMode(fd, previous) {
  const own = fstatSync(fd);
  if (own.uid !== previous.uid || own.gid !== previous.gid) {
    try {
      fchownSync(fd, previous.uid, previous.gid);
    } catch {
      // not permitted: the writer's own file
    }
  }
  fchmodSync(fd, previous.mode & 0o7777);
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
