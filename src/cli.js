/**
 * createProgram(): the commander program, built from the command table and not yet
 * parsed, so tests can drive it without a process. runCli() parses, runs, and turns
 * every failure into one line and an exit code (2: usage, 1: runtime).
 */
import { Command, CommanderError } from 'commander';
import { COMMANDS } from './commands/index.js';
import { UsageError } from './base/errors.js';
import { VERSION } from './base/version.js';

/** The exit codes, as --help lists them (README: "Exit codes"). */
const EXIT_CODES_HELP = '\nExit codes: 0 done, 1 runtime failure or no request succeeded, 2 bad input,\n3 an --assert failed, 130/143/129 stopped by Ctrl-C/SIGTERM/SIGHUP.';

/** Commander's own "help shown" and "version shown" are successes. */
const COMMANDER_SUCCESS = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/**
 * @typedef {object} Io
 * @property {NodeJS.WritableStream & {isTTY?: boolean, columns?: number}} stdout
 * @property {NodeJS.WritableStream} stderr
 * @property {NodeJS.ReadableStream} stdin
 * @property {Record<string, string|undefined>} env
 * @property {number} [exitCode] set by the command that ran
 */

/** The real terminal. */
export function processIo() {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/**
 * The words that ask only for the program's version or its top-level help: for them the
 * commands' options (src/plan/options.js and what their defaults read) are not loaded, so
 * `spawnbench --version` and `spawnbench --help` start in the time Node itself takes (issue 28).
 */
const TOP_LEVEL_ONLY = new Set(['--version', '-v', '--help', '-h', 'help']);

/** The commands of the table (commander adds `help`, which takes no options). */
const OURS = new Set(COMMANDS.map((def) => def.name));

/**
 * Whether argv asks only for the version or the top-level help (`help <command>` is a command's help).
 * @param {string[]} argv
 */
export function asksTopLevelOnly(argv) {
  return argv.length > 0 && argv.every((word) => TOP_LEVEL_ONLY.has(word));
}

/**
 * @param {Io} [io]
 * @param {{ commandOptions?: boolean }} [how] commandOptions false: the commands without their
 *   options, for the top-level help and --version only
 * @returns {Promise<Command>}
 */
export async function createProgram(io = processIo(), { commandOptions = true } = {}) {
  const [{ addOptionGroups }, { cliOptions }] = commandOptions
    ? await Promise.all([import('./plan/options.js'), import('./plan/option-declarations.js')])
    : [{ addOptionGroups: null }, { cliOptions: null }];
  const program = new Command('spawnbench')
    .description('Load-test, diagnose and size Node.js servers, with special knowledge of those that spawn a process per request')
    .version(VERSION, '-v, --version')
    .showSuggestionAfterError(true)
    .enablePositionalOptions() // options after a command's operands belong to it (diagnose -- node server.js --port 4)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // Commander's own errors (unknown option, missing value) as one line.
      outputError: (s, write) => write(`spawnbench: ${s.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').trim()}; see spawnbench --help\n`),
    })
    // Every command takes options; the top-level help says so whether or not they were loaded.
    .configureHelp({ subcommandTerm: (cmd) => [cmd.name(), ...(OURS.has(cmd.name()) ? ['[options]'] : []), ...cmd.registeredArguments.map(argumentTerm)].join(' ') });
  for (const def of COMMANDS) {
    const command = program.command(def.name, { isDefault: Boolean(def.isDefault) }).description(def.summary);
    if (def.arguments) command.arguments(def.arguments);
    if (def.passThrough) command.passThroughOptions();
    if (addOptionGroups) {
      addOptionGroups(command, def.groups, def.name);
      def.options?.(command);
    }
    command.addHelpText('after', EXIT_CODES_HELP);
    command.exitOverride().configureOutput(program.configureOutput());
    command.action(async (...args) => {
      const cmd = args.at(-1);
      const operands = args.slice(0, -2);
      // Typed values, defaults filled in, and which options were given (getOptionValueSource).
      io.exitCode = await def.action(cliOptions ? cliOptions(cmd, def.name) : cmd.opts(), io, operands, cmd);
    });
  }
  if (!program.commands.some((c) => c.name() === 'help')) program.addHelpCommand(true);
  program.addHelpText('after', '\nRun `spawnbench <command> --help` for the options of a command (`spawnbench run --help` for the default command\'s).');
  program.addHelpText('after', EXIT_CODES_HELP);
  return program;
}

/** An argument as commander's help writes it: <file>, [command...]. */
function argumentTerm(arg) {
  const name = `${arg.name()}${arg.variadic ? '...' : ''}`;
  return arg.required ? `<${name}>` : `[${name}]`;
}

/** Executables a server is commonly started with: `spawnbench node server.js` meant `spawnbench -- node server.js`. */
const LAUNCHERS = ['node', 'nodejs', 'npm', 'npx', 'bun', 'deno', 'yarn', 'pnpm', 'pm2-runtime', 'sh', 'bash'];

/** A word with arguments after it, a path, or a known launcher: a server command, not a mistyped command name. */
function looksLikeServerCommand(words) {
  return words.length > 1 || /[/.]/.test(words[0]) || LAUNCHERS.includes(words[0]);
}

/**
 * Parses argv (without node and script), runs the command and returns the exit code.
 * Never throws: errors become one line on stderr (a stack only with --debug).
 * @param {string[]} argv
 * @param {Io} [io]
 * @returns {Promise<number>}
 */
export async function runCli(argv, io = processIo()) {
  const own = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const debug = own.includes('--debug');
  // run is the default command and takes no operands, so a mistyped command name reached
  // it as "too many arguments for 'run'": say what it is.
  const first = own[0];
  if (first !== undefined && !first.startsWith('-') && !COMMANDS.some((c) => c.name === first) && first !== 'help') {
    const fix = looksLikeServerCommand(own) ? `to measure your own server, put -- before its command: spawnbench -- ${own.join(' ')}` : 'see spawnbench --help';
    io.stderr.write(`spawnbench: unknown command '${first}'; commands: ${COMMANDS.map((c) => c.name).join(', ')}; ${fix}\n`);
    return 2;
  }
  try {
    const program = await createProgram(io, { commandOptions: !asksTopLevelOnly(argv) });
    await program.parseAsync(argv, { from: 'user' });
    return io.exitCode ?? 0;
  } catch (error) {
    if (error instanceof CommanderError) return COMMANDER_SUCCESS.has(error.code) ? 0 : 2;
    const code = error.exitCode ?? 1;
    const message = error instanceof UsageError || code === 2 ? error.message : error.message || String(error);
    io.stderr.write(`spawnbench: ${message}${debug && error.stack ? `\n${error.stack}` : ''}\n`);
    return code;
  }
}
