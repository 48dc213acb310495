/**
 * Two kinds of failure, two exit codes: a usage error (a bad flag or value: the
 * user can fix the command line) exits 2, a runtime failure (the server would not
 * start, a file could not be read) exits 1, so scripts can tell them apart. Both
 * carry a one-line message that says what to do.
 */
export class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UsageError';
    this.exitCode = 2;
  }
}

export class RunError extends Error {
  /**
   * @param {string} message
   * @param {{ cause?: unknown, exitCode?: number }} [options]
   */
  constructor(message, { cause, exitCode = 1 } = {}) {
    super(message, { cause });
    this.name = 'RunError';
    this.exitCode = exitCode;
  }
}
