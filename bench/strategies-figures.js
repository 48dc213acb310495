/**
 * Figures for bench:strategies, as pure functions: one cell's rounds into a
 * median and spread, each round's CPU into milliseconds of CPU per request, and
 * the Markdown tables. No process is started here.
 */

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** CPU percent (100 = one core) over a measured phase, as CPU milliseconds per request. */
export const cpuMsPerRequest = (cpuPct, durationMs, requests) =>
  cpuPct === null || cpuPct === undefined || requests <= 0 ? null : ((cpuPct / 100) * durationMs) / requests;

/**
 * A strategy round's CPU per request, from spawnbench's own samplers: the main
 * process (all its threads), the forked workers (summed), the commands it spawned
 * (reaped children's CPU) and the load generator.
 * @param {object} result a RunResult
 */
export function strategyCpu(result) {
  const { durationMs, requests } = result.load;
  const per = (pct) => cpuMsPerRequest(pct, durationMs, requests);
  const processes = result.samples?.processes ?? [];
  const sum = (role) => processes.filter((p) => p.role === role).reduce((total, p) => total + (p.summary.cpuPct ?? 0), 0);
  return {
    main: per(sum('main')),
    workers: processes.some((p) => p.role === 'worker') ? per(sum('worker')) : null,
    spawned: per(result.samples?.spawned?.cpuPct ?? null),
    generator: per(result.load.generator?.cpuPct ?? null),
  };
}

/**
 * The Go reference's round: its own CPU and its reaped children's, read from
 * /proc at the start and the end of the measured phase (ms), plus the generator's.
 */
export function goCpu({ selfMs, childrenMs, load }) {
  return {
    main: load.requests > 0 ? selfMs / load.requests : null,
    workers: null,
    spawned: load.requests > 0 ? childrenMs / load.requests : null,
    generator: cpuMsPerRequest(load.generator?.cpuPct ?? null, load.durationMs, load.requests),
  };
}

/**
 * One cell from its rounds. A failed round fails the cell; errors (mismatched
 * bodies among them) are summed over every round.
 * @param {Array<{ rps: number, p99Ms: number, errors: number, mismatch: number, ratio: number|null, cpu: object } | { failed: string }>} rounds
 */
export function summarizeCell(rounds) {
  const failed = rounds.find((r) => r.failed);
  if (failed) return { failed: failed.failed };
  const rps = rounds.map((r) => r.rps);
  const ratios = rounds.map((r) => r.ratio).filter((r) => r !== null && r !== undefined);
  const cpu = {};
  for (const part of ['main', 'workers', 'spawned', 'generator']) {
    const values = rounds.map((r) => r.cpu?.[part]).filter((v) => v !== null && v !== undefined);
    cpu[part] = values.length ? median(values) : null;
  }
  return {
    rounds: rounds.length,
    rps: median(rps),
    minRps: Math.min(...rps),
    maxRps: Math.max(...rps),
    ratio: ratios.length ? median(ratios) : null,
    minRatio: ratios.length ? Math.min(...ratios) : null,
    maxRatio: ratios.length ? Math.max(...ratios) : null,
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    mismatch: rounds.reduce((sum, r) => sum + r.mismatch, 0),
    cpu,
  };
}

export const fmt = (n, digits = 0) =>
  n === null || n === undefined ? '–' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const table = (header, rows) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

/**
 * The throughput table for one workload: median rps and its spread, the median
 * of each round's ratio to the reference measured in that round, p99, errors.
 * @param {Array<{ label: string, cell: object }>} rows the Go reference first, if any
 * @param {string} reference what the ratios are to ('Go', or 'baseline' without Go)
 */
export function throughputTable(rows, reference) {
  const header = ['server', 'rps (median)', 'spread (min–max)', `× ${reference} (median, min–max)`, 'p99 ms', 'errors (of which body mismatches)'];
  return table(header, rows.map(({ label, cell }) => {
    if (cell.failed) return [label, `failed: ${cell.failed.replace(/\|/g, '\\|')}`, '', '', '', ''];
    const ratio = cell.ratio === null ? '–' : `${fmt(cell.ratio, 2)}× (${fmt(cell.minRatio, 2)}–${fmt(cell.maxRatio, 2)})`;
    return [label, fmt(cell.rps), `${fmt(cell.minRps)}–${fmt(cell.maxRps)}`, ratio, fmt(cell.p99Ms, 1), `${cell.errors} (${cell.mismatch})`];
  }));
}

/**
 * CPU milliseconds per request, medians over the rounds. For the Go reference,
 * "main" is the whole server process and "spawned" its reaped children.
 * @param {Array<{ label: string, cell: object }>} rows
 */
export function cpuTable(rows) {
  const header = ['server', 'main process', 'workers', 'spawned commands', 'server total', 'generator'];
  return table(header, rows.filter(({ cell }) => !cell.failed).map(({ label, cell }) => {
    const { main, workers, spawned, generator } = cell.cpu;
    const total = [main, workers, spawned].some((v) => v !== null) ? (main ?? 0) + (workers ?? 0) + (spawned ?? 0) : null;
    return [label, fmt(main, 3), fmt(workers, 3), fmt(spawned, 3), fmt(total, 3), fmt(generator, 3)];
  }));
}
