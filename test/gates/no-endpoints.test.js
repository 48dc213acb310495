// report --assert 'p99{GET /}<1s' on a result with no figure per endpoint (a run of one
// request, a compare): it failed "not measured (no endpoint 'GET /' in the result's mix; name
// one by its name or METHOD path)", of a result with no mix to name one from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { evaluateAssertions, gateFigures } from '../../src/analysis/assert-evaluate.js';
import { parseAssertion } from '../../src/plan/assert-expr.js';
import { formatAssertionLine } from '../../src/report/assert-text.js';

const fixture = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));

test('an endpoint filter on a run without --mix (the fixture: one request), or on a compare row, says the result has no figures per endpoint', () => {
  for (const name of ['run', 'compare']) {
    const outcomes = evaluateAssertions([parseAssertion('p99{GET /}<1s')], gateFigures(fixture(name)));
    assert.ok(outcomes.length > 0, name);
    for (const o of outcomes) {
      assert.deepEqual([o.pass, o.why], [false, 'no-endpoints'], name);
      assert.match(formatAssertionLine(o), /not measured \(the result has no figures per endpoint \(a run without --mix, or a compare row\): gate the whole, without the braces\)$/);
    }
  }
});
