import '../helpers/not-in-ci.js'; // before Ink is imported: see the file
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { mountDashboard } from '../../src/ui/mount-dashboard.js';
import { machine, makePlan, makeSample, makeTick, makeWorkers } from './fixtures.js';
import { FakeStdin, FakeStdout } from './fake-terminal.js';
import { waitFor } from '../helpers/harness.js';

const SUMMARY = 'SUMMARY baseline: 6,800 requests, 680 rps';
const formatSummary = (result) => `${SUMMARY} (${result.kind})`;

/** An engine double: emits what the runner emits; stop() ends the run with `done`. */
function fakeRun() {
  const run = new EventEmitter();
  run.stops = 0;
  run.stop = () => {
    run.stops++;
    setImmediate(() => run.emit('done', { kind: 'run', stoppedEarly: true }));
  };
  return run;
}

function feed(run, workers = 2) {
  run.emit('start', { plan: makePlan({ workers }), machine });
  run.emit('phase', { phase: 'measure' });
  run.emit('tick', makeTick());
  run.emit('sample', makeSample({ workers }));
  run.emit('workers', makeWorkers(workers));
}

const mount = (run, { stdin = new FakeStdin(), env = {}, summary = formatSummary } = {}) => {
  const stdout = new FakeStdout();
  const stderr = new FakeStdout();
  const ui = mountDashboard(run, { stdout, stdin, stderr, env, formatSummary: summary, refreshMs: 20 });
  return { ui, stdout, stdin };
};

describe('mountDashboard', () => {
  it('draws the live frame, then prints the summary after the live area is gone', async () => {
    const run = fakeRun();
    const { ui, stdout, stdin } = mount(run);
    feed(run);
    await waitFor(() => stdout.text().includes('w1'), { what: 'the process table' });
    assert.match(stdout.text(), /measuring/);
    run.emit('done', { kind: 'run' });
    await ui.done;
    const text = stdout.text();
    assert.ok(text.endsWith(`${SUMMARY} (run)\n`), 'the summary is the last thing written');
    const beforeSummary = text.slice(0, text.lastIndexOf(SUMMARY));
    assert.match(beforeSummary.slice(beforeSummary.lastIndexOf('w1')), /\u001B\[2K/, 'the live lines were erased');
    for (const name of ['start', 'tick', 'sample', 'done']) assert.equal(run.listenerCount(name), 0, `${name} listener removed`);
    assert.equal(stdin.rawMode.at(-1), false, 'raw mode is off again');
    assert.equal(run.stops, 0);
  });

  for (const [key, press] of [['q', 'q'], ['Ctrl-C', '\u0003']]) {
    it(`stops the run once on ${key} and still prints the summary`, async () => {
      const run = fakeRun();
      const { ui, stdout, stdin } = mount(run);
      feed(run);
      await waitFor(() => stdout.text().includes('q or Ctrl-C'), { what: 'the key hint' });
      assert.ok(stdin.rawMode.includes(true), 'keys are read in raw mode');
      stdin.type(press);
      stdin.type(press);
      await ui.done;
      assert.equal(run.stops, 1);
      assert.ok(stdout.text().endsWith(`${SUMMARY} (run)\n`));
    });
  }

  it('does not read keys when stdin is not a TTY', async () => {
    const run = fakeRun();
    const stdin = new FakeStdin({ isTTY: false });
    const { ui, stdout } = mount(run, { stdin });
    feed(run);
    await waitFor(() => stdout.text().includes('measuring'), { what: 'the live frame' });
    stdin.type('q');
    assert.doesNotMatch(stdout.text(), /q or Ctrl-C/);
    run.emit('done', { kind: 'run' });
    await ui.done;
    assert.equal(run.stops, 0);
    assert.deepEqual(stdin.rawMode, []);
  });

  it('unmounts without a summary when the run fails before done', async () => {
    const run = fakeRun();
    const { ui, stdout } = mount(run);
    run.emit('start', { plan: makePlan(), machine });
    await waitFor(() => stdout.text().includes('booting'), { what: 'the first frame' });
    await ui.unmount();
    await ui.done;
    assert.doesNotMatch(stdout.text(), /SUMMARY/);
    assert.equal(run.listenerCount('done'), 0);
  });

  it('rejects done when the summary cannot be formatted, after unmounting', async () => {
    const run = fakeRun();
    const { ui } = mount(run, {
      summary: () => {
        throw new Error('no summary');
      },
    });
    run.emit('done', { kind: 'run' });
    await assert.rejects(ui.done, /no summary/);
  });
});
