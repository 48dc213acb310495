// The dashboard on a short terminal: a frame as tall as the terminal makes Ink clear the
// screen and the scrollback (ESC[2J ESC[3J) on every refresh, which took a split tmux pane's
// history (an 80×10 pty saw it 15 times in a run, 80×6 18 times, 80×15 twice). The frame now
// fits the height (src/ui/components/dashboard.js frameLayout, tested as text in dashboard.test.js);
// here a whole run in a real pseudo-terminal of each height draws neither sequence.
// Needs python3 (its pty module opens the pseudo-terminal, fixtures/pty-session.py);
// skips saying so when python3 is not installed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BIN, findOnPath, waitFor } from '../helpers/harness.js';
import { processesWithEnvironment } from '../helpers/processes.js';

const PTY = fileURLToPath(new URL('../../fixtures/pty-session.py', import.meta.url));
const PYTHON = findOnPath('python3');
/** A 3 s run boots, measures and prints in far less on a busy machine. Seconds */
const ENDS_WITHIN_S = 90;

describe('a run on a short terminal never clears the scrollback', { skip: PYTHON ? false : 'python3 is not installed: the pty tests need its pty module' }, () => {
  for (const rows of [6, 10, 15]) {
    it(`80×${rows}: no ESC[2J, no ESC[3J, the run ends normally`, async () => {
      const marker = `short-terminal-${process.pid}-${rows}`;
      const env = { ...process.env, TERM: 'xterm', [marker]: '1' };
      delete env.CI;
      // An open loop at a low rate: what is checked is what the dashboard draws on each refresh,
      // which a saturated server would not change, at a fraction of the CPU.
      const result = spawnSync(
        PYTHON,
        [PTY, '--rows', String(rows), '--cols', '80', '--timeout', String(ENDS_WITHIN_S), '--',
          process.execPath, BIN, 'run', '-s', 'fork-pool', '--pool-size', '4', '-d', '3s', '-w', '0s', '-r', '20'],
        { encoding: 'utf8', env, timeout: (ENDS_WITHIN_S + 20) * 1000 },
      );
      assert.equal(result.status, 0, result.stderr);
      const ended = JSON.parse(result.stdout);
      assert.deepEqual({ code: ended.code, signal: ended.signal, timedOut: ended.timedOut }, { code: 0, signal: null, timedOut: false }, ended.tail);
      assert.match(ended.tail, /Requests\s+[\d,]+ in/, 'the summary printed');
      assert.deepEqual({ clearScreen: ended.clearScreen, clearScrollback: ended.clearScrollback }, { clearScreen: 0, clearScrollback: 0 });
      await waitFor(() => processesWithEnvironment(marker).length === 0, { timeoutMs: 5000, what: () => `the run's processes to be gone (left: ${processesWithEnvironment(marker)})` });
    });
  }
});
