/** A fake terminal for driving the CLI in-process: captured stdout/stderr, no TTY. */
import { PassThrough } from 'node:stream';

export function fakeIo(env = {}) {
  const out = [];
  const err = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (d) => out.push(d));
  stderr.on('data', (d) => err.push(d));
  return {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: { CI: 'true', ...env },
    out: () => Buffer.concat(out).toString(),
    err: () => Buffer.concat(err).toString(),
  };
}
