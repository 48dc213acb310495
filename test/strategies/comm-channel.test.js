// comm-channel's own parts: the frame format, survived at every chunk boundary, and
// where each runtime pairing's channel lives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { statSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, basename } from 'node:path';
import { createFrameReader, writeFrame, exitData, STDOUT, STDERR, EXIT, SPAWN_ERROR, HEADER_BYTES } from '../../strategies/comm-channel/frames.js';
import { planChannels, libuvPadsAbstractNames } from '../../strategies/comm-channel/channel-address.js';

function encode(frames) {
  const out = new PassThrough();
  const chunks = [];
  out.on('data', (c) => chunks.push(c));
  for (const [id, type, data] of frames) writeFrame(out, id, type, data);
  return Buffer.concat(chunks);
}

const FRAMES = [
  [1, STDOUT, Buffer.from('hi\n')],
  [4294967295, STDERR, Buffer.from('warning')],
  [2, STDOUT, Buffer.alloc(70_000, 7)],
  [1, EXIT, exitData(0)],
  [3, SPAWN_ERROR, Buffer.from('spawn nosuchcmd ENOENT')],
  [2, EXIT, exitData(null)],
];

test('frames are [id u32][type u8][length u32][data]', () => {
  const bytes = encode([[258, STDOUT, Buffer.from('ab')]]);
  assert.deepEqual([...bytes], [0, 0, 1, 2, STDOUT, 0, 0, 0, 2, 97, 98]);
  assert.equal(HEADER_BYTES, 9);
});

test('the reader gives back every frame whatever the chunking', () => {
  const bytes = encode(FRAMES);
  for (const size of [1, 2, 5, 9, 10, 4096, 65536, bytes.length]) {
    const got = [];
    const read = createFrameReader((id, type, data) => got.push([id, type, Buffer.from(data)]));
    for (let i = 0; i < bytes.length; i += size) read(bytes.subarray(i, i + size));
    assert.deepEqual(got, FRAMES, `chunks of ${size}`);
  }
  assert.equal(exitData(null).readInt32BE(0), -1);
});

test('channels are abstract where both runtimes spell the name alike, files otherwise', () => {
  const node = planChannels('node', 'node').address(0, 1);
  assert.match(node.listen, /^\0spawnbench-comm-\d+-[0-9a-f]{12}-0-1$/);
  assert.equal(node.connect, node.listen);
  const deno = planChannels('node', 'deno').address(1, 2);
  // A Node on libuv < 1.48 (Node 20) pads abstract names to the whole sun_path; later ones do not.
  assert.equal(deno.connect.length, libuvPadsAbstractNames() ? 108 : deno.listen.length);
  assert.equal(deno.connect.replace(/\0+$/, ''), deno.listen);
  assert.equal(planChannels('bun', 'bun').abstract, true);
  assert.equal(planChannels('bun', 'deno').abstract, true);
  assert.equal(planChannels('node', 'bun').abstract, !libuvPadsAbstractNames());
  const files = libuvPadsAbstractNames() ? [['node', 'bun'], ['bun', 'node']] : [['bun', 'node']];
  for (const [main, worker] of files) {
    const plan = planChannels(main, worker);
    assert.equal(plan.abstract, false);
    const { listen, connect } = plan.address(0, 1);
    assert.equal(listen, connect);
    assert.match(listen, /spawnbench-comm-\d+-.*\/0-1\.sock$/);
    // Only this user may even connect to a socket file: its directory is 0700.
    assert.equal(statSync(dirname(listen)).mode & 0o777, 0o700);
    plan.cleanup();
  }
});

test('socket files in the run\'s directory get a short name; a path longer than sun_path is refused up front, naming TMPDIR', () => {
  const run = mkdtempSync(join(tmpdir(), 'spawnbench-run-'));
  try {
    const plan = planChannels('bun', 'node', run);
    const { listen } = plan.address(3, 12);
    assert.equal(dirname(dirname(listen)), run);
    assert.match(basename(dirname(listen)), /^comm-\w{6}$/);
    assert.equal(basename(listen), '3-12.sock');
    plan.cleanup();
    // 108 bytes of sun_path hold 107 and a NUL: under this base the longest path is 108 bytes.
    const long = join(run, 'x'.repeat(108 - run.length - '/'.length - '/comm-XXXXXX/9999-9999999.sock'.length));
    assert.throws(() => planChannels('bun', 'node', long), (error) => {
      assert.match(error.message, /^comm-channel: a bun main with node workers needs socket files/);
      assert.match(error.message, /108 bytes, over the 107 Linux allows; set TMPDIR to a shorter directory/);
      assert.doesNotMatch(error.message, /\n/);
      return true;
    });
    const fits = long.slice(0, -1);
    assert.equal(planChannels('bun', 'node', fits).abstract, false);
    // Abstract names have no directory: a long TMPDIR does not matter to them.
    assert.equal(planChannels('bun', 'bun', long).abstract, true);
  } finally {
    rmSync(run, { recursive: true, force: true });
  }
});

test('libuv 1.48 gave abstract names their exact length', () => {
  assert.equal(libuvPadsAbstractNames('1.46.0'), true);
  assert.equal(libuvPadsAbstractNames('1.47.9'), true);
  assert.equal(libuvPadsAbstractNames('1.48.0'), false);
  assert.equal(libuvPadsAbstractNames('1.51.0'), false);
});
