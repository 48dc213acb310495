/**
 * Short labels that both the text reports (src/report/) and the dashboard
 * (src/ui/) show. Those two folders sit side by side and do not import each
 * other, so a label both need lives here, once.
 */

/** What the policy column says when a user's server balanced with its own code (no policy knob). */
export const OWN_POLICY_LABEL = '(own)';

/**
 * A policy for a table cell or a progress line: the policy, or OWN_POLICY_LABEL for none.
 * @param {string|null} policy
 * @returns {string}
 */
export function policyLabel(policy) {
  return policy ?? OWN_POLICY_LABEL;
}

/** The metrics (src/analysis/metrics.js, by id) whose label is not their id with dashes as spaces. */
const METRIC_LABELS = /** @type {Record<string, string>} */ ({ rps: 'req/s', p999: 'p99.9', elu: 'ELU' });

/**
 * A metric's label in lines, tables and the dashboard: 'req/s', 'p99', 'blocked in spawn'.
 * @param {string} id
 * @returns {string}
 */
export function metricLabel(id) {
  return METRIC_LABELS[id] ?? id.replaceAll('-', ' ');
}

/** What set a CPU budget narrower than the host, in words. */
export const BUDGET_SOURCE_WORDS = { quota: 'cgroup quota', cpuset: 'cpuset', affinity: 'CPU affinity' };
const UNREADABLE_WORDS = {
  'not-linux': 'no cgroups on this OS',
  'no-proc': '/proc unreadable',
  'no-cgroup-fs': 'no cgroup filesystem',
  permission: 'cgroup files not readable',
};

/**
 * The machine's CPU as every view names it: "2 cores", "16 cores, 24 threads",
 * "1.0 CPU: cgroup quota, on a 2-core host", "1 CPU: CPU affinity, on a 2-core
 * host" ("CPU affinity of the server" when the server has fewer CPUs than spawnbench), or
 * with "(availableParallelism(): no cgroup filesystem)" when the limits
 * could not be read. A saved result without `cpu` (before the budget) says "N cores".
 * @param {{ cores?: number, cpu?: { budget: number, source: string, hostThreads: number, physicalCores: number|null, unreadable: { reason: string }|null, server?: boolean } }|null} machine
 * @returns {string}
 */
export function cpuBudgetLabel(machine) {
  const cpu = machine?.cpu;
  if (!cpu) return machine?.cores ? plural(machine.cores, 'core') : '';
  const host = hostLabel(cpu);
  const unread = cpu.unreadable ? ` (availableParallelism(): ${UNREADABLE_WORDS[cpu.unreadable.reason] ?? cpu.unreadable.reason})` : '';
  if (cpu.source === 'host') return `${host}${unread}`;
  const adjective = hostLabel(cpu, '-');
  // "an 8-core", "an 11-core", "an 18-core": said as a vowel.
  const whose = cpu.server ? ' of the server' : '';
  return `${budgetAmount(cpu)}: ${BUDGET_SOURCE_WORDS[cpu.source]}${whose}, on ${/^(8|11-|18-)/.test(adjective) ? 'an' : 'a'} ${adjective} host${unread}`;
}

/** The budget alone, short: "1.0 CPU" (a quota) or "2 CPUs". */
export function budgetAmount(cpu) {
  const amount = cpu.source === 'quota' ? cpu.budget.toFixed(cpu.budget < 0.1 ? 2 : 1) : String(cpu.budget);
  return `${amount} CPU${cpu.budget > 1 ? 's' : ''}`;
}

/** "2 cores", "16 cores, 24 threads"; as an adjective ("-"): "2-core", "16-core, 24-thread". */
function hostLabel(cpu, join = ' ') {
  const cores = cpu.physicalCores ?? cpu.hostThreads;
  const word = (n, noun) => (join === '-' ? `${n}-${noun}` : plural(n, noun));
  return cores < cpu.hostThreads ? `${word(cores, 'core')}, ${word(cpu.hostThreads, 'thread')}` : word(cpu.hostThreads, 'core');
}

function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * One pool worker's death, as the summary, the dashboard and the HTML report say it:
 * "worker 0 (pid 4242) died (SIGKILL) at 2.5 s; replaced by pid 4250" (a worker thread:
 * "thread 3"; in the warm-up: "in the warm-up"; not replaced yet: no "replaced by").
 * @param {import('../analysis/worker-deaths.js').WorkerDeath} d
 * @returns {string}
 */
export function workerDeathLabel(d) {
  const who = d.threadId != null ? `thread ${d.threadId}` : d.pid != null ? `pid ${d.pid}` : null;
  const how = d.signal ? ` (${d.signal})` : d.code != null ? ` (exit code ${d.code})` : '';
  const when = !Number.isFinite(d.atMs) ? '' : d.atMs < 0 ? ' in the warm-up' : ` at ${(d.atMs / 1000).toFixed(1)} s`;
  const next = d.replacedByThreadId != null ? `thread ${d.replacedByThreadId}` : d.replacedBy != null ? `pid ${d.replacedBy}` : null;
  return `worker ${d.id}${who ? ` (${who})` : ''} died${how}${when}${next ? `; replaced by ${next}` : ''}`;
}

/**
 * The kinds of a Node process's other threads (src/sample/thread-kinds.js), as views name them:
 * libuv's threads are a threadpool's threads, never "workers" (a worker is a process or a Worker thread).
 */
export const THREAD_KIND_WORDS = Object.freeze({
  threadpool: 'libuv threadpool',
  v8: 'V8 platform (GC, compiler)',
  node: 'Node signal/inspector',
  libvips: 'libvips (sharp)',
  native: 'other native',
});
