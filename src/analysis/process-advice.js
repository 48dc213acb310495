/**
 * The advice for a single process that spawns nothing and whose main thread is
 * the limit while the CPU budget has room: more processes of it (node:cluster,
 * PM2's cluster mode, replicas), each with its own main thread, up to what the
 * cores allow; confirmed by `spawnbench tune --processes 1,…,N -- <command>`,
 * which runs the unchanged server in that many node:cluster workers, or by its own
 * size knob where it has one (WORKERS=1 read by its code). Pure: ids and figures out.
 */
import { estimatePoolSize } from './pool-size.js';
import { nodeScriptCommand } from './process-count.js';
import { ownConfirm } from './own-run-advice.js';
import { commandLine, sweepCost } from './confirm-command.js';
import { tuneArgs } from './size-knob.js';
import { RPS_BAND } from '../base/thresholds.js';

/**
 * @typedef {{ command?: string[]|null, port: number|null, path: string }} CommandTarget the plan's target of a user's
 *   server (`run -- <command>`): its argv, and the port and path it was loaded on
 */

/**
 * The target of a user's server. AdviceInput types its target as any kind's; the advice here is
 * asked only of a user's server (run-advice.js picks it where `targetOf(target).advice` is 'own'),
 * whose plan target always has its port and path (plan/server-command-plan.js).
 * @param {import('./advice-input.js').AdviceInput} input
 * @returns {CommandTarget}
 */
const commandTarget = (input) => /** @type {CommandTarget} */ (/** @type {unknown} */ (input.target));

/** Knob sources tune takes as they are (own-run-advice.js). */
const TUNABLE = ['given', 'command', 'environment'];

/**
 * Whether the run saw the server spawn: spawn advice is for servers that do.
 * @param {{ blocked: number|null, spawnsPerSec?: number|null }|null} main
 * @param {number|null} spawnedCpuPct the spawned commands' CPU
 */
export function spawnsSeen(main, spawnedCpuPct) {
  return (main?.spawnsPerSec ?? 0) > 0 || (main?.blocked ?? 0) > 0 || (spawnedCpuPct ?? 0) > 0;
}

/**
 * @param {import('./advice-input.js').AdviceInput} input a user's server, one process, main thread the limit
 * @param {{ busy: number }} busy the main thread's busy share (busy-time.js)
 * @returns {{ size: number|null, expectedRps: number, gain: number, figures: object, confirmWith: import('./confirm-command.js').ConfirmWith|null,
 *   estimate: import('./pool-size.js').PoolEstimate }}
 */
export function adviseProcesses(input, busy) {
  const x = input.rps;
  // Processes of its own that serve no request here (a job or a backend it started beside it) use the cores too: counted
  // with its CPU, as its spawned commands are. Left out, a job at 0.84 of 2 cores read "1.0 core … stayed idle" and
  // "2 processes … ~968 req/s, 2.0× this run's 475".
  const besideCpuPct = (input.children ?? []).filter((c) => c.kind !== 'thread').reduce((sum, c) => sum + (c.cpuPct ?? 0), 0);
  const pool = estimatePoolSize({ ...input, workers: [], ...(besideCpuPct > 0 ? { spawnedCpuPct: (input.spawnedCpuPct ?? 0) + besideCpuPct } : {}) });
  const capacity = input.capacity ?? input.budget ?? input.cores ?? 1;
  // One process serves what its main thread allows: this run's throughput at its busy share.
  const perProcess = x / Math.max(busy.busy, 0.01);
  // JavaScript on a main thread uses one core: processes past the budget's cores, a fraction rounded up, only share them.
  // Rounded down, a 1.5-CPU quota was "room for one main thread, not two" where 2 processes served 1.3-1.8× one.
  const maxSize = Math.max(1, Math.ceil(capacity - 1e-9));
  const coresBound = pool.bounds.cores;
  const wanted = coresBound ? Math.ceil(coresBound / perProcess - RPS_BAND) : maxSize;
  const size = Math.max(1, Math.min(maxSize, wanted));
  const bounds = { processes: perProcess * size, cores: coresBound, generator: pool.bounds.generator };
  const expectedRps = Math.min(...Object.values(bounds).filter(/** @returns {v is number} */ (v) => v !== null && v > 0));
  // The processes bound is > 0 (the caller asks only with rps > 0 and a busy share), so one bound is the least.
  const limit = /** @type {[string, number|null]} */ (Object.entries(bounds).find(([, v]) => v === expectedRps))[0];
  const gain = expectedRps / x;
  const budget = input.budget ?? input.cores;
  // Under the server's own quota, the room is what the quota left: "0.9 cores of the CPU budget's 2 stayed idle" was said
  // of a server whose 1.5-CPU quota bound the estimate, where 0.4 of it was left.
  const quotaCpus = pool.quotaCpus;
  const inQuota = quotaCpus !== null && pool.usedCores !== null
    ? pool.usedCores - (input.throttle?.roles?.includes('spawnbench') ? 0 : (input.generator.cpuPct ?? 0) / 100)
    : null;
  const idleCores = inQuota !== null ? Math.max(0, /** @type {number} */ (quotaCpus) - inQuota)
    : budget && pool.usedCores !== null ? Math.max(0, budget - pool.usedCores - (pool.otherCores ?? 0)) : null;
  // A budget of one CPU runs one main thread at a time: a gain read there is its wait for that CPU (other processes held
  // it), taken out of its busy share, not room for a second process. Seen: "run 1 processes of it … 2.5× this run's 216"
  // of a server pinned to one CPU beside a busy loop, confirmed by `tune --processes 1,1`.
  // So is a gain where the cores allow no second process: "run 1 processes of it … 1.6× this run's 342" was said of a
  // server beside a job of its own at 0.84 of 2 cores.
  const waitedOnly = gain >= 1 + RPS_BAND && (maxSize <= 1 || size <= 1);
  const helps = gain >= 1 + RPS_BAND && !waitedOnly;
  const sizes = processSizes(size);
  const confirmWith = helps ? processConfirm(input, sizes) : null;
  const figures = {
    size, expectedRps, rps: x, gain, limit, bounds, perProcess, idleCores, budget, quotaCpus, cores: input.cores, budgetSource: input.budgetSource ?? null,
    cpuMs: pool.demands.cpuMs, mainBusy: busy.busy, confirmable: confirmWith !== null, command: commandTarget(input).command ?? null, waitedOnly, oneCpu: maxSize <= 1,
  };
  return { size: helps ? size : null, expectedRps, gain, figures, confirmWith, estimate: pool };
}

/**
 * `tune --processes 1..N` over the budget's cores (a fraction rounded up), for a single process whose
 * run could not size it; null where the command is not `node <script>`.
 * @param {import('./advice-input.js').AdviceInput} input
 */
export function processesSweep(input) {
  const cores = Math.max(1, Math.ceil((input.capacity ?? input.budget ?? input.cores ?? 1) - 1e-9));
  return nodeScriptCommand(commandTarget(input).command ?? []).ok ? processConfirm({ ...input, knob: null }, processSizes(cores)) : null;
}

/**
 * 1 to N: 1,2 on two cores; 1, the middle and N beyond four.
 * @param {number} size
 * @returns {number[]}
 */
function processSizes(size) {
  if (size <= 4) return Array.from({ length: Math.max(2, size) }, (_, i) => i + 1);
  return [...new Set([1, Math.ceil(size / 2), size])];
}

/**
 * The tune that measures it: the server's own knob where it has one (WORKERS=1 that
 * its code reads), else `tune --processes` on a `node <script>` command, else null.
 * @param {import('./advice-input.js').AdviceInput} input
 * @param {number[]} sizes
 * @returns {import('./confirm-command.js').ConfirmWith|null}
 */
function processConfirm(input, sizes) {
  const knob = input.knob;
  if (knob && TUNABLE.includes(knob.source ?? '') && knob.command) return ownConfirm(input, sizes, null);
  const target = commandTarget(input);
  const command = target.command ?? [];
  if (!nodeScriptCommand(command).ok) return null;
  // AdviceInput types the mix's entries as plain objects: they are the load's mix entries, each with its path.
  const load = /** @type {Parameters<typeof tuneArgs>[2]} */ (input.load);
  const argv = tuneArgs({ kind: 'processes', command }, target, load, { connections: input.load.connections, rate: input.load.rate, threads: input.load.threads });
  argv.splice(1, 0, '--processes', sizes.join(','));
  // The step length tuneArgs gives it (-d, to fit the latency seen) is what each step takes: '6 steps, about 42 s' read 14 s steps as 7.
  return { command: commandLine(argv), argv, ...sweepCost(sizes.length, input.load.stepMs) };
}
