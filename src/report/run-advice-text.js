/**
 * The Recommendation block that ends a run's summary, the `report` of a saved
 * run and the dashboard: the advice of src/analysis/run-advice.js in words,
 * wrapped to 80 columns. Plain objects in, lines out.
 */
import { int, ms, pct } from './text-format.js';
import { shellQuote } from '../analysis/confirm-command.js';
import { knobAction, shellLine } from './own-server.js';
import { deployProcesses } from '../analysis/process-count.js';
import { budgetAmount, BUDGET_SOURCE_WORDS } from '../base/labels.js';
import { bottleneckFindingText, othersClause } from './tune-words.js';
import { downstreamName, errorLabel, quote, otherUserText, spinningText, SPINNING_NEXT, TOO_LARGE } from './reasons.js';
import { LIMIT_FIX } from './spawn-failures-text.js';

/**
 * The limit a failed spawn ran into, as the shell sets it (src/analysis/spawn-failures.js `limit`).
 * @type {Record<string, string>}
 */
const LIMIT_NAME = { processes: 'ulimit -u', openFiles: 'ulimit -n' };

/**
 * A reason's figures: free-form per reason id (src/analysis/run-advice.js and own-run-advice.js
 * name their own), and a result file from an older version may lack some.
 * @typedef {Record<string, any>} Figures
 */

/** @typedef {import('../analysis/run-advice.js').RunAdvice} RunAdvice */
/** @typedef {import('../analysis/size-knob.js').SizeKnob} SizeKnob */

/** @typedef {{ poolSize?: number|null, balance?: string|null, strategy?: string|null }} Current what the run used */

/** The summary fits an 80-column terminal (the same width as the process lines). Columns */
const MAX_COLUMNS = 80;
/** Indent of the reasons under the headline. Columns */
const INDENT = 2;

/**
 * The whole block, title first.
 * @param {import('../analysis/run-advice.js').RunAdvice|null} advice
 * @param {{ poolSize?: number|null, balance?: string|null, strategy?: string|null }} [current] what the run used
 * @param {{ columns?: number }} [options]
 * @returns {string[]} lines, none longer than `columns`
 */
export function formatAdviceBlock(advice, current = {}, { columns = MAX_COLUMNS } = {}) {
  const lines = ['Recommendation'];
  for (const paragraph of adviceParagraphs(advice, current)) lines.push(...wrap(paragraph, columns, INDENT));
  const confirm = advice?.confirmWith;
  if (confirm) {
    const size = [
      Number.isFinite(confirm.steps) ? `${confirm.steps} steps` : null,
      Number.isFinite(confirm.expectedMs) ? `about ${duration(confirm.expectedMs)}` : null,
    ].filter(Boolean);
    lines.push(...wrap(`Confirm with a sweep${size.length ? ` (${size.join(', ')})` : ''}:`, columns, INDENT));
    if (Array.isArray(confirm.argv)) lines.push(...wrapCommand(confirm.argv, columns, INDENT + 2));
    else if (typeof confirm.command === 'string') lines.push(`${' '.repeat(INDENT + 2)}${confirm.command}`);
  }
  return lines;
}

/**
 * The headline, then one sentence per reason, then the basis: the part the
 * dashboard shows too.
 * @param {import('../analysis/run-advice.js').RunAdvice|null} advice
 * @param {{ poolSize?: number|null, balance?: string|null, strategy?: string|null }} [current]
 * @returns {string[]}
 */
export function adviceParagraphs(advice, current = {}) {
  if (!advice) return ['No recommendation: this result has no sampler figures to base one on (run it again with this spawnbench).'];
  const out = [headline(advice, current)];
  for (const reason of advice.reasons) {
    const text = SENTENCES[reason.id]?.(reason.figures, advice);
    if (text) out.push(`- ${text}`);
  }
  if (advice.basis === 'one-run' && advice.confidence) {
    out.push(`Based on this one run, not a sweep; confidence ${advice.confidence}.`);
  }
  return out;
}

/**
 * @param {RunAdvice} a
 * @param {Current} current
 */
function headline(a, current) {
  if (a.reasons.some((r) => r.id === 'requests-failed')) return 'No recommendation: most requests failed.';
  if (a.reasons.some((r) => r.id === 'spawns-swallowed')) return 'No recommendation: the server\'s commands failed to start, yet their requests succeeded.';
  if (a.reasons.some((r) => r.id === 'server-exited')) return 'No recommendation: the server ended during the run.';
  if (a.reasons.some((r) => r.id === 'stopped-answering')) return 'No recommendation: the server stopped answering.';
  if (a.reasons.some((r) => r.id === 'loop-held')) return 'No recommendation: the server answered nothing, its event loop held.';
  if (a.reasons.some((r) => r.id === 'generator-stopped')) return 'No recommendation: spawnbench itself was stopped during the run.';
  const paused = a.reasons.find((r) => r.id === 'paused');
  if (paused) return paused.figures.atStart ? 'No recommendation: the server answered nothing at the start of the measured time.' : 'No recommendation: the server answered nothing for a while mid-run.';
  if (a.reasons.some((r) => r.id === 'server-restarted')) return 'No recommendation: the server restarted during the run.';
  if (a.reasons.some((r) => r.id === 'workers-unreached')) return 'No recommendation: not every worker serves the port measured.';
  if (a.reasons.some((r) => r.id === 'other-runtime')) return 'No recommendation: the server is not Node.js.';
  if (a.size === null && a.reasons.some((r) => r.id === 'quota-limit' && !/** @type {string[]} */ (r.figures.roles ?? []).includes('server'))) {
    return 'No recommendation: spawnbench\'s own CPU quota held back the load, not the server\'s.';
  }
  if (a.knob !== undefined && !a.reasons.some((r) => r.id === 'too-short')) return ownHeadline(a);
  if (a.reasons.some((r) => r.id === 'not-a-strategy')) return 'Nothing to size: spawnbench did not start this server (--url).';
  if (a.reasons.some((r) => r.id === 'too-short')) {
    return a.reasons.some((r) => r.id === 'too-short' && r.figures.stoppedEarly) ? 'Cannot tell from this run: it was stopped before its end.' : 'Cannot tell from this run: it was too short.';
  }
  if (a.strategy) {
    // A strategy to move to comes with its move-to-pool reason (run-advice.js).
    const move = /** @type {Figures} */ (a.reasons.find((r) => r.id === 'move-to-pool')?.figures);
    return `Move to ${a.strategy} with ${workers(a.size)}: about ${int(move.expectedRps)} req/s, ${gain(move.gain)} this run's ${int(move.rps)}.`;
  }
  if (a.size !== null && a.policy !== null) {
    const same = a.size === current.poolSize && a.policy === current.balance;
    const was = current.poolSize != null ? ` (this run: ${workers(current.poolSize)}, ${current.balance})` : '';
    return same ? `Keep ${workers(a.size)} with ${a.policy}: the figures call for no change.` : `Use ${workers(a.size)} with ${a.policy}${was}.`;
  }
  // The cores full with other programs' work: whether a pool's processes would win them is for a sweep to say.
  const shared = /** @type {Figures|undefined} */ (a.reasons.find((r) => r.id === 'no-gain-expected'))?.figures?.sharedCores;
  if (Number.isFinite(shared)) return `Cannot tell whether a pool would be faster: the cores were full, and other processes used ${fixed(shared, 1)} of them.`;
  if (a.reasons.some((r) => r.id === 'main-has-room' || r.id === 'no-gain-expected')) {
    return `Keep ${current.strategy ?? 'this strategy'}: a pool would not be faster here.`;
  }
  return 'Cannot tell from this run.';
}

/**
 * A user's server: the size in its knob's words ("Set WORKERS=2"), a pool for a
 * single process that is its own limit, or what limits it instead.
 * @param {RunAdvice} a
 */
function ownHeadline(a) {
  const knob = a.knob;
  /** @type {(id: string) => Figures|undefined} */
  const has = (id) => a.reasons.find((r) => r.id === id)?.figures;
  const help = has('own-pool-would-help');
  if (help) {
    const pool = help.poolKind === 'processes' ? `${workers(a.size)} in processes (node:cluster, or child_process.fork workers that spawn)` : `${workers(a.size)} (node:cluster, or worker threads for its JavaScript)`;
    return `A pool would help: ${pool}, about ${int(help.expectedRps)} req/s, ${gain(help.gain)} this run's ${int(help.rps)}.`;
  }
  const threads = has('thread-knob');
  if (threads?.limit === 'cores' && Number.isFinite(threads.sharedCores)) {
    return `Cannot tell whether more threads would be faster: the cores were full, and other processes used ${fixed(threads.sharedCores, 1)} of them.`;
  }
  if (threads?.limit === 'threadpool') return `Set ${threads.name}=${threads.trySize} at start (this run: ${threads.value}${threads.unset ? ', not set' : ''}): its threads were all busy and the cores had room.`;
  const more = has('more-processes');
  if (more) {
    // more-processes comes with the process count it advises (run-advice.js), so a size.
    const action = knobAction(knob, /** @type {number} */ (a.size));
    const pm2 = deployProcesses(more.command ?? [], /** @type {number} */ (a.size)).pm2;
    const how = action || `run ${a.size} processes of it (node:cluster${pm2 ? `, ${shellLine(pm2)}` : ', PM2\'s cluster mode'}, or ${a.size} replicas)`;
    return `More processes would help: ${how}, about ${int(more.expectedRps)} req/s, ${gain(more.gain)} this run's ${int(more.rps)}.`;
  }
  const enough = has('one-process-enough');
  // Connections the server's open-files limit closed (errors-why, error-reasons.js openFilesShort): "the limit is the
  // load offered … more connections" of a server that reset 12.5% of 30 connections under ulimit -n 45.
  const files = has('errors-why')?.filesLimit;
  if (enough?.limit === 'load' && files) {
    return `One process may be enough, but the server's open-files limit was the limit: ${int(files.openFiles)} (ulimit -n), too few for ${int(files.connections)} connections; raise it (ulimit -n ${int(files.needed)} or more) and run again.`;
  }
  const sharedCores = has('no-gain-expected')?.sharedCores;
  if (!enough && Number.isFinite(sharedCores)) return `Cannot tell whether a pool would be faster: the cores were full, and other processes used ${fixed(sharedCores, 1)} of them.`;
  // Its main thread had room and the cores were full, mostly of other processes' work: they are not the server's limit. It
  // said "the limit is the cores, not the process" of a server waiting 50 ms on a timer per request, on 0.1 of 2 cores.
  if (enough?.limit === 'cores' && othersFilled(enough)) {
    return `One process is enough: its main thread had room; the cores were full, but mostly of other processes' work (${fixed(enough.otherCores, 1)} of the ${enough.cores}), not the server's.`;
  }
  if (enough || has('no-gain-expected') || has('processes-no-gain')) {
    // One of the three is there (the test above); only one-process-enough names the quota as its limit (run-advice.js).
    const limit = enough?.limit ?? /** @type {Figures} */ (has('no-gain-expected') ?? has('processes-no-gain')).limit;
    const amount = limit === 'quota' ? ` (${fixed(/** @type {Figures} */ (enough).quotaCpus, 1)} CPU)` : '';
    if (limit === 'child') return `One process is enough: the limit is ${/** @type {Figures} */ (enough).label}, a process it started, not its main thread.`;
    if (limit === 'load' && enough?.offered) {
      const o = enough.offered;
      return `One process is enough: the limit is its ${int(o.connections)} connection${o.connections === 1 ? '' : 's'}, not the server: the open loop asked ${int(o.rate)} req/s and ${o.connections === 1 ? 'it' : 'they'} carried ${int(o.rps)}; nothing it runs on was saturated (raise --connections to offer more).`;
    }
    if (limit === 'load' && Number.isFinite(enough?.waitMs)) {
      return 'One process is enough: the limit is what its requests wait on (a database, a downstream, a timer), not the server: more connections serve more only if that has room.';
    }
    return `One process is enough: the limit is ${ownLimitName[limit] ?? limitName[limit] ?? limit}${amount}.`;
  }
  if (a.size === null) return 'Cannot tell from this run.';
  const policyChange = has('cluster-lopsided') ? ` and ${/** @type {Figures} */ (has('cluster-lopsided')).env}=${a.policy}` : '';
  const action = knobAction(knob, a.size);
  const now = knob?.size ?? null;
  if (!action) return `The figures support ${workers(a.size)}${now !== null ? ` (this run: ${now} seen)` : ''}; no size knob was found to set.`;
  // A given variable the server may not read: what ran is not its value (size-knob.js seenDiffers).
  if (knob?.seenDiffers != null) {
    return knob.name
      ? `${capital(action)}${policyChange} (this run: ${knob.name}=${knob.value}, yet ${workers(knob.seenDiffers)} seen: check that the server reads ${knob.name}).`
      : `${capital(action)}${policyChange} (this run: ${knob.value} in place of {size}, yet ${workers(knob.seenDiffers)} seen: check that the server takes its size from that argument).`;
  }
  // An action is only worded for a knob (knobAction()).
  if (a.size === now && !policyChange) return `Keep it at ${a.size}: the figures call for no change (${/** @type {SizeKnob} */ (knob).written ?? action.replace(/^set |^start it with /, '')}).`;
  return `${capital(action)}${policyChange} (this run: ${workers(now ?? 0)}).`;
}

/**
 * Whether other processes held more than half of the full cores (on a budget of the whole host, where they are
 * measured: under affinity or a quota they are not of the budget).
 * @param {Figures} f one-process-enough's figures with the cores as the limit
 */
function othersFilled(f) {
  return (f.budgetSource ?? 'host') === 'host' && Number.isFinite(f.otherCores) && Number.isFinite(f.cores) && Number.isFinite(f.share) && f.otherCores > (f.cores * f.share) / 2;
}

/** @param {string} text */
function capital(text) {
  return text[0].toUpperCase() + text.slice(1);
}

/**
 * What limits a single process when its main thread has room.
 * @type {Record<string, string>}
 */
const ownLimitName = {
  processes: 'its main thread, with no whole core to spare for a second process',
  cores: 'the cores, not the process',
  generator: 'the load generator, not the server (add --generator-threads)',
  load: 'the load offered, not the server: nothing it runs on was saturated (more connections, or what it waits for: a database, a downstream)',
  quota: 'its CPU quota',
};

/**
 * "worker 0, pid 4242, SIGKILL at 2.5 s"
 * @param {{ id: number, pid?: number|null, signal?: string|null, code: number|null, atMs?: number|null }|null|undefined} d
 */
function deathWords(d) {
  if (!d) return 'a worker';
  const how = d.signal ?? (d.code !== null ? `exit code ${d.code}` : 'exited');
  const at = typeof d.atMs === 'number' && Number.isFinite(d.atMs) ? ` at ${secs(Math.max(0, d.atMs))}` : '';
  return `worker ${d.id}${d.pid ? `, pid ${d.pid}` : ''}, ${how}${at}`;
}

/** @type {Record<string, string>} */
const limitName = { cores: 'the cores', 'main-thread': 'the main thread', generator: 'the load generator' };

/**
 * A budget of at most one CPU named as the limit takes a singular verb ("1.0 CPU (cgroup quota) serves").
 * @param {Figures} f
 */
function singularBudget(f) {
  const { cores, source } = cpuBudgetOf(f);
  return f.limit === 'cores' && source && source !== 'host' && cores <= 1;
}

/**
 * The CPUs the cores bound is for: a throttled quota on the server where it, not the budget, bounds it (pool-size.js), else the budget.
 * @param {Figures} f
 * @returns {{ cores: number, source: string|null }}
 */
function cpuBudgetOf(f) {
  return Number.isFinite(f.quotaCpus) ? { cores: f.quotaCpus, source: 'quota' } : { cores: f.cores, source: f.budgetSource ?? null };
}

/**
 * The limit in words: the cores, or a narrower CPU budget by what set it ("1.0 CPU (cgroup quota)").
 * @param {Figures} f
 * @returns {string|undefined}
 */
function limitWords(f) {
  const { cores, source } = cpuBudgetOf(f);
  if (f.limit === 'cores' && source && source !== 'host' && Number.isFinite(cores)) {
    return `${budgetAmount({ budget: cores, source })} (${/** @type {Record<string, string>} */ (BUDGET_SOURCE_WORDS)[source]})`;
  }
  return limitName[f.limit];
}

/**
 * What the idle cores were part of: the server's quota where it bounds the estimate, else the CPU budget.
 * @param {Figures} f
 */
function idleOf(f) {
  return Number.isFinite(f.quotaCpus) ? `its ${fixed(f.quotaCpus, 1)}-CPU quota` : `the CPU budget's ${fixed(f.budget, f.budget % 1 ? 1 : 0)}`;
}

/**
 * One sentence per reason id, from its figures.
 * @type {Record<string, (f: Figures, advice: RunAdvice) => string>}
 */
const SENTENCES = {
  'other-runtime': (f) =>
    `It runs ${f.program}, not Node.js: spawnbench sizes a Node.js server by its event loop, and cannot see which of this one's threads did the work` +
    `${Number.isFinite(f.cpuPct) ? ` (its process used ${pct(f.cpuPct / 100)} of a core in all${Number.isFinite(f.mainCpuPct) ? `, its main thread ${pct(f.mainCpuPct / 100)}` : ''})` : ''}. ` +
    'Measure its sizes instead: spawnbench tune --size-env NAME -- <command>, with NAME the variable it reads its workers from.',
  'not-a-strategy': () => 'Its pool, if any, is not spawnbench\'s to size; `spawnbench diagnose` says why it is slow.',
  'policy-after-death': (f) =>
    `A worker died during the run (${f.deaths === 1 ? 'one death' : `${int(f.deaths)} deaths`}): how the requests were spread says nothing about ${f.policy}, so it is kept.`,
  'worker-died': (f) =>
    `${f.deaths === 1 ? 'A pool worker died' : `${int(f.deaths)} pool worker deaths`} while measured (${deathWords(f.first)}): its requests failed and its replacement started cold, so the figures are less sure.`,
  'requests-failed': (f) =>
    `${pct(f.failedShare)} of the requests failed (${int(f.failed)} of ${int(f.attempts)}; from ${pct(f.limit)} a run is not sized): ` +
    'its figures describe the failures, not the service. Fix what makes them fail (Errors above), then run again.',
  'spawns-swallowed': (f) =>
    `${int(f.swallowed)} spawns failed (spawn ${f.command}: ${f.code}${f.limitValue !== null && LIMIT_NAME[f.limit] ? `, ${LIMIT_NAME[f.limit]} ${int(f.limitValue)}` : ''}) while ` +
    `${f.errors === 0 ? 'every request' : `${pct(f.share)} of the requests`} came back without an error: those requests "succeeded" without their commands running, ` +
    `so ${int(f.rps)} req/s is not the server's real throughput, and no size is given from it. ` +
    `${capital(f.limit ? LIMIT_FIX[f.limit] : 'make the command start (PATH, its path, its permissions)')}, or start fewer commands at once, then run again; ` +
    'and have the server answer an error when its command cannot start.',
  'server-exited': (f) =>
    `It ${f.signal ? `was killed by ${f.signal}` : f.code === null ? 'ended' : `exited with code ${f.code}`} while measured (FAILED above): the figures stop there, and a server that dies is not sized. ` +
    'Find out why it ended (its stderr, a limit such as ulimit -t or the OOM killer), then run again.',
  'server-restarted': (f) =>
    `It restarted ${f.restarts === 1 ? 'once' : `${int(f.restarts)} times`} while measured (pid ${f.pids.join(' → ')}): the figures are of more than one process and the gap between, so it is not sized. ` +
    'Find what restarts it (a file watcher such as nodemon, a supervisor after a crash: spawnbench diagnose), then run again.',
  'loop-held': (f) => `No request was answered: ${spinningText(/** @type {{ pid: number|null, label: string|null, silentMs: number, cpuPct: number }} */ (/** @type {unknown} */ (f)))}. ${SPINNING_NEXT[0].toUpperCase()}${SPINNING_NEXT.slice(1)}, then run again.`,
  'stopped-answering': (f) =>
    `${int(f.count)} ${f.count === 1 ? 'request was' : 'requests were'} still unanswered when the run ended, the oldest after ${secs(f.oldestMs)}, far longer than any answered request: ` +
    'the figures leave them out, so they are not the server\'s. ' +
    (f.spinning
      ? `${spinningText(f.spinning)}. Then ${SPINNING_NEXT}, and run again.`
      : 'Find what held it (a lock, a stopped process, a downstream that never answers: spawnbench diagnose), then run again.'),
  'generator-stopped': (f) =>
    `spawnbench did not run for ${secs(f.stoppedMs)} ${f.inWarmup ? 'in the warm-up' : `of the ${secs(f.durationMs)} measured`} (Ctrl-Z or SIGSTOP, a suspended machine, a debugger): ` +
    `${f.inWarmup ? 'the open loop sent the requests due then late, into the measured time' : 'nothing was sent then'}, ` +
    'so its throughput and latency hold that gap, not what the server can do. Run again without stopping it.',
  paused: (f) => f.atStart
    ? `It answered nothing in the first ${f.seconds === 1 ? 'second' : `${int(f.seconds)} seconds`} of the ${int(f.measuredSeconds)} measured, ` +
      `where its other seconds answered ~${int(f.medianRps)} each: it was still getting ready when the warm-up ended (a first connection to a database, a cache filled, code compiled on first use), ` +
      'and its figures hold that wait, so it is not sized. Run again with a longer --warmup (-w).'
    : `It answered nothing for ${f.seconds === 1 ? '1 second' : `${int(f.seconds)} seconds`} of the ${int(f.measuredSeconds)} measured (${f.from === f.to ? `second ${f.from}` : `seconds ${f.from}–${f.to}`}), ` +
    `where its other seconds answered ~${int(f.medianRps)} each: a pause (a debugger, SIGSTOP, a VM or container pause, a long GC) is in its figures, so it is not sized. ` +
    'Find what stopped it (spawnbench diagnose), then run again.',
  'too-short': (f) =>
    `It measured ${secs(f.durationMs)} and ${int(f.requests)} requests; a recommendation needs at least ${secs(f.minMs)} and ${int(f.minRequests)} requests` +
    (f.stoppedEarly ? ': it was stopped (Ctrl-C or a signal) before then; run it again and let it finish.' : ' (-d, -n).'),
  'no-worker-figures': () => 'No worker figures were sampled (busy time or CPU), so the pool cannot be sized from this run.',
  'no-main-figures': () => 'The main thread was not sampled, so this run cannot say whether a pool would help.',
  'cores-limit': (f) =>
    `${Number.isFinite(f.quotaCpus) ? 'The CPU quota is' : f.budgetSource && f.budgetSource !== 'host' ? 'The CPU budget is' : 'The cores are'} the limit: each request takes ${ms(f.cpuMs)} of CPU (server, commands and generator), ` +
    `so ${budgetWords(f)} ${singularBudget(f) ? 'serves' : 'serve'} at most ~${int(f.bounds.cores)} req/s.`,
  'cpu-budget': (f) =>
    `Sized for ${budgetAmount({ budget: f.budget, source: f.source })} (${/** @type {Record<string, string>} */ (BUDGET_SOURCE_WORDS)[f.source]}), not the host's ${f.hostCpus} CPUs` +
    `${Number.isFinite(f.throttledFraction) ? `; the quota throttled ${pct(f.throttledFraction)} of periods, under the ${pct(f.threshold)} where it is the limit` : ''}.`,
  'quota-limit': (f) => `${capitalFirst(bottleneckFindingText({ kind: 'cpu-quota', figures: f }))}.`,
  'main-thread-limit': (f) =>
    `The main thread is the limit: busy ${pct(f.mainElu)}${Number.isFinite(f.mainBlocked) && f.mainBlocked > 0 ? `, ${pct(f.mainBlocked)} blocked in spawn` : ''}, ` +
    `${ms(f.mainMs)} a request, so at most ~${int(f.bounds.main)} req/s whatever the pool.`,
  'generator-limit': (f) => `The load generator is the limit (ELU ${fixed(f.generatorElu)}): at most ~${int(f.bounds.generator)} req/s were sent.`,
  'workers-limit': (f) =>
    `The workers were the limit: busy ${pct(f.workersBusy)} each${f.throttled ? ', the quota\'s stops included' : f.stretch > 1.05 ? ` once the wait for a core is taken out (ELU ${fixed(f.workersElu)})` : ''}; ` +
    `the pool allowed ~${int(f.bounds.pool)} req/s, ${limitWords(f) ?? 'the rest'} ~${int(f.bounds[boundKey(f.limit)])}.`,
  'size-up': sizeSentence,
  'size-down': sizeSentence,
  'size-keep': sizeSentence,
  even: (f) =>
    `Work was spread evenly (${spreadText(f.spread)}, within chance): ${f.policy} is fine.`,
  lopsided: (f) =>
    `Work was lopsided (${spreadText(f.spread)}, beyond chance${latencyText(f.latency)}): ${f.policy} sends each request to a less loaded worker.`,
  'lopsided-kept': (f) => `Work was lopsided (${spreadText(f.spread)}), as ${f.policy} makes it when workers differ in speed: keep it.`,
  'policy-fixed': (f) => `This strategy balances with ${f.policy} only${f.lopsided ? ` (work was lopsided: ${spreadText(f.spread)})` : ''}.`,
  'quota-spread': (f) =>
    `Under the ${fixed(f.quotaCpus, 1)}-CPU quota, throttled in ${pct(f.throttledFraction)} of periods, one run cannot tell ${workers(f.low)} from ${f.high}: ` +
    `the quota's stops are in every worker's busy time, and a worker past the quota's CPUs only adds stops. The smaller is advised; the sweep below measures ${f.low} to ${f.high}.`,
  'one-worker': (f) => `With one worker there is nothing to balance; ${f.policy} stays.`,
  'no-worker-counts': (f) => `No per-worker request counts were reported, so ${f.policy} stays.`,
  'main-blocked-in-spawn': (f) =>
    `The main thread was blocked in spawn ${pct(f.blocked)} of the time (ELU ${fixed(f.elu)}): every request waits for a fork on the one thread that serves them all.`,
  'main-busy': (f) => `The main thread was busy ${pct(f.busy)} of the time (ELU ${fixed(f.elu)}): it is the limit.`,
  'move-to-pool': (f) =>
    `Spawning in workers leaves the main thread ~${ms(f.mainMsAfter)} a request; ${limitWords(f) ?? f.limit} then ${singularBudget(f) ? 'allows' : 'allow'} ~${int(f.expectedRps)} req/s. ` +
    `Each request keeps a worker ${ms(f.workerMs)}: ${fixed(f.knee)} workers' worth, planned at 80% busy.`,
  'no-gain-expected': (f) =>
    `Spawning in workers would leave ${limitWords(f) ?? f.limit} the limit at ~${int(f.expectedRps)} req/s, no more than this run's ${int(f.rps)}` +
    (Number.isFinite(f.sharedCores)
      ? `, if the cores stayed as they were; but other processes used ${fixed(f.sharedCores, 1)} of them, and a pool's processes would compete with them for the cores, which one run cannot price${f.swept ? ': the sweep below measures it' : ''}.`
      : '.'),
  'main-has-room': (f) => {
    // Judged on busy time, the wait for a core taken out: an ELU over the limit beside "had room" says why.
    const corrected = Number.isFinite(f.busy) && Number.isFinite(f.elu) && f.elu - f.busy >= 0.05;
    // Without the probe (a server on another runtime, --no-probe) the busy share is the process's CPU: "ELU –" said nothing.
    if (!Number.isFinite(f.elu) && Number.isFinite(f.busy)) return `Its main thread had room (on a CPU ${pct(f.busy)} of the time; no ELU without the probe, so time it waited is not counted; it is the limit from ${pct(f.eluLimit)}).`;
    const load = corrected ? `busy ${pct(f.busy)} once its wait for a core is taken out, ELU ${fixed(f.elu)} with it` : `ELU ${fixed(f.elu)}`;
    return `Its main thread had room (${load}, blocked in spawn ${pct(f.blocked)}; it is the limit from ${corrected ? `${pct(f.eluLimit)} busy` : `ELU ${fixed(f.eluLimit)}`} or ${pct(f.blockedLimit)} in spawn).`;
  },
  'generator-bound': (f) => {
    // An older result has no `suggested`: twice its threads, as it said then.
    const suggested = f.suggested === undefined ? (f.threads ?? 1) * 2 : f.suggested;
    return suggested
      ? `The load generator was busy (ELU ${fixed(f.elu)}): add --generator-threads ${suggested} and measure again.`
      : `The load generator was busy (ELU ${fixed(f.elu)}) with a thread per CPU spawnbench may use (${f.threads ?? 1}): drive the server from another machine, or with wrk.`;
  },
  errors: (f) => `${pct(f.share, 1)} of requests failed: their time is in the figures too.`,
  'errors-why': (f) => {
    const label = errorLabel({ status: f.status, kind: f.kind });
    const said = f.text ? `${label} ×${int(f.count)} ${quote(f.text)}` : `${label} ×${int(f.count)}`;
    const stderr = f.stderr && (!f.text || !f.stderr.text.includes(f.text)) ? `; its stderr said ${quote(f.stderr.text)} ×${int(f.stderr.count)}` : '';
    const r = f.refusal;
    if (r) {
      const who = r.downstream ? `${downstreamName(r.downstream)}, ${int(r.downstream.connections)} connections at once` : 'a downstream';
      return `The errors are a downstream refusing the server (${who}): ${said}${stderr}. Fewer workers, or smaller pools per worker, keep the connections under its limit.`;
    }
    const files = f.filesLimit;
    if (files && !f.status && (f.kind === 'reset' || f.kind === 'connect')) {
      return `The errors are the server's open-files limit (${said}): it is ${int(files.openFiles)} (ulimit -n), too few for ${int(files.connections)} connections, and it closes the connections it cannot hold. Raise it where the server starts (ulimit -n ${int(files.needed)} or more), or use fewer --connections.`;
    }
    if (f.turnedAway && !f.status && f.kind === 'reset') {
      const sent = Number.isFinite(f.turnedAway.connections) ? `the ${int(f.turnedAway.connections)} it was sent` : 'it was sent';
      return `The errors are the server closing new connections unanswered (${said}) while it answered on others: it holds fewer connections at once than ${sent} ` +
        '(server.maxConnections, a proxy\'s or a platform\'s limit). Use fewer --connections, or raise that limit.';
    }
    const t = f.targetRefusal;
    if (t && !f.status && f.kind === 'connect') {
      const restarted = t.restarts > 0 ? ` The server restarted ${int(t.restarts)} time${t.restarts === 1 ? '' : 's'}: pid ${t.pids.join(' → ')}; measure it without what restarts it (node app.js, not nodemon).` : '';
      return `The errors are the server refusing spawnbench's connects (${said}): nothing listened on its port at those moments.${restarted}`;
    }
    // 429 is the server's rate limit: "fix what makes them fail" sent its user after a fault, where the load is above
    // what the server lets through.
    if (Number(f.status) === 429) {
      const allowed = Number.isFinite(f.succeededRps) && f.succeededRps > 0 ? ` (it let ~${int(f.succeededRps)} req/s through)` : '';
      const under = Number.isFinite(f.succeededRps) && f.succeededRps >= 1 ? `, or measure under it with --rate ${int(Math.max(1, Math.floor(f.succeededRps * 0.9)))}` : '';
      return `Why requests failed: ${said}${stderr}, the server's rate limit${allowed}: lift it for the measurement${under}.`;
    }
    // 431 and 413: the requests themselves are too large for the server (a HAR's cookies, a big --body); "fix what
    // makes them fail" did not say that the fix is in what spawnbench sends.
    if (TOO_LARGE[Number(f.status)]) return `Why requests failed: ${said}${stderr}, ${TOO_LARGE[Number(f.status)]}.`;
    // A redirect (the app sends / to /login) is no server fault, and "fix what makes them fail" did not say what to do.
    if (Number(f.status) >= 300 && Number(f.status) < 400) {
      return `Why requests failed: ${said}${stderr}, a redirect, which spawnbench does not follow: give --path the page it leads to (curl -sI the URL shows its Location).`;
    }
    return `Why requests failed: ${said}${stderr}.`;
  },
  'other-users': (f) => `Other processes took a large share of the CPUs: ${othersClause(f.users, f.cores, { host: Boolean(f.budgetSource && f.budgetSource !== 'host') })}.`,
  'stopped-early': () => 'The run was stopped early.',
  'no-probe': () => 'Without the probe, worker busy time is their CPU alone, a floor: the size may be low.',
  contended: (f) =>
    f.cause === 'this-run'
      ? `The cores were oversubscribed by this run's own processes (the server, the commands it spawns and the load generator${Number.isFinite(f.otherCores) ? `; other processes used ${cores(f.otherCores)}` : ''}): loops waited for a core up to ${pct(f.waitShare)} of their busy time (taken out above).`
      : `The machine was shared: ${f.otherCores >= 0.05 ? `other processes used ${cores(f.otherCores)}, ` : ''}loops waited for a core up to ${pct(f.waitShare)} of their busy time` +
        `${f.throttled ? ', the quota\'s stops included (kept in above)' : ' (taken out above)'}.`,
  'short-run': (f) => `Measured ${secs(f.durationMs)}; ${secs(f.solidMs)} or more steadies the figures.`,
  'cluster-even': (f) => `Work was spread evenly over the cluster's workers (the busiest did ${f.balance.ratio.toFixed(2)}× an even share of ${f.balance.basis === 'spawns' ? 'spawns' : 'CPU'}): ${f.env}=${f.policy} is fine.`,
  'cluster-lopsided': (f) =>
    `Work was lopsided with ${f.env}=${f.from} (the busiest worker did ${f.balance.ratio.toFixed(2)}× an even share): with ${f.policy} the primary deals connections round-robin instead of the kernel.`,
  'cluster-lopsided-kept': (f) => `Work was lopsided (the busiest worker did ${f.balance.ratio.toFixed(2)}× an even share) even with ${f.env}=${f.policy}: keep-alive connections stay with the worker that took them.`,
  'own-balancing': (f) =>
    f.balance
      ? `Your server balances with its own code: ${f.balance.id === 'lopsided' ? `lopsided, the busiest worker did ${f.balance.ratio.toFixed(2)}× an even share` : `even, the busiest worker did ${f.balance.ratio.toFixed(2)}× an even share`}.`
      : 'Your server balances with its own code.',
  'no-knob': (f) =>
    `No size knob was found (${f.seen?.workers ? `${f.seen.workers} workers seen` : f.seen?.threads ? `${f.seen.threads} threads seen` : 'none in its arguments or environment'}). To confirm with a sweep, tell tune how your server takes its size: ${shellLine(['spawnbench', ...f.example])}, with NAME the variable it reads, or {size} in its arguments.`,
  'own-pool-would-help': (f) =>
    `The main thread is the limit and ${f.idleCores !== null ? `${cores(f.idleCores)} of ${idleOf(f)} stayed idle` : 'the cores had room'}: spawning in workers leaves it ~${ms(f.mainMsAfter)} a request; ${limitWords(f) ?? f.limit} then ${singularBudget(f) ? 'allows' : 'allow'} ~${int(f.expectedRps)} req/s. ` +
    `Each request keeps a worker ${ms(f.workerMs)}: ${fixed(f.knee)} workers' worth, planned at 80% busy.${f.poolKind === 'processes' ? ' Worker threads would not help here: each thread\'s spawn still forks the whole process.' : ''}`,
  'more-processes': (f) =>
    `It spawned nothing: its JavaScript runs on its one main thread, busy ${pct(f.mainBusy)}, while ${f.idleCores !== null ? `${cores(f.idleCores)} of ${idleOf(f)} stayed idle` : 'the cores had room'}. ` +
    `${f.size} processes of it, each with its own main thread, would serve ~${int(f.expectedRps)} req/s${f.limit === 'processes' ? '' : ` (${limitWords(f) ?? f.limit} then the limit)`}. ` +
    'Each process has its own memory: in-memory state (sessions, caches, counters) is per process.' +
    (f.confirmable ? '' : ` To measure it, give tune the node command that starts it: spawnbench tune --processes 1,${f.size} -- node <entry file>.`),
  'processes-no-gain': (f) => f.waitedOnly && f.oneCpu === false
    ? `It spawned nothing and its main thread is the limit, but ${f.limit === 'processes' ? 'the cores' : limitWords(f) ?? f.limit} allow ~${int(f.expectedRps)} req/s, which one process serves with a core to itself: ` +
      `more processes would share them, not add to them. Its main thread had the CPU ${pct(f.mainBusy)} of the time (this run: ${int(f.rps)} req/s).`
    : f.waitedOnly
    ? `It spawned nothing and its main thread is the limit, but ${(f.budgetSource ?? 'host') === 'host' ? 'the machine\'s one CPU' : `its budget of ${limitWords({ ...f, limit: 'cores' })}`} has room for one main thread, not two: more processes would share it, not add to it. ` +
      `Its main thread had the CPU ${pct(f.mainBusy)} of the time; with it to itself, one process would serve ~${int(f.expectedRps)} req/s (this run: ${int(f.rps)}).`
    : `It spawned nothing and its main thread is the limit, but more processes would leave ${f.limit === 'processes' ? 'the cores' : limitWords(f) ?? f.limit} the limit at ~${int(f.expectedRps)} req/s, no more than this run's ${int(f.rps)}.`,
  // Past quota and load, its limit is cores or generator (own-run-advice.js singleProcessLimit()), both in limitName.
  'one-process-enough': (f) =>
    f.limit === 'quota'
      ? `Its main thread was busy ${pct(f.busy)} of the time (ELU ${fixed(f.elu)}), the quota's stops included: a second process would get no more than the same ${fixed(f.quotaCpus, 1)} CPU.`
      : f.limit === 'load' ? 'Nothing it runs on was saturated: its main thread, the cores and the load generator all had room.' + waitSentence(f)
      : f.limit === 'child' ? `A process it started, ${f.label} (no worker it balances requests over), was busy (ELU ${fixed(f.elu)}${Number.isFinite(f.cpuPct) ? `, CPU ${pct(f.cpuPct / 100)}` : ''}) while the cores had room: more processes of the server would all wait on it. Make that process faster, or run more of it.`
      : `${capital(/** @type {string} */ (limitWords(f)))} ran at ${pct(f.share)} of what they allow${othersShare(f)}.`,
  'thread-knob': (f) => threadKnobSentence(f),
  'workers-unreached': (f) => {
    const idle = /** @type {string[]} */ (f.idle);
    const ports = /** @type {number[]} */ (f.otherPorts ?? []);
    return `${idle.length === 1 ? 'Worker' : 'Workers'} ${idle.join(', ')} answered no request while node:cluster's round-robin spread ${int(f.connections)} connections over its ${f.workers} workers, ` +
      `and the server also listens on ${ports.length === 1 ? 'port' : 'ports'} ${ports.slice(0, 4).join(', ')}: ${idle.length === 1 ? 'it serves' : 'they serve'} another port, ` +
      'or started after the connections were made; either way this run cannot size the workers. Measure each port on its own (--port), or have every worker listen on the same port.';
  },
  // Not an upper bound: from baseline's run (344–357 req/s) it said "up to ~577–625 req/s … an upper bound", and fork-pool
  // with 2 workers served 811–898 req/s on the same machine (its small workers fork faster than baseline's process).
  'not-measured': () => 'That figure is an estimate from this run\'s figures (the first bound the pool would meet), not a measurement, and can be off either way: the sweep below measures it.',
};

/**
 * " Each request took 169 ms (median), of which its main thread worked ~0.9 ms: …", where the time was a wait outside it.
 * @param {Figures} f
 */
function waitSentence(f) {
  if (!Number.isFinite(f.waitMs)) return '';
  const from = f.latencyFrom === 'p50' ? 'median' : f.latencyFrom === 'connections' ? 'its connections over the throughput: the open loop kept every one busy' : 'mean';
  return ` Each request took ${fixed(f.waitMs, 0)} ms (${from}), of which its main thread worked ~${fixed(f.workMs, f.workMs < 10 ? 1 : 0)} ms: ` +
    'the rest was a wait outside it, with every connection waiting. `spawnbench diagnose` shows what it waits on; raise that pool (or its limit), or test with more connections to see whether it has room.';
}

/**
 * "; other processes used 0.3 of them (node ×1: 0.3 cores)", when the figures name any.
 * @param {Figures} f
 */
function othersShare(f) {
  if (!(f.otherCores >= 0.05)) return '';
  const named = (f.otherUsers ?? []).map(otherUserText).join(', ');
  // Other processes are measured host-wide: under a narrower budget (affinity, cpuset, quota) they are not "of them"
  // (on 1 CPU of affinity: "ran at 100% …; other processes used 1.0 of them", beside the run's own 0.96).
  const of = f.budgetSource && f.budgetSource !== 'host' && Number.isFinite(f.hostCpus) ? `cores of the host's ${f.hostCpus} CPUs` : 'of them';
  return `; other processes used ${fixed(f.otherCores, 1)} ${of}${named ? ` (${named})` : ''}`;
}

/**
 * The CPUs the "serve at most" bound is for: "2 cores" on a bare host, "1.0 CPU
 * (cgroup quota)", "1 CPU (CPU affinity)"; with SMT siblings in it, their worth:
 * "24 CPUs (18 cores' worth: SMT)".
 * @param {Figures} f
 */
function budgetWords(f) {
  if (Number.isFinite(f.quotaCpus)) return /** @type {string} */ (limitWords({ ...f, limit: 'cores' }));
  const smt = Number.isFinite(f.capacity) && f.capacity < f.cores - 1e-9;
  const amount = f.budgetSource && f.budgetSource !== 'host'
    ? `${budgetAmount({ budget: f.cores, source: f.budgetSource })} (${/** @type {Record<string, string>} */ (BUDGET_SOURCE_WORDS)[f.budgetSource]})`
    : `${f.cores} ${smt ? 'CPUs' : 'cores'}`;
  return `${amount}${smt ? ` (${fixed(f.capacity, 1)} cores' worth: SMT)` : ''}`;
}

/** @param {string} text */
function capitalFirst(text) {
  return text[0].toUpperCase() + text.slice(1);
}

/** @param {Figures} f */
function sizeSentence(f) {
  const limit = limitWords(f) ?? 'the shared resources';
  const shared = f.bounds[boundKey(f.limit)];
  return `Each request keeps a worker ${ms(f.workersMs)}; at the ~${int(shared)} req/s ${limit} ${singularBudget(f) ? 'allows' : 'allow'} that is ${fixed(f.knee)} workers' worth, planned at 80% busy: ${workers(f.size)}.`;
}

/** @param {{ measure: string, min: number, max: number, expected: number, band: number }|null|undefined} s */
function spreadText(s) {
  if (!s) return 'no counts';
  const what = s.measure === 'requests' ? 'requests' : 'mean in flight';
  const value = (/** @type {number} */ v) => (s.measure === 'requests' ? int(v) : fixed(v, 1));
  return `${what} ${value(s.min)}–${value(s.max)} per worker, ${value(s.expected)} ± ${value(s.band)} by chance`;
}

/**
 * "; a request spent 41 ms with worker 2, 12 ms with worker 0" (Little's law per worker), when they differ.
 * @param {{ maxMs: number, minMs: number, maxLabel: string, minLabel: string }|null|undefined} l
 */
function latencyText(l) {
  if (!l || !(l.maxMs > l.minMs * 1.05)) return '';
  return `; a request spent ${ms(l.maxMs)} with ${l.maxLabel}, ${ms(l.minMs)} with ${l.minLabel}`;
}

/** @param {string} limit */
function boundKey(limit) {
  return limit === 'main-thread' ? 'main' : limit;
}

/** @param {number|null} n */
function workers(n) {
  return `${n} worker${n === 1 ? '' : 's'}`;
}

/** @param {number} ratio */
function gain(ratio) {
  return `${ratio.toFixed(1)}×`;
}

/** @param {number} n */
function cores(n) {
  return `${n.toFixed(1)} core${n >= 0.95 && n < 1.05 ? '' : 's'}`;
}

/**
 * @param {number|null|undefined} v
 * @param {number} [digits]
 */
function fixed(v, digits = 2) {
  return typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '–';
}

/** @param {number} msValue */
function secs(msValue) {
  return `${(msValue / 1000).toFixed(1)} s`;
}

/**
 * "about 1 min 12 s", "about 40 s"
 * @param {number} msValue
 */
export function duration(msValue) {
  const s = Math.round(msValue / 1000);
  return s >= 60 ? `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}` : `${s} s`;
}

/**
 * Words wrapped to `columns`, the first line at `indent`, carried-on lines two
 * further in (under a "- " bullet's text).
 * @param {string} text
 * @param {number} columns
 * @param {number} indent
 * @returns {string[]}
 */
export function wrap(text, columns, indent) {
  const first = ' '.repeat(indent);
  const rest = ' '.repeat(indent + (text.startsWith('- ') ? 2 : 0));
  const lines = [];
  let line = first;
  for (const word of text.split(' ')) {
    const empty = line.trim() === '';
    if (!empty && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = rest + word;
    } else {
      line += (empty ? '' : ' ') + word;
    }
  }
  lines.push(line);
  return lines;
}

/** A shell command over several lines (ending in " \") so each fits and it still pastes.
 * @param {string[]} argv
 * @param {number} columns
 * @param {number} indent
 */
function wrapCommand(argv, columns, indent) {
  const words = ['spawnbench', ...argv.map(shellQuote)];
  const lines = [];
  let line = ' '.repeat(indent);
  for (const word of words) {
    const empty = line.trim() === '';
    if (!empty && line.length + 1 + word.length + 2 > columns) {
      lines.push(`${line} \\`);
      line = ' '.repeat(indent + 2) + word;
    } else {
      line += (empty ? '' : ' ') + word;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * What the server's thread knob (UV_THREADPOOL_SIZE, VIPS_CONCURRENCY) did this run and the value to try.
 * @param {Figures} f
 */
function threadKnobSentence(f) {
  const whose = f.name === 'VIPS_CONCURRENCY' ? 'libvips\'s threads (sharp)' : 'libuv\'s threadpool';
  const now = `${f.name} was ${f.value}${f.unset ? ' (not set: the default)' : ''}`;
  const used = `${whose} used ${fixed(f.threadsCores, 1)} of the ${f.cores ?? '?'} cores with ${f.threads} thread${f.threads === 1 ? '' : 's'}`;
  const start = 'read once when the pool starts: set it in the server\'s environment at start';
  if (f.limit === 'threadpool') return `${now}; ${used}, all busy, and ${fixed(f.idleCores ?? 0, 1)} of them stayed idle: try ${f.name}=${f.trySize} (${start}).`;
  if (f.limit === 'cores' && Number.isFinite(f.sharedCores)) {
    return `${now}; ${used}, and the cores were ${pct((f.coresBusyPct ?? 0) / 100)} busy, other processes using ${fixed(f.sharedCores, 1)} of them: ` +
      'more threads would win a larger share of the cores from them, which one run cannot price: the sweep below measures it.';
  }
  if (f.limit === 'cores') {
    return `${now}; ${used}, and the cores were ${pct((f.coresBusyPct ?? 0) / 100)} busy: more threads or more processes only share them. ` +
      `${f.trySize < f.value ? `${f.name}=${f.trySize} does the same work with fewer threads; more` : 'More'} cores, cheaper work per request (a lower bcrypt cost) or fewer connections help.`;
  }
  return `${now}; ${used}: neither they nor the cores were full, so ${f.name} is not what limits it.`;
}
