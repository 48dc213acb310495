/** The command table: cli.js registers each entry the same way. */
import run from './run.js';
import list from './list.js';
import tune from './tune.js';
import compare from './compare.js';
import report from './report.js';
import diagnose from './diagnose.js';

export const COMMANDS = [run, list, tune, compare, report, diagnose];
