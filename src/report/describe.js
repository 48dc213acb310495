/**
 * The lines every report starts with, in one place: how the server was loaded
 * and on what machine. Run, tune, compare and diagnose reports read these.
 */
import { int, isFiniteNumber } from './text-format.js';
import { formatDuration } from '../base/units.js';
import { cpuBudgetLabel, budgetAmount } from '../base/labels.js';

/**
 * "Node 20.20.2 · libuv 1.51.0 · Intel Xeon × 2 cores · linux/x64", or inside a limit
 * "… · Intel Xeon × 1.0 CPU: cgroup quota, on a 2-core host · linux/x64" (labels.js).
 * @param {import('../base/result-types.js').Machine} m
 */
export function describeMachine(m) {
  return `Node ${m.node} · libuv ${m.libuv} · ${m.cpuModel} × ${cpuBudgetLabel(m)} · ${m.platform}/${m.arch}`;
}

/**
 * "closed loop, 30 connections, 10s after 2s warm-up" or "open loop at 500 req/s
 * over up to 250 connections, 2 generator threads, 10,000 requests after 2s warm-up per step".
 * @param {{ rate: number|null, connections: number, threads: number, requests: number|null, durationMs: number|null, warmupMs: number, extendToMs?: number|null }} l
 *   a plan's load (`extendToMs`: a tune step's cap, src/tune/tune-plan.js)
 * @param {{ connections?: number, per?: 'run'|'step' }} [options] the connections the generator
 *   opened (open loop sizes its own pool), and what each warm-up precedes in a sweep
 */
export function describeLoad(l, { connections = l.connections, per } = {}) {
  // A tune step's -d is a minimum, extended up to a cap until it has enough responses to rank.
  // Number(): null reads as 0 and undefined as NaN, as `>` has always read them.
  const upTo = Number(l.extendToMs) > Number(l.durationMs) ? ` (up to ${formatDuration(l.extendToMs)} for enough responses)` : '';
  const amount = l.requests ? `${int(l.requests)} requests` : `${formatDuration(l.durationMs)}${upTo}`;
  // A sweep's open loop sizes its pool per step: its plan holds no count ("over up to null connections").
  const pool = isFiniteNumber(connections) ? ` over up to ${int(connections)} connections` : '';
  const loop = l.rate ? `open loop at ${int(l.rate)} req/s${pool}` : `closed loop, ${connections} connections`;
  const threads = l.threads > 1 ? `, ${l.threads} generator threads` : '';
  return `${loop}${threads}, ${amount} after ${formatDuration(l.warmupMs)} warm-up${per ? ` per ${per}` : ''}`;
}

/**
 * The CPU quotas that bound the run, over the measured phase (samples.throttling):
 * "CPU quota 1.0 CPU (cgroup /bench; server and spawnbench): throttled in 87% of 50 periods, 4.20 s held back".
 * @param {import('../base/result-types.js').Throttling[]|undefined} throttling
 * @returns {string[]}
 */
export function describeThrottling(throttling) {
  return (throttling ?? []).map((t) => {
    const whose = t.roles.includes('server') ? (t.roles.includes('spawnbench') ? 'server and spawnbench' : 'server') : 'spawnbench only';
    const held = t.throttledMs >= 1000 ? `${(t.throttledMs / 1000).toFixed(2)} s` : `${Math.round(t.throttledMs)} ms`;
    const share = isFiniteNumber(t.fraction) ? `throttled in ${Math.round(t.fraction * 100)}% of ${int(t.periods)} periods, ${held} held back` : 'no quota period ran';
    return `CPU quota ${budgetAmount({ budget: t.quotaCpus, source: 'quota' })} (cgroup ${t.cgroup}; ${whose}): ${share}`;
  });
}
