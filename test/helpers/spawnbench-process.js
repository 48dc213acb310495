/**
 * spawnbench as a real process, for the exit-path tests (signals, SIGKILL, escapees):
 * start the bin, wait for a line in its log file, see every process it started.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { descendants } from './processes.js';
import { BIN, waitFor } from './harness.js';
import { readStat } from '../../src/sample/proc.js';

export { BIN };

/**
 * Starts `spawnbench <args> --log-file <tmp>` (no TTY, CI set) and records every
 * descendant it ever had in `seen`.
 * @param {string[]} args
 * @param {{ env?: Record<string, string>, logFile?: boolean }} [options]
 * @returns {{ child: import('node:child_process').ChildProcess, seen: Set<number>, logFile: string, log: () => string,
 *   out: () => string, err: () => string, removeLog: () => void,
 *   exited: Promise<{ code: number|null, signal: string|null, at: number, out: string, err: string }> }}
 */
export function startSpawnbench(args, { env = {}, logFile = true } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-test-log-'));
  const file = path.join(dir, 'run.log');
  const own = args.includes('--') ? args.indexOf('--') : args.length;
  const full = logFile ? [...args.slice(0, own), '--log-file', file, ...args.slice(own)] : args;
  const child = spawn(process.execPath, [BIN, ...full], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true', ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => { out += c; });
  child.stderr.on('data', (c) => { err += c; });
  const seen = new Set();
  const watch = setInterval(() => descendants(child.pid).forEach((p) => seen.add(p)), 50);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => {
    clearInterval(watch);
    resolve({ code, signal, at: Date.now(), out, err });
  }));
  // While spawnbench runs, the log is a temporary file next to run.log, renamed over it at the end (src/output/atomic-file.js).
  const log = () => {
    for (const name of ['run.log', ...readdirSync(dir).filter((n) => n.startsWith('.run.log.') && n.endsWith('.tmp'))]) {
      try {
        return readFileSync(path.join(dir, name), 'utf8');
      } catch {
        // not there (yet, or any more)
      }
    }
    return '';
  };
  const removeLog = () => rmSync(dir, { recursive: true, force: true });
  return { child, seen, logFile: file, log, out: () => out, err: () => err, exited, removeLog };
}

/** Waits until the log has a line with `msg` (pino's message field); throws with the stderr and the log's end otherwise. */
export async function waitForLog(sb, msg, timeoutMs = 20_000) {
  await waitFor(() => sb.log().includes(`"msg":"${msg}"`), {
    timeoutMs,
    what: () => `'${msg}' in the log; stderr: ${sb.err()}; log: ${sb.log().slice(-2000)}`,
  });
}

/** Every live descendant of `pid`, with its start time (so a reused pid is not mistaken for it). */
export function processTree(pid) {
  return descendants(pid).map((p) => ({ pid: p, start: readStat(p)?.starttime })).filter((p) => p.start !== undefined);
}

/** Those of `procs` still alive (same pid, same start time, not a zombie). */
export function stillAlive(procs) {
  return procs.filter(({ pid, start }) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return fields[0] !== 'Z' && Number(fields[19]) === start;
    } catch {
      return false;
    }
  });
}

/** The temp entries owned (by name) by a process id. */
export function tempDirsOf(pid) {
  return readdirSync(tmpdir()).filter((name) => new RegExp(`^spawnbench-(run|probe)-${pid}-`).test(name));
}
