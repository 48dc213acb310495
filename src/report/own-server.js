/**
 * Words for a user's own server in tune, compare and diagnose: how the sweep
 * reached it, the policy it was not tuned on, the table of its processes and
 * whether its balancing was lopsided, and command lines a user can paste.
 * Plain figures and ids in, strings out.
 */
import { int, pct } from './text-format.js';
import { OTHER_THREAD_BUSY_PCT } from '../base/thresholds.js';
import { isWorkerEntry } from '../machine/process-roles.js';
import { processGain, deployProcesses } from '../analysis/process-count.js';
import { isFiniteNumber } from '../analysis/stats.js';

/** @typedef {import('../analysis/size-knob.js').SizeKnob} SizeKnob */

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
 * @param {{ base: { target: { command: string[] } }, knobs: { processes?: boolean, policyEnv?: string|null, policyArg?: boolean,
 *   sizeEnv?: string|null, sizeArg?: boolean } }} plan TuneResult plan
 */
export function describeCommandTarget(plan) {
  const { knobs } = plan;
  if (knobs.processes) return `command '${shellLine(plan.base.target.command)}' · processes via node:cluster (--processes), round-robin`;
  /** @type {(env: string|null|undefined, arg: boolean|undefined, placeholder: string) => string} */
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
 * @param {{ knobs?: { processes?: boolean } }|null} [plan] the TuneResult's plan
 * @returns {string[]}
 */
export function policyNotTunedSentences(rec, plan = null) {
  if (rec.policyReason !== 'no-policy-knob' || plan?.knobs?.processes) return [];
  return ['Policy not tuned: your server balances with its own code at every size. To compare policies, pass the one to use through --policy-env NAME or {policy} in its arguments, with --balance-policies listing the values it understands.'];
}

/**
 * A `--processes` sweep's recommendation: the gain it measured and how to deploy
 * that many processes, and what a cluster changes.
 * @param {{ plan: { knobs?: { processes?: boolean }, base: { target: { command: string[] } } },
 *   recommendation: Parameters<typeof processGain>[0] & { bottleneck?: { findings?: Array<{ kind: string }> }|null } }} result a TuneResult
 * @returns {string[]}
 */
export function processSweepSentences(result) {
  if (!result.plan?.knobs?.processes) return [];
  const g = processGain(result.recommendation);
  if (!g) return [];
  const n = g.size;
  // An open loop served in full at the best size (bottleneck.js 'rate'): the rate, not the processes, set the throughput.
  const rateBound = (result.recommendation.bottleneck?.findings ?? []).some((f) => f.kind === 'rate');
  // "more processes did not serve more here" was said of a tune stopped before its second size, where none larger was measured.
  const largerMeasured = (result.recommendation.sizes ?? []).some((s) => s.size > n && isFiniteNumber(typeof s.rps === 'number' ? s.rps : s.rps?.median));
  if (g.size === g.baseSize && !largerMeasured && !rateBound) return n === 1 ? [] : [deploySentence(result, n)];
  const measured = g.size === g.baseSize
    ? `${processes(n)} measured best (${int(g.rps)} req/s): ${rateBound ? 'every size served the rate offered, so throughput cannot tell them apart here (the bottleneck above)' : 'more processes did not serve more here'}.`
    : `${processes(n)} served ${int(g.rps)} req/s, ${g.gain === null ? 'where' : `${g.gain.toFixed(2)}× what`} ${processes(g.baseSize)} served (${int(g.baseRps)}).`;
  if (n === 1) return [measured];
  return [measured, deploySentence(result, n)];
}

/**
 * How to run n processes of the server swept.
 * @param {{ plan: { base: { target: { command: string[] } } } }} result
 * @param {number} n
 */
function deploySentence(result, n) {
  const { pm2 } = deployProcesses(result.plan.base.target.command, n);
  return `To run ${processes(n)}: ${pm2 ? `\`${shellLine(pm2)}\` (PM2's cluster mode), ` : ''}node:cluster in your entry file (fork ${n} workers that each listen on the same port), or ${n} replicas behind a load balancer. ` +
    'Each process has its own memory: in-memory state (sessions, caches, rate limits, counters) is per process, so keep shared state in a store such as Redis or a database.';
}

/** @param {number} n */
function processes(n) {
  return n === 1 ? '1 process' : `${n} processes`;
}

/**
 * The processes of the user's server at the recommended size, and how evenly its workers shared the work.
 * @param {{ size: number, policy: string|null, repeat: number, rows: import('../analysis/worker-balance.js').ProcessRow[],
 *   balance: ReturnType<typeof import('../analysis/worker-balance.js').workerBalance>|null }|null|undefined} processes
 * @returns {string[]}
 */
export function formatServerProcesses(processes) {
  if (!processes?.rows.length) return [];
  const policy = processes.policy === null ? '' : `, ${processes.policy}`;
  const threads = processes.rows.some((r) => r.role === 'thread');
  const header = ['process', 'spawns/s', 'blocked in spawn', 'ELU', ...(threads ? ['busy'] : []), 'CPU'];
  const rows = processes.rows.map((r) => [
    r.role === 'main' || r.role === 'launcher' ? `${r.label}, pid ${r.pid}` : r.label,
    int(r.spawnsPerSec),
    pct(r.blockedFraction),
    typeof r.elu === 'number' && Number.isFinite(r.elu) ? r.elu.toFixed(2) : '–',
    ...(threads ? [Number.isFinite(r.busy) ? `${pct(r.busy)}${r.busyFrom === 'cpu' ? ' CPU' : ''}` : '–'] : []),
    typeof r.cpuPct === 'number' && Number.isFinite(r.cpuPct) ? `${Math.round(r.cpuPct)}%` : '–',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (/** @type {string[]} */ r) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
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
  } else if (processes.rows.filter(isWorkerEntry).length === 0) {
    const other = processes.rows.find((r) => r.role === 'main')?.otherThreads;
    lines.push(typeof other?.cpuPct === 'number' && other.cpuPct >= OTHER_THREAD_BUSY_PCT
      ? `No worker process or Worker thread: the work ran on the main thread and on its other threads (libuv's pool, V8's): ` +
        `${Math.round(other.busy ?? 0)} of ${other.count} worked (≥ ${OTHER_THREAD_BUSY_PCT}% of a core), ${Math.round(other.cpuPct)}% of a core together, the busiest ${Math.round(other.maxCpuPct ?? 0)}%.`
      : `Only the main process was seen, and its other threads (libuv's pool, V8's) were nearly idle (${Math.round(other?.cpuPct ?? 0)}% of a core together): the work ran on its main thread.`);
  }
  return lines;
}

/**
 * Where the size of a user's server came from, for the summary:
 * "size 4 from WORKERS=4 in the environment", "4 workers seen; no knob found".
 * @param {import('../analysis/size-knob.js').SizeKnob|null} knob
 * @returns {string[]} the line, then one per knob found but not believed
 */
export function describeSizeKnob(knob) {
  if (!knob) return [];
  const seen = seenText(knob.seen);
  const lines = [];
  const value = knob.value ?? '?';
  if (knob.source === 'given') {
    const via = knob.kind === 'env' ? `--size-env ${knob.name}${knob.value !== null ? ` (${knob.name}=${knob.value})` : ' (not set: the server\'s own default)'}` : '{size} in its arguments';
    lines.push(`size ${knob.size ?? '?'} from ${via}${knob.sizeArg && knob.kind === 'env' ? ' and {size} in its arguments' : ''}${seen ? `; ${seen}` : ''}`);
  } else if (knob.source === 'command') {
    lines.push(`size ${value} from ${knob.written} in its arguments${seen ? `; ${seen}` : ''}`);
  } else if (knob.source === 'environment' && knob.unset) {
    lines.push(`size ${value} from ${knob.name}, not set (the default)${seen ? `; ${seen}` : ''}`);
  } else if (knob.source === 'environment') {
    lines.push(`size ${value} from ${knob.written} in the environment${seen ? `; ${seen}` : ''}`);
  } else {
    lines.push(`${seen || 'one process seen (no workers)'}; no knob found`);
  }
  for (const ignored of knob.ignored ?? []) lines.push(ignoredText(ignored, knob.seen));
  return lines;
}

/** @param {SizeKnob['seen']|undefined} seen */
function seenText(seen) {
  if (!seen) return '';
  if (seen.workers > 0) return `${seen.workers} ${seen.kind === 'cluster' ? 'cluster worker' : 'worker process'}${seen.workers === 1 ? '' : seen.kind === 'cluster' ? 's' : 'es'} seen`;
  if (seen.threads > 0) return `${plural(seen.threads, 'worker thread')} seen`;
  return '';
}

/**
 * @param {SizeKnob['ignored'][number] & { written?: string }} ignored size-knob.js gives each its `written` too
 * @param {SizeKnob['seen']} seen
 */
function ignoredText(ignored, seen) {
  const what = ignored.name ? `${ignored.written} in the environment` : ignored.written;
  if (ignored.why === 'threadpool-idle') {
    return `${what} not taken as the knob: libuv's pool threads did no work to speak of (${pct((seen?.poolCpuPct ?? 0) / 100)} of a core${Number.isFinite(seen?.poolShare) ? `, ${pct(seen?.poolShare)} of the server's CPU` : ''}), so its size is not what limits the server`;
  }
  const count = seen?.workers || seen?.threads || 0;
  return `${what} not taken as the knob: ${count ? plural(count, 'worker') : 'no workers'} seen, not ${ignored.value}`;
}

/**
 * What served the port, behind which launchers: "served by pid 123 (cluster primary) behind npm → sh".
 * @param {import('../analysis/server-shape.js').ServerShape|null} server
 * @returns {string|null}
 */
export function describeServer(server, { daemonised = false } = {}) {
  if (!server?.pid) return null;
  if (daemonised) {
    const role = { cluster: 'a cluster primary', processes: 'with its forked workers', threads: 'with its worker threads', single: 'one process' }[server.kind];
    return `the command daemonised: its server runs in the background, outside its process group; measured pid ${server.pid} (${role}), which serves the port, and ended it at the end`;
  }
  const role = { cluster: 'cluster primary', processes: 'with its forked workers', threads: 'with its worker threads', single: 'one process' }[server.kind];
  const behind = server.launchers.length ? ` behind ${server.launchers.map((l) => l.name).join(' → ')}` : '';
  return `served by pid ${server.pid} (${role})${behind}${server.kind === 'cluster' ? `, ${server.clusterPolicy ? `NODE_CLUSTER_SCHED_POLICY=${server.clusterPolicy}` : 'policy rr (node:cluster\'s default)'}` : ''}`;
}

/**
 * How the recommendation's size is set on this server: "set WORKERS=2", "start it with --workers 2".
 * @param {import('../analysis/size-knob.js').SizeKnob|null|undefined} knob
 * @param {number} size
 * @returns {string|null} null when no knob was found
 */
export function knobAction(knob, size) {
  if (!knob || !/** @type {Array<string|null>} */ (['given', 'command', 'environment']).includes(knob.source)) return null;
  if (knob.kind === 'env') return `set ${knob.name}=${size}`;
  if (knob.kind === 'flag') return `start it with ${knob.flag} ${size}`;
  return `start it with ${size} in place of {size}`;
}

/**
 * @param {number} n
 * @param {string} word
 */
function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
