/**
 * A result with its words filled in: the analysis returns ids and figures
 * (src/analysis/), and this adds the sentences the --json output has always
 * carried (diagnose's title/evidence/next/notSeen, tune's sentences and
 * bottleneck text). Called where a command or the API hands a result out, so
 * engines never import wording and the import graph stays one-way.
 */
import { wordDiagnosis } from './diagnose-words.js';
import { wordRecommendation, sizeUnit } from './tune-words.js';

/**
 * @template {import('../base/result-types.js').Result|null|undefined} R
 * @param {R} result a RunResult, TuneResult, CompareResult or DiagnoseResult
 * @returns {R} the same result, with words where its kind has them (a new object; the input is not changed)
 */
export function withWords(result) {
  if (!result) return result;
  if (result.kind === 'diagnose' && result.diagnosis) return { ...result, diagnosis: wordDiagnosis(result.diagnosis) };
  // A tune result's recommendation is recommend()'s (src/analysis/recommend.js), typed loosely in the result types.
  if (result.kind === 'tune' && result.recommendation) return { ...result, recommendation: wordRecommendation(/** @type {import('../analysis/recommend.js').Recommendation} */ (result.recommendation), sizeUnit(result.plan)) };
  return result;
}
