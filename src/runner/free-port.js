/** A TCP port free on 127.0.0.1 right now, chosen by the kernel, for the PORT given to a server. */
import net from 'node:net';

/**
 * The kernel picks the port (listen on 0) and it is released at once; the server
 * started next binds it. Another process could take it in between, which the
 * readiness check then reports.
 * @returns {Promise<number>}
 */
export function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      // Listening on a TCP port: its address is an AddressInfo (a string only for a pipe).
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}
