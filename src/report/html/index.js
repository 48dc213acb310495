/**
 * renderHtml(result): the self-contained HTML report of any result kind (run,
 * tune, compare, diagnose), as one string. Plain result in, document out.
 */
import { renderRunHtml } from './run.js';
import { renderTuneHtml } from './tune.js';
import { renderCompareHtml } from './compare.js';
import { renderDiagnoseHtml } from './diagnose.js';
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
