/** spawnbench report <file>: print a saved result (written by --out) again: summary, table, recommendation. */
import { RunError, UsageError } from '../base/errors.js';

/**
 * The text formatter of each kind of result (every kind readResultFile accepts),
 * loaded for the one kind shown: --help never loads a formatter (issue 28).
 */
const FORMATTERS = {
  run: async () => (await import('../report/summary.js')).formatSummary,
  tune: async () => (await import('../report/tune-text.js')).formatTune,
  compare: async ({ markdown }) => {
    const { formatCompare, formatCompareMarkdown } = await import('../report/compare-text.js');
    return markdown ? formatCompareMarkdown : formatCompare;
  },
  diagnose: async () => (await import('../report/diagnose-text.js')).formatDiagnose,
};

export default {
  name: 'report',
  summary: 'print a result file written by --out again (run summary, tune recommendation, compare table)',
  arguments: '<file>',
  groups: [],
  options: (cmd) =>
    cmd
      .option('--json', 'print the file\'s result as one JSON document')
      .option('--markdown', 'compare tables as Markdown')
      .option('--html <out>', 'write the result as a self-contained HTML report to this file')
      .option('--against <old.json>', 'compare a run or diagnose result with an older one: changes beyond the noise')
      .option('--assert <expr>', 'check the saved result as run --assert does; exit 3 when one fails (repeatable)', (v, prev = []) => [...prev, v])
      .option('--debug', 'show stack traces'),
  async action(options, io, [file]) {
    // The file's reader and the checks load when a file is reported: --help never pays for them (issue 28).
    const [{ readResultFile }, { sameFile }, { prepareExtras, hasExtras }] = await Promise.all([
      import('../report/result-file.js'), import('../output/atomic-file.js'), import('./extras.js'),
    ]);
    // The HTML over the file it is made from would lose the result.
    if (typeof options.html === 'string' && sameFile(options.html, file)) {
      throw new UsageError(`--html ${options.html} is the result file being read; give the report its own file, like --html report.html`);
    }
    if (typeof options.html === 'string' && typeof options.against === 'string' && sameFile(options.html, options.against)) {
      throw new UsageError(`--html ${options.html} is the --against file being read; give the report its own file, like --html report.html`);
    }
    const saved = readSaved(readResultFile, file);
    const extras = prepareExtras(options, 'report', saved.kind);
    const { decorateResult, finishExtras } = await import('./extras-result.js');
    const result = hasExtras(extras) ? decorateResult(saved, extras) : saved;
    if (options.json) {
      io.stdout.write(`${JSON.stringify(result)}\n`);
      return hasExtras(extras) ? finishExtras(result, extras, io, { json: true }) : 0;
    }
    const format = await FORMATTERS[result.kind](options);
    let text;
    try {
      text = format(result);
    } catch (error) {
      // A shape the checks did not foresee: still the file's fault, said in one line.
      if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
      const { fieldReadLast, describeValue } = await import('../report/field-read-last.js');
      const field = fieldReadLast(format, result);
      const where = field ? ` (the report stopped at its "${field.path}": ${describeValue(field.value)})` : '';
      throw new UsageError(`${file} has the header of a spawnbench ${result.kind} result but not a shape the report can read${where}; give a file written by --out, unedited`);
    }
    io.stdout.write(`${text}\n`);
    return hasExtras(extras) ? finishExtras(result, extras, io, { json: false }) : 0;
  },
};

/**
 * The file to print, read and checked. A file that is missing, not a result or not of
 * this version is bad input (exit 2), as the same file given to --against is.
 */
function readSaved(readResultFile, file) {
  try {
    return readResultFile(file);
  } catch (error) {
    throw error instanceof RunError ? new UsageError(error.message) : error;
  }
}
