// A probe that never reported in a measured phase shorter than its interval had no time to: `run -w 0 -d 1ms` read
// "no probe report received (was NODE_OPTIONS replaced by the strategy?)" of a server whose probe was fine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { probeStatus, probeWithShortRun } from '../../src/sample/index.js';

test('no report in a measured phase shorter than the probe interval says the run was too short, not NODE_OPTIONS', () => {
  const silent = probeStatus({}, 'node', false, 'node');
  assert.match(silent.reason, /NODE_OPTIONS replaced/);
  const short = probeWithShortRun(silent, 4, 250);
  assert.equal(short.available, false);
  assert.equal(short.reason, "no probe report received: the measured phase (4 ms) ended before the probe's first report (every 250 ms); measure longer (-d) for ELU and loop figures");
  // Long enough to have reported: the reason stays; a probe that reported, or a reason of its own, is left alone.
  assert.equal(probeWithShortRun(silent, 2000, 250), silent);
  const reported = probeStatus({}, 'node', true, 'node');
  assert.equal(probeWithShortRun(reported, 4, 250), reported);
  const python = probeStatus({}, 'node', false, 'python3');
  assert.equal(probeWithShortRun(python, 4, 250), python);
  assert.equal(probeWithShortRun(null, 4, 250), null);
});
