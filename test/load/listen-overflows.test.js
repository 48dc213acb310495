// Requests left unanswered at -c 10000 while the server answered others were blamed on "a worker that died with them, a
// connection it stopped reading": they waited on connections the server had not accepted yet, its accept queue full
// (the host's TcpExt ListenOverflows rose 30,732 during the run; with listen()'s backlog at 4096 none were left).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseListenOverflows, readListenOverflows, lostNote } from '../../src/load/listen-overflows.js';

const NETSTAT = [
  'TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops TCPTimeouts',
  'TcpExt: 25052 109912 209430 209431 7',
  'IpExt: InNoRoutes InTruncatedPkts',
  'IpExt: 0 0',
].join('\n');

test('ListenOverflows is read from /proc/net/netstat by its column name', () => {
  assert.equal(parseListenOverflows(NETSTAT), 209430);
  assert.equal(parseListenOverflows('IpExt: A\nIpExt: 1\n'), null);
  assert.equal(parseListenOverflows('TcpExt: ListenOverflows\nTcpExt: x\n'), null);
  const now = readListenOverflows();
  assert.ok(now === null || (Number.isInteger(now) && now >= 0), String(now));
});

test('requests lost while the accept queue overflowed name the backlog and the connections, not a dead worker', () => {
  const note = lostNote({ count: 4211, oldestMs: 2000 }, 30732, 10000);
  assert.match(note, /^4211 requests were still unanswered when the run ended, the oldest after 2\.0 s, while the server kept answering others: a listening socket's accept queue overflowed 30732 times during the load/);
  assert.match(note, /larger backlog .*fewer than 10000 --connections, and the figures leave them out$/);
  assert.doesNotMatch(note, /worker that died/);
  // No overflow counted (or not read): lost by the server, as before.
  // Fewer overflows than lost requests (another program's socket: the count is host-wide) do not explain them either.
  assert.match(lostNote({ count: 40, oldestMs: 1500 }, 3, 30), /: it lost them \(a worker that died/);
  for (const overflows of [0, null]) {
    assert.equal(lostNote({ count: 1, oldestMs: 1500 }, overflows, 30), '1 request was still unanswered when the run ended, the oldest after 1.5 s, while the server kept answering others: it lost it (a worker that died with it, a connection it stopped reading), and the figures leave it out');
  }
});
