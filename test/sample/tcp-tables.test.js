// /proc/net/tcp and tcp6 read as sockets: addresses decoded (IPv4, IPv6, IPv4-mapped), and
// only the lines a reader keeps decoded: after a load test the table holds thousands of
// sockets in TIME_WAIT, which neither the listening check nor the downstream count reads.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTcpTables, decodeEndpoint, TCP_LISTEN, TCP_ESTABLISHED } from '../../src/sample/proc.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-tcp-tables-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
const row = (sl, local, remote, state, inode) => `${String(sl).padStart(4)}: ${local} ${remote} ${state} 00000000:00000000 00:00000000 00000000     0        0 ${inode} 1 0000000000000000 100 0 0 10 0\n`;
writeFileSync(join(dir, 'tcp'), HEADER
  + row(0, '0100007F:1F90', '00000000:0000', TCP_LISTEN, 111)
  + row(1, '0100007F:C350', '0100007F:1538', TCP_ESTABLISHED, 222)
  + Array.from({ length: 500 }, (_, i) => row(i + 2, '0100007F:1F90', `0100007F:${(40000 + i).toString(16).toUpperCase()}`, '06', 0)).join(''));
writeFileSync(join(dir, 'tcp6'), HEADER
  + row(0, '00000000000000000000000000000000:0050', '00000000000000000000000000000000:0000', TCP_LISTEN, 333)
  + row(1, '0000000000000000FFFF00000100007F:1F91', '0000000000000000FFFF00000200007F:D431', TCP_ESTABLISHED, 444)
  + row(2, 'B80D01200000000000000000010000FE:0050', '00000000000000000000000001000000:0000', TCP_LISTEN, 555));

test('addresses as they are written: IPv4 dotted, IPv6 in groups, an IPv4-mapped address as its IPv4', () => {
  assert.deepEqual(decodeEndpoint('0100007F:1538'), { address: '127.0.0.1', port: 5432 });
  assert.deepEqual(decodeEndpoint('00000000000000000000000001000000:1F90'), { address: '::1', port: 8080 });
  assert.deepEqual(decodeEndpoint('0000000000000000FFFF00000100007F:1F91'), { address: '127.0.0.1', port: 8081 });
  assert.deepEqual(decodeEndpoint('B80D01200000000000000000010000FE:0050'), { address: '2001:db8::fe00:1', port: 80 });
});

test('every socket of both tables by default; with keep, only the lines kept are read', () => {
  assert.equal(readTcpTables(dir).length, 505);
  const listening = readTcpTables(dir, (state) => state === TCP_LISTEN);
  assert.deepEqual(listening.map((s) => [s.local.address, s.local.port, s.inode]), [['127.0.0.1', 8080, '111'], ['::', 80, '333'], ['2001:db8::fe00:1', 80, '555']]);
  const mine = readTcpTables(dir, (state, inode) => state === TCP_ESTABLISHED && ['222', '444'].includes(inode));
  assert.deepEqual(mine.map((s) => `${s.local.address}:${s.local.port} → ${s.remote.address}:${s.remote.port}`), ['127.0.0.1:50000 → 127.0.0.1:5432', '127.0.0.1:8081 → 127.0.0.2:54321']);
});

test('with states, rows in other states are skipped before keep sees them, and the same sockets come back', () => {
  const wide = mkdtempSync(join(tmpdir(), 'spawnbench-tcp-tables-wide-'));
  try {
    // Row numbers past 9999 widen the first column; a row laid out otherwise falls back to splitting it.
    writeFileSync(join(wide, 'tcp'), HEADER
      + row(9999, '0100007F:1F90', '0100007F:9C40', '06', 0)
      + row(10000, '0100007F:1F92', '00000000:0000', TCP_LISTEN, 666)
      + row(10001, '0100007F:C351', '0100007F:1538', TCP_ESTABLISHED, 777)
      + row(10002, '0100007F:1F90', '0100007F:9C41', '06', 0)
      + row(10003, '0100007F:1F93', '00000000:0000', TCP_LISTEN, 888).replace(': ', ':  '));
    for (const where of [dir, wide]) {
      const calls = [];
      const keep = (state, inode) => { calls.push(state); return state === TCP_LISTEN || inode === '777' || inode === '222'; };
      const picked = readTcpTables(where, keep, new Set([TCP_LISTEN, TCP_ESTABLISHED]));
      assert.deepEqual(picked, readTcpTables(where, (state, inode) => [TCP_LISTEN, TCP_ESTABLISHED].includes(state) && keep(state, inode)));
      assert.ok(calls.length > 0 && calls.every((state) => state === TCP_LISTEN || state === TCP_ESTABLISHED), `keep saw ${calls.length} rows, states ${[...new Set(calls)].join(', ')}`);
    }
    assert.deepEqual(readTcpTables(wide, () => true, new Set([TCP_LISTEN])).map((s) => s.inode), ['666', '888']);
    assert.equal(readTcpTables(dir, () => true, new Set([TCP_LISTEN])).length, 3);
  } finally {
    rmSync(wide, { recursive: true, force: true });
  }
});
