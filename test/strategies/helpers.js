/**
 * Test helpers for strategies: boot one through the real launcher, drive it with a
 * small keep-alive client, and prove its process group is gone.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startProcessGroup } from '../../src/runner/process-group.js';
import { getStrategy } from '../../src/strategies/registry.js';

export const LARGE_FIXTURE = fileURLToPath(new URL('../../fixtures/large.txt', import.meta.url));
export const WORKLOADS = {
  echo: { command: 'echo', args: ['hi'], expected: Buffer.from('hi\n') },
  large: { command: 'cat', args: [LARGE_FIXTURE], expected: readFileSync(LARGE_FIXTURE) },
};

/**
 * Boots a strategy as spawnbench does (own process group, config in the environment).
 * @param {string} name
 * @param {object} config merged over the workload's command/args
 * @param {{command?: string, args?: string[], onOutput?: (line: string, stream: string) => void}} [runtime]
 *   the main process's runtime (default: this node); `onOutput` gets the strategy's log lines
 */
export async function boot(name, config = {}, { command = process.execPath, args = [], onOutput } = {}) {
  const { entry } = getStrategy(name);
  const workload = WORKLOADS[config.workload ?? 'echo'];
  const full = { host: '127.0.0.1', port: 0, command: workload.command, args: workload.args, poolSize: 2, balance: 'round-robin', seed: 7, ...config };
  delete full.workload;
  const strategy = await startProcessGroup({
    command,
    args: [...args, entry],
    env: { SPAWNBENCH_STRATEGY_CONFIG: JSON.stringify(full) },
    label: `strategy '${name}'`,
    onOutput,
  });
  return strategy;
}

/**
 * Sends `requests` GETs over `connections` keep-alive connections, one in flight each.
 * @returns {Promise<{ok: number, statuses: Record<string, number>, mismatches: number, errors: string[], bodies: Record<string, string>}>}
 */
export async function hammer({ port, requests, connections, expected }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const result = { ok: 0, statuses: {}, mismatches: 0, errors: [], bodies: {} };
  let sent = 0;
  const one = () => new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        result.statuses[res.statusCode] = (result.statuses[res.statusCode] ?? 0) + 1;
        result.bodies[res.statusCode] ??= body.toString().slice(0, 200);
        if (res.statusCode === 200 && expected && !body.equals(expected)) result.mismatches++;
        else if (res.statusCode === 200) result.ok++;
        resolve();
      });
      res.on('error', (e) => { result.errors.push(e.message); resolve(); });
    });
    req.on('error', (e) => { result.errors.push(e.message); resolve(); });
  });
  const loop = async () => {
    while (sent < requests) {
      sent++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  return result;
}

/** Pids of live processes in a process group (zombies excluded): the same /proc reader spawnbench uses. */
export { pidsInGroup as groupMembers } from '../../src/sample/proc.js';

