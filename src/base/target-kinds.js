/**
 * What a run measures, asked as one thing: a strategy spawnbench boots from
 * `strategies/<name>/`, a user's server command (`-- <command>`) or a server
 * already running (`--url`). The plan keeps its target as plain JSON
 * (`plan.target`, which `--json` carries as it is); `targetOf()` gives the
 * answers the rest of the code needs of it, so nothing else asks its kind.
 * Wordless: `report/target-text.js` names it, `runner/target-runner.js` boots
 * and stops it, `analysis/run-advice.js` picks its advice by `advice`.
 */

/**
 * @typedef {object} Target
 * @property {'strategy'|'command'|'url'|null} kind  the plan's kind, for the tables keyed by it
 * @property {string|null} name      the strategy's name, the command line or the URL
 * @property {string[]|null} command  the user's command line (argv) that starts it, else null
 * @property {string|null} url       the address of a server spawnbench did not start (--url), else null
 * @property {boolean} external      spawnbench neither starts nor stops it, and cannot sample inside it
 * @property {boolean} runsWorkload  each request runs the plan's workload, its body checked against it
 * @property {'pool'|'tree'|null} processes  where its workers are seen: the strategy's pool (its control
 *   lines), the server's process tree (/proc), or nowhere
 * @property {{ source: 'pool-size', value: number|null }|object|null} sizeKnob  what a run's advice sizes: a
 *   strategy's pool size, a user's server's knob as given or found (`plan.target.sizeKnob`, on `run -- <command>`),
 *   null for a URL or a command run without one
 * @property {'strategy'|'own'|null} advice  which advice sizes it (analysis/run-advice.js), null: none
 */

/** @type {Record<string, (t: Record<string, any>) => Omit<Target, 'kind'>>} */
const KINDS = {
  strategy: (t) => ({
    name: t.strategy ?? null,
    command: null,
    url: null,
    external: false,
    runsWorkload: true,
    processes: 'pool',
    sizeKnob: { source: 'pool-size', value: t.poolSize ?? null },
    advice: 'strategy',
  }),
  command: (t) => ({
    name: Array.isArray(t.command) ? t.command.join(' ') : (t.command ?? null),
    command: Array.isArray(t.command) ? t.command : null,
    url: null,
    external: false,
    runsWorkload: false,
    processes: 'tree',
    sizeKnob: t.sizeKnob ?? null,
    advice: 'own',
  }),
  url: (t) => ({
    name: t.url ?? null,
    command: null,
    url: t.url ?? null,
    external: true,
    runsWorkload: false,
    processes: null,
    sizeKnob: null,
    advice: null,
  }),
};

/** A plan without a target (a result file made by hand): nothing started, nothing to advise, its workload named as a strategy's. */
const NONE = { kind: null, name: null, command: null, url: null, external: false, runsWorkload: true, processes: null, sizeKnob: null, advice: null };

/**
 * @param {Record<string, any>|null|undefined} planTarget `plan.target`, or a result's `target`
 * @returns {Target}
 */
export function targetOf(planTarget) {
  const answers = planTarget && Object.hasOwn(KINDS, planTarget.kind) ? KINDS[planTarget.kind] : null;
  return answers ? { kind: planTarget.kind, ...answers(planTarget) } : NONE;
}
