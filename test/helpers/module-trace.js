/**
 * `node --import ./test/helpers/module-trace.js …`: appends the URL of every module
 * the process loads (ESM hooks run on their own thread; CommonJS through
 * Module._load's require) to the file named by SPAWNBENCH_MODULE_TRACE, one a line.
 * The lazy-loading test reads it to prove a command never loaded ink or react.
 */
import { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const file = process.env.SPAWNBENCH_MODULE_TRACE;
if (file) {
  register('./module-trace-hooks.js', import.meta.url, { data: { file } });
  // A CommonJS require() of a CommonJS module never reaches the ESM hooks (Node 20).
  const Module = createRequire(import.meta.url)('node:module');
  const load = Module._load;
  Module._load = function traced(request, parent, isMain) {
    const exported = load.call(this, request, parent, isMain);
    try {
      const resolved = Module._resolveFilename(request, parent, isMain);
      appendFileSync(file, `${resolved}\n`);
    } catch {
      appendFileSync(file, `${request}\n`);
    }
    return exported;
  };
}
