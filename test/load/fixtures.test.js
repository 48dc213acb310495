import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { isGone, startFixture } from './helpers.js';

const started = [];
after(async () => {
  await Promise.all(started.map((f) => f.stop()));
  for (const f of started) assert.ok(isGone(f.child.pid), `fixture ${f.child.pid} still running`);
});

async function start(name, args) {
  const fixture = await startFixture(name, args);
  started.push(fixture);
  return fixture;
}

for (const [name, args] of [
  ['hello.js', []],
  ['fixed-delay.js', ['--delay-ms', '20']],
  ['stall-once.js', []],
]) {
  test(`${name} prints its port, answers hi, exits on SIGTERM`, async () => {
    const fixture = await start(name, args);
    const response = await fetch(fixture.url);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'hi\n');
    fixture.child.kill('SIGTERM');
    const [code] = await once(fixture.child, 'exit');
    assert.equal(code, 0);
    assert.ok(isGone(fixture.child.pid));
  });
}

test('misbehave.js answers in its mode and exits when its stdin closes', async () => {
  const fixture = await start('misbehave.js', ['--mode', 'status-500']);
  const response = await fetch(fixture.url);
  assert.equal(response.status, 500);
  assert.equal(await response.text(), 'spawn nosuchcmd ENOENT\n');
  fixture.child.stdin.end();
  const [code] = await once(fixture.child, 'exit');
  assert.equal(code, 0);
});

test('misbehave.js rejects an unknown mode', async () => {
  await assert.rejects(startFixture('misbehave.js', ['--mode', 'nonsense']), /exited before/);
});
