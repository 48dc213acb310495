/**
 * Open loop: requests are due at a constant rate whatever the server does, and
 * each one's latency counts from when it was due, not from when a connection was
 * free to send it (wrk2's answer to coordinated omission).
 *
 * The `connections` are the pool requests go out on, one in flight each. When a
 * request falls due and every connection is busy (or still connecting), it waits
 * in a FIFO queue and goes out on the next connection to free up; its wait is part
 * of its latency, and it is counted in `missed` if it went out more than
 * LATE_SLACK_MS late. Requests still queued when the run ends are counted in
 * `missed` too. Give the pool enough connections (rate × expected latency) to keep
 * `missed` at zero.
 */
import { performance } from 'node:perf_hooks';
import { LATE_SLACK_MS } from '../base/thresholds.js';

export { LATE_SLACK_MS };

/** The longest delay setTimeout keeps (2^31 - 1 ms); a longer one fires after 1 ms, with a warning each time. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class OpenLoop {
  /**
   * @param {{ canIssue(): boolean, issue(): void, generationAt(t: number): number, generation(): number,
   *   running(): boolean, missed(generation: number): void }} run
   * @param {number} ratePerSec this thread's share of the rate
   * @param {number} offsetMs this thread's phase in the shared schedule (threads interleave)
   */
  constructor(run, ratePerSec, offsetMs) {
    this.run = run;
    this.intervalMs = 1000 / ratePerSec;
    this.offsetMs = offsetMs;
    this.idle = [];
    this.t0 = 0;
    this.next = 0; // index of the next request to fall due
    this.queueStart = 0; // due but unsent requests are the indices [queueStart, queueEnd)
    this.queueEnd = 0;
    this.timer = null;
  }

  dueAt(index) {
    return this.t0 + index * this.intervalMs;
  }

  onIdle(conn, now) {
    if (this.queueStart < this.queueEnd) {
      this.sendQueued(conn, now);
    } else if (!conn.idleListed) {
      conn.idleListed = true;
      this.idle.push(conn);
    }
  }

  start(now) {
    this.t0 = now + this.offsetMs;
    this.idle = this.idle.filter((conn) => {
      conn.idleListed = conn.connected && !conn.inFlight;
      return conn.idleListed;
    });
    this.schedule(now);
  }

  schedule(now) {
    if (!this.run.running()) return;
    // At --rate 1e-9 the next request is due in 1e12 ms: unclamped, the timer fired every millisecond
    // (a TimeoutOverflowWarning each time, a core kept busy) and sent nothing. Clamped, it wakes early and waits again.
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, this.dueAt(this.next) - now));
    this.timer = setTimeout(() => this.fire(), delay);
  }

  fire() {
    this.timer = null;
    const run = this.run;
    const now = performance.now();
    while (this.dueAt(this.next) <= now && run.canIssue()) {
      run.issue();
      if (this.queueStart === this.queueEnd && this.idle.length > 0) {
        const conn = this.idle.pop();
        conn.idleListed = false;
        if (conn.connected && !conn.inFlight) {
          const due = this.dueAt(this.next);
          // Sent at once on an idle connection: any lateness is this thread's timer (a busy machine), not the
          // pool. Counted as missed, it read "all 10 connections were busy; raise --connections" at 2 req/s.
          this.sendAt(conn, due, now, false);
          this.next++;
          continue;
        }
      }
      if (this.queueStart === this.queueEnd) this.queueStart = this.next;
      this.queueEnd = this.next + 1;
      this.next++;
    }
    if (run.canIssue()) this.schedule(now);
  }

  sendQueued(conn, now) {
    const due = this.dueAt(this.queueStart++);
    this.sendAt(conn, due, now);
  }

  /**
   * @param {boolean} [queued] it waited in the queue for a connection: late, it counts in `missed`
   */
  sendAt(conn, due, now, queued = true) {
    const generation = this.run.generationAt(due);
    if (queued && now - due > LATE_SLACK_MS) this.run.missed(generation);
    conn.send(due, now, generation);
  }

  /**
   * Drops the queued requests that fell due before `t` (the warm-up's end): far beyond what
   * the server answers, the warm-up leaves a backlog (2 million at --rate 1000000 over 2 s)
   * that would take the whole measured phase, every response to a warm-up request, none counted.
   * @param {number} t
   */
  dropDueBefore(t) {
    while (this.queueStart < this.queueEnd && this.dueAt(this.queueStart) < t) this.queueStart++;
  }

  /** Requests of the measured phase that fell due but were never sent. */
  unsent() {
    let count = 0;
    for (let i = this.queueStart; i < this.queueEnd; i++) {
      if (this.run.generationAt(this.dueAt(i)) === this.run.generation()) count++;
    }
    return count;
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.idle = [];
  }
}
