/** The command table: cli.js registers each entry the same way. */
import run from './run.js';
import list from './list.js';
import tune from './tune.js';
import compare from './compare.js';
import report from './report.js';
import diagnose from './diagnose.js';

/**
 * @typedef {object} CommandDef one command, as cli.js registers it
 * @property {string} name
 * @property {string} summary          its line in the top-level --help
 * @property {boolean} [isDefault]     run when no command is named
 * @property {string} [arguments]      its operands, as commander writes them ('[command...]', '<file>')
 * @property {boolean} [passThrough]   options after the operands are the operands' (a server's own flags)
 * @property {string[]} groups         the option groups of src/plan/options.js it takes
 * @property {(command: import('commander').Command) => unknown} [options] its own options and help text
 * @property {(options: Record<string, any>, io: object, operands: any[], cmd: import('commander').Command) => Promise<number>} action
 *   `options`: the options read by cliOptions() (src/plan/option-declarations.js): typed values, defaults filled in
 *   (the command's own, COMMAND_DEFAULTS), and `given`, the names the user set; `operands`: commander's action arguments before the options; the exit code
 */

/** @type {CommandDef[]} */
export const COMMANDS = [run, list, tune, compare, report, diagnose];
