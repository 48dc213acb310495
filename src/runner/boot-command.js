/**
 * Boots a user's server command for every engine that measures one (diagnose,
 * and a run step of tune or compare on `-- <command>`): the probe channel, the
 * command in its own process group with PORT (or --port) and readiness by TCP.
 * Each cleanup goes on `stops`, so the engine's usual teardown ends everything
 * it started. What else the command's environment needs (diagnose's profiler)
 * the engine adds through `prepareEnv`.
 */
import { rmdirSync } from 'node:fs';
import { openProbeChannel } from '../probe/channel.js';
import { startTarget } from './command-target.js';

/**
 * @param {object} options
 * @param {{ command: string[], port: number|null, readyTimeoutMs: number, env?: Record<string, string>, sizeKnob?: object|null, label?: string }} options.target
 *   `env`: added to the command's environment (a size or policy knob); `sizeKnob`: set for `run -- <command>`, whose
 *   launcher may daemonise
 * @param {{ enabled: boolean, intervalMs: number }} options.probe
 * @param {import('pino').Logger} options.logger
 * @param {Array<() => Promise<void>|void>} options.stops the engine's cleanup stack
 * @param {AbortSignal} [options.signal] gives up waiting for readiness (Ctrl-C)
 * @param {(report: object) => void} [options.onReport] each probe report, as it arrives
 * @param {(line: string) => void} [options.onStderr] each line the server writes to stderr
 * @param {(channel: object|null) => Promise<{ env: Record<string, string>, cpuProfDir: string|null, madeDir?: boolean }>} [options.prepareEnv]
 *   the environment the probe (and anything else the engine adds) needs; by default the probe channel's
 * @returns {Promise<import('./command-target.js').StartedTarget & { treePid: number, channel: object|null,
 *   url: (path: string) => string, cpuProfDir: string|null, stopping: boolean, containment?: object }>}
 *   `serverPid`, `launchers` and `daemon`: see command-target.js; `treePid` the group to sample (the daemon's when the
 *   launcher daemonised); `containment` how the group was held, once it stopped
 */
export async function bootCommand({ target, probe, logger, stops, signal, onReport, onStderr = () => {}, prepareEnv = probeEnv }) {
  const channel = probe.enabled ? await openProbeChannel({ intervalMs: probe.intervalMs }) : null;
  if (channel) {
    stops.push(() => channel.close());
    if (onReport) channel.on('report', onReport);
  }
  const { env, cpuProfDir, madeDir = false } = await prepareEnv(channel);
  logger.info({ command: target.command, port: target.port, env: target.env ?? {}, cpuProfDir }, 'server start');
  const started = await startTarget({
    command: target.command,
    port: target.port,
    env: { ...(target.env ?? {}), ...env },
    readyTimeoutMs: target.readyTimeoutMs,
    signal,
    onOutput: (line, stream) => {
      logger.info({ stream }, line);
      if (stream === 'stderr') onStderr(line);
    },
    // run -- <command> follows a launcher that daemonises (pm2 start, a double fork) to the server it left.
    mayDaemonise: Boolean(target.sizeKnob),
    // tune --processes: the user's command, not the cluster primary spawnbench put before its script.
    ...(target.label ? { label: target.label } : {}),
  }).catch((error) => {
    // A start that failed or was stopped (Ctrl-C during the boot) leaves no empty profile folder of ours behind.
    if (madeDir) removeIfEmpty(cpuProfDir);
    throw error;
  });
  // The process tree to sample and read: the daemon's group when the launcher daemonised.
  const treePid = started.daemon?.pgid ?? started.proc.pid;
  /** @type {Awaited<ReturnType<typeof bootCommand>>} */
  const server = { ...started, treePid, channel, cpuProfDir, stopping: false, url: (path) => urlOf(started.host, started.port, path) };
  stops.push(async () => {
    server.stopping = true;
    const { code, signal: killedBy, containment } = await started.stop();
    server.containment = containment;
    logger.info({ code, signal: killedBy, containment }, 'server stopped');
  });
  // commandPid: `pid` is the log's own field (spawnbench's pid), and a second one made the line hold the key twice.
  logger.info({ commandPid: started.proc.pid, serverPid: started.serverPid, launchers: started.launchers, host: started.host, port: started.port }, 'server ready');
  return server;
}

/** Removes a folder that holds nothing (a profile written while the server stopped keeps it). */
function removeIfEmpty(dir) {
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or gone already
  }
}

/** The probe's environment alone (a run step has no profiler). */
async function probeEnv(channel) {
  return { env: { ...(channel?.env ?? {}) }, cpuProfDir: null };
}

/** http://127.0.0.1:PORT/path, or http://[::1]:PORT/path for a server on IPv6 loopback only. */
function urlOf(host, port, path) {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;
}

/**
 * A result's `target` for a user's server command: `pid` the process that listens (the server),
 * `leaderPid` the one spawnbench started, `launchers` the resident ones between them (npm, sh, …),
 * `daemonised` whether the command exited and left the server in the background.
 * @param {{ target: import('../plan/run-plan.js').TargetPlan }} plan a plan whose target is a command (its argv and path)
 * @param {Awaited<ReturnType<typeof bootCommand>>} server
 */
export function commandTarget(plan, server) {
  return {
    kind: 'command',
    command: plan.target.command,
    pid: server.serverPid ?? server.proc.pid,
    leaderPid: server.proc.pid,
    launchers: (server.launchers ?? []).map(({ pid, name }) => ({ pid, name })),
    // The command exited 0 and left the server running in the background (pm2 start, a double fork).
    daemonised: Boolean(server.daemon),
    port: server.port,
    url: server.url(plan.target.path),
    containment: server.containment ?? null,
  };
}
