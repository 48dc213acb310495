/**
 * The main-thread end of a streaming pool (comm-channel, send-advanced): each stdout
 * chunk of a request's command is written to its response as it arrives, the exit
 * ends the response, a command that could not start answers 500.
 */
import { sendError } from './http.js';

/**
 * @param {{ get: (id: number) => object|undefined, finish: (id: number, o?: object) => object|undefined }} pool
 * @param {{ STDOUT: number, EXIT: number, SPAWN_ERROR: number }} types the strategy's message or frame types
 * @returns {(id: number, type: number, data: Buffer|Uint8Array|string) => void} stderr and unknown types are dropped: the body is stdout only, as in baseline
 */
export function createStreamRelay(pool, { STDOUT, EXIT, SPAWN_ERROR }) {
  const start = (res) => {
    if (!res.headersSent) res.writeHead(200, { 'content-type': 'application/octet-stream' });
  };
  return (id, type, data) => {
    if (type === STDOUT) {
      const request = pool.get(id);
      if (!request) return;
      start(request.res);
      request.res.write(data);
    } else if (type === EXIT) {
      const request = pool.finish(id);
      if (!request) return;
      start(request.res);
      request.res.end();
    } else if (type === SPAWN_ERROR) {
      const request = pool.finish(id, { failed: true });
      if (request) sendError(request.res, data.toString());
    }
  };
}
