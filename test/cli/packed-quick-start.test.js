// The README's quick start as a user meets it (issue 39): the package packed with
// `npm pack`, installed into a fresh project, and every quick-start command that runs
// there run from that project, not from this clone. The commands are read from the
// README itself, so a change to them is tested as it is written; each gets a short
// duration and rate (flags added after `spawnbench`), `--json`, and its result is checked.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../helpers/harness.js';
import { processesMatching } from '../helpers/processes.js';
import { readme } from '../helpers/docs.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'spawnbench-packed-'));
const project = join(dir, 'project');
after(() => rmSync(dir, { recursive: true, force: true }));

/** The shell lines of the README's Quick start section, in order. */
function quickStartCommands() {
  const section = /^## Quick start$([\s\S]*?)^## /m.exec(readme())?.[1] ?? '';
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].trim().split('\n'));
}

/** `[VAR=value …] npx spawnbench <args>` → { env, args } with quick flags after `spawnbench`. */
function quick(line) {
  const words = line.split(/\s+/);
  const env = {};
  while (/^[A-Z_]+=/.test(words[0])) {
    const [name, value] = words.shift().split('=');
    env[name] = value;
  }
  assert.deepEqual(words.slice(0, 2), ['npx', 'spawnbench'], line);
  const rest = words.slice(2);
  // An open loop at 20 req/s: what is checked is that each command runs in the project and answers, not its load.
  return { env, args: ['--duration', '1s', '--warmup', '200ms', '--rate', '20', '--connections', '4', '--json', ...rest] };
}

test('the quick start works in a fresh project that installed the packed tarball', { timeout: 240_000 }, async () => {
  const lines = quickStartCommands();
  assert.match(readme(), /^npm install --save-dev spawnbench$/m, 'the README says how to install the package into your project');
  const inProject = lines.filter((l) => /(^| )npx spawnbench /.test(l) && !l.startsWith('npm install &&'));
  assert.ok(inProject.length >= 2, `the quick start's project commands: ${inProject.join(' | ')}`);
  const inClone = lines.find((l) => l.startsWith('npm install && npx spawnbench'));
  assert.ok(inClone, 'the clone\'s main job');

  await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT });
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  assert.ok(tarball, 'npm pack wrote a tarball');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-api', private: true }));
  // Every dependency is in npm's cache after `npm ci` here; prefer it, as a user's second install would.
  await run('npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', join(dir, tarball)], { cwd: project, timeout: 180_000 });
  // The user's own server of the first command.
  writeFileSync(join(project, 'server.js'), "require('node:http').createServer((q, s) => s.end('ok')).listen(process.env.PORT)\n");

  // Every image the README shows is in the package.
  for (const [, src] of readme().matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)) {
    assert.ok(/^https:\/\//.test(src) || existsSync(join(project, 'node_modules', 'spawnbench', src)), `the README's image ${src} is in the package`);
  }

  for (const line of [...inProject, inClone.replace(/^npm install && /, '')]) {
    const { env, args } = quick(line);
    const { stdout } = await run('npx', ['spawnbench', ...args], { cwd: project, env: { ...process.env, ...env }, timeout: 120_000 }).catch((error) => {
      throw new Error(`${line} (in the project) failed: exit ${error.code}; ${error.stderr?.split('\n').slice(-5).join(' ')}`);
    });
    const result = JSON.parse(stdout);
    assert.equal(result.kind, 'run', line);
    assert.ok(result.load.requests > 0, `${line}: requests answered in the project`);
  }
  assert.deepEqual(processesMatching(project), [], 'nothing the quick start started is left running');
});
