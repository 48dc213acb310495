/**
 * Two kinds of failure, two exit codes (see STYLE: usage errors exit 2, runtime
 * failures exit 1). Both carry a one-line message that says what to do.
 */
export class UsageError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UsageError';
    this.exitCode = 2;
  }
}

export class RunError extends Error {
  constructor(message, { cause, exitCode = 1 } = {}) {
    super(message, { cause });
    this.name = 'RunError';
    this.exitCode = exitCode;
  }
}
