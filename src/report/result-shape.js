/**
 * The shape of a result file beyond its header: the fields every formatter reads, by kind.
 * A file with spawnbench's header and another body (edited, truncated by hand, from a
 * future version) is refused in one line instead of a TypeError from deep in a formatter.
 */
import { openSync, readSync, closeSync } from 'node:fs';
import { RunError } from '../errors.js';
import { MAX_RESULT_FILE_BYTES } from '../thresholds.js';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** [path, test, what it should be] per kind; paths are dot-separated. */
const SHAPES = {
  run: [['plan', isObject, 'an object'], ['plan.target', isObject, 'an object'], ['plan.load', isObject, 'an object'], ['machine', isObject, 'an object'], ['load', isObject, 'an object'], ['load.requests', Number.isFinite, 'a number'], ['load.errors', isObject, 'an object'], ['notes', Array.isArray, 'a list'], ['failures', Array.isArray, 'a list']],
  diagnose: [['plan', isObject, 'an object'], ['plan.target', isObject, 'an object'], ['plan.load', isObject, 'an object'], ['machine', isObject, 'an object'], ['load', isObject, 'an object'], ['load.requests', Number.isFinite, 'a number'], ['diagnosis', isObject, 'an object'], ['notes', Array.isArray, 'a list'], ['failures', Array.isArray, 'a list']],
  tune: [['plan', isObject, 'an object']],
  compare: [['plan', isObject, 'an object']],
};

const at = (data, dotted) => dotted.split('.').reduce((v, k) => (isObject(v) ? v[k] : undefined), data);

/**
 * @param {string} file for the message
 * @param {object} data a result with a valid header
 * @throws {RunError}
 */
export function checkResultShape(file, data) {
  for (const [field, ok, what] of SHAPES[data.kind] ?? []) {
    if (!ok(at(data, field))) {
      throw new RunError(`${file} has the header of a spawnbench ${data.kind} result but its "${field}" is not ${what}; give a file written by --out, unedited`);
    }
  }
}

/**
 * Reads at most MAX_RESULT_FILE_BYTES of a file (a device or a pipe included).
 * @param {string} file
 * @returns {string}
 * @throws {NodeJS.ErrnoException} from open/read; RunError when the file is larger
 */
export function readBounded(file) {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(MAX_RESULT_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_RESULT_FILE_BYTES) {
        throw new RunError(`${file} is larger than ${MAX_RESULT_FILE_BYTES / 1024 / 1024} MB, more than any result file; give a file written by --out`);
      }
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}
