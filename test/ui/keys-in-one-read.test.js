// Two keys that reach the dashboard in one read ("qq", two Ctrl-C, "x" then Ctrl-C) used to
// be compared whole with 'q' and Ctrl-C, so neither matched and the run went on to its end
// (the dashboard holds the terminal in raw mode: the kernel sends no SIGINT either).
// Needs python3 (its pty module opens the pseudo-terminal, fixtures/pty-session.py);
// skips saying so when python3 is not installed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stopKey } from '../../src/ui/components/app.js';
import { BIN, findOnPath, waitFor } from '../helpers/harness.js';
import { processesWithEnvironment } from '../helpers/processes.js';

const PTY = fileURLToPath(new URL('../../fixtures/pty-session.py', import.meta.url));
const PYTHON = findOnPath('python3');
/** Far longer than a stopped run takes, far shorter than the run asked for (60 s): a lost key times out. Seconds */
const STOPPED_WITHIN_S = 40;

describe('stop keys in one read', () => {
  for (const [input, key, expected] of [
    ['\u0003\u0003', {}, 'ctrl-c'],
    ['qq', {}, 'q'],
    ['x\u0003', {}, 'ctrl-c'],
    ['q\u0003', {}, 'ctrl-c'],
    ['c', { ctrl: true }, 'ctrl-c'],
    ['q', {}, 'q'],
    ['q', { ctrl: true }, null],
    ['x', {}, null],
  ]) {
    it(`${JSON.stringify(input)}${key.ctrl ? ' with ctrl' : ''} → ${expected}`, () => {
      assert.equal(stopKey(input, key), expected);
    });
  }
});

describe('stop keys typed in one write on a real terminal', { skip: PYTHON ? false : 'python3 is not installed: the pty tests need its pty module' }, () => {
  const cases = [
    { keys: '\u0003\u0003', command: 'run', code: 130 },
    { keys: 'qq', command: 'run', code: 0 },
    { keys: 'x\u0003', command: 'run', code: 130 },
    { keys: 'x\u0003', command: 'tune', code: 130 },
  ];
  for (const { keys, command, code } of cases) {
    it(`${command}: ${JSON.stringify(keys)} stops it (exit ${code}), nothing left`, async () => {
      const marker = `keys-${process.pid}-${command}-${Buffer.from(keys).toString('hex')}`;
      const env = { ...process.env, TERM: 'xterm', [marker]: '1' };
      delete env.CI;
      // tune sweeps a pool (fork-pool): a stop there takes the pool's workers along too. A run's keys are
      // read by the same dashboard whatever it loads: baseline, one process, boots for ~0.5 CPU-s less.
      const target = command === 'tune' ? ['-s', 'fork-pool', '--sizes', '1,2,3,4', '--balance-policies', 'round-robin'] : ['-s', 'baseline'];
      // Typed once the generator's CPU shows: the load is running, the dashboard reads keys in raw mode.
      // An open loop at a low rate: the keys are what is tested, not the server, so the load need not saturate it.
      const result = spawnSync(
        PYTHON,
        [PTY, '--until', 'generator (\\x1b\\[\\d+m)?CPU \\d', '--type', JSON.stringify(keys), '--timeout', String(STOPPED_WITHIN_S), '--',
          process.execPath, BIN, command, ...target, '-d', '60s', '-w', '0s', '-r', '20'],
        { encoding: 'utf8', env, timeout: (STOPPED_WITHIN_S + 20) * 1000 },
      );
      assert.equal(result.status, 0, result.stderr);
      const ended = JSON.parse(result.stdout);
      assert.equal(ended.typed, true, `the dashboard never showed the load running (the generator's CPU):\n${ended.tail}`);
      assert.equal(ended.timedOut, false, `still running ${STOPPED_WITHIN_S} s after the keys:\n${ended.tail}`);
      assert.deepEqual({ code: ended.code, signal: ended.signal }, { code, signal: null }, ended.tail);
      await waitFor(() => processesWithEnvironment(marker).length === 0, { timeoutMs: 5000, what: () => `the run's processes to be gone (left: ${processesWithEnvironment(marker)})` });
    });
  }
});
