/** Request/response plumbing shared by every strategy. */

/**
 * Answers a request whose command could not be started: 500 with the error text.
 * @param {import('node:http').ServerResponse} res
 * @param {Error|string} error
 * @param {number} [status]
 */
export function sendError(res, error, status = 500) {
  const text = `${typeof error === 'string' ? error : error.message}\n`;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Drains a request body we do not use, so keep-alive connections stay usable.
 * @param {import('node:http').IncomingMessage} req
 */
export function discardBody(req) {
  req.resume();
}
