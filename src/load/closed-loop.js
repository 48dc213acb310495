/**
 * Closed loop: every connection sends its next request as soon as the previous
 * response arrived. Throughput is whatever the server gives back; a server stall
 * shows as one slow request per connection (the generator waits with it).
 */
export class ClosedLoop {
  /**
   * @param {{ canIssue(): boolean, issue(): void, generation(): number, running(): boolean }} run
   */
  constructor(run) {
    this.run = run;
    /** Connected sockets waiting for 'go' (or for a ticket in requests mode). */
    this.idle = [];
  }

  /** A connection is ready for its next request. */
  onIdle(conn, now) {
    const run = this.run;
    if (run.running() && run.canIssue()) {
      run.issue();
      conn.send(now, now, run.generation());
    } else if (!conn.idleListed) {
      conn.idleListed = true;
      this.idle.push(conn);
    }
  }

  /** Starts sending on every connection already connected. */
  start(now) {
    const waiting = this.idle;
    this.idle = [];
    for (const conn of waiting) {
      conn.idleListed = false;
      if (conn.connected && !conn.inFlight) this.onIdle(conn, now);
    }
  }

  /** Drops queued requests due before `t` (none queue in a closed loop). */
  dropDueBefore() {}

  /** Requests due but never sent (none in a closed loop). */
  unsent() {
    return 0;
  }

  stop() {
    this.idle = [];
  }
}
