import { EventEmitter } from 'node:events';
import { mountDashboard } from '../../src/ui/index.js';
import { machine, makePlan, makeSample, makeTick, makeWorkers } from './fixtures.js';
const workers = Number(process.argv[2] ?? 8);
const run = new EventEmitter();
let timer; let second = 0;
const finish = () => { clearInterval(timer); run.emit('phase', { phase: 'done' }); run.emit('done', { kind: 'run' }); };
run.stop = () => setTimeout(finish, 300);
const ui = mountDashboard(run, { formatSummary: () => 'SUMMARY LINE 1\nSUMMARY LINE 2' });
run.emit('start', { plan: makePlan({ workers }), machine });
run.emit('phase', { phase: 'booting' });
setTimeout(() => {
  run.emit('phase', { phase: 'measure' });
  timer = setInterval(() => {
    second++;
    run.emit('tick', { ...makeTick({ second, errors: second > 3 }), rps: 600 + (second * 53) % 100 });
    run.emit('sample', makeSample({ workers }));
    run.emit('workers', makeWorkers(workers));
    if (second === 6) finish();
  }, 500);
}, 300);
await ui.done;
console.error('ui.done resolved');
