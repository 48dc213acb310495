// Node writes a --cpu-prof profile as the server exits and, on a full disk, fails without a word:
// diagnose then said "none written … (the server was not a Node.js process, or it was killed
// before it could save one)" of a Node server on a full tmpfs. With no profile, the folder's
// free space is kept (cpuProfile.freeBytes), and a folder short of room is named as the cause.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCpuProfile } from '../../src/report/diagnose-text.js';
import { CPU_PROFILE_ROOM_BYTES } from '../../src/base/thresholds.js';

test('no profile written in a folder whose disk is full: the full disk is named, with what to do', () => {
  assert.deepEqual(formatCpuProfile({ dir: '/mnt/small/prof', files: [], top: null, freeBytes: 0 }), [
    'CPU profile: none written in /mnt/small/prof: its disk has 0 B free, likely too little to save one; give --cpu-prof-dir a folder on a disk with room',
  ]);
});

test('no profile written with room on the disk (or unread, or a result from before): the old reasons', () => {
  for (const freeBytes of [CPU_PROFILE_ROOM_BYTES * 10, null, undefined]) {
    assert.deepEqual(formatCpuProfile({ dir: '/tmp/prof', files: [], top: null, freeBytes }), [
      'CPU profile: none written in /tmp/prof (the server was not a Node.js process, or it was killed before it could save one)',
    ]);
  }
});
