/**
 * Where spawnbench will write (--out, --log-file, --html, --cpu-prof-dir), checked before
 * anything starts: a destination that cannot be written used to be found only after the
 * run, and the results were lost with it. Each check does what the write will do (open the
 * file for appending, make a file in the directory) and undoes it, so permissions, a
 * read-only file system, /proc and a directory given as a file all fail here, in one line
 * that names the flag.
 */
import { openSync, closeSync, statSync, unlinkSync, mkdtempSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from './errors.js';


/** A file name to suggest for each destination flag, by what it holds. */
const EXAMPLE_NAMES = { '--html': 'report.html', '--log-file': 'spawnbench.log' };

/** Why a file system call failed, in words. */
function why(error) {
  const words = { ENOENT: 'no such file or directory', EACCES: 'permission denied', EPERM: 'not permitted', EROFS: 'read-only file system', ENOTDIR: 'a part of the path is not a directory', EISDIR: 'it is a directory', ENOSPC: 'no space left' };
  return words[error.code] ?? error.code ?? error.message;
}

/**
 * Checks that a file can be written at `file` (made if missing, then removed again).
 * @param {string} file
 * @param {string} flag e.g. '--out'
 * @param {{ makesParents?: boolean }} [options] the writer makes missing parent directories
 *   (the log file does): then those must be makeable instead
 * @throws {UsageError}
 */
export function checkFileDestination(file, flag, { makesParents = false } = {}) {
  const target = path.resolve(file);
  if (makesParents && !isDirectory(path.dirname(target))) {
    checkDirDestination(path.dirname(target), flag);
    return;
  }
  let existed = true;
  try {
    if (statSync(target).isDirectory()) throw new UsageError(`${flag} ${file} is a directory; give a file path, like ${flag} ${path.join(file, EXAMPLE_NAMES[flag] ?? 'result.json')}`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    existed = false;
  }
  let fd;
  try {
    fd = openSync(target, 'a');
  } catch (error) {
    throw new UsageError(`${flag} ${file}: cannot write there (${why(error)}); give a path in a directory you can write`);
  }
  closeSync(fd);
  if (!existed) {
    try {
      unlinkSync(target);
    } catch {
      // it will be written over anyway
    }
  }
}

/**
 * Checks that files can be made in directory `dir` (or, if it does not exist yet, in its
 * nearest existing parent, where it will be made).
 * @param {string} dir
 * @param {string} flag e.g. '--cpu-prof-dir'
 * @throws {UsageError}
 */
export function checkDirDestination(dir, flag) {
  let existing = path.resolve(dir);
  for (;;) {
    try {
      if (!statSync(existing).isDirectory()) throw new UsageError(`${flag} ${dir}: ${existing} is not a directory; give a directory path`);
      break;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const parent = path.dirname(existing);
      if (parent === existing) throw new UsageError(`${flag} ${dir}: cannot write there (${why(error)})`);
      existing = parent;
    }
  }
  try {
    rmdirSync(mkdtempSync(path.join(existing, '.spawnbench-check-')));
  } catch (error) {
    throw new UsageError(`${flag} ${dir}: cannot write in ${existing} (${why(error)}); give a directory you can write`);
  }
}

function isDirectory(dir) {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The file destinations of a command's options, checked in the order of the flags.
 * @param {Record<string, unknown>} o commander options
 */
export function checkOutputDestinations(o) {
  for (const [key, flag, makesParents] of [['out', '--out', false], ['logFile', '--log-file', true], ['html', '--html', false]]) {
    if (typeof o[key] === 'string') checkFileDestination(o[key], flag, { makesParents });
  }
  if (typeof o.cpuProfDir === 'string') checkDirDestination(o.cpuProfDir, '--cpu-prof-dir');
}
