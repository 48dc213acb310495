/**
 * How each kind of target is named to the user, one row per kind: the summary's
 * first line (`label`), what each request does (`requests`), the tune header's
 * parts (`sweep`) and diagnose's target line (`diagnosed`). The kinds differ in
 * what the user is told, so the words are a table keyed by kind; what the code
 * asks of a target is in src/base/target-kinds.js.
 */
import { describeCommandTarget, shellLine } from './own-server.js';

/** @param {{ command: string, args: string[], name: string }} w */
function describeWorkload(w) {
  const cmd = [w.command, ...w.args].join(' ');
  return w.name === 'custom' ? `"${cmd}"` : `${w.name} (${cmd.length > 60 ? `${cmd.slice(0, 57)}...` : cmd})`;
}

/**
 * @typedef {object} TargetWords
 * @property {(t: Record<string, any>) => string} label  "strategy fork-pool (4 workers, p2c)", "url http://…", "command 'node server.js'"
 * @property {(plan: Record<string, any>) => string} requests  what each request does (a mix is worded before the target is asked)
 * @property {(plan: { base: Record<string, any>, knobs: Record<string, any> }) => string[]} sweep  the tune header's first parts, of a tune plan
 * @property {(t: Record<string, any>, pid: string) => string} diagnosed  diagnose's target line, `pid` worded already
 */

/** @type {Record<string, TargetWords>} */
const WORDS = {
  strategy: {
    label: (t) => {
      const parts = [];
      if (t.pool) parts.push(`${t.poolSize} workers`, t.balance);
      if (t.runtime?.name && t.runtime.name !== 'node') parts.push(`runtime ${t.runtime.name}`);
      if (t.workerRuntime?.name && t.workerRuntime.name !== 'node' && t.pool) parts.push(`workers on ${t.workerRuntime.name}`);
      return `strategy ${t.strategy}${parts.length ? ` (${parts.join(', ')})` : ''}`;
    },
    requests: (plan) => `workload ${describeWorkload(plan.workload)}`,
    sweep: (plan) => {
      const base = plan.base;
      const runtime = base.target.runtime?.name && base.target.runtime.name !== 'node' ? ` on ${base.target.runtime.name}` : '';
      const workload = base.workload.name === 'custom' ? `"${[base.workload.command, ...base.workload.args].join(' ')}"` : base.workload.name;
      return [`strategy ${base.target.strategy}${runtime}`, `workload ${workload}`];
    },
    diagnosed: (t, pid) => `'${t.command.join(' ')}'${pid}${t.url ? ` on ${t.url}` : ''}`,
  },
  command: {
    label: (t) => `command '${shellLine(t.command)}'${t.port !== null ? ` on port ${t.port}` : ''}${t.path !== '/' ? `, path ${t.path}` : ''}`,
    requests: (plan) => `${plan.load.method} requests, its own responses (bodies not checked)`,
    // A tune plan on a user's server: its base target is the command, its knobs the sweep's.
    sweep: (plan) => [describeCommandTarget(/** @type {Parameters<typeof describeCommandTarget>[0]} */ (plan))],
    diagnosed: (t, pid) => `'${t.command.join(' ')}'${pid}${t.url ? ` on ${t.url}` : ''}`,
  },
  url: {
    label: (t) => `url ${t.url}`,
    requests: (plan) => {
      const checked = plan.load.expectedBytes != null ? `, bodies checked against ${plan.workload.name}` : '';
      return `${plan.load.method} requests${checked}`;
    },
    sweep: (plan) => WORDS.strategy.sweep(plan),
    diagnosed: (t, pid) => `url ${t.url}${pid}`,
  },
};

/**
 * The words for a plan's (or a result's) target; a target without a known kind is worded as a strategy.
 * @param {Record<string, any>|null|undefined} target
 * @returns {TargetWords}
 */
export function targetWords(target) {
  return target && Object.hasOwn(WORDS, target.kind) ? WORDS[target.kind] : WORDS.strategy;
}
