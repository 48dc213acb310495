/** A command's operands after `--`, read without loading an engine (tune's and diagnose's). */

/**
 * The server command given after `--` (or as operands), or null when none was
 * given at all: `tune --` with nothing after it is an empty command (a usage
 * error), unlike `tune` alone.
 * @param {string[][]} operands the command's variadic operand
 * @param {import('commander').Command} cmd
 * @returns {string[]|null}
 */
export function commandOperands(operands, cmd) {
  const command = operands[0] ?? [];
  if (command.length > 0) return command;
  // rawArgs: the argv the program parsed (commander sets it; its typings leave it out).
  const program = /** @type {(import('commander').Command & { rawArgs?: string[] })|null} */ (cmd.parent);
  const raw = program?.rawArgs ?? [];
  return raw.includes('--') ? [] : null;
}
