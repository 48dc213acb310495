/**
 * The Node floor for bench:strategies: what the strategies' own spawn path
 * (strategies/lib/spawn-command.js: posix_spawn through node:ffi or koffi where it
 * loads, else child_process) costs a Node process with no HTTP around it. Runs the
 * workload's command <count> times, <concurrency> at a time, stdout read to its end,
 * every output compared with the first; the first WARM_UP spawns (JIT warm-up) are
 * not counted. Prints {"spawns":N,"selfMs":…,"childrenMs":…,"api":"posix_spawn"}:
 * this process's CPU and the commands' over the counted spawns.
 *
 * Usage: node node-spawn-loop.js <count> <concurrency> <command> [args...]
 */
import { readStat } from '../../src/sample/proc.js';
import { runCommand, SPAWN_API } from '../../strategies/lib/spawn-command.js';
import { ticksToMs } from '../go-reference.js';

const WARM_UP = 300;

const [count, concurrency] = process.argv.slice(2, 4).map(Number);
const [command, ...args] = process.argv.slice(4);
if (!(count > 0) || !(concurrency > 0) || !command) {
  process.stderr.write('usage: node node-spawn-loop.js <count> <concurrency> <command> [args...]\n');
  process.exit(2);
}

/** CPU ms of this process's reaped children (cutime + cstime). */
function childrenMs() {
  const { cutime, cstime } = readStat(process.pid);
  return ticksToMs(cutime + cstime);
}

let started = 0;
let done = 0;
let expected = null;
let start = null;

function next() {
  if (started === WARM_UP + count) return;
  started += 1;
  const chunks = [];
  runCommand(command, args, {
    onStdout: (chunk) => chunks.push(chunk),
    onError: (message) => fail(message),
    onExit: (code) => {
      const out = Buffer.concat(chunks).toString('latin1');
      expected ??= out;
      if (code !== 0 || out !== expected) fail(`${command} gave exit ${code} and ${out.length} bytes, not what it gave first`);
      done += 1;
      if (done === WARM_UP) start = { cpu: process.cpuUsage(), children: childrenMs() };
      if (done === WARM_UP + count) finish();
      else next();
    },
  });
}

function finish() {
  const cpu = process.cpuUsage(start.cpu);
  const selfMs = (cpu.user + cpu.system) / 1000;
  process.stdout.write(`${JSON.stringify({ spawns: count, selfMs, childrenMs: childrenMs() - start.children, api: SPAWN_API })}\n`);
}

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

for (let i = 0; i < concurrency; i++) next();
