/** The command table: cli.js registers each entry the same way. */
import run from './run.js';
import list from './list.js';

export const COMMANDS = [run, list];
