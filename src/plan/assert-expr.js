/**
 * --assert expressions (CI gates, as k6's thresholds): 'p99<50ms', 'rps>=800',
 * 'errors=0', 'errors<=1%', 'blocked-in-spawn<30%', 'elu<0.9', 'rps-change>-5%'.
 * Pure: text in, a checked { metric, op, value, unit } out, or a UsageError that
 * names the expression and says what to write. The metrics, their kinds and the
 * comparisons they take come from the metric table (src/analysis/metrics.js);
 * evaluation is in src/analysis/assert-evaluate.js, the wording of results in
 * src/report/assert-text.js.
 */
import { UsageError } from '../base/errors.js';
import { METRICS, assertSpecs } from '../analysis/metrics.js';

/**
 * Every metric of the table, with the comparisons it takes and the kind of value it
 * compares. Latency and loop figures are ceilings, throughput a floor; a change is signed
 * (rps-change>-5%: no more than a 5% drop; p99-change<10%: no more than 10% slower).
 */
export const ASSERT_METRICS = Object.freeze(assertSpecs(METRICS));

const LATENCY_UNITS_MS = { us: 0.001, µs: 0.001, ms: 1, s: 1000 };
const EXAMPLES = "'p99<50ms', 'rps>=800', 'errors=0', 'errors<=1%', 'blocked-in-spawn<30%', 'elu<0.9', 'rps-change>-5%'";
const SHAPE = /^([a-z0-9-]+)\s*(<=|>=|<|>|=)\s*([+-]?\d+(?:\.\d+)?)\s*([a-zµ%/]*)$/i;

/**
 * @typedef {object} Assertion
 * @property {string} expr   the expression as written (trimmed)
 * @property {string} metric a metric of the table, or `<id>-change`
 * @property {'<'|'<='|'>'|'>='|'='} op
 * @property {number} value  in `unit`
 * @property {'ms'|'rps'|'count'|'%'|'fraction'} unit ms for latency, % for error shares and changes
 * @property {string} [endpoint] k6's tag filter: the mix endpoint it reads (`p99{GET /report}<50ms`: an entry's name or METHOD path)
 */

/**
 * Parses one --assert expression.
 * @param {string} text
 * @param {{ metrics?: string[], command?: string, table?: readonly import('../analysis/metrics.js').Metric[] }} [context]
 *   the metrics this command can measure; `table` the metric table (default: METRICS)
 * @returns {Assertion}
 * @throws {UsageError}
 */
export function parseAssertion(text, { metrics, command, table } = {}) {
  const specs = table ? assertSpecs(table) : ASSERT_METRICS;
  const expr = String(text).trim();
  const bad = (why) => new UsageError(`--assert '${expr}': ${why}`);
  // metric{endpoint}: the filter keeps its spaces ('GET /report'), the rest is read as without one.
  const filter = /^([a-z0-9-]+)\s*\{([^{}]*)\}(.*)$/i.exec(expr);
  const endpoint = filter ? filter[2].trim().replace(/\s+/g, ' ') : null;
  const match = SHAPE.exec((filter ? `${filter[1]}${filter[3]}` : expr).replace(/\s+/g, ''));
  // A comma inside a number (a thousands separator, 1,000; a decimal comma, 1,5ms) read as two gates in one.
  if (!match && /\d,\d/.test(expr) && !/,\s*[a-z]/i.test(expr)) {
    const fixed = expr.replace(/(?<=\d),(?=\d{3}(?!\d))/g, '').replace(/(\d),(\d)/g, '$1.$2').replace(/\s+/g, '');
    throw bad(`write a number without separators and with a point for decimals, like 1000 or 1.5 (e.g. ${fixed})`);
  }
  // Two gates in one (k6's thresholds take a list): one per flag.
  if (!match && /,|&&|\|\||\band\b/i.test(expr)) throw bad("one expression per --assert: repeat the flag, like --assert 'p99<50ms' --assert 'rps>=800'");
  // The summary prints p99.9; the metric is p999. A number that starts with its point (.5s) or a
  // double equals read as "not an assertion", which did not say what to change.
  if (!match && /^p99\.9(?![0-9])/i.test(expr)) throw bad(`the 99.9th percentile is written p999 (e.g. ${expr.replace(/^p99\.9/i, 'p999')})`);
  if (!match && /(<=|>=|<|>|=)\s*[+-]?\.\d/.test(expr)) throw bad(`write a leading 0 before the point (e.g. ${expr.replace(/(<=|>=|<|>|=)\s*([+-]?)\./, (_, op, sign) => `${op}${sign}0.`).replace(/\s+/g, '')})`);
  if (!match && /==/.test(expr)) throw bad(`compare with one '=' (e.g. ${expr.replace(/==/, '=').replace(/\s+/g, '')})`);
  // A typographic ≤ or ≥ (pasted from a document), or the comparison written the other way round (=<, =>).
  const ascii = expr.replace(/≤|=</, '<=').replace(/≥|=>/, '>=');
  if (!match && ascii !== expr) throw bad(`write the comparison as <= or >= (e.g. ${ascii.replace(/\s+/g, '')})`);
  if (!match) throw bad(`not an assertion; write metric, comparison and value, like ${EXAMPLES}`);
  const [, rawMetric, rawOp, number, rawUnit] = match;
  const op = /** @type {Assertion['op']} */ (rawOp);
  const metric = rawMetric.toLowerCase();
  const unitText = rawUnit.toLowerCase();
  const spec = specs[metric];
  if (!spec) throw bad(`unknown metric '${rawMetric}'; use one of ${Object.keys(specs).join(', ')}`);
  if (metrics && !metrics.includes(metric)) throw bad(`${command ?? 'this command'} does not measure ${metric}; it can assert ${metrics.join(', ')}`);
  if (endpoint !== null) {
    const perEndpoint = (table ?? METRICS).filter((m) => m.endpoint).map((m) => m.id);
    if (!perEndpoint.includes(metric)) throw bad(`${metric} has no figure per endpoint; filter one of ${perEndpoint.join(', ')}, like p99{GET /report}<50ms`);
    if (endpoint === '') throw bad('name the endpoint in the braces: its name in the mix, or METHOD path, like p99{GET /report}<50ms');
    const bare = `${metric}${op}${number}${rawUnit}`;
    try {
      return { ...parseAssertion(bare, { table }), expr, endpoint };
    } catch (error) {
      throw bad(error.message.replace(`--assert '${bare}': `, ''));
    }
  }
  if (!spec.ops.includes(op)) throw bad(`${metric} takes ${spec.ops.join(' or ')} (e.g. ${example(metric, spec)})`);
  const n = Number(number);
  if (spec.kind !== 'change' && n < 0) throw bad(`${metric} cannot be negative`);
  switch (spec.kind) {
    case 'latency': {
      // 'h' and 'm' are units of --duration, not of a latency: say so rather than ask for a unit given.
      if (unitText === '') throw bad(`give the duration a unit: us, ms or s (e.g. ${metric}${op}50ms)`);
      if (!(unitText in LATENCY_UNITS_MS)) throw bad(`'${rawUnit}' is not a unit of latency; use us, ms or s (e.g. ${metric}${op}50ms)`);
      return { expr, metric, op, value: n * LATENCY_UNITS_MS[unitText], unit: 'ms' };
    }
    case 'rps':
      if (unitText !== '' && unitText !== 'rps' && unitText !== '/s') throw bad(`${metric} is requests per second, a plain number (e.g. ${metric}${op}800)`);
      return { expr, metric, op, value: n, unit: 'rps' };
    case 'errors':
      if (unitText === '%') {
        if (n > 100) throw bad('a share of requests is at most 100%');
        return { expr, metric, op, value: n, unit: '%' };
      }
      if (unitText !== '' || !Number.isInteger(n)) throw bad(`${metric} takes a whole count or a share in % (e.g. ${metric}=0 or ${metric}<=1%)`);
      return { expr, metric, op, value: n, unit: 'count' };
    case 'fraction': {
      if (unitText === '%') {
        if (n > 100) throw bad(`${metric} is at most 100%`);
        return { expr, metric, op, value: n / 100, unit: 'fraction' };
      }
      if (unitText !== '' || n > 1) throw bad(`${metric} is a share: write 30% or 0.3`);
      return { expr, metric, op, value: n, unit: 'fraction' };
    }
    default:
      if (unitText !== '%') throw bad(`a change is in %, signed (e.g. ${example(metric, spec)})`);
      return { expr, metric, op, value: n, unit: '%' };
  }
}

/**
 * Parses every --assert given (commander collects repeats into a list).
 * @param {string[]|string|undefined} list
 * @param {{ metrics?: string[], command?: string }} [context]
 * @returns {Assertion[]}
 */
export function parseAssertions(list, context) {
  if (list === undefined) return [];
  return (Array.isArray(list) ? list : [list]).map((text) => parseAssertion(text, context));
}

function example(metric, spec) {
  if (spec.kind === 'latency') return `${metric}<50ms`;
  if (spec.kind === 'rps') return `${metric}>=800`;
  if (spec.kind === 'errors') return `${metric}=0`;
  if (spec.kind === 'fraction') return `${metric}<${metric === 'elu' ? '0.9' : '30%'}`;
  return spec.ops.includes('>') ? `${metric}>-5%` : `${metric}<10%`;
}
