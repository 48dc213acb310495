/**
 * Words for a user's own server in tune, compare and diagnose: how the sweep
 * reached it, the policy it was not tuned on, the table of its processes and
 * whether its balancing was lopsided, and command lines a user can paste.
 * Plain figures and ids in, strings out.
 */
import { int, pct } from './format.js';

/**
 * An argv as a line a POSIX shell reads back to the same words: plain words as
 * they are, others in single quotes.
 * @param {string[]} argv
 * @returns {string}
 */
export function shellLine(argv) {
  return argv.map((word) => (/^[\w@%+=:,./{}-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`)).join(' ');
}

/**
 * "command 'node server.js --workers {size}' · size via WORKERS and {size} · policy via {policy}"
 * @param {{ base: object, knobs: object }} plan TuneResult plan
 */
export function describeCommandTarget(plan) {
  const { knobs } = plan;
  const via = (env, arg, placeholder) => [env ? `$${env}` : null, arg ? placeholder : null].filter(Boolean).join(' and ');
  const policy = knobs.policyEnv || knobs.policyArg ? `policy via ${via(knobs.policyEnv, knobs.policyArg, '{policy}')}` : 'policy not tuned';
  return `command '${shellLine(plan.base.target.command)}' · size via ${via(knobs.sizeEnv, knobs.sizeArg, '{size}')} · ${policy}`;
}

/**
 * The "busiest" cell of the evidence table: how many even shares the busiest worker did (1.00× = even).
 * @param {{ ratio: number, id: string }|undefined} balance
 */
export function balanceCell(balance) {
  if (!balance) return '–';
  return `${balance.ratio.toFixed(2)}×${balance.id === 'lopsided' ? ' lopsided' : ''}`;
}

/**
 * The sentence for a recommendation whose policy was not tuned.
 * @param {{ policyReason?: string }} rec
 * @returns {string[]}
 */
export function policyNotTunedSentences(rec) {
  if (rec.policyReason !== 'no-policy-knob') return [];
  return ['Policy not tuned: your server balances with its own code at every size. To compare policies, pass the one to use through --policy-env NAME or {policy} in its arguments, with --balance-policies listing the values it understands.'];
}

/**
 * The processes of the user's server at the recommended size, and how evenly its workers shared the work.
 * @param {{ size: number, policy: string|null, repeat: number, rows: object[], balance: object|null }|null} processes
 * @returns {string[]}
 */
export function formatServerProcesses(processes) {
  if (!processes?.rows.length) return [];
  const policy = processes.policy === null ? '' : `, ${processes.policy}`;
  const threads = processes.rows.some((r) => r.role === 'thread');
  const header = ['process', 'spawns/s', 'blocked in spawn', 'ELU', ...(threads ? ['busy'] : []), 'CPU'];
  const rows = processes.rows.map((r) => [
    r.role === 'main' || r.label.startsWith('pid') || r.label.startsWith('thread') ? `${r.label}${r.role === 'main' ? `, pid ${r.pid}` : ''}` : r.label,
    int(r.spawnsPerSec),
    pct(r.blockedFraction),
    Number.isFinite(r.elu) ? r.elu.toFixed(2) : '–',
    ...(threads ? [Number.isFinite(r.busy) ? `${pct(r.busy)}${r.busyFrom === 'cpu' ? ' CPU' : ''}` : '–'] : []),
    Number.isFinite(r.cpuPct) ? `${Math.round(r.cpuPct)}%` : '–',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  const lines = [`Your server's processes at size ${processes.size}${policy} (repeat ${processes.repeat})`, line(header), ...rows.map(line)];
  if (processes.rows.some((r) => r.role === 'thread' && r.busyFrom === 'cpu')) {
    lines.push('busy … CPU: the thread\'s time on a CPU or waiting for one, since its ELU counted waiting for work (Atomics.wait) as busy.');
  }
  const b = processes.balance;
  if (b) {
    // The table's "busiest" column gives the same ratio for every size and policy measured.
    const basis = b.basis === 'spawns' ? 'spawns' : 'CPU';
    lines.push(b.id === 'lopsided'
      ? `Lopsided: ${b.busiest} did ${pct(b.busiestShare)} of the workers' ${basis} (${b.ratio.toFixed(2)}× an even share of ${pct(1 / b.workers)}; lopsided from ${b.threshold}×): the server's balancing leaves workers idle.`
      : `Even: the busiest worker (${b.busiest}) did ${pct(b.busiestShare)} of the workers' ${basis}, ${b.ratio.toFixed(2)}× an even share.`);
  } else if (processes.rows.filter((r) => r.role !== 'main').length === 0) {
    lines.push('Only the main process was seen: the work ran on its own thread (or on threads the probe does not see, like libuv\'s pool).');
  }
  return lines;
}
