/**
 * Turns probe reports into the `probe` entry of a live sample (Samples shape in
 * src/README.md): `{ elu, loopDelay: { p50Ms, p99Ms, maxMs }, spawn: { blockedFraction,
 * perSec, meanMs }, gcMs, heapUsedBytes }`.
 */

/**
 * The probe figures of one sample: the reports that arrived since the previous
 * sample merged (probe and sampler clocks drift, so 0, 1 or 2 arrive), or the
 * last figures again when none did.
 * @param {{ pending: object[], figures: object|null }} entry a thread's reports not yet sampled; updated
 * @returns {object|null}
 */
export function liveFigures(entry) {
  if (entry.pending.length > 0) {
    entry.figures = probeFigures(mergeReports(entry.pending));
    entry.pending = [];
  }
  return entry.figures ?? null;
}

/** One report covering several consecutive ones: sums, interval-weighted ELU, worst loop delay. */
function mergeReports(reports) {
  if (reports.length === 1) return reports[0];
  const intervalMs = reports.reduce((sum, r) => sum + r.intervalMs, 0);
  const delays = reports.map((r) => r.loopDelay).filter(Boolean);
  const spawns = reports.map((r) => r.spawn).filter(Boolean);
  const sum = (list, pick) => list.reduce((total, item) => total + (pick(item) ?? 0), 0);
  return {
    intervalMs,
    elu: mergeElu(reports),
    loopDelay: delays.length
      ? {
          p50Ms: sum(delays, (d) => d.p50Ms * d.count) / Math.max(1, sum(delays, (d) => d.count)),
          p99Ms: Math.max(...delays.map((d) => d.p99Ms)),
          maxMs: Math.max(...delays.map((d) => d.maxMs)),
        }
      : null,
    spawn: spawns.length ? { count: sum(spawns, (x) => x.count), blockedMs: sum(spawns, (x) => x.blockedMs) } : null,
    gcMs: reports.some((r) => r.gcMs != null) ? sum(reports, (r) => r.gcMs) : null,
    heapUsedBytes: reports.at(-1).heapUsedBytes,
  };
}

/** The figures of one probe report, as a Samples `probe` entry. */
function probeFigures(report) {
  const spawn = report.spawn;
  const seconds = report.intervalMs / 1000;
  return {
    elu: report.elu,
    loopDelay: report.loopDelay
      ? { p50Ms: report.loopDelay.p50Ms, p99Ms: report.loopDelay.p99Ms, maxMs: report.loopDelay.maxMs }
      : null,
    spawn: spawn
      ? {
          blockedFraction: report.intervalMs > 0 ? spawn.blockedMs / report.intervalMs : 0,
          perSec: seconds > 0 ? spawn.count / seconds : 0,
          meanMs: spawn.count > 0 ? spawn.blockedMs / spawn.count : null,
        }
      : null,
    gcMs: report.gcMs,
    heapUsedBytes: report.heapUsedBytes,
  };
}

/** Interval-weighted ELU of the reports that have one (Bun's probe reports none). */
function mergeElu(reports) {
  const withElu = reports.filter((r) => r.elu != null);
  const ms = withElu.reduce((total, r) => total + r.intervalMs, 0);
  if (withElu.length === 0) return null;
  return ms > 0 ? withElu.reduce((total, r) => total + r.elu * r.intervalMs, 0) / ms : withElu.at(-1).elu;
}
