/**
 * The dashboard in a real terminal: spawnbench runs under tmux (a private server on
 * its own socket) and the pane is read back with capture-pane. Needs the CLI
 * (bin/spawnbench.js) and tmux, found on PATH; skips saying so when tmux is not installed.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { findOnPath } from '../helpers/harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'spawnbench.js');
const TMUX = findOnPath('tmux');
const SOCKET = `spawnbench-ui-test-${process.pid}`;
/** Set only on the spawnbench command, so every process it starts can be found in /proc. */
const MARK = `SPAWNBENCH_UI_TEST=${process.pid}`;
const RUN_ARGS = ['--strategy', 'baseline', '--duration', '3s', '--warmup', '500ms'];
/** Booting a strategy on a busy 2-core machine can take seconds: generous, not a speed check. ms */
const LIMIT_MS = 60_000;

const skip = TMUX ? false : 'tmux is not installed (not found on PATH): the real-terminal dashboard tests need it';

const tmux = (...args) => execFileSync(TMUX, ['-L', SOCKET, '-f', '/dev/null', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pids of processes that carry MARK in their environment (spawnbench and what it started). */
function markedPids() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(MARK)) pids.push(Number(entry));
    } catch {
      // gone already, or not ours to read
    }
  }
  return pids;
}

async function until(check, what) {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - started > LIMIT_MS) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Starts spawnbench in a new 80×24 tmux window; returns its window name. */
function startRun(name) {
  const command = `env -u CI ${MARK} ${process.execPath} ${BIN} ${RUN_ARGS.join(' ')}; echo "[exit $?]"; sleep 600`;
  tmux('new-session', '-d', '-s', name, '-x', '80', '-y', '24', '-c', ROOT, command);
  return name;
}

const screen = (name) => tmux('capture-pane', '-p', '-t', name);

/** The live frame matching `pattern`; fails at once, with the screen, if spawnbench exits first. */
const liveFrame = (name, pattern) =>
  until(() => {
    const text = screen(name);
    if (pattern.test(text)) return text;
    if (/\[exit \d+\]/.test(text)) throw new Error(`spawnbench exited before showing the dashboard:\n${scrollback(name)}`);
    return null;
  }, 'the live frame');
const scrollback = (name) => tmux('capture-pane', '-p', '-S', '-', '-t', name);

describe('the dashboard in a real terminal (tmux)', { skip }, () => {
  after(async () => {
    try {
      tmux('kill-server');
    } catch {
      // no server was started
    }
    const left = await until(() => markedPids().length === 0 || 'gone', 'spawnbench processes to exit').catch(() => null);
    for (const pid of markedPids()) process.kill(pid, 'SIGKILL');
    assert.equal(left, true, 'every process the runs started is gone');
  });

  it('shows the live frame during a 3 s run, then the summary stays in the scrollback', async () => {
    const name = startRun('live');
    const live = await liveFrame(name, /● measuring/);
    assert.match(live, /spawnbench baseline on node/);
    assert.match(live, /q or Ctrl-C: stop/);
    const exit = await until(() => screen(name).match(/\[exit (\d+)\]/), 'spawnbench to exit');
    assert.equal(exit[1], '0');
    const text = scrollback(name);
    assert.match(text, /spawnbench run · strategy baseline/);
    assert.match(text, /^Requests +[\d,]+ in /m);
    assert.match(text, /^Latency +p50 /m);
    assert.doesNotMatch(text, /q or Ctrl-C: stop/, 'the live area is gone');
    await until(() => markedPids().length === 0, 'no process left behind');
  });

  it('stops when q is pressed after 1 s and still prints the summary', async () => {
    const name = startRun('quit');
    await liveFrame(name, /● (warming up|measuring)/);
    await sleep(1000);
    tmux('send-keys', '-t', name, 'q');
    const exit = await until(() => screen(name).match(/\[exit (\d+)\]/), 'spawnbench to exit after q');
    assert.equal(exit[1], '0');
    const text = scrollback(name);
    assert.match(text, /spawnbench run · strategy baseline/);
    assert.match(text, /^Latency +/m);
    await until(() => markedPids().length === 0, 'no process left behind');
  });
});
