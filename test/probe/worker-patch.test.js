import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openProbeChannel } from '../../src/probe/channel.js';

const run = promisify(execFile);

/**
 * Runs `script` as an ES module file in a probed Node process with `flags`; resolves to
 * its stdout and the reports. A file, because `-e` and `--input-type` would land in
 * process.execArgv (and plain Node refuses `--input-type` in every worker).
 */
async function probed(script, flags = []) {
  const channel = await openProbeChannel({ intervalMs: 50 });
  const dir = await mkdtemp(path.join(tmpdir(), 'spawnbench-worker-patch-'));
  const reports = [];
  channel.on('report', (r) => reports.push(r));
  try {
    await writeFile(path.join(dir, 'thread.cjs'), THREAD);
    await writeFile(path.join(dir, 'main.mjs'), script);
    const { stdout } = await run(process.execPath, [...flags, path.join(dir, 'main.mjs')], { env: { ...process.env, ...channel.env } });
    return { stdout, reports };
  } finally {
    await channel.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const THREAD = `
  const { workerData, parentPort } = require('node:worker_threads');
  setTimeout(() => parentPort.postMessage(workerData * 2), 300);`;

test('patched Worker keeps workerData, messages, subclasses and instanceof; the thread is probed', async () => {
  const { stdout, reports } = await probed(`
    import { Worker } from 'node:worker_threads';
    class Doubler extends Worker { name() { return 'doubler'; } }
    const worker = new Doubler(new URL('./thread.cjs', import.meta.url), { workerData: 21 });
    worker.on('message', (m) => console.log(JSON.stringify({ m, name: worker.name(), sub: worker instanceof Doubler, base: worker instanceof Worker })));`);
  assert.deepEqual(JSON.parse(stdout), { m: 42, name: 'doubler', sub: true, base: true });
  assert.ok(reports.some((r) => !r.isMainThread && r.source === 'probe' && r.loopDelay), 'the thread reported from inside');
});

test('workers of a process started with flags of its own start untouched (watched from outside)', async () => {
  const thread = "import { workerData, parentPort } from 'node:worker_threads'; setTimeout(() => parentPort.postMessage(workerData * 2), 300);";
  const { stdout, reports } = await probed(
    `import { Worker } from 'node:worker_threads';
     new Worker(new URL('data:text/javascript,' + encodeURIComponent(${JSON.stringify(thread)})), { workerData: 2 })
       .on('message', (m) => console.log(m));`,
    ['--max-old-space-size=200'],
  );
  assert.equal(stdout, '4\n');
  assert.ok(reports.some((r) => !r.isMainThread && r.source === 'parent' && r.elu >= 0), 'ELU read from the parent');
});

test('the parent reports every Worker with its kernel thread id: the same tid the thread reports from inside; eval workers too', async () => {
  const { stdout, reports } = await probed(`
    import { Worker } from 'node:worker_threads';
    // 1.5 s: long enough for the thread's own probe to connect and report on a crowded machine.
    const code = "import { parentPort } from 'node:worker_threads'; setTimeout(() => parentPort.postMessage(1), 1500);";
    const file = new Worker(new URL('data:text/javascript,' + encodeURIComponent(code)));
    const evaluated = new Worker("setTimeout(() => require('node:worker_threads').parentPort.postMessage(0), 1500)", { eval: true });
    // A Worker's threadId reads -1 once its thread has ended: taken now.
    const ids = JSON.stringify([file.threadId, evaluated.threadId]);
    let left = 2;
    for (const w of [file, evaluated]) w.on('message', () => { if (--left === 0) console.log(ids); });`);
  const [fileId, evalId] = JSON.parse(stdout);
  const fromParent = (id) => reports.filter((r) => r.source === 'parent' && r.threadId === id);
  const inside = reports.find((r) => r.source === 'probe' && r.threadId === fileId);
  assert.ok(inside?.tid > 0, 'the probed thread reported its tid from inside');
  assert.ok(fromParent(fileId).length > 0 && fromParent(fileId).every((r) => r.tid === inside.tid && r.probed === true), 'its parent reports the same tid');
  const evalReports = fromParent(evalId);
  assert.ok(evalReports.length > 0 && evalReports.every((r) => r.probed === false), 'the eval worker is reported by its parent');
  assert.ok(evalReports[0].tid > 0 && evalReports[0].tid !== inside.tid, `the eval worker has its own tid (${evalReports[0].tid})`);
});
