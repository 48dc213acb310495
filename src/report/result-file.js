/**
 * Result files (--out): the run, tune or compare result as one JSON document, and
 * the checks that make an old or foreign file a clear error instead of a crash.
 */
import { RunError } from '../base/errors.js';
import { fsReason, keptAsItWas, writeFileAtomic } from '../output/atomic-file.js';
import { checkResultDepth, checkResultShape, readBounded } from './result-shape.js';
import { plainDocument } from '../base/untrusted-text.js';

import { RESULT_FORMAT, RESULT_KINDS } from '../output/result-format.js';

export { RESULT_FORMAT, RESULT_KINDS };

/**
 * Writes the result whole or not at all: a write that fails leaves the previous file as it was.
 * @param {string} path
 * @param {object} result a RunResult, TuneResult, CompareResult or DiagnoseResult
 */
export function writeResultFile(path, result) {
  try {
    writeFileAtomic(path, `${JSON.stringify(result, null, 2)}\n`);
  } catch (error) {
    throw new RunError(`--out ${path}: cannot write the result file (${fsReason(error)})${keptAsItWas(path)}`);
  }
}


/**
 * Reads and checks a result file.
 * @param {string} path
 * @returns {object}
 */
export function readResultFile(path) {
  let text;
  try {
    text = readBounded(path);
  } catch (error) {
    if (error instanceof RunError) throw error;
    throw new RunError(`cannot read ${path} (${error.code ?? error.message}); give the file written by --out`);
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new RunError(`${path} is not JSON; give a file written by spawnbench --out`);
  }
  checkResultDepth(path, text);
  // Every text in it (a command, a path, process names, a CPU model) may have been edited to
  // hold terminal escapes or bidirectional controls: cleaned once, here, for every view.
  data = plainDocument(data);
  if (!data || typeof data !== 'object' || data.tool !== 'spawnbench') {
    throw new RunError(`${path} was not written by spawnbench; give a file written by --out`);
  }
  if (data.format !== RESULT_FORMAT) {
    throw new RunError(`${path} has result format ${data.format === undefined ? 'unknown' : JSON.stringify(data.format).slice(0, 40)}, this spawnbench reads format ${RESULT_FORMAT}; run the measurement again to get a new file`);
  }
  if (!RESULT_KINDS.includes(data.kind)) {
    throw new RunError(`${path} holds an unknown kind of result '${data.kind}'; expected one of ${RESULT_KINDS.join(', ')}`);
  }
  checkResultShape(path, data);
  return data;
}
