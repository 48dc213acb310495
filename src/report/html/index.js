/**
 * renderHtml(result): the self-contained HTML report of any result kind (run,
 * tune, compare, diagnose), as one string. Plain result in, document out.
 */
import { renderRunHtml } from './run-html.js';
import { renderTuneHtml } from './tune-html.js';
import { renderCompareHtml } from './compare-html.js';
import { renderDiagnoseHtml } from './diagnose-html.js';
import { withWords } from '../words.js';

/**
 * Each kind's renderer, called with a result of its kind (renderHtml() picks by `kind`).
 * @type {Record<string, (result: any, options: { baseline?: { load?: { histogram?: string } } }) => string>}
 */
const RENDERERS = { run: renderRunHtml, tune: renderTuneHtml, compare: renderCompareHtml, diagnose: renderDiagnoseHtml };

/**
 * @param {import('../../base/result-types.js').Result} result a RunResult, TuneResult, CompareResult or DiagnoseResult
 * @param {{ baseline?: { load?: { histogram?: string } } }} [options] the --against result, for run and diagnose
 * @returns {string} the HTML document
 */
export function renderHtml(result, options = {}) {
  return RENDERERS[result.kind](withWords(result), options);
}
