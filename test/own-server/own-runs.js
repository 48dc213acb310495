/**
 * Made-up results of `run -- <command>` for the recommendation's tests: a
 * synthetic strategy run (test/analysis/synthetic-runs.js) turned into a user's
 * server, with its process tree's shape and its size knob as the run engine
 * resolves them, so verdicts never depend on the machine.
 */
import { syntheticRun } from '../analysis/synthetic-runs.js';
import { resolveSizeKnob, findSizeKnob, givenSizeKnob } from '../../src/analysis/size-knob.js';

/**
 * @param {object} o syntheticRun's options, plus:
 * @param {string[]} [o.command] the server's argv
 * @param {Record<string, string>} [o.env] the environment it ran with
 * @param {{ sizeEnv?: string, size?: number }} [o.given] --size-env / --pool-size
 * @param {'cluster'|'processes'|'threads'|'single'} [o.kind]
 * @param {string|null} [o.clusterPolicy]
 * @param {number[]} [o.spawnsPerSec] per worker
 * @param {{ count: number, cpuPct: number }} [o.poolThreads]
 */
export function ownRun(o = {}) {
  const run = syntheticRun(o);
  const command = o.command ?? ['node', 'server.js'];
  const env = o.env ?? {};
  const workers = run.samples.processes.filter((p) => p.role !== 'main');
  workers.forEach((p, i) => {
    p.summary.spawnsPerSec = o.spawnsPerSec?.[i] ?? null;
    p.requests = null; // a user's server reports no request counts per worker
  });
  const kind = o.kind ?? (workers.length ? 'cluster' : 'single');
  const threads = kind === 'threads' ? workers.length : 0;
  if (kind === 'threads') for (const p of workers) Object.assign(p, { role: 'thread', pid: 100, threadId: p.pid - 199, key: `100/${p.pid - 199}` });
  const server = {
    pid: 100,
    launchers: [],
    workers: kind === 'threads' ? [] : workers.map((p) => p.pid),
    threads,
    kind,
    clusterPolicy: o.clusterPolicy ?? null,
    poolThreads: { count: o.poolThreads?.count ?? 4, cpuTicks: 0, cpuPct: o.poolThreads?.cpuPct ?? 0 },
  };
  const given = o.given ? givenSizeKnob({ sizeEnv: o.given.sizeEnv ?? null, sizeArg: command.some((a) => a.includes('{size}')), size: o.given.size ?? null, command, env }) : null;
  const found = findSizeKnob({ command, env });
  const filled = command.map((a) => a.replaceAll('{size}', String(o.given?.size ?? '')));
  run.plan.target = { kind: 'command', command: filled, port: null, path: '/', readyTimeoutMs: 15000, env: {}, sizeKnob: { given, found } };
  run.plan.workload = { name: 'server', command: null, args: [], expectedBytes: null };
  run.strategy = null;
  run.target = { kind: 'command', command: filled, pid: 100, port: 40000, url: 'http://127.0.0.1:40000/', containment: null };
  run.server = server;
  run.sizeKnob = resolveSizeKnob({ given, found, shape: server, command });
  return run;
}
