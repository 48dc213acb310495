import React from 'react';
import { renderToString } from 'ink';
import { Dashboard } from '../../src/ui/components/dashboard.js';
import { makeState } from './fixtures.js';
const h = React.createElement;
for (const workers of [0, 32]) {
  const state = makeState({ workers, errors: true });
  for (let i = 0; i < 20; i++) renderToString(h(Dashboard, { state, columns: 80, rows: 24 }), { columns: 80 });
  const t = performance.now(); const c = process.cpuUsage();
  const N = 200;
  for (let i = 0; i < N; i++) renderToString(h(Dashboard, { state, columns: 80, rows: 24 }), { columns: 80 });
  const cpu = process.cpuUsage(c);
  console.log(workers, 'workers: ms per render', ((performance.now() - t) / N).toFixed(2), 'cpu ms', ((cpu.user + cpu.system) / 1000 / N).toFixed(2));
}
