import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';

// chalk (Ink's colouring) decides its colour level when first imported: force colour
// before Ink loads so this file can see what the dashboard colours, and what NO_COLOR removes.
process.env.FORCE_COLOR = '1';

/** An SGR colour code (30–37 foreground, 90–97 bright): what NO_COLOR must remove. */
const COLOUR = /\u001B\[(3[0-7]|9[0-7])m/;

describe('colour', () => {
  let h;
  let frame;
  let Errors;
  let Dashboard;
  let fixtures;
  before(async () => {
    h = (await import('react')).default.createElement;
    ({ frame } = await import('./render-helpers.js'));
    ({ Errors } = await import('../../src/ui/components/errors-panel.js'));
    ({ Dashboard } = await import('../../src/ui/components/dashboard.js'));
    fixtures = await import('./fixtures.js');
  });

  it('marks errors red when colour is on', () => {
    const text = frame(h(Errors, { tick: fixtures.makeTick({ errors: true }) }), 80);
    assert.match(text, /\u001B\[31m/);
  });

  it('draws no colour at all with NO_COLOR, and keeps the words that carry the meaning', () => {
    const state = fixtures.makeState({ workers: 4, errors: true, generatorPct: 95 });
    const text = frame(h(Dashboard, { state, columns: 80, rows: 24, keys: true }), 80, { color: false });
    assert.doesNotMatch(text, COLOUR);
    assert.match(text, /! errors 12/);
    assert.match(text, /! results may be limited by the load generator/);
  });
});
