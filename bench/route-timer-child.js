// The server side of bench/probe-overhead.js's alternation: runs a server file in this
// process and installs the per-route attribution (src/probe/route-timer.js) for every other
// phase, so with and without see the same process, JIT and machine moments. Prints the
// server's port as {"port":N} once listening, then at the end one JSON line:
// { off: { cpuMs, requests }, on: { cpuMs, requests } }.
//
// Usage: node bench/route-timer-child.js <server file> <phases> <phase ms>
import http from 'node:http';
import { installRouteTimer } from '../src/probe/route-timer.js';

const [file, phases, phaseMs] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
/** The first phase's start: after this settling time the load is steady. */
const SETTLE_MS = 1000;

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
const totals = { off: { cpuMs: 0, requests: 0 }, on: { cpuMs: 0, requests: 0 } };
await sleep(SETTLE_MS);
for (let i = 0; i < phases; i += 1) {
  const on = i % 2 === 1;
  const timer = on ? installRouteTimer() : null;
  // A tenth of the phase to settle after the switch, the rest measured.
  await sleep(phaseMs / 10);
  const cpu = process.cpuUsage();
  const from = requests;
  await sleep((phaseMs * 9) / 10);
  const used = process.cpuUsage(cpu);
  totals[on ? 'on' : 'off'].cpuMs += (used.user + used.system) / 1000;
  totals[on ? 'on' : 'off'].requests += requests - from;
  timer?.uninstall();
}
process.stderr.write(`${JSON.stringify(totals)}\n`);
process.exit(0);
