/**
 * Where spawnbench will write (--out, --log-file, --html, --cpu-prof-dir), checked before
 * anything starts: a destination that cannot be written used to be found only after the
 * run, and the results were lost with it. Each check does what the write will do (open the
 * file for appending, make a file in the directory) and undoes it, so permissions, a
 * read-only file system, /proc and a directory given as a file all fail here, in one line
 * that names the flag.
 */
import { accessSync, constants, openSync, closeSync, readFileSync, statSync, unlinkSync, mkdtempSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../base/errors.js';
import { destinationKind, foreignLink, fsReason as why, realTarget, sameFile } from './atomic-file.js';

/** A file name to suggest for each destination flag, by what it holds. */
const EXAMPLE_NAMES = { '--html': 'report.html', '--log-file': 'spawnbench.log' };

/**
 * Refuses a destination that is neither a regular file, a new path, nor a special file
 * written through (a FIFO, /dev/null or a terminal, spawnbench's own stdout):
 * a directory, a block device, a socket, another character device. One written through must take writes now: a
 * descriptor of spawnbench's open for reading only (/dev/stdin from a file), or a device
 * that cannot be opened (/dev/tty with no terminal, as in CI), used to fail only after the
 * whole run, the result lost. Says whether the destination is written through.
 * @param {string} file
 * @param {string} flag e.g. '--out'
 * @returns {boolean} true for a destination written through (no file is made next to it)
 * @throws {UsageError}
 */
export function checkDestinationKind(file, flag) {
  // An empty path (--out "", an unset shell variable) read "--out : cannot write there (it is a directory)".
  if (file.trim() === '') throw new UsageError(`${flag} was given an empty path; give a file path, like ${flag} ${EXAMPLE_NAMES[flag] ?? 'result.json'}`);
  const foreign = foreignLink(file);
  if (foreign) throw new UsageError(`${flag} ${file} is ${foreign}: spawnbench does not follow it, as the kernel would not for a shell (fs.protected_symlinks); give a path of your own`);
  const destination = destinationKind(file);
  const example = EXAMPLE_NAMES[flag] ?? 'result.json';
  if (destination.what === 'a directory') throw new UsageError(`${flag} ${file} is a directory; give a file path, like ${flag} ${path.join(file, example)}`);
  // A path that ends in a slash names a directory: `--out results/` wrote a file named "results".
  if (/\/$/.test(file) && destination.kind !== 'through') throw new UsageError(`${flag} ${file} ends in '/', a directory's name; give a file path, like ${flag} ${path.join(file, example)}`);
  if (destination.kind === 'refused') throw new UsageError(`${flag} ${file} is ${destination.what}, not a file; give a regular file path, like ${flag} ${example} (a pipe, a terminal or /dev/null is written through)`);
  if (destination.kind !== 'through') return false;
  try {
    accessSync(file, constants.W_OK);
    if (destination.fd !== undefined) checkDescriptorWrites(destination.fd);
    else if (statSync(file).isCharacterDevice()) closeSync(openSync(file, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY));
  } catch (error) {
    throw new UsageError(`${flag} ${file}: cannot write there (${why(error)}); give a path you can write`);
  }
  return true;
}

/**
 * Throws when spawnbench's descriptor `fd` is open for reading only (its flags in
 * /proc/self/fdinfo; where that cannot be read, the write will tell).
 * @param {number} fd
 */
function checkDescriptorWrites(fd) {
  let flags;
  try {
    flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
  } catch {
    return;
  }
  // O_ACCMODE 3: O_RDONLY is 0.
  if (flags !== undefined && (Number.parseInt(flags, 8) & 3) === 0) throw Object.assign(new Error(`descriptor ${fd} is open for reading only`), { code: 'EBADF' });
}

/**
 * Checks that a file can be written at `file` (made if missing, then removed again) and
 * that its directory takes new files; a FIFO or a device, written through, only has to be
 * writable (opening a FIFO here would wait for its reader).
 * @param {string} file
 * @param {string} flag e.g. '--out'
 * @throws {UsageError}
 */
export function checkFileDestination(file, flag) {
  if (checkDestinationKind(file, flag)) return;
  // Where the write will land: a link to a file not made yet is tried (and left) as a link.
  const target = realTarget(file);
  let existed = true;
  try {
    statSync(target);
  } catch {
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
  // The file is written next to itself and renamed over (src/output/atomic-file.js): its directory must take new files.
  checkDirDestination(path.dirname(target), flag);
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

/**
 * Refuses two outputs that name one file (`--out x --html x`): the second write would
 * replace the first, and a log would be renamed over a result. Destinations written
 * through (`--out /dev/null --log-file /dev/null`) replace nothing.
 * @param {{ flag: string, file: string }[]} outputs
 * @throws {UsageError}
 */
export function checkDistinct(outputs) {
  /** @type {{ flag: string, file: string }[]} */
  const seen = [];
  for (const { flag, file } of outputs) {
    if (destinationKind(file).kind === 'through') continue;
    const first = seen.find((s) => sameFile(s.file, file));
    if (first) throw new UsageError(`${first.flag} ${first.file} and ${flag} ${file} name the same file; give each its own file`);
    seen.push({ flag, file });
  }
}

/**
 * The files a server command names (its program and arguments that are existing regular
 * files: `node server.js`'s server.js): it reads them, so no output may replace them.
 * @param {string[]} command argv
 * @returns {string[]}
 */
function commandFiles(command) {
  return command.filter((arg) => {
    if (typeof arg !== 'string' || arg === '' || arg.startsWith('-')) return false;
    try {
      return statSync(arg).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * Refuses an output written over a file the command reads: a log or an HTML report over the
 * --against baseline, anything over the --mix file or a file of the server command (`--out
 * server.js -- node server.js`), all lost once the run ends (they were replaced without a
 * word). --out over --against is kept: the baseline is read before the run, and the new
 * result becomes the next one.
 * @param {{ flag: string, file: string }[]} outputs
 * @param {Record<string, unknown>} o commander options
 * @param {string[]} [command] the server command the run starts
 * @throws {UsageError}
 */
export function checkInputsKept(outputs, o, command = []) {
  const inputs = [
    ...(typeof o.against === 'string' ? [{ key: 'against', what: 'the --against file being read', file: o.against }] : []),
    ...(typeof o.mix === 'string' ? [{ key: 'mix', what: 'the --mix file being read', file: o.mix }] : []),
    ...(outputs.length > 0 ? commandFiles(command).map((file) => ({ key: 'command', what: 'a file the server command reads', file })) : []),
  ];
  for (const input of inputs) {
    for (const { flag, file } of outputs) {
      if (input.key === 'against' && flag === '--out') continue;
      if (destinationKind(file).kind === 'through' || !sameFile(file, input.file)) continue;
      throw new UsageError(`${flag} ${file} is ${input.what}; give ${flag} its own file, like ${flag} ${EXAMPLE_NAMES[flag] ?? 'result.json'}`);
    }
  }
}

/**
 * The file destinations of a command's options, checked in the order of the flags.
 * @param {Record<string, unknown>} o commander options
 * @param {string[]} [command] the server command the run starts (its files are inputs too)
 */
export function checkOutputDestinations(o, command = []) {
  const files = [['out', '--out'], ['logFile', '--log-file'], ['html', '--html']].flatMap(([key, flag]) => {
    const file = o[key];
    return typeof file === 'string' ? [{ flag, file }] : [];
  });
  checkDistinct(files);
  checkInputsKept(files, o, command);
  for (const { flag, file } of files) checkFileDestination(file, flag);
  if (typeof o.cpuProfDir === 'string') checkDirDestination(o.cpuProfDir, '--cpu-prof-dir');
}
