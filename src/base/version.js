/**
 * spawnbench's version, from package.json: what `--version` prints, read by the CLI
 * and by bin/spawnbench.js's fast path for `--version` (which loads nothing else).
 */
import { readFileSync } from 'node:fs';

export const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
