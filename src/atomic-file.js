/**
 * Files spawnbench writes (--out, --html, --log-file) are written whole or not at all:
 * into a temporary file in the target's own directory, then renamed over the target
 * (a rename within one file system replaces it in one step). A write that fails midway
 * (a full disk, a file size limit, an I/O error) used to leave a baseline for --against
 * as 8 KB of cut JSON; now the previous file stays as it was and the temporary one is
 * removed.
 */
import { closeSync, fchmodSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Why a file system call failed, in words. */
export function fsReason(error) {
  const words = {
    ENOENT: 'no such file or directory', EACCES: 'permission denied', EPERM: 'not permitted', EROFS: 'read-only file system',
    ENOTDIR: 'a part of the path is not a directory', EISDIR: 'it is a directory', ENOSPC: 'no space left on the device',
    EDQUOT: 'the disk quota is used up', EFBIG: 'the file size limit was reached (ulimit -f)', EIO: 'an input/output error on the device',
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
 * The end of a failed write's message: whether a previous file is still there, untouched.
 * @param {string} file
 */
export function keptAsItWas(file) {
  return fileExists(file) ? `; the previous ${file} is left as it was` : '';
}

/**
 * Opens a temporary file next to `file` to be written piece by piece; `commit()` renames
 * it over `file`, `abandon()` removes it. A write that fails is remembered, not thrown
 * (a log line must never end a run): `commit()` then removes the temporary file and
 * throws that first error, and the target is untouched.
 * @param {string} file
 * @returns {{ write: (data: string|Buffer) => void, failed: () => Error|null, commit: () => void, abandon: () => void, temp: string }}
 */
export function openAtomicFile(file) {
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
