// The server side of bench/probe-overhead.js's in-process alternation: runs a server file in
// this process and installs the per-route attribution (src/probe/route-timer.js) for every
// other phase (off, on, off, ..., off), so with and without see the same process, JIT and
// machine moments. Each on phase installs it afresh, so it opens a window at its start: one
// window per phase of 1 s is the probe's own rate. Prints the server's port as {"port":N}
// once listening, then at the end one JSON line: { phases: [{ on, cpuMs, requests }] }.
//
// With a speed-up k, the windows open k times as often for as many requests each (k times the
// requests timed), so what each window costs shows k times over the noise.
//
// Usage: node bench/route-timer-child.js <server file> <phases> <phase ms> [speed-up]
import http from 'node:http';
import { installRouteTimer, ROUTE_PERIOD_MS, ROUTE_SAMPLED_PER_SEC } from '../src/probe/route-timer.js';

const [file, phases, phaseMs, speedUp] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5] ?? 1)];
/** The first phase's start: after this settling time the load is steady and the JIT warm. */
const SETTLE_MS = 2000;

let requests = 0;
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  this.on('request', () => {
    requests += 1;
  });
  this.once('listening', () => process.stderr.write(`${JSON.stringify({ port: this.address().port })}\n`));
  return Reflect.apply(listen, this, args);
};
process.env.PORT = '0';
await import(file);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const measured = [];
await sleep(SETTLE_MS);
for (let i = 0; i < phases; i += 1) {
  const on = i % 2 === 1;
  // The whole phase is measured: installing, the window and its tail are part of the cost.
  const timer = on ? installRouteTimer({ periodMs: ROUTE_PERIOD_MS / speedUp, sampledPerSec: ROUTE_SAMPLED_PER_SEC * speedUp }) : null;
  const cpu = process.cpuUsage();
  const from = requests;
  await sleep(phaseMs);
  const used = process.cpuUsage(cpu);
  measured.push({ on, cpuMs: (used.user + used.system) / 1000, requests: requests - from });
  timer?.uninstall();
}
process.stderr.write(`${JSON.stringify({ phases: measured })}\n`);
process.exit(0);
