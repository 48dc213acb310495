/**
 * The text of a diagnose: what was driven and how, the figures, then the verdict
 * with its evidence and next steps, other findings, what could not be seen, and
 * the CPU profile's top functions. DiagnoseResult in, string out.
 */
import { bytes, isFiniteNumber, ms, pct } from './text-format.js';
import { CPU_PROFILE_ROOM_BYTES } from '../base/thresholds.js';
import { formatProcesses } from './processes-text.js';
import { formatHeadline, spawnAttempts } from './summary.js';
import { formatEndpoints } from './endpoints-text.js';
import { describeLoad, describeMachine } from './describe.js';
import { wordDiagnosis, heaviestRouteText } from './diagnose-words.js';
import { shellLine } from './own-server.js';
import { targetWords } from './target-text.js';
import { formatRuntimeList } from './runtimes-text.js';
import { reasonLines } from './reasons.js';
import { formatSpawnFailures } from './spawn-failures-text.js';

/** @typedef {import('../base/result-types.js').DiagnoseResult} DiagnoseResult */
/** @typedef {import('../base/result-types.js').DiagnoseSizeKnob} DiagnoseSizeKnob */

/**
 * @param {DiagnoseResult} result DiagnoseResult (src/diagnose/diagnose-engine.js)
 * @returns {string}
 */
export function formatDiagnose(result) {
  const { plan, machine, load } = result;
  const lines = [
    `spawnbench diagnose · ${describeDiagnoseTarget(result)}`,
    `${plan.load.mix ? `a mix of ${plan.load.mix.length} endpoints,` : plan.load.method} ${describeLoad(plan.load, { connections: load.connections ?? plan.load.connections })}`,
    describeMachine(machine),
    // How the server's own runtimes spawn, as its probed processes reported them (none without the probe).
    ...[formatRuntimeList((result.samples?.processes ?? []).map((p) => p.summary?.runtime).filter((r) => r !== null && r !== undefined))].filter(Boolean),
    '',
    ...formatHeadline(result),
    ...formatEndpoints(load),
    ...reasonLines(result),
    ...formatSpawnFailures(result.spawnFailures, { attempts: spawnAttempts(result), rps: result.load?.rps ?? null }),
  ];
  const processes = result.samples ? formatProcesses(result.samples) : '';
  if (processes) lines.push('', processes);
  if (result.diagnosis) lines.push('', ...formatDiagnosis(result.diagnosis, result.sizeKnob));
  if (result.cpuProfile) lines.push('', ...formatCpuProfile(result.cpuProfile, blockingRoute(result.diagnosis)));
  for (const failure of result.failures ?? []) lines.push('', `FAILED: ${failure}`);
  for (const note of result.notes ?? []) lines.push(`note: ${note}`);
  return lines.join('\n');
}

/**
 * "'node server.js' (pid 123) on http://127.0.0.1:4000/", "'npm start' (server pid 125, launched by npm → sh)
 * on …" or "url http://… (pid 123)".
 * @param {{ target?: Record<string, any>, plan: import('../base/result-types.js').RunPlan }} result
 */
export function describeDiagnoseTarget(result) {
  const t = result.target ?? result.plan.target;
  const launchers = t.launchers?.length ? `server pid ${t.pid}, launched by ${t.launchers.map((/** @type {{ name: string }} */ l) => l.name).join(' → ')}` : null;
  const pid = launchers ? ` (${launchers})` : t.pid ? ` (pid ${t.pid})` : '';
  return targetWords(t).diagnosed(t, pid);
}


/**
 * The verdict block.
 * @param {import('../base/result-types.js').Diagnosis} diagnosis ids and figures
 *   (src/analysis/verdicts.js), or already in words
 * @param {DiagnoseSizeKnob|null} [sizeKnob]
 * @returns {string[]}
 */
export function formatDiagnosis(diagnosis, sizeKnob = null) {
  const { verdict, findings, notSeen } = wordDiagnosis(diagnosis);
  const lines = [`Verdict    ${verdict.title}${verdict.where ? ` (${verdict.where})` : ''}`];
  lines.push(...finding(verdict, undefined, sizeKnob));
  if (findings.length > 0) {
    lines.push('', 'Also found');
    for (const f of findings) lines.push(`  - ${f.title}${f.where ? ` (${f.where})` : ''}`, ...finding(f, '    ', sizeKnob));
  }
  if (notSeen.length > 0) {
    lines.push('', 'Not seen');
    for (const line of notSeen) lines.push(`  - ${line}`);
  }
  return lines;
}

/**
 * @param {import('../base/result-types.js').DiagnoseFinding} f a finding in words (wordDiagnosis() gives each its evidence and next)
 * @param {string} [indent]
 * @param {DiagnoseSizeKnob|null} [sizeKnob]
 */
function finding(f, indent = '           ', sizeKnob = null) {
  const next = [.../** @type {string[]} */ (f.next)];
  // A server blocked in spawn whose size the user can set: the exact sweep of its own size comes first.
  if (f.id === 'spawn-blocked' && sizeKnob) next.unshift(tuneHint(sizeKnob));
  // A downstream that refuses a server whose size the user can set: the sweep shows where the errors start.
  if (f.id === 'downstream-refuses' && sizeKnob) next.splice(1, 1, `see at which size the errors start: spawnbench ${shellLine(sizeKnob.tune)}`);
  return [.../** @type {string[]} */ (f.evidence).map((e) => `${indent}${e}`), ...next.map((n) => `${indent}next: ${n}`)];
}

/**
 * "size your server from its WORKERS (now 2): spawnbench tune --size-env WORKERS -- node server.js"
 * @param {DiagnoseSizeKnob} knob
 */
function tuneHint(knob) {
  const where = knob.kind === 'env' ? `its ${knob.name} (now ${knob.value})` : `its ${knob.flag} (now ${knob.value})`;
  return `find the size that serves best from ${where}: spawnbench ${shellLine(knob.tune)}`;
}

/**
 * Where the profiles are and the top functions by self time of the busiest one.
 * @param {import('../base/result-types.js').CpuProfileSummary} profile
 * @returns {string[]}
 */
export function formatCpuProfile({ dir, files, top, freeBytes = null }, route = null) {
  if (!top) {
    // Node fails to write a profile on a full disk without a word: that read as "not a Node.js process".
    if (isFiniteNumber(freeBytes) && freeBytes < CPU_PROFILE_ROOM_BYTES) {
      return [`CPU profile: none written in ${dir}: its disk has ${bytes(freeBytes)} free, likely too little to save one; give --cpu-prof-dir a folder on a disk with room`];
    }
    return [`CPU profile: none written in ${dir} (the server was not a Node.js process, or it was killed before it could save one)`];
  }
  const lines = [
    `CPU profile ${top.file}${files.length > 1 ? ` (busiest of ${files.length} in ${dir})` : ''}`,
    '  open it in Chrome DevTools (Performance → Load profile) or VS Code',
    `  top ${top.functions.length} functions by self time, of ${ms(top.busyMs)} busy:`,
  ];
  for (const f of top.functions) {
    const where = f.url ? `  ${shortUrl(f.url)}${f.line ? `:${f.line}` : ''}` : '';
    lines.push(`  ${ms(f.selfMs).padStart(9)}  ${pct(f.share, 1).padStart(6)}  ${f.name}${where}`);
  }
  // A profile sample carries a stack, not the request it served: the functions are every route's.
  if (route) lines.push(`  these are all routes' functions: a profile sample does not say which request it served (${heaviestRouteText(route)})`);
  return lines;
}

/**
 * The route the JavaScript verdict (or finding) names, or null.
 * @param {import('../base/result-types.js').Diagnosis|null|undefined} diagnosis
 */
function blockingRoute(diagnosis) {
  const all = [diagnosis?.verdict, ...(diagnosis?.findings ?? [])];
  return all.find((f) => f?.id === 'js-blocking' && f.figures?.route)?.figures?.route ?? null;
}

/**
 * A file URL under the current folder, relative (shorter and still clickable in most terminals).
 * @param {string} url
 */
function shortUrl(url) {
  const cwd = `file://${process.cwd()}/`;
  return url.startsWith(cwd) ? url.slice(cwd.length) : url;
}
