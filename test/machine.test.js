// The machine line's CPU facts: systeminformation is asked once per boot, its answer
// kept in the temp dir under the boot id; a new boot asks again; a failure is no facts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuFacts, readMachine } from '../src/machine/machine.js';

test('CPU facts are read once per boot and kept in the temp dir', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-machine-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  let asked = 0;
  const read = async () => {
    asked++;
    return { manufacturer: 'Acme', brand: `Core ${asked}`, physicalCores: 4, speed: 3.1 };
  };
  assert.deepEqual(await cpuFacts({ read, dir, bootId: 'boot-a' }), { manufacturer: 'Acme', brand: 'Core 1', physicalCores: 4 });
  assert.deepEqual(await cpuFacts({ read, dir, bootId: 'boot-a' }), { manufacturer: 'Acme', brand: 'Core 1', physicalCores: 4 });
  assert.equal(asked, 1, 'the second read came from the file');
  assert.equal((await cpuFacts({ read, dir, bootId: 'boot-b' })).brand, 'Core 2', 'a new boot asks again');
  assert.equal(await cpuFacts({ read: async () => { throw new Error('no lscpu'); }, dir, bootId: 'boot-c' }), null);
  assert.equal((await cpuFacts({ read, dir, bootId: null })).brand, 'Core 3', 'without a boot id nothing is kept');
  assert.deepEqual(readdirSync(dir).sort(), [`spawnbench-machine-${process.getuid()}-boot-a.json`, `spawnbench-machine-${process.getuid()}-boot-b.json`]);
});

test('the machine line has its facts', async () => {
  const machine = await readMachine();
  assert.ok(machine.cpuModel.length > 0);
  assert.ok(machine.cores >= 1 && machine.cpu.budget > 0);
});

test('a kept file of the wrong shape is not believed: systeminformation is asked again and the file replaced', async (t) => {
  const { writeFileSync, readFileSync } = await import('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-machine-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, `spawnbench-machine-${process.getuid()}-boot-x.json`);
  writeFileSync(file, JSON.stringify({ brand: { html: '<script>' }, physicalCores: -3 }));
  const read = async () => ({ manufacturer: 'Acme', brand: 'Core', physicalCores: 2 });
  assert.deepEqual(await cpuFacts({ read, dir, bootId: 'boot-x' }), { manufacturer: 'Acme', brand: 'Core', physicalCores: 2 });
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { manufacturer: 'Acme', brand: 'Core', physicalCores: 2 });
});

test('a kept file another user owns is not believed', { skip: process.getuid?.() !== 0 ? 'giving a file to another user needs root' : false }, async (t) => {
  const { writeFileSync, chownSync } = await import('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-machine-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, `spawnbench-machine-${process.getuid()}-boot-y.json`);
  writeFileSync(file, JSON.stringify({ manufacturer: 'Planted', brand: 'Fake', physicalCores: 64 }));
  chownSync(file, 65534, 65534);
  let asked = 0;
  const read = async () => ({ manufacturer: 'Acme', brand: `Core ${++asked}`, physicalCores: 2 });
  assert.equal((await cpuFacts({ read, dir, bootId: 'boot-y' })).brand, 'Core 1');
  assert.equal(asked, 1);
});
