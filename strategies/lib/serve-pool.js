/**
 * The HTTP side every pool strategy shares: serve once every worker is ready,
 * print the workers line while serving, and on stop close the server, then the pool.
 */
import http from 'node:http';
import { announceReady } from './config.js';
import { discardBody } from './http.js';
import { reportWorkers } from './workers-line.js';

/**
 * @param {object} options
 * @param {import('./config.js').StrategyConfig} options.config
 * @param {ReturnType<typeof import('./pool.js').createPool>} options.pool
 * @param {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void} options.onRequest
 * @param {() => (void|Promise<void>)} [options.stopExtra] after the pool stopped (e.g. remove socket files)
 * @returns {Promise<import('node:http').Server>}
 */
export async function servePool({ config, pool, onRequest, stopExtra = () => {} }) {
  const server = http.createServer((req, res) => {
    discardBody(req);
    onRequest(req, res);
  });
  await pool.ready;
  await new Promise((resolve) => server.listen(config.port, config.host, () => resolve(undefined)));
  let stopReporting = () => {};
  announceReady(server, async () => {
    stopReporting();
    await pool.stop();
    await stopExtra();
  });
  stopReporting = reportWorkers(() => pool.stats());
  return server;
}
