/**
 * The type check of the gate (test/matrix.js runs `npm run typecheck`, scripts/typecheck.js: the
 * program of tsconfig.json as `tsc --noEmit -p tsconfig.json` checks it, before the tests) covers every file of src/ and bin/ without opting in, and no
 * file turns it off: errors are fixed in the JSDoc or the code, not silenced.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return jsFiles(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

const SOURCES = [...jsFiles(join(ROOT, 'src')), ...jsFiles(join(ROOT, 'bin')), ...jsFiles(join(ROOT, 'strategies'))].map((file) => ({
  file: relative(ROOT, file),
  text: readFileSync(file, 'utf8'),
}));

test('tsconfig.json checks every JavaScript file of src/, bin/ and strategies/, none left out', () => {
  const config = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8'));
  assert.equal(config.compilerOptions.checkJs, true, 'checkJs: a file is checked without // @ts-check');
  assert.equal(config.compilerOptions.noEmit, true);
  assert.deepEqual([...config.include].sort(), ['bin/**/*.js', 'src/**/*.js', 'strategies/**/*.js']);
  assert.equal(config.exclude, undefined, 'nothing under src/, bin/ or strategies/ is excluded');
  assert.equal(config.files, undefined);
  assert.ok(SOURCES.length > 100, `found ${SOURCES.length} files`);
});

test('no file turns the check off: no @ts-nocheck, no @ts-ignore, no // @ts-check opt-out', () => {
  const silenced = SOURCES.filter(({ text }) => /@ts-nocheck|@ts-ignore|^\/\/\s*@ts-check\s+false/m.test(text)).map((s) => s.file);
  assert.deepEqual(silenced, []);
});

test('every @ts-expect-error says why, on its own line', () => {
  const bare = SOURCES.flatMap(({ file, text }) =>
    text.split('\n')
      .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
      .filter(({ line }) => /@ts-expect-error/.test(line) && !/@ts-expect-error\s+\S.{10,}/.test(line))
      .map(({ at }) => at));
  assert.deepEqual(bare, []);
});

test('src/analysis/ and src/report/ are held to noImplicitAny and strictNullChecks, and npm run typecheck checks them', async () => {
  // Another folder may opt in (a line in STRICT_FOLDERS); none of these two may opt out.
  const { STRICT_FOLDERS, STRICT_OPTIONS, isStrict } = await import('../scripts/typecheck-strict.js');
  assert.ok(STRICT_FOLDERS.includes('src/analysis/') && STRICT_FOLDERS.includes('src/report/'), STRICT_FOLDERS.join(', '));
  assert.deepEqual(STRICT_OPTIONS, { noImplicitAny: true, strictNullChecks: true });
  assert.equal(isStrict('src/report/html/page.js'), true);
  assert.equal(isStrict('src/runner/run-engine.js'), false);
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
  assert.equal(scripts.typecheck, 'node scripts/typecheck.js');
  assert.match(readFileSync(join(ROOT, 'scripts', 'typecheck.js'), 'utf8'), /printStrictErrors\(\{ host, program \}\)/, 'scripts/typecheck.js runs the strict check after the plain one');
});
