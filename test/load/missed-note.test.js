import { test } from 'node:test';
import assert from 'node:assert/strict';
import { missedNote } from '../../src/load/notes.js';

const measured = (missed, requests, connect) => ({ missed, requests, errors: { connect } });

test('requests late because connects failed (a server that closed its listener mid-run) are not blamed on busy connections', () => {
  // A server that called server.close() after 1.5 s of a 2 s run at 20 req/s over 10 connections:
  // 13 connects refused, 13 requests late; it read "all 10 connections were busy; raise --connections".
  const note = missedNote(measured(13, 28, 13), { rate: 20, connections: 10, seconds: 2 });
  assert.match(note ?? '', /13 failed connects/);
  assert.doesNotMatch(note ?? '', /were busy|raise --connections/);
});

test('requests late on busy connections still say to raise --connections; a rate far beyond the answers says to lower it', () => {
  assert.match(missedNote(measured(20, 400, 0), { rate: 200, connections: 2, seconds: 2 }) ?? '', /all 2 connections were busy; raise --connections/);
  assert.match(missedNote(measured(20, 400, 1), { rate: 200, connections: 2, seconds: 2 }) ?? '', /all 2 connections were busy/);
  assert.match(missedNote(measured(900, 100, 0), { rate: 1000, connections: 2, seconds: 1 }) ?? '', /far beyond what was answered \(100 req\/s\)/);
  assert.equal(missedNote(measured(0, 100, 5), { rate: 100, connections: 2, seconds: 1 }), null);
  // pbkdf2 at --rate 400 with its cores full answered 287 req/s: more connections only queue on a server at its limit.
  const short = missedNote(measured(957, 862, 0), { rate: 400, connections: 200, seconds: 3 }) ?? '';
  assert.equal(short, '957 requests could not be sent on time: all 200 connections were busy, and 287 req/s of the 400 offered were answered; raise --connections if the server has room, else lower --rate');
});

test('requests late because the server stopped answering do not say to lower --rate or raise --connections', () => {
  // A server whose loop a `for (;;)` held: "the open loop at 50 req/s is far beyond what was answered (15 req/s) ... lower --rate".
  const note = missedNote(measured(82, 44, 0), { rate: 50, connections: 25, seconds: 3, stalled: true }) ?? '';
  assert.match(note, /82 requests could not be sent on time: the server stopped answering/);
  assert.doesNotMatch(note, /--rate|--connections/);
});
