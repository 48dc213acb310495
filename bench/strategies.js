#!/usr/bin/env node
// bench:strategies: the experiment's table for this machine, against a Go server.
// Every strategy (and the Bun/Deno variants the experiment measured, where
// installed) x {echo, large}, through spawnbench's own run engine (buildRunPlan +
// createRun: the same boot, warm-up, load and byte-exact body checks as
// `spawnbench run`), and the Go reference in bench/go-reference/ (net/http +
// os/exec per request), built when `go` is on PATH and driven by the same engine.
//
// The rounds are interleaved: each round measures every strategy, for each workload,
// with the Go reference measured before the first strategy and again after every
// --go-every (4) strategies; the next round does it all again. Each strategy's ratio
// is to the mean of the Go figures measured just before and just after it, and the
// table shows medians with the spread (min–max) over the rounds: on a shared machine
// Go itself moves by ±15%, so only ratios from side-by-side measurements say where we stand.
// The in-process probe is off, so every row is measured the same way.
//
// Usage: node bench/strategies.js [--rounds 5] [--duration 3s] [--warmup 1s]
//        [--connections 30] [--pool-size N] [--only comm-channel,reuse-port]
//        [--workloads echo] [--no-go] [--go-every 4] [--rows comm-channel:node:bun,reuse-port:node:bun]
// --rows replaces the table's rows with strategy:runtime[:workerRuntime[:poolSize[:spawnApi]]]
// (e.g. reuse-port:node:bun, cluster:node::4, reuse-port:node26:::child_process), for
// side-by-side (A/B) runs of a few variants. node22, node24, node26, bun and deno come
// from the test runtime cache, fetched on first use (test/helpers/runtimes.js). spawnApi child_process turns off
// Node workers' posix_spawn (SPAWNBENCH_SPAWN_API, strategies/lib/posix-spawn.js) for that row.
// Fewer and shorter rounds for a quick look: --rounds 1 --duration 2s --warmup 500ms.
// The floor (bench/floor/spawn-loop.c, built when `cc` is on PATH; --no-floor to leave it
// out) is measured before the Go reference each round: the command spawned in a C loop
// with nothing around it; so is the Node floor of each Node among the rows
// (bench/floor/node-spawn-loop.js: the strategies' own spawn path in a loop, no HTTP). The closing lines say, per workload, what a request costs above
// that floor for Go and for the best Node-only row on each Node major, and where the best
// Node 26 and Node 20 rows stand against issue 28's targets (≥ 1.2× and ≥ 0.7× Go).
import { parseArgs } from 'node:util';
import { availableParallelism, loadavg } from 'node:os';
import { buildRunPlan } from '../src/plan/run-plan.js';
import { createRun } from '../src/runner/run-engine.js';
import { resolveRuntime } from '../src/strategies/runtimes.js';
import { resolveWorkload } from '../src/base/workloads.js';
import { buildGoReference, startGoReference, ticksToMs } from './go-reference.js';
import { buildFloor, measureFloor, measureNodeFloor } from './floor.js';
import { RUNTIMES, fetchRuntime } from '../test/helpers/runtimes.js';
import { summarizeCell, strategyCpu, goCpu, throughputTable, cpuTable, fmt, median } from './strategies-figures.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '3s' },
    warmup: { type: 'string', default: '1s' },
    connections: { type: 'string', default: '30' }, // the experiment's 30 keep-alive connections
    'pool-size': { type: 'string', default: String(availableParallelism()) },
    only: { type: 'string' },
    // echo is what the Go comparison is about; add large with --workloads echo,large
    // (it doubles the run: ~25 min for 5 rounds of every row on the 2-core machine).
    workloads: { type: 'string', default: 'echo' },
    'no-go': { type: 'boolean', default: false },
    'no-floor': { type: 'boolean', default: false },
    rows: { type: 'string' },
    'go-every': { type: 'string', default: '4' },
  },
});

/** The experiment's rows: strategy, main runtime, worker runtime (null: the main's own). */
const ROWS = [
  ['baseline', 'node', null],
  ['baseline', 'bun', null],
  ['baseline', 'deno', null],
  ['cluster', 'node', null],
  ['cluster', 'deno', null],
  ['worker-threads', 'node', null],
  ['worker-threads', 'bun', null],
  ['worker-threads', 'deno', null],
  ['fork-pool', 'node', null],
  ['fork-pool', 'node', 'bun'],
  ['fork-pool', 'node', 'deno'],
  ['fork-pool', 'bun', null],
  ['fork-pool', 'deno', null],
  ['comm-channel', 'node', null],
  ['comm-channel', 'node', 'bun'],
  ['comm-channel', 'node', 'deno'],
  ['comm-channel', 'bun', null],
  ['comm-channel', 'deno', null],
  ['send-advanced', 'node', null],
  ['reuse-port', 'node', null],
  ['reuse-port', 'node', 'bun'],
  ['reuse-port', 'node', 'deno'],
  // Node workers spawn with posix_spawn where node:ffi or koffi loads (strategies/lib/posix-spawn.js).
  ['fork-pool', 'node26', null],
  ['comm-channel', 'node26', null],
  ['reuse-port', 'node26', null],
];

/**
 * node22/node24/node26, bun and deno by name: from the test runtime cache, fetched on
 * first use (test/helpers/runtimes.js); anything else as spawnbench resolves it.
 */
const runtimeOption = (name) => (name in RUNTIMES ? fetchRuntime(name) : name);

const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write(`--rounds must be a whole number ≥ 1, got '${args.rounds}'\n`);
  process.exit(2);
}
const goEvery = Number(args['go-every']);
if (!Number.isInteger(goEvery) || goEvery < 1) {
  process.stderr.write(`--go-every must be a whole number ≥ 1, got '${args['go-every']}'\n`);
  process.exit(2);
}
const only = args.only ? new Set(args.only.split(',')) : null;
const workloads = args.workloads.split(',');
for (const w of workloads) {
  try {
    resolveWorkload({ workload: w });
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
// Other work on the machine skews every figure: the output says how busy it was.
const loadAverages = [loadavg()[0]];

function installed(runtime) {
  try {
    resolveRuntime(runtimeOption(runtime));
    return true;
  } catch {
    return false;
  }
}

const label = (strategy, runtime, workerRuntime, poolSize, spawnApi) =>
  `${strategy} (${runtime}${workerRuntime ? ` main, ${workerRuntime} workers` : ''}${poolSize ? `, pool ${poolSize}` : ''}${spawnApi ? `, ${spawnApi} spawn` : ''})`;

/** The options every cell shares: the same load for the Go reference and the strategies. */
const loadOptions = (workload) => ({
  workload, duration: args.duration, warmup: args.warmup, connections: args.connections,
  probe: false, dashboard: false,
});

function roundFigures(load) {
  return { rps: load.rps, p99Ms: load.latency.p99Ms, errors: load.errors.total, mismatch: load.errors.mismatch };
}

async function measureStrategy(row, workload) {
  const options = { ...loadOptions(workload), strategy: row.strategy, runtime: runtimeOption(row.runtime) };
  if (row.strategy !== 'baseline') options.poolSize = row.poolSize ?? args['pool-size'];
  if (row.workerRuntime) options.workerRuntime = runtimeOption(row.workerRuntime);
  // The strategy inherits this process's environment.
  const savedSpawnApi = process.env.SPAWNBENCH_SPAWN_API;
  if (row.spawnApi) process.env.SPAWNBENCH_SPAWN_API = row.spawnApi;
  try {
    const result = await createRun(buildRunPlan(options)).start();
    if (result.failures.length) return { failed: result.failures[0].split('\n')[0] };
    return { ...roundFigures(result.load), cpu: strategyCpu(result) };
  } catch (error) {
    return { failed: error.message.split('\n')[0] };
  } finally {
    if (savedSpawnApi === undefined) delete process.env.SPAWNBENCH_SPAWN_API;
    else process.env.SPAWNBENCH_SPAWN_API = savedSpawnApi;
  }
}

async function measureGo(binary, workload) {
  let server;
  try {
    server = await startGoReference(binary, resolveWorkload({ workload }));
    const run = createRun(buildRunPlan({ ...loadOptions(workload), url: server.url }));
    let start = null;
    run.on('phase', ({ phase }) => {
      if (phase === 'measure') start = server.cpuTicks();
    });
    const result = await run.start();
    const end = server.cpuTicks();
    const figures = roundFigures(result.load);
    if (!start || !end) return { ...figures, cpu: null };
    const cpu = goCpu({ selfMs: ticksToMs(end.self - start.self), childrenMs: ticksToMs(end.children - start.children), load: result.load });
    return { ...figures, cpu };
  } catch (error) {
    return { failed: error.message.split('\n')[0] };
  } finally {
    await server?.stop();
  }
}

const selected = args.rows
  ? args.rows.split(',').map((triple) => {
    const [strategy, runtime = 'node', workerRuntime = '', poolSize = '', spawnApi = ''] = triple.split(':');
    return [strategy, runtime, workerRuntime || null, poolSize || null, spawnApi || null];
  })
  : ROWS;
const rows = [];
const skipped = [];
for (const [strategy, runtime, workerRuntime, poolSize = null, spawnApi = null] of selected) {
  if (only && !only.has(strategy)) continue;
  if (spawnApi && spawnApi !== 'child_process') {
    process.stderr.write(`--rows ${strategy}:…:${spawnApi}: the only spawn API to choose is child_process (the default is the runtime's fastest)\n`);
    process.exit(2);
  }
  const missing = [runtime, workerRuntime].filter((r) => r && !installed(r));
  const row = { strategy, runtime, workerRuntime, poolSize, spawnApi, label: label(strategy, runtime, workerRuntime, poolSize, spawnApi) };
  if (missing.length) skipped.push(`${row.label}: ${missing.join(', ')} not installed`);
  else rows.push({ ...row, rounds: Object.fromEntries(workloads.map((w) => [w, []])) });
}

let go = null;
if (!args['no-go']) {
  process.stderr.write('building the Go reference (bench/go-reference)… ');
  go = buildGoReference();
  process.stderr.write(go.skipped ? `skipped\n` : 'done\n');
  if (go.skipped) {
    skipped.push(go.skipped);
    go = null;
  } else {
    go.rounds = Object.fromEntries(workloads.map((w) => [w, []]));
  }
}

let floor = null;
if (!args['no-floor']) {
  floor = buildFloor();
  if (floor.skipped) {
    skipped.push(floor.skipped);
    floor = null;
  } else {
    floor.rounds = Object.fromEntries(workloads.map((w) => [w, []]));
  }
}

/** The Node floors: one per Node runtime among the rows (they spawn on that Node's own path). */
const nodeFloors = args['no-floor']
  ? []
  : [...new Set(rows.map((r) => r.runtime).filter((r) => nodeMajor(r) !== null))].map((runtime) => ({
      runtime, path: resolveRuntime(runtimeOption(runtime)).path, rounds: Object.fromEntries(workloads.map((w) => [w, []])),
    }));

try {
  for (let round = 1; round <= rounds; round++) {
    for (const workload of workloads) {
      const tag = `[${round}/${rounds}] ${workload}`;
      if (floor) {
        const f = measureFloor(floor.binary, resolveWorkload({ workload }));
        floor.rounds[workload].push(f);
        process.stderr.write(`${tag} floor (C spawn loop): ${f.failed ? `failed: ${f.failed}` : `${fmt(f.cpu.main + f.cpu.spawned, 3)} ms CPU per spawn`}\n`);
      }
      for (const nodeFloor of nodeFloors) {
        const f = measureNodeFloor(nodeFloor.path, resolveWorkload({ workload }));
        nodeFloor.rounds[workload].push(f);
        process.stderr.write(`${tag} Node floor (${nodeFloor.runtime} spawn loop): ${f.failed ? `failed: ${f.failed}` : `${fmt(f.cpu.main + f.cpu.spawned, 3)} ms CPU per spawn (${f.api})`}\n`);
      }
      // The Go reference is measured before the first strategy and again after every
      // --go-every strategies; each strategy's ratio is to the mean of the Go figures
      // just before and just after it, so drift on the machine hits both sides alike.
      const measureReference = async () => {
        process.stderr.write(`${tag} Go reference… `);
        const c = await measureGo(go.binary, workload);
        go.rounds[workload].push(c);
        process.stderr.write(c.failed ? `failed: ${c.failed}\n` : `${Math.round(c.rps)} rps, ${c.errors} errors\n`);
        return c.failed ? null : c.rps;
      };
      let before = go ? await measureReference() : null;
      let waiting = []; // this round's cells still waiting for the Go figure after them
      const settle = (after) => {
        const refs = [before, after].filter((r) => r !== null);
        const ref = refs.length ? refs.reduce((a, b) => a + b) / refs.length : null;
        for (const c of waiting) c.ratio = !c.failed && ref ? c.rps / ref : null;
        waiting = [];
        before = after;
      };
      for (const [i, row] of rows.entries()) {
        process.stderr.write(`${tag} ${row.label}… `);
        const c = await measureStrategy(row, workload);
        row.rounds[workload].push(c);
        waiting.push(c);
        process.stderr.write(c.failed ? `failed: ${c.failed}\n` : `${Math.round(c.rps)} rps${before ? ` (${(c.rps / before).toFixed(2)}× the last Go)` : ''}, ${c.errors} errors\n`);
        if (go && ((i + 1) % goEvery === 0 || i === rows.length - 1)) settle(await measureReference());
      }
    }
    loadAverages.push(loadavg()[0]);
  }
} finally {
  go?.cleanup();
  floor?.cleanup();
}

const GO_LABEL = 'Go net/http + os/exec (reference)';
const FLOOR_LABEL = 'floor: C posix_spawn + pipe + waitpid loop (per spawn)';

/** A floor's rounds: medians of the loop's and the commands' CPU per spawn. */
function summarizeFloor(list) {
  const ok = list.filter((f) => !f.failed);
  if (!ok.length) return null;
  return { cpu: { main: median(ok.map((f) => f.cpu.main)), workers: null, spawned: median(ok.map((f) => f.cpu.spawned)), generator: null }, api: ok[0].api ?? null };
}
const nodeFloorLabel = (runtime, cell) => `Node floor: ${runtime} spawn-command.js loop, no HTTP (${cell.api}, per spawn)`;
console.log(`## spawnbench strategies on this machine\n`);
console.log(`${availableParallelism()} hardware threads · Node ${process.versions.node} · pool size ${args['pool-size']} · ` +
  `${args.connections} connections · ${args.warmup} warm-up + ${args.duration} per cell · ${rounds} interleaved round${rounds > 1 ? 's' : ''} ` +
  `(each: every strategy${go ? `, the Go reference before the first and after every ${goEvery}; each ratio to the mean of the Go figures just before and after it` : ''}) · ` +
  `medians, spread min–max · probe off · every body compared byte for byte · ` +
  `1-min load average at the start and after each round: ${loadAverages.map((l) => l.toFixed(1)).join(', ')}\n`);

// Without Go, each round's ratio is to Node baseline of the same round (when it is among the rows).
const nodeBaseline = rows.find((r) => r.strategy === 'baseline' && r.runtime === 'node' && !r.workerRuntime);
const REF = go ? 'Go' : 'baseline';
if (go) {
  for (const workload of workloads) for (const c of go.rounds[workload]) c.ratio = c.failed ? null : 1;
} else {
  for (const workload of workloads) {
    const refRounds = nodeBaseline?.rounds[workload] ?? [];
    for (const row of rows) {
      row.rounds[workload].forEach((c, i) => {
        const ref = refRounds[i];
        c.ratio = !c.failed && ref && !ref.failed && ref.rps > 0 ? c.rps / ref.rps : null;
      });
    }
  }
}

const summaries = [];
for (const workload of workloads) {
  const cells = [
    ...(go ? [{ label: GO_LABEL, cell: summarizeCell(go.rounds[workload]) }] : []),
    ...rows.map((row) => ({ row, label: row.label, cell: summarizeCell(row.rounds[workload]) })),
  ];
  console.log(`### ${workload}\n`);
  console.log(throughputTable(cells, REF));
  console.log(`\nCPU milliseconds per request (medians over the rounds; main process = all its threads; ` +
    `spawned = the commands' CPU, reaped children; for Go, main process = the whole server):\n`);
  const floorCell = floor ? summarizeFloor(floor.rounds[workload]) : null;
  const nodeFloorCells = nodeFloors.map((f) => ({ runtime: f.runtime, cell: summarizeFloor(f.rounds[workload]) })).filter((f) => f.cell);
  console.log(cpuTable([
    ...cells,
    ...(floorCell ? [{ label: FLOOR_LABEL, cell: floorCell }] : []),
    ...nodeFloorCells.map((f) => ({ label: nodeFloorLabel(f.runtime, f.cell), cell: f.cell })),
  ]));
  console.log('');
  summaries.push({ workload, cells, floorCell, nodeFloorCells });
}

// The questions the table answers: can a server with a Node main thread match Go
// (and one whose Node main thread answers every request itself: in cluster and
// reuse-port the workers answer), and how close does Node alone (Node workers too) get.
const WORKERS_ANSWER = new Set(['cluster', 'reuse-port']);
/** Issue 28's targets for the best Node-only row (Node main and Node workers): ratio to Go per Node major. */
const NODE_TARGETS = [[26, 1.2], [20, 0.7]];
const say = (c) => (c ? `${c.label} at ${fmt(c.cell.ratio, 2)}× Go (${fmt(c.cell.minRatio, 2)}–${fmt(c.cell.maxRatio, 2)})` : 'none measured');
const best = (cells, keep) => cells.filter((c) => c.row && keep(c.row) && !c.cell.failed && c.cell.ratio !== null)
  .sort((a, b) => b.cell.ratio - a.cell.ratio)[0];
if (go) {
  for (const { workload, cells } of summaries) {
    const isNode = (runtime) => runtime === 'node' || /^node\d+$/.test(runtime);
    const nodeMain = best(cells, (r) => isNode(r.runtime));
    const mainAnswers = best(cells, (r) => isNode(r.runtime) && !WORKERS_ANSWER.has(r.strategy));
    const nodeOnly = best(cells, (r) => isNode(r.runtime) && (!r.workerRuntime || isNode(r.workerRuntime)));
    console.log(`${workload}: best with a Node main thread: ${say(nodeMain)}; ` +
      `best whose Node main thread answers every request: ${say(mainAnswers)}; best with Node workers only: ${say(nodeOnly)}.`);
  }
  for (const { workload, cells, floorCell, nodeFloorCells } of summaries) {
    const lines = [];
    for (const [major, target] of NODE_TARGETS) {
      const c = best(cells, (r) => nodeMajor(r.runtime) === major && (!r.workerRuntime || nodeMajor(r.workerRuntime) === major));
      lines.push(`Node ${major}, Node only: ${c ? `${say(c)}, target ≥ ${target}× ${c.cell.ratio >= target ? 'met' : 'NOT met'}` : 'no row measured'}`);
    }
    console.log(`${workload}: ${lines.join('; ')}.`);
    if (floorCell) console.log(aboveFloor(workload, cells, floorCell));
    const ceilings = nodeCeilings(cells, nodeFloorCells);
    if (ceilings) console.log(`${workload}: ${ceilings}.`);
  }
}

/**
 * How far a Node server could get with HTTP and everything but its spawns costing nothing:
 * Go's CPU per request (server, commands, generator) over the Node floor's (loop and
 * commands) plus the same generator, i.e. the ratio to Go if both used the same CPU per
 * second. An estimate, not a bound: a row that keeps the cores busier than Go did can pass
 * it (fork-pool on Node 26 did once, 1.15× against 1.14×, at load 8–10).
 */
function nodeCeilings(cells, nodeFloorCells) {
  const goCell = cells.find((c) => c.label === GO_LABEL && !c.cell.failed)?.cell;
  if (!goCell?.cpu || !nodeFloorCells.length) return null;
  const generator = goCell.cpu.generator ?? 0;
  const goTotal = goCell.cpu.main + goCell.cpu.spawned + generator;
  return nodeFloorCells.map(({ runtime, cell }) => {
    const nodeTotal = cell.cpu.main + cell.cpu.spawned + generator;
    const target = NODE_TARGETS.find(([major]) => major === nodeMajor(runtime))?.[1];
    return `${runtime} with everything but the spawn free, at Go's CPU use: ≈ ${fmt(goTotal / nodeTotal, 2)}× Go ` +
      `(Go ${fmt(goTotal, 3)} ms CPU per request with the generator, Node floor ${fmt(nodeTotal, 3)} = loop ${fmt(cell.cpu.main, 3)} + commands ${fmt(cell.cpu.spawned, 3)} + generator ${fmt(generator, 3)})` +
      `${target ? `; target ${target}×` : ''}`;
  }).join('; ');
}
/** Node major of a row's runtime: 'node' is the Node running this bench, 'node26' Node 26. */
function nodeMajor(runtime) {
  if (runtime === 'node') return Number(process.versions.node.split('.')[0]);
  const m = /^node(\d+)$/.exec(runtime ?? '');
  return m ? Number(m[1]) : null;
}

/**
 * What a request costs above the floor (CPU ms; server = main + workers + commands,
 * the generator apart): for Go and the best Node-only row of each major, with the split.
 */
function aboveFloor(workload, cells, floorCell) {
  const floorTotal = floorCell.cpu.main + floorCell.cpu.spawned;
  const part = (label, cell) => {
    const { main, workers, spawned } = cell.cpu;
    const total = (main ?? 0) + (workers ?? 0) + (spawned ?? 0);
    const split = [`main ${fmt(main, 3)}`, workers !== null ? `workers ${fmt(workers, 3)}` : null, `commands ${fmt(spawned, 3)}`].filter(Boolean).join(' + ');
    return `${label} ${fmt(total, 3)} (${split}) → ${fmt(total - floorTotal, 3)} above`;
  };
  const out = [`${workload}, CPU ms per request: floor ${fmt(floorTotal, 3)} (loop ${fmt(floorCell.cpu.main, 3)} + command ${fmt(floorCell.cpu.spawned, 3)})`];
  const goCell = cells.find((c) => c.label === GO_LABEL && !c.cell.failed);
  if (goCell) out.push(part('Go', goCell.cell));
  for (const [major] of NODE_TARGETS) {
    const c = best(cells, (r) => nodeMajor(r.runtime) === major && (!r.workerRuntime || nodeMajor(r.workerRuntime) === major));
    if (c) out.push(part(`best Node ${major} (${c.row.strategy})`, c.cell));
  }
  return `${out.join('; ')}.`;
}

const errors = summaries.flatMap(({ cells }) => cells).filter((c) => !c.cell.failed && c.cell.errors > 0);
const failed = summaries.flatMap(({ workload, cells }) => cells.filter((c) => c.cell.failed).map((c) => `${c.label} ${workload}`));
console.log(`Errors: ${errors.length ? errors.map((c) => `${c.label} ${c.cell.errors}`).join('; ') : '0 in every cell'}` +
  `${failed.length ? `; failed cells: ${failed.join(', ')}` : ''}.`);
if (skipped.length) console.log(`\nSkipped: ${skipped.join('; ')}.`);
