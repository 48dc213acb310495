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
 * @param {object} result a RunResult, TuneResult, CompareResult or DiagnoseResult
 * @returns {object} the same result, with words where its kind has them (a new object; the input is not changed)
 */
export function withWords(result) {
  if (!result) return result;
  if (result.kind === 'diagnose' && result.diagnosis) return { ...result, diagnosis: wordDiagnosis(result.diagnosis) };
  if (result.kind === 'tune' && result.recommendation) return { ...result, recommendation: wordRecommendation(result.recommendation, sizeUnit(result.plan)) };
  return result;
}
