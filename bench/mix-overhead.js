#!/usr/bin/env node
// bench:mix: what --mix costs the load generator, side by side: plain --path, a mix of
// one entry (the same request, drawn), and a mix of four. Each variant runs startLoad()
// in a child process against the hello-world fixture (a fast responder), one at a
// time, the order rotated each round; the figure is the generator process's CPU per
// request (process.resourceUsage() around the load), median of the rounds, and its
// ratio to plain --path. The machine is shared: the load average is printed too.
//
// Usage: node bench/mix-overhead.js [--duration 5] [--connections 50] [--rounds 5]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './strategies-figures.js';

const SELF = fileURLToPath(import.meta.url);
const HELLO = fileURLToPath(new URL('../fixtures/servers/hello.js', import.meta.url));

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '5' },
    child: { type: 'string' },
    url: { type: 'string' },
  },
});

const VARIANTS = {
  path: () => ({}),
  'mix of 1': () => ({ mix: [{ method: 'GET', path: '/' }] }),
  'mix of 4': () => ({ mix: [{ path: '/', weight: 60 }, { path: '/items/7', weight: 25 }, { path: '/report', weight: 10 }, { method: 'POST', path: '/convert', body: 'hi', weight: 5 }] }),
};

if (args.child) {
  const { startLoad } = await import('../src/load/index.js');
  const before = process.resourceUsage();
  const result = await startLoad({
    url: args.url, connections: Number(args.connections), durationMs: Number(args.duration) * 1000, warmupMs: 0, ...VARIANTS[args.child](),
  }).done;
  const after = process.resourceUsage();
  const cpuUs = after.userCPUTime + after.systemCPUTime - before.userCPUTime - before.systemCPUTime;
  process.stdout.write(`${JSON.stringify({ requests: result.requests, errors: result.errors.total, cpuUs })}\n`);
} else {
  const server = spawn(process.execPath, [HELLO], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = await once(createInterface({ input: server.stdout }), 'line');
  const url = `http://127.0.0.1:${JSON.parse(line).port}/`;
  const names = Object.keys(VARIANTS);
  const perRequest = Object.fromEntries(names.map((n) => [n, []]));
  console.log(`load average before: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  try {
    for (let round = 0; round < Number(args.rounds); round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(round + k) % names.length];
        const child = spawn(process.execPath, [SELF, '--child', name, '--url', url, '--duration', args.duration, '--connections', args.connections], { stdio: ['ignore', 'pipe', 'inherit'] });
        const [out] = await once(createInterface({ input: child.stdout }), 'line');
        await once(child, 'exit');
        const { requests, cpuUs } = JSON.parse(out);
        perRequest[name].push(cpuUs / requests);
        console.log(`round ${round + 1} ${name.padEnd(8)} ${requests} requests, ${(cpuUs / requests).toFixed(2)} µs of generator CPU each`);
      }
    }
  } finally {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  const base = median(perRequest.path);
  for (const name of names) {
    const m = median(perRequest[name]);
    console.log(`${name.padEnd(8)} ${m.toFixed(2)} µs/request (median of ${perRequest[name].length})  ×${(m / base).toFixed(3)} of --path`);
  }
  console.log(`load average after: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
}
