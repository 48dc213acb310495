/**
 * A PostgreSQL cluster of a test's own: initdb into a temp dir, its own port (free
 * now, as src/runner/free-port.js picks one) and Unix socket dir, a small
 * max_connections, started with pg_ctl; stopped (`-m immediate`) and removed by
 * stop(), which the test calls on every path (and process exit, as a last resort).
 * Debian's `postgresql` package puts initdb and pg_ctl in /usr/lib/postgresql/<ver>/bin,
 * not on PATH; as root, initdb must run as the `postgres` user.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../../src/runner/free-port.js';

/** Where initdb and pg_ctl are, or null: PATH first, then Debian's versioned folders, newest first. */
export function findPostgresBin() {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(base, v, 'bin', 'initdb'))) return join(base, v, 'bin');
  return null;
}

/** Why the tests cannot start PostgreSQL here, or null when they can. */
export function postgresMissing() {
  if (process.platform !== 'linux') return 'PostgreSQL tests run on Linux only';
  if (!findPostgresBin()) return 'PostgreSQL is not installed: apt-get install postgresql (initdb and pg_ctl are needed)';
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root needs a postgres user (the postgresql package creates it)';
  return null;
}

/**
 * @param {{ maxConnections: number }} options
 * @returns {Promise<{ port: number, socketDir: string, env: Record<string, string>, pid: number, stop: () => void }>}
 */
export async function startPostgres({ maxConnections }) {
  const bin = findPostgresBin();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'sb-pg-'));
  const data = join(dir, 'data');
  const asOwner = (command, args) => {
    const [file, argv] = root ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] : [join(bin, command), args];
    return execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 120_000 });
  };
  let started = false;
  const stop = () => {
    if (started) {
      started = false;
      try {
        asOwner('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
    }
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', stop);
  };
  process.on('exit', stop);
  try {
    if (root) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })));
    asOwner('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    const port = await findFreePort();
    const options = [
      `-p ${port}`, `-k ${dir}`, "-c listen_addresses='127.0.0.1'", `-c max_connections=${maxConnections}`,
      '-c superuser_reserved_connections=0', '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off', '-c shared_buffers=16MB',
    ].join(' ');
    started = true;
    asOwner('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'latin1').split('\n')[0]);
    return {
      port,
      socketDir: dir,
      pid,
      env: { PGHOST: '127.0.0.1', PGPORT: String(port), PGUSER: 'postgres', PGDATABASE: 'postgres' },
      stop,
    };
  } catch (error) {
    const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').slice(-2000) : '';
    stop();
    throw new Error(`could not start PostgreSQL: ${error.stderr || error.message}${log ? `\nits log ends:\n${log}` : ''}`);
  }
}
