#!/usr/bin/env node
/**
 * bench:soak: baseline and comm-channel under full load side by side for a long time, to
 * see that nothing grows: each minute, spawnbench's and each strategy's resident memory
 * (RSS) and open file descriptors (the median of 12 readings across the minute: both move
 * with the requests in flight at the moment read), and the requests per second of that
 * minute; at the end the last/first ratio of each (flat is ~1.00; the bar is within 10%,
 * rps within noise).
 *
 *   npm run bench:soak [-- --minutes 10] [--strategies baseline,comm-channel] [-- extra run options]
 *
 * Both runs share the machine (2 cores here), so their rps are each about half of what one
 * alone gets; what matters is each one's trend. The load average is printed per minute: a
 * shared machine's other work moves rps, not RSS or fds.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pidsInGroup } from '../src/sample/proc.js';
import { median } from './strategies-figures.js';

const BIN = fileURLToPath(new URL('../bin/spawnbench.js', import.meta.url));
const args = process.argv.slice(2);
const take = (flag, fallback) => {
  const i = args.indexOf(flag);
  if (i === -1) return fallback;
  const [, value] = args.splice(i, 2);
  return value;
};
const minutes = Number(take('--minutes', '10'));
const strategies = take('--strategies', 'baseline,comm-channel').split(',');
if (!(Number.isInteger(minutes) && minutes >= 1 && minutes <= 24 * 60)) {
  process.stderr.write('bench:soak: --minutes must be a whole number from 1 to 1440\n');
  process.exit(2);
}
const MINUTE_MS = Number(process.env.SOAK_MINUTE_MS ?? 60_000); // shorter only to try the bench itself

const rssKb = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
};
const fds = (pid) => {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
};
const exe = (pid) => {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
};

/** The strategy's long-lived processes (its main and workers: the runtime's executable), not the per-request commands. */
function strategyFigures(pgid, runtimePath) {
  const pids = pidsInGroup(pgid).filter((pid) => exe(pid) === runtimePath);
  return { processes: pids.length, rssKb: pids.reduce((s, p) => s + rssKb(p), 0), fds: pids.reduce((s, p) => s + fds(p), 0) };
}

const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-soak-'));
const runs = strategies.map((name) => {
  const logFile = path.join(dir, `${name}.log`);
  const child = spawn(process.execPath, [BIN, 'run', '-s', name, '-d', `${minutes * MINUTE_MS}ms`, '-w', '0s', '--no-dashboard', '--json', '--log-file', logFile, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: 'true' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => { out += c; });
  child.stderr.on('data', (c) => { err = `${err}${c}`.slice(-2000); }); // progress lines: only the end, for a failure
  const done = new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
  return { name, child, logFile, done, samples: [], strategyPid: null };
});
const stopAll = () => { for (const r of runs) r.child.kill('SIGTERM'); };
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);

const logLine = (file, msg) => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.msg === msg);
  } catch {
    return undefined;
  }
};
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

// Minute 0 starts when every run's load has started.
for (;;) {
  for (const r of runs) r.strategyPid ??= logLine(r.logFile, 'strategy ready')?.strategyPid ?? null;
  if (runs.every((r) => logLine(r.logFile, 'load start'))) break;
  if (runs.some((r) => r.child.exitCode !== null)) break;
  await delay(100);
}
const t0 = Date.now();
process.stderr.write(`bench:soak: ${strategies.join(' + ')} side by side for ${minutes} min; a line per minute\n`);
/** Readings per minute: RSS and open fds move with the requests in flight at the moment read (a spawned command's pipes, a GC not yet run), so each minute's figure is the median of these. */
const READINGS_PER_MINUTE = 12;
const reading = (r) => ({
  spawnbench: { rssKb: rssKb(r.child.pid), fds: fds(r.child.pid) },
  strategy: r.strategyPid ? strategyFigures(r.strategyPid, process.execPath) : null,
});
const medianOf = (readings, pick) => {
  const xs = readings.map(pick).filter((x) => x != null);
  return xs.length ? median(xs) : null;
};
for (let minute = 1; minute <= minutes; minute++) {
  const readings = runs.map(() => []);
  for (let i = 1; i <= READINGS_PER_MINUTE; i++) {
    // the last a second before the minute ends: every run still going
    await delay(Math.max(0, t0 + (minute - 1) * MINUTE_MS + (i * (MINUTE_MS - 1000)) / READINGS_PER_MINUTE - Date.now()));
    runs.forEach((r, k) => readings[k].push(reading(r)));
  }
  const load = loadavg()[0];
  const parts = [];
  runs.forEach((r, k) => {
    const rs = readings[k];
    const s = {
      minute,
      load,
      spawnbench: { rssKb: medianOf(rs, (x) => x.spawnbench.rssKb), fds: medianOf(rs, (x) => x.spawnbench.fds) },
      strategy: rs.some((x) => x.strategy) ? { rssKb: medianOf(rs, (x) => x.strategy?.rssKb), fds: medianOf(rs, (x) => x.strategy?.fds) } : null,
    };
    r.samples.push(s);
    parts.push(`${r.name}: spawnbench ${(s.spawnbench.rssKb / 1024).toFixed(0)} MB ${s.spawnbench.fds} fds, strategy ${(s.strategy?.rssKb / 1024).toFixed(0)} MB ${s.strategy?.fds} fds`);
  });
  process.stderr.write(`  minute ${minute} (load ${load.toFixed(1)}): ${parts.join(' | ')}\n`);
}

const results = [];
for (const r of runs) {
  const { code, out, err } = await r.done;
  let result = null;
  try {
    result = JSON.parse(out);
  } catch {
    process.stderr.write(`bench:soak: ${r.name}: no result (exit ${code}); its stderr ends:\n${err}\n`);
  }
  const series = result?.load.series ?? [];
  const perMinute = [];
  for (let m = 1; m <= minutes; m++) {
    const secs = series.filter((s) => s.second > (m - 1) * (MINUTE_MS / 1000) && s.second <= m * (MINUTE_MS / 1000));
    perMinute.push(secs.length ? secs.reduce((sum, s) => sum + s.requests, 0) / secs.length : null);
  }
  results.push({ name: r.name, code, samples: r.samples, rpsPerMinute: perMinute, errors: result?.load.errors ?? null });
}
rmSync(dir, { recursive: true, force: true });

const ratio = (a, b) => (a && b ? (b / a).toFixed(2) : '—');
const lines = [`bench:soak: ${minutes} min, ${strategies.join(' + ')} side by side, load average ${results[0]?.samples.map((s) => s.load.toFixed(1)).join(' ')}`];
for (const r of results) {
  lines.push('', `${r.name} (exit ${r.code}, errors ${r.errors?.total ?? '?'})`);
  lines.push('minute  spawnbench RSS MB  fds   strategy RSS MB  fds   rps');
  r.samples.forEach((s, i) => {
    const rps = r.rpsPerMinute[i];
    lines.push(`${String(s.minute).padStart(6)}  ${(s.spawnbench.rssKb / 1024).toFixed(1).padStart(17)}  ${String(s.spawnbench.fds).padStart(3)}   ${(s.strategy ? (s.strategy.rssKb / 1024).toFixed(1) : '—').padStart(15)}  ${String(s.strategy?.fds ?? '—').padStart(3)}   ${rps === null ? '—' : rps.toFixed(0)}`);
  });
  const [first, last] = [r.samples[0], r.samples.at(-1)];
  const rps = r.rpsPerMinute.filter((x) => x !== null);
  lines.push(`last/first: spawnbench RSS ${ratio(first?.spawnbench.rssKb, last?.spawnbench.rssKb)}, fds ${ratio(first?.spawnbench.fds, last?.spawnbench.fds)}; strategy RSS ${ratio(first?.strategy?.rssKb, last?.strategy?.rssKb)}, fds ${ratio(first?.strategy?.fds, last?.strategy?.fds)}; rps ${ratio(rps[0], rps.at(-1))}`);
}
process.stdout.write(`${lines.join('\n')}\n`);
process.exitCode = results.every((r) => r.code === 0) ? 0 : 1;
