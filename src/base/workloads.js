/**
 * Workloads: the command every request runs. Known workloads carry the exact bytes
 * a correct server returns, so every response can be checked ("no cheating").
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UsageError } from './errors.js';

export const LARGE_FIXTURE = fileURLToPath(new URL('../../fixtures/large.txt', import.meta.url));

/** @typedef {{ name: string, command: string, args: string[], expected: Buffer|null }} Workload */

const KNOWN = {
  echo: () => ({ name: 'echo', command: 'echo', args: ['hi'], expected: Buffer.from('hi\n') }),
  large: () => ({ name: 'large', command: 'cat', args: [LARGE_FIXTURE], expected: readFileSync(LARGE_FIXTURE) }),
};
export const WORKLOAD_NAMES = Object.keys(KNOWN);

/**
 * The workload a run's options name: --workload-cmd's command when given (the two
 * exclude each other: option-declarations.js), else the named workload.
 * @param {import('../plan/option-declarations.js').PlanOptions} options the options read: `workload`, and `workloadCmd` when given
 * @returns {Workload}
 */
export function resolveWorkload({ workload, workloadCmd }) {
  if (workloadCmd !== undefined) {
    const [command, ...args] = splitCommand(workloadCmd);
    if (!command) throw new UsageError('--workload-cmd needs a command, like --workload-cmd "printf hello"');
    return { name: 'custom', command, args, expected: null };
  }
  if (!Object.hasOwn(KNOWN, workload)) throw new UsageError(`--workload '${workload}' is not one of: ${WORKLOAD_NAMES.join(', ')}; or give --workload-cmd "<cmd> [args]"`);
  return KNOWN[workload]();
}

/**
 * Splits a command line into argv the way a shell would quote, without a shell:
 * no expansion, no pipes, just words, 'single' and "double" quotes and backslashes.
 * @param {string} line
 * @param {string} [flag] the option it came from, for the error message
 * @returns {string[]}
 */
export function splitCommand(line, flag = '--workload-cmd') {
  const words = [];
  let word = '';
  let inWord = false;
  let quote = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new UsageError(`${flag} has an unclosed ${quote} quote: ${line}`);
  if (inWord) words.push(word);
  return words;
}

/** A workload as plain JSON (for results and logs): the expected bytes become their length. */
export function describeWorkload(workload) {
  return { name: workload.name, command: workload.command, args: workload.args, expectedBytes: workload.expected?.length ?? null };
}
