/**
 * The command-line options of each command, made from their declarations
 * (option-declarations.js: flags, words, typed default, parser, conflicts) and
 * grouped so that commands pick the groups they take (no option block pasted per
 * command). A default --help shows is the declared value on that command
 * (tune's and compare's shorter runs included), through commander's .default().
 */
import { Option } from 'commander';
import { OPTIONS, defaultOf, shownDefault, describeOption } from './option-declarations.js';

/** The option names of each group. */
export const OPTION_GROUPS = {
  strategy: ['strategy'],
  workload: ['workload', 'workloadCmd'],
  runtime: ['runtime', 'workerRuntime', 'seed', 'readyTimeout'],
  pool: ['poolSize', 'balance'],
  url: ['url', 'insecure'],
  load: ['connections', 'duration', 'requests', 'warmup', 'rate', 'timeout', 'method', 'header', 'body', 'mix', 'verify', 'generatorThreads'],
  output: ['json', 'dashboard', 'out', 'logFile', 'probe', 'sampleInterval', 'debug'],
  assert: ['assert'],
  against: ['against'],
  html: ['html'],
  tune: ['sizes', 'balancePolicies', 'repeat', 'search'],
  compare: ['strategies', 'workloads', 'repeat', 'command', 'markdown'],
  server: ['port', 'path'],
  sizeEnv: ['sizeEnv'],
  knobs: ['sizeEnv', 'policyEnv', 'processes'],
  diagnose: ['port', 'path', 'readyTimeout', 'cpuProf', 'cpuProfDir', 'pid'],
};

/**
 * The commander Option of a declared option on a command: its default (the
 * command's own where it has one) with the text --help shows, its parser, its conflicts.
 * @param {string} name an OPTIONS key
 * @param {string} command
 * @returns {Option}
 */
export function commanderOption(name, command) {
  const { flags, parse, conflicts, defaultWords } = OPTIONS[name];
  const description = describeOption(name, command);
  const option = new Option(flags, defaultWords ? `${description} (default: ${defaultWords})` : description);
  const value = defaultOf(name, command);
  // A --no-x flag's default (true) is commander's own, and --help says nothing of it.
  if (value !== undefined && !option.negate) option.default(value, shownDefault(name, value));
  if (parse) option.argParser(parse);
  if (conflicts) option.conflicts(conflicts);
  return option;
}

/**
 * Adds the named option groups to a commander command (an option two groups share, once).
 * @param {import('commander').Command} cmd
 * @param {string[]} groups
 * @param {string} command the command's name, for its own defaults and words
 */
export function addOptionGroups(cmd, groups, command) {
  const names = new Set(groups.flatMap((group) => OPTION_GROUPS[group]));
  for (const name of names) cmd.addOption(commanderOption(name, command));
  return cmd;
}
