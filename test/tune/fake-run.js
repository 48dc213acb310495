/**
 * A stand-in for the run engine (src/runner/run-engine.js) whose figures come from a
 * model of pool size and policy: tune's engine is tested without processes.
 */
import { EventEmitter } from 'node:events';

export const MACHINE = { node: 'v20.20.2', libuv: '1.46.0', v8: '11', platform: 'linux', arch: 'x64', cpuModel: 'test', cores: 2, memTotalBytes: 1 };

/**
 * @param {(size: number, policy: string, call: number, plan: object) => { rps: number, p99Ms?: number, errors?: number, fail?: string, hang?: boolean,
 *   series?: Array<{ second: number, requests: number }>, generatorStopped?: { ms: number, longestMs: number }, spawnFailures?: object }} model
 * @returns {{ createRun: Function, plans: object[], runs: object[] }}
 */
export function fakeRuns(model) {
  const plans = [];
  const runs = [];
  const createRun = (plan) => {
    plans.push(plan);
    const call = plans.length;
    const run = new EventEmitter();
    let stop;
    const stopped = new Promise((resolve) => (stop = resolve));
    run.stop = () => stop();
    run.start = async () => {
      const { poolSize: size, balance: policy } = plan.target;
      const figures = model(size, policy, call, plan);
      run.emit('start', { plan, machine: MACHINE });
      run.emit('phase', { phase: 'measure' });
      if (figures.fail) throw new Error(figures.fail);
      const early = figures.hang ? (await stopped, true) : false;
      const result = {
        tool: 'spawnbench', format: 1, kind: 'run', plan, machine: MACHINE, stoppedEarly: early, failures: [],
        load: { rps: figures.rps, requests: figures.rps, durationMs: 1000, latency: { p50Ms: 1, p99Ms: figures.p99Ms ?? 60000 / figures.rps }, errors: { total: figures.errors ?? 0 }, ...(figures.series ? { series: figures.series } : {}), ...(figures.generatorStopped ? { generatorStopped: figures.generatorStopped } : {}) },
        samples: {
          processes: [{ role: 'main', summary: { elu: 0.3, blockedFraction: 0, cpuPct: 30 } }, { role: 'worker', summary: { elu: 0.5, cpuPct: 50 } }],
          spawned: { cpuPct: 20 }, system: { cpus: [50, 50] }, generator: { cpuPct: 20, elu: 0.2 },
        },
        ...(figures.spawnFailures ? { spawnFailures: figures.spawnFailures } : {}),
      };
      run.emit('phase', { phase: 'done' });
      run.emit('done', result);
      return result;
    };
    runs.push(run);
    return run;
  };
  return { createRun, plans, runs };
}

/**
 * The base run plan of a fork-pool sweep on echo, as buildTunePlan() makes it.
 * @param {object} load the load fields that differ (connections, durationMs, warmupMs)
 */
export function tuneBase(load) {
  return {
    command: 'tune',
    target: { kind: 'strategy', strategy: 'fork-pool', pool: true, poolSize: 2, balance: 'round-robin', runtime: { name: 'node' }, workerRuntime: { name: 'node' } },
    workload: { name: 'echo', command: 'echo', args: ['hi'], expected: Buffer.from('hi\n') },
    load: { threads: 1, expected: Buffer.from('hi\n'), ...load },
    probe: { enabled: true, intervalMs: 250 },
    output: { json: false, dashboard: false, out: null },
  };
}
