/** spawnbench report <file>: print a saved result (written by --out) again: summary, table, recommendation. */
import { readResultFile } from '../report/result-file.js';
import { RunError } from '../errors.js';
import { formatSummary } from '../report/summary.js';
import { formatTune } from '../report/tune.js';
import { formatCompare, formatCompareMarkdown } from '../report/compare.js';
import { formatDiagnose } from '../report/diagnose.js';

/** The text formatter of each kind of result (every kind readResultFile accepts). */
const FORMATTERS = {
  run: () => formatSummary,
  tune: () => formatTune,
  compare: ({ markdown }) => (markdown ? formatCompareMarkdown : formatCompare),
  diagnose: () => formatDiagnose,
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
      .option('--debug', 'show stack traces'),
  async action(options, io, [file]) {
    const result = readResultFile(file);
    if (options.json) {
      io.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    }
    let text;
    try {
      text = FORMATTERS[result.kind](options)(result);
    } catch (error) {
      // A shape the checks did not foresee: still the file's fault, said in one line.
      if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
      throw new RunError(`${file} has the header of a spawnbench ${result.kind} result but not its shape (${error.message}); give a file written by --out, unedited`);
    }
    io.stdout.write(`${text}\n`);
    return 0;
  },
};
