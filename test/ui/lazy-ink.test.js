/**
 * Ink and React load only when the dashboard is drawn (issue 28): loading them cost
 * ~0.3 CPU-s of every start. Each command below runs as its own process with a
 * module tracer (test/helpers/module-trace.js) and its whole module graph is
 * searched for ink and react: a non-TTY run (text and --json), --version, --help,
 * report and list.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, ROOT, startFixtureServer } from '../helpers/harness.js';

const TRACER = fileURLToPath(new URL('../helpers/module-trace.js', import.meta.url));
/** A bound for a short run on a busy shared machine, not a speed check. ms */
const LIMIT_MS = 90_000;
const UI_PACKAGES = /\/node_modules\/(ink|react|react-reconciler)\//;
/**
 * The modules a run loads do not depend on how hard it drives the server (src/load/worker.js imports both loops): an open loop at a low rate.
 * Nor on how long, below the 2 s a run's full advice takes: the runs below measure 500 ms.
 */
const LIGHT_LOAD = ['--rate', '20'];

let dir;
let server;
let count = 0;

/** Runs `node --import tracer <args>` (no TTY, CI unset) and returns its exit and the modules it loaded. */
async function traced(args) {
  const trace = path.join(dir, `trace-${count++}.txt`);
  const env = { ...process.env, SPAWNBENCH_MODULE_TRACE: trace };
  delete env.CI;
  const child = spawn(process.execPath, ['--import', TRACER, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stdout.resume();
  child.stderr.setEncoding('utf8').on('data', (c) => { err += c; });
  const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  const modules = existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter(Boolean) : [];
  return { code, err, modules };
}

function assertNoUi({ code, err, modules }, what) {
  assert.equal(code, 0, `${what} failed: ${err}`);
  assert.ok(modules.some((m) => m.includes('/src/')), `${what}: the tracer saw no module of spawnbench`);
  const ui = modules.filter((m) => UI_PACKAGES.test(m));
  assert.deepEqual(ui, [], `${what} loaded ${ui.length} module(s) of ink/react, first ${ui[0]}`);
}

describe('ink and react load only for the dashboard', () => {
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-lazy-ink-'));
    server = await startFixtureServer('healthy');
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the tracer sees ink and react when they are loaded', async () => {
    const seen = await traced(['--input-type=module', '-e', "await import('ink'); await import('react');"]);
    assert.equal(seen.code, 0, seen.err);
    assert.ok(seen.modules.some((m) => /\/node_modules\/ink\//.test(m)), 'ink not in the trace');
    assert.ok(seen.modules.some((m) => /\/node_modules\/react\//.test(m)), 'react not in the trace');
  });

  it('--version and --help', async () => {
    assertNoUi(await traced([BIN, '--version']), '--version');
    assertNoUi(await traced([BIN, '--help']), '--help');
    assertNoUi(await traced([BIN, 'tune', '--help']), 'tune --help');
  });

  it('a run without a TTY (text, saved with --out), --json, then report and list', async () => {
    const out = path.join(dir, 'run.json');
    const load = ['--url', server.url, '--duration', '500ms', '--warmup', '0s', ...LIGHT_LOAD];
    assertNoUi(await traced([BIN, 'run', ...load, '--out', out]), 'run (text, no TTY)');
    assert.ok(existsSync(out), 'run --out wrote no file');
    assertNoUi(await traced([BIN, 'run', ...load, '--json']), 'run --json');
    assertNoUi(await traced([BIN, 'report', out]), 'report');
    assertNoUi(await traced([BIN, 'report', out, '--json']), 'report --json');
    assertNoUi(await traced([BIN, 'list']), 'list');
  });

  it('a strategy run without a TTY', async () => {
    assertNoUi(await traced([BIN, '--strategy', 'baseline', '--duration', '500ms', '--warmup', '0s', ...LIGHT_LOAD]), 'run --strategy baseline');
  });
});
