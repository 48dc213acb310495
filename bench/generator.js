#!/usr/bin/env node
// bench:generator: what one request costs the load generator, side by side.
//
// 1. Generator-bound: the hello-world fixture (its own process) is loaded by
//    spawnbench's generator, autocannon, node:http's client (the reference the
//    hand-written parser is measured against) and wrk (when installed), one after
//    another, same connections and duration. Each runs in its own child process;
//    its CPU comes from process.resourceUsage() around the load (node tools) or
//    the shell's cutime/cstime after wrk exits. Prints rps, requests per
//    generator CPU-second and the ratios spawnbench/autocannon, spawnbench/wrk.
// 2. https: the same hello world over TLS (fixtures/servers/hello-https.js, a
//    self-signed certificate), spawnbench (insecure) and autocannon side by side:
//    requests per generator CPU-second and their ratio.
// 3. Server-bound: the baseline strategy running `echo hi` per request, loaded by
//    wrk and spawnbench: their rps should agree within ±5%.
//
// Usage: node bench/generator.js [--duration 10] [--connections 50] [--rounds 2]
//        [--server-connections 30] [--skip-server-bound] [--skip-https]
import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

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
    rounds: { type: 'string', default: '2' },
    child: { type: 'string' },
    url: { type: 'string' },
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
    const result = await startLoad({ url, connections: conns, durationMs: seconds * 1000, expectedBody: 'hi\n', insecure: url.startsWith('https:') }).done;
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

/** Runs a node tool in a child process. */
async function runNodeTool(tool, url, conns, seconds) {
  const child = spawn(
    process.execPath,
    [SELF, '--child', tool, '--url', url, '--connections', String(conns), '--duration', String(seconds)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`${tool} child exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1));
}

/** Runs wrk through sh, whose /proc stat after wrk exits holds wrk's CPU (cutime, cstime). */
async function runWrk(url, conns, seconds) {
  const script = 'wrk "$@"; cat /proc/$$/stat';
  const child = spawn('sh', ['-c', script, 'sh', '-t1', `-c${conns}`, `-d${seconds}s`, url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await once(child, 'exit');
  const requests = Number(/(\d+) requests in ([\d.]+)(m?s)/.exec(out)?.[1]);
  const [, value, unit] = /requests in ([\d.]+)(ms|s|m)/.exec(out) ?? [];
  const secondsRun = unit === 'ms' ? value / 1000 : unit === 'm' ? value * 60 : Number(value);
  const stat = out.trim().split('\n').at(-1);
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime are fields 16 and 17 of /proc/<pid>/stat (14th, 15th after ')').
  const cpuMs = (Number(fields[13]) + Number(fields[14])) * MS_PER_TICK;
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return { requests, seconds: secondsRun, cpuMs, errors };
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
async function startServer(args, env = {}) {
  const child = spawn(process.execPath, args, {
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
      return { url: `${args[0].includes('https') ? 'https' : 'http'}://127.0.0.1:${port}/`, stop };
    }
  }
  throw new Error(`server ${args.join(' ')} exited before it was ready`);
}

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const HEADER = `${'tool'.padEnd(22)} ${'rps'.padStart(9)} ${'CPU s'.padStart(8)} ${'req/CPU-s'.padStart(14)} ${'µs CPU/req'.padStart(11)}`;

/** Prints one measured run; returns it. */
function row(name, r) {
  const rps = r.requests / r.seconds;
  const perCpuS = r.requests / (r.cpuMs / 1000);
  const usPerReq = (r.cpuMs * 1000) / r.requests;
  console.log(
    `${name.padEnd(22)} ${fmt(rps).padStart(9)} ${fmt(r.cpuMs / 1000, 2).padStart(8)} ${fmt(perCpuS).padStart(14)} ${fmt(usPerReq, 1).padStart(11)}${r.errors ? `   errors ${r.errors}` : ''}`,
  );
  return r;
}

/** Adds the runs of one tool over the rounds: total requests over total seconds and CPU. */
function total(runs) {
  const sum = (key) => runs.reduce((n, r) => n + r[key], 0);
  return { rps: sum('requests') / sum('seconds'), perCpuS: sum('requests') / (sum('cpuMs') / 1000) };
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

async function main() {
  const wrk = hasWrk();
  const roundCount = Number(args.rounds);
  const hello = await startServer(['fixtures/servers/hello.js']);
  let figures;
  try {
    console.log(
      `bench:generator: hello-world fixture, ${connections} connections, ${durationS} s per tool, ${roundCount} rounds, one tool at a time`,
    );
    await runNodeTool('spawnbench', hello.url, connections, WARMUP_S); // server warm-up, not reported
    console.log(HEADER);
    const tools = [
      { name: 'spawnbench', run: () => runNodeTool('spawnbench', hello.url, connections, durationS) },
      { name: 'autocannon', run: () => runNodeTool('autocannon', hello.url, connections, durationS) },
      { name: 'node:http (reference)', run: () => runNodeTool('node-http', hello.url, connections, durationS) },
    ];
    if (wrk) tools.push({ name: 'wrk -t1', run: () => runWrk(hello.url, connections, durationS) });
    else console.log('wrk: skipped (not on PATH; apt-get install wrk to compare)');
    figures = await rounds(tools, roundCount);
  } finally {
    await hello.stop();
  }
  const sb = figures.spawnbench;
  console.log('all rounds (total requests / total CPU-seconds):');
  for (const [name, f] of Object.entries(figures)) {
    console.log(`  ${name.padEnd(22)} ${fmt(f.rps).padStart(9)} rps ${fmt(f.perCpuS).padStart(9)} req/CPU-s ${fmt(1e6 / f.perCpuS, 1).padStart(6)} µs/req`);
  }
  console.log(
    `requests per CPU-second: spawnbench/autocannon ${ratio(sb.perCpuS, figures.autocannon.perCpuS)} (target ≥ 1.0×)` +
      `, spawnbench/node:http ${ratio(sb.perCpuS, figures['node:http (reference)'].perCpuS)}` +
      (wrk ? `, spawnbench/wrk ${ratio(sb.perCpuS, figures['wrk -t1'].perCpuS)} (stretch ≥ 0.8×)` : ''),
  );
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
