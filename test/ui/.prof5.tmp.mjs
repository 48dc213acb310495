import '../../src/ui/index.js';
import React from 'react';
import { renderToString } from 'ink';
import { Dashboard } from '../../src/ui/components/dashboard.js';
import { makeState } from './fixtures.js';
const h = React.createElement;
const states = [0, 32].map((workers) => makeState({ workers, errors: true }));
for (let round = 0; round < 3; round++) for (const [i, state] of states.entries()) {
  const N = 150; const c = process.cpuUsage();
  for (let k = 0; k < N; k++) renderToString(h(Dashboard, { state, columns: 80, rows: 24, keys: true }), { columns: 80 });
  const cpu = process.cpuUsage(c);
  if (round) console.log(`${i ? 32 : 0} workers: ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms CPU per full frame → at 4 frames/s ${((cpu.user + cpu.system) / 1000 / N * 4 / 10).toFixed(2)}% of a core`);
}
