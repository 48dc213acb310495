/**
 * The HTML report of a diagnose: the verdict with its evidence and next steps,
 * other findings and what could not be seen, then the figures behind it over
 * time (load, latency, each process), the latency distribution, the process
 * table and the CPU profile's top functions.
 */
import { esc } from './svg.js';
import { document, section, table, textBlock } from './page.js';
import { loadOverTime, latencyPlot, processesOverTime, processTable, againstSection, assertionsSection, notesSection, machineLine, reasonsSection } from './parts.js';
import { formatDiagnose, describeDiagnoseTarget } from '../diagnose-text.js';
import { headline, footer, endpointsTable } from './run-html.js';
import { ms, pct } from '../text-format.js';

/**
 * @param {import('../../base/result-types.js').DiagnoseResult} result DiagnoseResult
 * @param {{ baseline?: { load?: { histogram?: string } } }} [options]
 * @returns {string}
 */
export function renderDiagnoseHtml(result, { baseline } = {}) {
  const text = formatDiagnose(result);
  const lines = text.split('\n');
  const body = [
    diagnosisSection(result.diagnosis),
    headline(result),
    assertionsSection(result.assertions),
    againstSection(result.against),
    section('Endpoints', endpointsTable(result.load ?? {})),
    section('Load', loadOverTime(result.load)),
    section('Latency distribution', latencyPlot(result.load, baseline)),
    section('Processes over time', processesOverTime(result.samples)),
    section('Processes', processTable(result.samples)),
    reasonsSection(result),
    cpuProfileSection(result.cpuProfile),
    notesSection(result),
    section('Summary as text', textBlock('the summary spawnbench printed', text)),
  ];
  return document({
    title: `spawnbench diagnose · ${describeDiagnoseTarget(result)}`,
    subtitle: [lines[1], machineLine(result.machine)].filter(Boolean),
    body: body.join('\n'),
    footer: footer(result),
  });
}

/** @param {import('../../base/result-types.js').DiagnoseFinding} f a finding in words */
function findingHtml(f) {
  const where = f.where ? ` <span class="meta">(${esc(f.where)})</span>` : '';
  const evidence = f.evidence?.length ? `<ul>${f.evidence.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>` : '';
  const next = f.next?.length ? `<p><strong>Next:</strong></p><ul>${f.next.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : '';
  return `<h3>${esc(f.title)}${where}</h3>${evidence}${next}`;
}

/** @param {import('../../base/result-types.js').Diagnosis|undefined} diagnosis in words (renderHtml() words it) */
function diagnosisSection(diagnosis) {
  if (!diagnosis?.verdict) return '';
  const ok = diagnosis.verdict.id === 'healthy';
  const parts = [`<div class="verdict${ok ? ' ok' : ''}">${findingHtml(diagnosis.verdict)}</div>`];
  if (diagnosis.findings?.length) parts.push(`<h3>Also found</h3>${diagnosis.findings.map((f) => `<div class="verdict">${findingHtml(f)}</div>`).join('')}`);
  if (diagnosis.notSeen?.length) parts.push(`<h3>Not seen</h3><ul>${diagnosis.notSeen.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`);
  return section('Verdict', parts.join(''));
}

/** @param {import('../../base/result-types.js').CpuProfileSummary|null|undefined} profile */
function cpuProfileSection(profile) {
  if (!profile) return '';
  if (!profile.top) return section('CPU profile', `<p>None written in ${esc(profile.dir)} (the server was not a Node.js process, or it was killed before it could save one).</p>`);
  const rows = profile.top.functions.map((f) => [ms(f.selfMs), pct(f.share, 1), f.name || '(anonymous)', f.url ? `${f.url}${f.line ? `:${f.line}` : ''}` : '']);
  return section('CPU profile: top functions by self time', `<p>${esc(profile.top.file)}, ${esc(ms(profile.top.busyMs))} busy; open it in Chrome DevTools (Performance → Load profile) or VS Code for the flame graph.</p>${table(['self time', 'share', 'function', 'where'], rows, { textColumns: [2, 3] })}`);
}
