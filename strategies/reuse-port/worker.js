// A reuse-port worker: an HTTP server of its own on the port the main process
// chose (argv[2]), sharing it with the other workers. Each request runs the command
// here and streams its stdout as the body. Counts go to the main process whenever it
// probes ('probe' over IPC), and 'ready' once listening.
import http from 'node:http';
import { readConfig } from '../lib/config.js';
import { onParentGone } from '../lib/fork.js';
import { sendError } from '../lib/http.js';
import { runCommand } from '../lib/spawn-command.js';

/** Bun's and Deno's own APIs, where this runs on them (undefined on Node, whose types know neither). */
const { Bun, Deno } = /** @type {{ Bun?: any, Deno?: any }} */ (globalThis);
const port = Number(process.argv[2]);
const { host, command, args } = readConfig();
const counts = { inFlight: 0, completed: 0, failed: 0 };
const finished = (failed) => {
  counts.inFlight--;
  if (failed) counts.failed++;
  else counts.completed++;
};

process.on('message', (message) => {
  if (message === 'probe') process.send(['counts', counts.inFlight, counts.completed, counts.failed]);
});
onParentGone();

const OCTETS = { 'content-type': 'application/octet-stream' };
const EMPTY = new Uint8Array(0);
const failure = (text) => new Response(`${text}\n`, { status: 500, headers: { 'content-type': 'text/plain' } });

// Bun and Deno: their own server with SO_REUSEPORT, and the command's stdout stream as
// the response body, so the runtime moves the bytes from pipe to socket itself.
if (Bun) {
  Bun.serve({
    hostname: host, port, reusePort: true,
    fetch() {
      counts.inFlight++;
      let proc;
      try {
        proc = Bun.spawn([command, ...args], { stdin: 'ignore', stdout: 'pipe', stderr: 'ignore' });
      } catch (error) {
        finished(true);
        return failure(`spawn ${command} ${error.code ?? error.message}`);
      }
      proc.exited.then(() => finished(false));
      return new Response(proc.stdout, { headers: OCTETS });
    },
  });
  process.send('ready');
} else if (Deno) {
  const CODES = { NotFound: 'ENOENT', PermissionDenied: 'EACCES' };
  Deno.serve({ hostname: host, port, reusePort: true, onListen: () => process.send('ready') }, () => {
    counts.inFlight++;
    let child;
    try {
      child = new Deno.Command(command, { args, stdin: 'null', stdout: 'piped', stderr: 'null' }).spawn();
    } catch (error) {
      finished(true);
      return failure(`spawn ${command} ${CODES[error.name] ?? error.message}`);
    }
    child.status.then(() => finished(false));
    return new Response(child.stdout, { headers: OCTETS });
  });
} else {
  // Node: a node:cluster worker; listen() shares the primary's socket (SCHED_NONE), and
  // this process accepts from it directly.
  // The first stdout chunk waits for a second one or the exit: a command whose output
  // comes in one read (echo) is answered in one write with its length, not as a chunked
  // stream of two writes (chunk, then the last-chunk marker); from the second chunk on, it streams.
  const server = http.createServer((req, res) => {
    req.resume();
    counts.inFlight++;
    let first = null;
    let streaming = false;
    runCommand(command, args, {
      onStdout(chunk) {
        if (streaming) {
          res.write(chunk);
        } else if (first === null) {
          first = chunk;
        } else {
          res.writeHead(200, OCTETS);
          res.write(first);
          res.write(chunk);
          first = null;
          streaming = true;
        }
      },
      onExit() {
        if (streaming) {
          res.end();
        } else {
          const body = first ?? EMPTY;
          res.writeHead(200, { ...OCTETS, 'content-length': body.length });
          res.end(body);
        }
        finished(false);
      },
      onError(message) {
        sendError(res, message);
        finished(true);
      },
    });
  });
  server.listen(port, host, () => process.send('ready'));
}
