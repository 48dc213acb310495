#!/usr/bin/env node
// bench:generator: what one request costs the load generator, side by side.
//
// 1. Generator-bound (issue 28's table): a fast responder, bench/responder/hello.c
//    (built when `cc` is on PATH; else the Go reference's --hello mode, built when `go`
//    is; else the hello-world fixture; each fallback said) pinned to CPU 1, loaded by each tool pinned to
//    CPU 0 (taskset; unpinned where there is no taskset or one CPU, said so), one
//    tool at a time, the order rotated each round:
//    - spawnbench's generator alone (startLoad() in a child process), and the same
//      with writePath 'public' (socket.write(): the A/B of src/load/request-writer.js);
//    - the spawnbench CLI (`run --url … --json --warmup 0`, the whole process from
//      exec to exit: start, load, report);
//    - wrk -t1 (when installed; said when skipped), autocannon, and node:http's
//      client (the reference the hand-written parser is measured against).
//    CPU of the whole process: process.resourceUsage() around the load for the
//    node tools run in-process, the shell's cutime+cstime after the CLI and wrk
//    exit. Prints requests per CPU-second (median of the rounds), the tool's CPU %
//    of its core (≈100: the tool was the bottleneck) and every ratio to wrk.
//    --perf adds one spawnbench generator run under `perf record` (where perf
//    exists): the top symbols as µs of CPU per request.
// 2. https: the same hello world over TLS (fixtures/servers/hello-https.js, a
//    self-signed certificate), spawnbench (insecure) and autocannon side by side:
//    requests per generator CPU-second and their ratio.
// 3. Server-bound: the baseline strategy running `echo hi` per request, loaded by
//    wrk and spawnbench: their rps should agree within ±5%.
//
// The machine is shared: the load average is printed before and after each part.
//
// Usage: node bench/generator.js [--duration 10] [--connections 50] [--rounds 3]
//        [--server-connections 30] [--skip-server-bound] [--skip-https] [--no-pin] [--perf]
import { spawn, execFileSync, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildGoReference, startGoReference } from './go-reference.js';
import { buildResponder } from './responder.js';
import { median } from './strategies-figures.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
// Server warm-up before the measured runs, in s: lets the server's JIT settle so
// the first tool measured is not penalised.
const WARMUP_S = 2;
// USER_HZ: /proc CPU times are in 1/100 s on Linux.
const MS_PER_TICK = 10;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    'server-connections': { type: 'string', default: '30' },
    'skip-server-bound': { type: 'boolean', default: false },
    'skip-https': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
    'no-pin': { type: 'boolean', default: false },
    perf: { type: 'boolean', default: false },
    child: { type: 'string' },
    url: { type: 'string' },
    'write-path': { type: 'string', default: 'fast' },
  },
});
const durationS = Number(args.duration);
const connections = Number(args.connections);

/** Child mode: run one tool in this process, print { requests, seconds, cpuMs } as JSON. */
async function runChild(tool, url, conns, seconds) {
  const before = process.resourceUsage();
  const startedAt = performance.now();
  let requests;
  let errors = 0;
  if (tool === 'spawnbench') {
    const { startLoad } = await import('../src/load/index.js');
    const result = await startLoad({
      url, connections: conns, durationMs: seconds * 1000, warmupMs: 0, expectedBody: 'hi\n', insecure: url.startsWith('https:'), writePath: args['write-path'],
    }).done;
    requests = result.requests;
    errors = result.errors.total;
  } else if (tool === 'autocannon') {
    const { default: autocannon } = await import('autocannon');
    const result = await autocannon({ url, connections: conns, duration: seconds });
    requests = result.requests.total;
    errors = result.errors + result.non2xx;
  } else if (tool === 'node-http') {
    requests = await nodeHttpLoop(url, conns, seconds);
  }
  const elapsedS = (performance.now() - startedAt) / 1000;
  const after = process.resourceUsage();
  const cpuMs = (after.userCPUTime + after.systemCPUTime - before.userCPUTime - before.systemCPUTime) / 1000;
  process.stdout.write(`${JSON.stringify({ requests, seconds: elapsedS, cpuMs, errors })}\n`);
  process.exit(0);
}

/** The closed loop one writes with node:http: keep-alive Agent, one request in flight per connection. */
async function nodeHttpLoop(url, conns, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: conns });
  const endAt = performance.now() + seconds * 1000;
  let requests = 0;
  const one = () =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (body += d));
          res.on('end', () => {
            if (body === 'hi\n') requests++;
            resolve();
          });
        })
        .on('error', reject);
    });
  await Promise.all(
    Array.from({ length: conns }, async () => {
      while (performance.now() < endAt) await one();
    }),
  );
  agent.destroy();
  return requests;
}

/**
 * The CPU the tools run on: `taskset -c 0` in front of each, the server on CPU 1,
 * as issue 28's table was measured; none without taskset, with one CPU or --no-pin.
 */
const PIN = (() => {
  if (args['no-pin']) return { tool: [], server: null, why: 'not pinned (--no-pin)' };
  if (availableParallelism() < 2) return { tool: [], server: null, why: 'not pinned (one CPU)' };
  if (spawnSync('taskset', ['-c', '0', 'true']).status !== 0) return { tool: [], server: null, why: 'not pinned (no taskset)' };
  return { tool: ['taskset', '-c', '0'], server: '1', why: 'each tool pinned to CPU 0, the server to CPU 1' };
})();

/** Pins every thread of a running server to the server's CPU. */
function pinServer(pid) {
  if (PIN.server !== null) execFileSync('taskset', ['-a', '-p', '-c', PIN.server, String(pid)], { stdio: 'ignore' });
}

/** argv run on the tools' CPU. */
const pinned = (argv) => [...PIN.tool, ...argv];

/** Runs a node tool in a child process (its figures cover the load, measured inside it). */
async function runNodeTool(tool, url, conns, seconds, extra = []) {
  const [exe, ...rest] = pinned([process.execPath, SELF, '--child', tool, '--url', url, '--connections', String(conns), '--duration', String(seconds), ...extra]);
  const child = spawn(exe, rest, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${tool} child exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1));
}

/**
 * Runs a command to its end through sh, whose /proc stat afterwards holds the
 * command's whole CPU (cutime, cstime: every thread, from exec to exit).
 * @returns {Promise<{ out: string, cpuMs: number }>} its stdout and CPU
 */
async function runWhole(argv, { quiet = false } = {}) {
  const child = spawn('sh', ['-c', '"$@"; cat /proc/$$/stat', 'sh', ...pinned(argv)], { cwd: ROOT, stdio: ['ignore', 'pipe', quiet ? 'ignore' : 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await once(child, 'exit');
  const lines = out.trim().split('\n');
  const stat = lines.pop();
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime are fields 16 and 17 of /proc/<pid>/stat (14th, 15th after ')').
  return { out: lines.join('\n'), cpuMs: (Number(fields[13]) + Number(fields[14])) * MS_PER_TICK };
}

/** wrk -t1 to its end. */
async function runWrk(url, conns, seconds) {
  const { out, cpuMs } = await runWhole(['wrk', '-t1', `-c${conns}`, `-d${seconds}s`, url]);
  const requests = Number(/(\d+) requests in ([\d.]+)(m?s)/.exec(out)?.[1]);
  const [, value, unit] = /requests in ([\d.]+)(ms|s|m)/.exec(out) ?? [];
  const secondsRun = unit === 'ms' ? value / 1000 : unit === 'm' ? value * 60 : Number(value);
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return { requests, seconds: secondsRun, cpuMs, errors };
}

/** The spawnbench CLI, `run --url … --json`, the whole process: start, load, report, exit. */
async function runCli(url, conns, seconds) {
  const argv = [process.execPath, 'bin/spawnbench.js', 'run', '--url', url, '--connections', String(conns), '--duration', `${seconds}s`, '--warmup', '0s', '--json'];
  const { out, cpuMs } = await runWhole(argv, { quiet: true }); // its progress lines are not the bench's
  const { load } = JSON.parse(out.trim().split('\n').at(-1));
  return { requests: load.requests, seconds: load.durationMs / 1000, cpuMs, errors: load.errors.total };
}

function hasWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return error.code !== 'ENOENT'; // wrk --version exits 1 but exists
  }
}

/** Starts a server process and waits for its ready line. */
async function startServer(args, env = {}, executable = process.execPath) {
  const child = spawn(executable, args, {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
    detached: true,
  });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    if (line.includes('"spawnbench":"ready"')) {
      const { port } = JSON.parse(line);
      const stop = async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        try {
          process.kill(-child.pid, 'SIGTERM'); // the whole group: a strategy's spawned commands too
        } catch {
          child.kill('SIGTERM');
        }
        await exited;
      };
      return { url: `${args[0]?.includes('https') ? 'https' : 'http'}://127.0.0.1:${port}/`, pid: child.pid, stop };
    }
  }
  throw new Error(`server ${args.join(' ')} exited before it was ready`);
}

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const NAME_WIDTH = 30;
const HEADER = `${'tool'.padEnd(NAME_WIDTH)} ${'rps'.padStart(9)} ${'CPU s'.padStart(8)} ${'req/CPU-s'.padStart(14)} ${'µs CPU/req'.padStart(11)}`;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/** Prints one measured run; returns it. */
function row(name, r) {
  const rps = r.requests / r.seconds;
  const perCpuS = r.requests / (r.cpuMs / 1000);
  const usPerReq = (r.cpuMs * 1000) / r.requests;
  console.log(
    `${name.padEnd(NAME_WIDTH)} ${fmt(rps).padStart(9)} ${fmt(r.cpuMs / 1000, 2).padStart(8)} ${fmt(perCpuS).padStart(14)} ${fmt(usPerReq, 1).padStart(11)}${r.errors ? `   errors ${r.errors}` : ''}`,
  );
  return r;
}

/**
 * One tool over the rounds: total requests over total seconds and CPU, and the
 * median of the rounds' requests per CPU-second and CPU % of a core.
 */
function total(runs) {
  const sum = (key) => runs.reduce((n, r) => n + r[key], 0);
  return {
    rps: sum('requests') / sum('seconds'),
    perCpuS: sum('requests') / (sum('cpuMs') / 1000),
    medianPerCpuS: median(runs.map((r) => r.requests / (r.cpuMs / 1000))),
    cpuPct: median(runs.map((r) => r.cpuMs / 10 / r.seconds)),
  };
}

const ratio = (a, b) => `${(a / b).toFixed(2)}×`;

/**
 * Runs every tool once per round, the order rotated each round so no tool always
 * goes first (the machine is shared: drift hits every tool alike).
 */
async function rounds(tools, rounds) {
  const runs = Object.fromEntries(tools.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    console.log(`round ${round + 1}/${rounds}`);
    const order = tools.map((_, i) => tools[(i + round) % tools.length]);
    for (const tool of order) runs[tool.name].push(row(tool.name, await tool.run()));
  }
  return Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, total(list)]));
}

/**
 * The fast responder of part 1: the C responder (bench/responder/hello.c) where `cc`
 * builds it, else the Go reference's --hello mode, else the hello-world fixture; each
 * fallback says why.
 */
async function startResponder() {
  const c = buildResponder();
  if (!c.skipped) {
    try {
      const server = await startServer([], {}, c.binary);
      return { ...server, name: 'C responder (bench/responder/hello.c, epoll)', stop: async () => { await server.stop(); c.cleanup(); } };
    } catch (error) {
      c.cleanup();
      throw error;
    }
  }
  const built = buildGoReference();
  if (built.skipped) {
    const hello = await startServer(['fixtures/servers/hello.js']);
    return { ...hello, name: `hello-world fixture (Node; ${c.skipped}; ${built.skipped})` };
  }
  try {
    const go = await startGoReference(built.binary, { command: '--hello', args: [] });
    return { url: go.url, pid: go.pid, name: `Go reference --hello (${c.skipped})`, stop: async () => { await go.stop(); built.cleanup(); } };
  } catch (error) {
    built.cleanup();
    throw error;
  }
}

async function main() {
  const wrk = hasWrk();
  const roundCount = Number(args.rounds);
  const responder = await startResponder();
  let figures;
  try {
    pinServer(responder.pid);
    console.log(`bench:generator: ${responder.name}, ${connections} connections, ${durationS} s per tool, ${roundCount} rounds, one tool at a time, ${PIN.why}`);
    console.log(`load average before: ${load()}`);
    await runNodeTool('spawnbench', responder.url, connections, WARMUP_S); // server warm-up, not reported
    console.log(HEADER);
    const url = responder.url;
    const tools = [
      { name: 'spawnbench generator', run: () => runNodeTool('spawnbench', url, connections, durationS) },
      { name: 'spawnbench generator (socket.write)', run: () => runNodeTool('spawnbench', url, connections, durationS, ['--write-path', 'public']) },
      { name: 'spawnbench CLI run --json', run: () => runCli(url, connections, durationS) },
      { name: 'autocannon', run: () => runNodeTool('autocannon', url, connections, durationS) },
      { name: 'node:http (reference)', run: () => runNodeTool('node-http', url, connections, durationS) },
    ];
    if (wrk) tools.push({ name: 'wrk -t1', run: () => runWrk(url, connections, durationS) });
    else console.log('wrk: skipped (not on PATH; apt-get install wrk to compare)');
    figures = await rounds(tools, roundCount);
    if (args.perf) await perfBreakdown(url);
  } finally {
    await responder.stop();
  }
  console.log(`load average after: ${load()}`);
  const reference = wrk ? figures['wrk -t1'] : null;
  console.log(`side by side, median of ${roundCount} rounds (CPU %: of one core, ≈100 when the tool is the bottleneck):`);
  for (const [name, f] of Object.entries(figures)) {
    const vsWrk = reference ? `  ${ratio(f.medianPerCpuS, reference.medianPerCpuS)} wrk` : '';
    console.log(`  ${name.padEnd(NAME_WIDTH)} ${fmt(f.medianPerCpuS).padStart(9)} req/CPU-s ${fmt(1e6 / f.medianPerCpuS, 1).padStart(6)} µs/req  CPU ${fmt(f.cpuPct).padStart(3)}%  ${fmt(f.rps).padStart(8)} rps${vsWrk}`);
  }
  const gen = figures['spawnbench generator'];
  const cli = figures['spawnbench CLI run --json'];
  console.log(
    `requests per CPU-second: generator/autocannon ${ratio(gen.medianPerCpuS, figures.autocannon.medianPerCpuS)}` +
      `, generator/node:http ${ratio(gen.medianPerCpuS, figures['node:http (reference)'].medianPerCpuS)}` +
      `, handle writes/socket.write ${ratio(gen.medianPerCpuS, figures['spawnbench generator (socket.write)'].medianPerCpuS)}` +
      (reference
        ? `, generator/wrk ${ratio(gen.medianPerCpuS, reference.medianPerCpuS)} (target ≥ 1.0×), CLI/wrk ${ratio(cli.medianPerCpuS, reference.medianPerCpuS)} (target ≥ 0.95×)`
        : ', wrk skipped (not installed)'),
  );
  await writePathAlone();
  if (!args['skip-https']) await httpsRows(roundCount);
  if (args['skip-server-bound']) return;
  if (!wrk) {
    console.log('server-bound comparison: skipped (needs wrk: apt-get install wrk)');
    return;
  }

  const serverConns = Number(args['server-connections']);
  const baseline = await startServer(['strategies/baseline/index.js'], {
    SPAWNBENCH_STRATEGY_CONFIG: JSON.stringify({ command: 'echo', args: ['hi'] }),
  });
  try {
    console.log(
      `\nserver-bound: baseline strategy running echo hi, ${serverConns} connections, ${durationS} s per tool, ${roundCount} rounds`,
    );
    await runNodeTool('spawnbench', baseline.url, serverConns, WARMUP_S);
    console.log(HEADER);
    const server = await rounds(
      [
        { name: 'wrk -t1', run: () => runWrk(baseline.url, serverConns, durationS) },
        { name: 'spawnbench', run: () => runNodeTool('spawnbench', baseline.url, serverConns, durationS) },
      ],
      roundCount,
    );
    const s = server.spawnbench.rps;
    const w = server['wrk -t1'].rps;
    const diff = ((s / w - 1) * 100).toFixed(1);
    console.log(
      `all rounds: wrk ${fmt(w)} rps, spawnbench ${fmt(s)} rps: spawnbench/wrk ${ratio(s, w)} (${diff >= 0 ? '+' : ''}${diff}%, target within ±5%)`,
    );
  } finally {
    await baseline.stop();
  }
}

/**
 * --perf: one spawnbench generator run under `perf record` (JIT frames named by
 * --perf-basic-prof), the symbols above 0.7% of its samples as µs of CPU per
 * request (their share of the run's CPU over its requests).
 */
async function perfBreakdown(url) {
  if (spawnSync('perf', ['--version']).status !== 0) {
    console.log('perf breakdown: skipped (perf is not installed)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-perf-'));
  try {
    const data = join(dir, 'perf.data');
    const argv = ['perf', 'record', '-q', '-F', '999', '-o', data, '--', ...pinned([process.execPath, '--perf-basic-prof', SELF, '--child', 'spawnbench', '--url', url, '--connections', String(connections), '--duration', String(durationS)])];
    const run = spawnSync(argv[0], argv.slice(1), { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (run.status !== 0) {
      console.log(`perf breakdown: skipped (perf record failed: ${run.stderr.trim().split('\n')[0]})`);
      return;
    }
    const figures = JSON.parse(run.stdout.trim().split('\n').at(-1));
    const usPerRequest = (figures.cpuMs * 1000) / figures.requests;
    const perfReport = (sort, limit) => spawnSync('perf', ['report', '-i', data, '--no-children', '--sort', sort, '--stdio', '-g', 'none', '--percent-limit', limit], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout;
    // By binary first (kernel, node's C++, JIT-compiled JS, libc), then by symbol.
    const byDso = perfReport('dso', '1').split('\n').map((l) => /^\s+([\d.]+)%\s+(.+?)\s*$/.exec(l)).filter(Boolean)
      .map(([, pct, dso]) => `${dso.replace(/^\[JIT\].*/, 'JIT (JS)').replace('[kernel.kallsyms]', 'kernel')} ${fmt((pct / 100) * usPerRequest, 2)}`);
    console.log(`perf breakdown of one spawnbench generator run: ${fmt(usPerRequest, 2)} µs CPU per request in all; by binary (µs): ${byDso.join(', ')}`);
    const report = { stdout: perfReport('dso,sym', '0.7') };
    console.log('  by symbol, above 0.7% of the samples:');
    for (const line of report.stdout.split('\n')) {
      const m = /^\s+([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.+?)\s*$/.exec(line);
      if (m) console.log(`  ${fmt((Number(m[1]) / 100) * usPerRequest, 3).padStart(6)} µs  ${m[1].padStart(6)}%  ${m[3] === 'k' ? 'kernel' : m[2].padEnd(14)}  ${m[4].slice(0, 90)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The write path alone, A/B in this process: 50,000 writes of a request through
 * each path of src/load/request-writer.js to a peer process that drains them, in
 * alternating rounds; CPU (user + system) per write, median of 6 rounds. Less
 * sensitive to a busy machine than the whole-tool rows: no server, no latency.
 */
async function writePathAlone() {
  const { RequestWriter, FAST_WRITES_AVAILABLE } = await import('../src/load/request-writer.js');
  const sink = spawn(process.execPath, ['-e', "require('net').createServer((s) => s.resume()).listen(0, '127.0.0.1', function () { console.log(this.address().port) })"], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(sink.stdout, 'data');
  const socket = net.connect({ host: '127.0.0.1', port: Number(String(line).trim()), onread: { buffer: Buffer.alloc(65536), callback: () => {} } });
  await once(socket, 'connect');
  const request = Buffer.from('GET / HTTP/1.1\r\nhost: 127.0.0.1:8080\r\n\r\n');
  const perWrite = { fast: [], public: [] };
  for (let round = 0; round < 6; round++) {
    for (const path of ['fast', 'public']) {
      const writer = new RequestWriter(socket, { fast: path === 'fast' });
      const before = process.cpuUsage();
      for (let batch = 0; batch < 100; batch++) {
        for (let i = 0; i < 500; i++) writer.write(request);
        await new Promise((resolve) => setImmediate(resolve)); // socket.write's callbacks run here
      }
      const used = process.cpuUsage(before);
      perWrite[path].push((used.user + used.system) / 50_000);
    }
  }
  socket.destroy();
  sink.kill();
  await once(sink, 'exit');
  const fast = median(perWrite.fast);
  const pub = median(perWrite.public);
  console.log(
    `write path alone (${process.version}, fast path ${FAST_WRITES_AVAILABLE ? 'available' : 'NOT available'}): ` +
      `handle write ${fmt(fast, 2)} µs, socket.write ${fmt(pub, 2)} µs CPU per request (kernel included), ${fmt(pub - fast, 2)} µs saved; load average ${load()}`,
  );
}

/** The https rows: spawnbench and autocannon on the hello world over TLS, rotated per round. */
async function httpsRows(roundCount) {
  const hello = await startServer(['fixtures/servers/hello-https.js']);
  try {
    console.log(`\nhttps: hello-world over TLS (self-signed), ${connections} connections, ${durationS} s per tool, ${roundCount} rounds`);
    await runNodeTool('spawnbench', hello.url, connections, WARMUP_S);
    console.log(HEADER);
    const figures = await rounds(
      [
        { name: 'spawnbench https', run: () => runNodeTool('spawnbench', hello.url, connections, durationS) },
        { name: 'autocannon https', run: () => runNodeTool('autocannon', hello.url, connections, durationS) },
      ],
      roundCount,
    );
    const sb = figures['spawnbench https'];
    const ac = figures['autocannon https'];
    console.log(
      `all rounds: spawnbench ${fmt(sb.perCpuS)} req/CPU-s (${fmt(sb.rps)} rps), autocannon ${fmt(ac.perCpuS)} req/CPU-s (${fmt(ac.rps)} rps): ` +
        `requests per CPU-second spawnbench/autocannon ${ratio(sb.perCpuS, ac.perCpuS)}`,
    );
  } finally {
    await hello.stop();
  }
}

if (args.child) {
  await runChild(args.child, args.url, Number(args.connections), durationS);
} else {
  await main();
}
