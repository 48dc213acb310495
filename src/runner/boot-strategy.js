/**
 * A strategy booted for one run: the probe channel, its owned temp directory, the
 * process group started with the strategy's config, readiness by the protocol's
 * ready line; each step's cleanup goes on `stops`.
 */
import { openProbeChannel, preloadArgs } from '../probe/channel.js';
import { scriptArgs, workerForkConfig } from '../strategies/runtimes.js';
import { startProcessGroup } from './process-group.js';
import { trackDir } from './cleanup.js';
import { makeOwnedTempDir } from '../sample/owned-temp-dir.js';

/** @param {import('./engine-shell.js').Engine} run */
export async function bootStrategy(plan, logger, run, stops, onStderr) {
  const { target, workload } = plan;
  // Node loads the probe through NODE_OPTIONS (workers too), Bun through --preload; Deno cannot preload it.
  const useProbe = plan.probe.enabled && preloadArgs(target.runtime.kind) !== null;
  const channel = useProbe ? await openProbeChannel({ intervalMs: plan.probe.intervalMs }) : null;
  if (channel) stops.push(() => channel.close());
  // Pushed before the strategy's stop, so it runs after it: the strategy may be
  // killed before it can remove its own files, and this removes them anyway.
  const tempDir = await makeOwnedTempDir('run');
  stops.push(trackDir(tempDir));
  /** @type {import('../../strategies/lib/config.js').StrategyConfig} the contract's one type, both sides */
  const config = {
    host: '127.0.0.1',
    port: 0,
    command: workload.command,
    args: workload.args,
    poolSize: target.poolSize,
    balance: target.balance,
    ...workerForkConfig(target.workerRuntime, target.runtime),
    workerRuntimeKind: target.workerRuntime.kind,
    seed: target.seed,
    tempDir,
  };
  logger.info({ strategy: target.strategy, config }, 'strategy start');
  const proc = await startProcessGroup({
    command: target.runtime.path,
    args: [...(channel ? preloadArgs(target.runtime.kind) : []), ...scriptArgs(target.runtime, target.entry)],
    env: { SPAWNBENCH_STRATEGY_CONFIG: JSON.stringify(config), ...(channel?.env ?? {}) },
    label: `strategy '${target.strategy}'`,
    readyTimeoutMs: target.readyTimeoutMs,
    readiness: 'protocol',
    signal: run.signal,
    onOutput: (line, stream) => {
      logger.info({ stream }, line);
      if (stream === 'stderr') onStderr(line);
    },
  });
  const server = { proc, channel, stopping: false, containment: null, brokeProtocol: null };
  // A workers or ready line that breaks the contract is the strategy's fault: the run ends, naming it.
  proc.on('protocol-error', (error) => {
    if (server.brokeProtocol) return;
    server.brokeProtocol = error.message;
    logger.error({ error: server.brokeProtocol }, 'strategy broke the protocol');
    run.endLoad();
  });
  stops.push(async () => {
    const { code, signal, containment } = await proc.stop();
    server.containment = containment;
    logger.info({ strategy: target.strategy, code, signal, containment }, 'strategy stopped');
  });
  proc.on('workers', (workers) => run.emit('workers', workers));
  logger.info({ strategyPid: proc.pid, port: proc.port }, 'strategy ready');
  return server;
}
