/**
 * Options of `spawnbench diagnose` → a plain plan. Every check on user input is
 * here (a UsageError naming the flag), so the engine can trust the plan.
 */
import path from 'node:path';
import { existsSync } from 'node:fs';
import { UsageError } from '../base/errors.js';
import { buildLoad, buildOutput, checkInsecure } from '../plan/run-plan.js';
import { readOptions, flagOf } from '../plan/option-declarations.js';
import { checkPidOwnsPort } from './pid-owns-port.js';
import { parseTarget } from '../load/target.js';
import { commandTarget } from '../plan/server-command-plan.js';
import { targetOf } from '../base/target-kinds.js';

const EXAMPLE = 'spawnbench diagnose -- node server.js';

/**
 * @param {Record<string, any>} options the API's options (typed or the CLI's text), or options read already
 * @param {string[]} command operands after `--`: the server command
 * @returns {object} DiagnosePlan
 */
export function buildDiagnosePlan(options, command = []) {
  const o = readOptions(options, 'diagnose');
  const target = buildDiagnoseTarget(o, command);
  return {
    command: 'diagnose',
    target,
    load: buildLoad(o, null),
    probe: { enabled: !targetOf(target).external && o.probe !== false, intervalMs: o.sampleInterval },
    cpuProf: {
      enabled: Boolean(o.cpuProf || o.cpuProfDir),
      dir: o.cpuProfDir ? path.resolve(o.cpuProfDir) : null,
    },
    output: buildOutput(o, command),
  };
}

function buildDiagnoseTarget(o, command) {
  const hasCommand = command.length > 0;
  if (o.given.has('url') && hasCommand) {
    throw new UsageError(`give either a command to start (after --) or --url of a server that runs, not both`);
  }
  if (!o.given.has('url') && !hasCommand) {
    throw new UsageError(`give the command that starts your server after --, e.g. ${EXAMPLE}, or --url http://127.0.0.1:3000/ of one that runs`);
  }
  if (o.given.has('url')) {
    for (const name of ['port', 'cpuProf', 'cpuProfDir', 'readyTimeout', 'path']) {
      if (o.given.has(name)) throw new UsageError(`${flagOf(name)} applies when diagnose starts the server; with --url ${name === 'path' ? 'put the path in the URL' : 'drop it'}`);
    }
    const pid = o.pid ?? null;
    if (pid !== null && !existsSync(`/proc/${pid}`) && process.platform === 'linux') {
      throw new UsageError(`--pid ${pid}: no such process; give the pid of the server behind --url`);
    }
    const { url } = checkInsecure(o, parseTarget(o.url));
    if (pid !== null) checkPidOwnsPort(pid, url);
    return { kind: 'url', url, pid };
  }
  if (o.given.has('pid')) throw new UsageError('--pid applies with --url; a server diagnose starts is measured from inside');
  return commandTarget(o, command);
}

