import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanText, createTextCounter, firstLine } from '../src/base/untrusted-text.js';

test('cleanText strips escape sequences and control characters, keeps markup as text', () => {
  assert.equal(cleanText('\u001b[31mred\u001b[0m \u001b]0;title\u0007x\ty\u0000z\u009b2J'), 'red x yz');
  assert.equal(cleanText('<script>alert(1)</script>'), '<script>alert(1)</script>');
  assert.equal(cleanText('  padded \r\n'), 'padded');
});

test('cleanText cuts at a byte limit between characters', () => {
  const cut = cleanText('é'.repeat(150), 201);
  assert.equal(cut, 'é'.repeat(100));
  assert.equal(Buffer.byteLength(cleanText('x'.repeat(10_000))), 200);
});

test('firstLine stops at LF or CR', () => {
  assert.equal(firstLine(Buffer.from('sorry, too many clients already\nmore')), 'sorry, too many clients already');
  assert.equal(firstLine(Buffer.from('a\rb')), 'a');
  assert.equal(firstLine(Buffer.from('abcdef'), 3), 'abc');
});

test('a text counter keeps the first few distinct texts and counts the rest, most frequent first', () => {
  const counter = createTextCounter({ maxTexts: 2 });
  for (let i = 0; i < 1000; i++) counter.add(`id ${i}`);
  counter.add('id 1');
  const { texts, other, total } = counter.snapshot();
  assert.deepEqual(texts, [{ text: 'id 1', count: 2 }, { text: 'id 0', count: 1 }]);
  assert.equal(other, 998);
  assert.equal(total, 1001);
  const merged = createTextCounter({ maxTexts: 2 });
  merged.merge(counter.snapshot());
  assert.deepEqual(merged.snapshot(), { texts, other, total });
});

test('stderr lines: counted by text during the measured phase only, frames left out, each cut to 200 bytes, memory bounded', async () => {
  const { createStderrLines } = await import('../src/runner/stderr-lines.js');
  const lines = createStderrLines();
  lines.add('before the measured phase');
  lines.start();
  for (let i = 0; i < 3; i++) lines.add('\u001b[31merror: sorry, too many clients already\u001b[0m');
  lines.add('    at Pool.connect (pool.js:1:1)');
  lines.add('');
  lines.add('y'.repeat(100_000));
  for (let i = 0; i < 500; i++) lines.add(`request ${i} failed`);
  lines.stop();
  lines.add('after');
  const { lines: kept, other, total } = lines.snapshot();
  assert.deepEqual(kept[0], { text: 'error: sorry, too many clients already', count: 3 });
  assert.equal(kept.length, 50);
  assert.equal(total, 504);
  assert.equal(other, 504 - kept.reduce((s, l) => s + l.count, 0));
  assert.ok(kept.every((l) => Buffer.byteLength(l.text) <= 200));
  assert.ok(!kept.some((l) => /before|after|at Pool/.test(l.text)));
});
