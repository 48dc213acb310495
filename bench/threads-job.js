/**
 * One measurement of bench:threads (bench/threads.js starts it under spawnbench's
 * probe): SHA-256 of MESSAGES × 64 KB messages through a pool of SIZE threads,
 * `piscina` (piscina 5, default options but its size) or `hand` (plain
 * `new Worker(code, { eval: true })`, round-robin), every message posted at once as
 * in the seed's sweep (shared/BACKGROUND.md). Prints `{"ready":true}` once the pool
 * is warm, waits for a line on stdin, runs ROUNDS batches and prints
 * `{"done":true,"ms":[…]}` with each batch's wall time; exits when stdin closes.
 */
import { Worker } from 'node:worker_threads';
import { createInterface } from 'node:readline';
import { Piscina } from 'piscina';

const [kind, sizeArg, messagesArg, roundsArg] = process.argv.slice(2);
const size = Number(sizeArg);
const MESSAGES = Number(messagesArg);
const ROUNDS = Number(roundsArg);
const MESSAGE_BYTES = 64 * 1024;

const HASH_CODE = `
const { createHash } = require('node:crypto');
const hash = (data) => createHash('sha256').update(data).digest('hex');
`;

function piscinaPool() {
  const filename = new URL('./threads-task.js', import.meta.url).href;
  const pool = new Piscina({ filename, minThreads: size, maxThreads: size });
  return { run: (data) => pool.run(data), close: () => pool.destroy() };
}

function handPool() {
  const pending = new Map();
  const threads = Array.from({ length: size }, () => {
    const worker = new Worker(`${HASH_CODE}
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, data }) => parentPort.postMessage({ id, digest: hash(data) }));`, { eval: true });
    worker.on('message', ({ id, digest }) => {
      pending.get(id)(digest);
      pending.delete(id);
    });
    return worker;
  });
  let next = 0;
  let lastId = 0;
  return {
    run(data) {
      const id = ++lastId;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        threads[next++ % threads.length].postMessage({ id, data });
      });
    },
    close: () => Promise.all(threads.map((t) => t.terminate())),
  };
}

const pool = kind === 'piscina' ? piscinaPool() : handPool();
const messages = Array.from({ length: MESSAGES }, (_, i) => Buffer.alloc(MESSAGE_BYTES, i % 251));
const batch = (count) => Promise.all(messages.slice(0, count).map((m) => pool.run(m)));

await batch(Math.min(MESSAGES, size * 16));
console.log(JSON.stringify({ ready: true }));
const lines = createInterface({ input: process.stdin });
lines.once('line', async () => {
  const ms = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    await batch(MESSAGES);
    ms.push(performance.now() - started);
  }
  console.log(JSON.stringify({ done: true, ms }));
});
lines.once('close', async () => {
  await pool.close();
  process.exit(0);
});
