/**
 * renderHtml(result): the self-contained HTML report of any result kind (run,
 * tune, compare, diagnose), as one string. Plain result in, document out.
 */
import { renderRunHtml } from './run-html.js';
import { renderTuneHtml } from './tune-html.js';
import { renderCompareHtml } from './compare-html.js';
import { renderDiagnoseHtml } from './diagnose-html.js';
import { withWords } from '../words.js';

const RENDERERS = { run: renderRunHtml, tune: renderTuneHtml, compare: renderCompareHtml, diagnose: renderDiagnoseHtml };

/**
 * @param {object} result a RunResult, TuneResult, CompareResult or DiagnoseResult
 * @param {{ baseline?: object }} [options] the --against result, for run and diagnose
 * @returns {string} the HTML document
 */
export function renderHtml(result, options = {}) {
  return RENDERERS[result.kind](withWords(result), options);
}
