/**
 * `compare --command name=<command line>`: the user's own servers as rows of the
 * comparison, each started the way diagnose starts a server. The line is split
 * into argv without a shell, exactly as --workload-cmd is.
 */
import { UsageError } from '../base/errors.js';
import { splitCommand } from '../base/workloads.js';

const EXAMPLE = '--command mine="node server.js"';

/**
 * @param {string[]} values every --command given, in order
 * @param {string[]} strategies the strategies compared with them (a name may not be both)
 * @returns {{ name: string, argv: string[] }[]}
 */
export function parseCommandEntries(values, strategies) {
  const entries = [];
  for (const value of values) {
    const at = value.indexOf('=');
    const name = at > 0 ? value.slice(0, at).trim() : '';
    if (!name) throw new UsageError(`--command '${value}' needs a name first: name=<command line>, e.g. ${EXAMPLE}`);
    if (!/^[\w.:+-]+$/.test(name)) throw new UsageError(`--command name '${name}' may hold letters, digits and . _ : + - only, e.g. ${EXAMPLE}`);
    if (entries.some((e) => e.name === name)) throw new UsageError(`two --command entries are named '${name}'; give each its own name`);
    if (strategies.includes(name)) throw new UsageError(`--command '${name}' has the name of a strategy in --strategies; name your server differently, e.g. my-${name}`);
    const argv = splitCommand(value.slice(at + 1), `--command ${name}`);
    if (argv.length === 0) throw new UsageError(`--command ${name}= has no command line; give the one that starts your server, e.g. ${EXAMPLE}`);
    entries.push({ name, argv });
  }
  return entries;
}
