// The new flags are documented where users look: --help of tune and compare, and the docs
// (docs/own-server.md, which the README links to).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli } from './helpers.js';
import { allDocs, docPage } from '../helpers/docs.js';

const README = allDocs();

test('tune --help and compare --help name the own-server flags; the docs document each', async () => {
  const tune = await cli('tune', '--help');
  assert.equal(tune.code, 0);
  for (const flag of ['--size-env', '--policy-env', '--port', '--path', '{size}', '{policy}']) {
    assert.ok(tune.out.includes(flag), `tune --help mentions ${flag}`);
    assert.ok(README.includes(`\`${flag}`), `README documents ${flag}`);
  }
  const compare = await cli('compare', '--help');
  assert.equal(compare.code, 0);
  for (const flag of ['--command', '--port', '--path']) assert.ok(compare.out.includes(flag), `compare --help mentions ${flag}`);
  assert.ok(README.includes('`--command name=<command line>`'));
  assert.match(docPage('own-server.md'), /^## Tune your own server$/m);
});
