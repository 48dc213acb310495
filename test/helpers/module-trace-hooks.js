/** The hooks of module-trace.js: every resolved URL, one a line, to the trace file. */
import { appendFileSync } from 'node:fs';

let file = null;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
