/**
 * What a measuring command does around its result besides printing it:
 * --against (a baseline run to compare with), --assert (CI gates: exit 3 when one
 * fails) and --html (a self-contained report file). Every flag's file and
 * expression is checked before anything starts (exit 2 naming the flag); after
 * the result, the comparison and outcomes are added to it (so --json and --out
 * carry them), their lines printed after the summary, and the HTML written
 * (extras-result.js: loaded with the engine, so --help never loads the HTML report).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../base/errors.js';
import { parseAssertions } from '../plan/assert-expr.js';
import { metricsOf, metricOf } from '../analysis/metrics.js';
import { targetOf } from '../base/target-kinds.js';
import { endpointNames } from '../analysis/assert-evaluate.js';
import { checkMix } from '../load/mix.js';
import { readResultFile } from '../report/result-file.js';
import { checkDestinationKind } from '../output/output-destinations.js';
import { realTarget } from '../output/atomic-file.js';

/** The exit code of a run whose --assert failed (0, 1 and 2 are taken: see README). */
export const ASSERT_FAILED_EXIT_CODE = 3;

/**
 * The metrics each command's result holds, from the metric table (compare keeps the
 * median rps, p50, p99 and errors of each row).
 */
const ASSERT_METRICS_BY_KIND = { run: metricsOf('run'), diagnose: metricsOf('diagnose'), compare: metricsOf('compare') };
/**
 * What --against compares each kind of result with: a run or diagnose with
 * either (both hold a LoadResult with its histogram and per-second series), a
 * compare with a compare (rows and their repeats).
 */
const AGAINST_KINDS = { run: ['run', 'diagnose'], diagnose: ['run', 'diagnose'], compare: ['compare'] };

/**
 * @typedef {object} Extras
 * @property {import('../plan/assert-expr.js').Assertion[]} asserts
 * @property {{ file: string, result: object }|null} against
 * @property {string|null} html
 */

/**
 * Checks --assert, --against and --html before anything starts.
 * @param {object} options commander options
 * @param {'run'|'diagnose'|'compare'|'tune'|'report'} command
 * @param {string} [kind] the kind of result the command produces (report: the file's)
 * @param {{ load?: { mix?: object[]|null }, probe?: { enabled: boolean }, target?: object }|null} [plan] the plan: the mix an
 *   endpoint filter must name, the probe a gate on ELU needs (report: none; compare: null, its rows have neither)
 * @returns {Extras}
 * @throws {UsageError}
 */
export function prepareExtras(options, command, kind = command, plan = undefined) {
  const against = options.against !== undefined ? readBaseline(options.against, kind) : null;
  if (options.assert !== undefined && !ASSERT_METRICS_BY_KIND[kind]) {
    throw new UsageError(`--assert checks run, diagnose and compare results; a ${kind} result has no single figure to gate on`);
  }
  const asserts = parseAssertions(options.assert, { metrics: ASSERT_METRICS_BY_KIND[kind], command });
  const change = asserts.find((a) => a.metric.endsWith('-change'));
  if (change && !against) throw new UsageError(`--assert '${change.expr}' compares with a baseline: add --against <old.json>`);
  if (plan !== undefined) {
    checkEndpointFilters(asserts, kind, plan?.load?.mix ?? null);
    if (plan) checkProbeGates(asserts, plan);
  }
  const html = options.html !== undefined ? checkWritable(options.html, '--html') : null;
  return { asserts, against, html };
}

/** The endpoint names a refusal lists, at most. */
const NAMES_LISTED = 8;

/**
 * Refuses, before the run, a gate on one endpoint (`p99{GET /report}<50ms`) that no endpoint of
 * the mix answers to, or more than one: it used to fail only after the whole run, and without a
 * mix said "no endpoint in the result's mix" of a run that had none. A compare row holds no
 * figure per endpoint at all.
 * @param {import('../plan/assert-expr.js').Assertion[]} asserts
 * @param {string} kind
 * @param {object[]|null} mix the plan's mix (null: one request)
 * @throws {UsageError}
 */
function checkEndpointFilters(asserts, kind, mix) {
  const filtered = asserts.filter((a) => a.endpoint !== undefined);
  if (filtered.length === 0) return;
  const [first] = filtered;
  const without = `${first.expr.replace(/\s*\{[^{}]*\}/, '')}`;
  if (kind === 'compare') throw new UsageError(`--assert '${first.expr}': a compare row has no figures per endpoint; gate the row, like --assert '${without}'`);
  if (!mix) throw new UsageError(`--assert '${first.expr}' reads one endpoint of a mix, and this run sends one request: add --mix <file> (or --path more than once), or gate the run, like --assert '${without}'`);
  let entries;
  try {
    entries = checkMix(mix);
  } catch {
    return; // the load says what is wrong with the mix
  }
  const names = endpointNames(entries);
  const listed = entries.slice(0, NAMES_LISTED).map((e) => `'${e.name}'`).join(', ') + (entries.length > NAMES_LISTED ? ', …' : '');
  for (const a of filtered) {
    const endpoint = /** @type {string} */ (a.endpoint);
    const claimed = names.get(endpoint);
    if (!claimed) throw new UsageError(`--assert '${a.expr}': no endpoint of the mix is named '${endpoint}'; name one by its name or METHOD path: ${listed}`);
    if (claimed.size > 1) throw new UsageError(`--assert '${a.expr}': ${claimed.size} endpoints of the mix answer to '${endpoint}'; name one by its name, or METHOD path with its query`);
  }
}

/**
 * Refuses, before the run, a gate on a figure of the in-process probe (elu, busy,
 * blocked-in-spawn) when the run will have no probe: --no-probe, or a server measured from
 * outside (--url). It failed only after the whole run ("not measured: needs the probe").
 * @param {import('../plan/assert-expr.js').Assertion[]} asserts
 * @param {{ probe?: { enabled: boolean }, target?: object }} plan
 * @throws {UsageError}
 */
function checkProbeGates(asserts, plan) {
  const external = targetOf(/** @type {any} */ (plan.target)).external;
  if (!external && plan.probe?.enabled !== false) return;
  const gate = asserts.find((a) => metricOf(a.metric)?.needs === 'probe');
  if (!gate) return;
  throw new UsageError(external
    ? `--assert '${gate.expr}' needs the in-process probe, which a server measured from outside (--url) does not have: start it under spawnbench (-- <command>) to gate on it`
    : `--assert '${gate.expr}' needs the in-process probe, which --no-probe turns off: drop --no-probe, or this gate`);
}

/** Whether the command has anything to add to its result. */
export function hasExtras(extras) {
  return Boolean(extras && (extras.asserts.length || extras.against || extras.html));
}

function readBaseline(file, kind) {
  if (!AGAINST_KINDS[kind]) throw new UsageError(`--against compares run, diagnose and compare results, not ${kind}`);
  let result;
  try {
    result = readResultFile(file);
  } catch (error) {
    throw new UsageError(`--against ${error.message}`);
  }
  if (!AGAINST_KINDS[kind].includes(result.kind)) {
    const wanted = AGAINST_KINDS[kind].map((k) => `${k} --out`).join(' or ');
    throw new UsageError(`--against ${file} holds a ${result.kind} result; a ${kind} compares with a file written by ${wanted}`);
  }
  return { file, result };
}

/**
 * A file the command will write at the end: its folder must exist and be
 * writable, and it must not be a folder itself, so an hour-long run does not end
 * in "cannot write".
 */
function checkWritable(path, flag) {
  if (typeof path !== 'string' || path.trim() === '') throw new UsageError(`${flag} needs a file name, like ${flag} report.html`);
  // A block device or a socket is refused; a FIFO or /dev/stdout is written through, no folder needed.
  if (checkDestinationKind(path, flag)) return path;
  // Where the write will land: a link to a file not made yet is followed (src/output/atomic-file.js).
  const full = realTarget(path);
  let stat = null;
  try {
    stat = statSync(full);
  } catch {
    // Does not exist yet: the folder decides.
  }
  if (stat?.isDirectory()) throw new UsageError(`${flag} ${path} is a folder; give a file name, like ${flag} ${path.replace(/\/$/, '')}/report.html`);
  try {
    accessSync(stat ? full : dirname(full), constants.W_OK);
  } catch (error) {
    const why = error.code === 'ENOENT' ? `the folder ${dirname(full)} does not exist` : `it cannot be written (${error.code})`;
    throw new UsageError(`${flag} ${path}: ${why}; give a file in a folder you can write to`);
  }
  return path;
}
