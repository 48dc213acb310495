import { planView } from './plan-view.js';
import { startAdvice, adviseOnSample, adviseOnTick, adviseOnDone } from './live-advice.js';
import { workerDeaths, measuredDeaths } from '../analysis/worker-deaths.js';

/**
 * The dashboard's view of a run, folded from engine events by a pure function so
 * it can be tested without a terminal. Shapes of the events: src/README.md
 * ("Run engine"); tune events are described on applyRunEvent below.
 */

/** Seconds of rps history kept for the sparkline (wider than any terminal row). */
const MAX_RPS_HISTORY = 300;
/** Warning and error log lines kept to show the latest one. */
const MAX_LOG_LINES = 5;

/**
 * The state before any event.
 * @returns {RunState}
 */
export function initialRunState() {
  return {
    plan: null,
    machine: null,
    runtimes: null,
    phase: 'booting',
    tick: null,
    rpsHistory: [],
    sample: null,
    workers: [],
    measureStartedAt: null,
    logs: [],
    tune: null,
    result: null,
    stopRequested: false,
    advice: null,
  };
}

/**
 * @typedef {object} RunState
 * @property {import('./plan-view.js').PlanView|null} plan  from `start`, flattened
 * @property {object|null} machine     from `start`
 * @property {object[]|null} runtimes  from `start`: the strategy's runtimes and how they spawn
 * @property {string} phase            latest `phase`
 * @property {object|null} tick        latest LoadTick
 * @property {{ phase: string, rps: number }[]} rpsHistory  one entry per tick
 * @property {object|null} sample      latest sampler interval
 * @property {object[]} workers        latest merged worker list (each with its slot's `exits` once a worker died)
 * @property {number|null} [measureStartedAt] epoch ms the measured phase began (the `phase` event's `at`)
 * @property {{ level: string, msg: string }[]} logs  latest warnings and errors
 * @property {{ steps: object[], current: object|null }|null} tune
 * @property {object|null} result      RunResult from `done`
 * @property {boolean} stopRequested   the user pressed q or Ctrl-C
 * @property {import('./live-advice.js').LiveAdvice|null} advice  the recommendation so far (runs only)
 */

/**
 * Fold one engine event into the state; returns a new object, never mutates.
 *
 * Tune events (emitted by `tune` on the same engine):
 * - `tune-progress` `{ size, policy, repeat }`: the step now being measured;
 * - `tune-step` `{ size, policy, rps, p99Ms, errors }`: a measured step.
 *
 * @param {RunState} state
 * @param {string} name event name
 * @param {any} payload
 * @returns {RunState}
 */
export function applyRunEvent(state, name, payload) {
  switch (name) {
    case 'start':
      // A new run (tune and compare start one per step): its figures start afresh.
      return {
        ...state,
        plan: planView(payload?.plan ?? null),
        machine: payload?.machine ?? null,
        runtimes: payload?.runtimes ?? null,
        phase: 'booting',
        tick: null,
        rpsHistory: [],
        sample: null,
        workers: [],
        measureStartedAt: null,
        advice: startAdvice(payload),
      };
    case 'phase': {
      // When the measured phase began (the engine's clock): a worker's death is placed in it.
      const measureStartedAt = payload?.phase === 'measure' ? payload.at ?? null : state.measureStartedAt ?? null;
      return { ...state, phase: payload?.phase ?? state.phase, measureStartedAt };
    }
    case 'tick': {
      const entry = { phase: payload.phase, rps: payload.rps ?? 0 };
      return { ...state, tick: payload, rpsHistory: [...state.rpsHistory, entry].slice(-MAX_RPS_HISTORY), advice: adviseOnTick(state.advice, payload, measuredDeaths(workerDeaths(state.workers, state.measureStartedAt ?? null))) };
    }
    case 'sample':
      return { ...state, sample: payload, advice: adviseOnSample(state.advice, payload, state.phase) };
    case 'workers':
      return { ...state, workers: Array.isArray(payload) ? payload : [] };
    case 'log':
      if (payload?.level !== 'warn' && payload?.level !== 'error') return state;
      return { ...state, logs: [...state.logs, payload].slice(-MAX_LOG_LINES) };
    case 'tune-progress': {
      const tune = state.tune ?? { steps: [], current: null };
      return { ...state, tune: { ...tune, current: payload } };
    }
    case 'tune-step': {
      const tune = state.tune ?? { steps: [], current: null };
      return { ...state, tune: { ...tune, steps: [...tune.steps, payload] } };
    }
    case 'done':
      return { ...state, phase: 'done', result: payload, advice: adviseOnDone(state.advice, payload) };
    case 'stop-requested':
      return { ...state, stopRequested: true };
    default:
      return state;
  }
}

/** Every engine event the dashboard listens to. */
export const RUN_EVENTS = ['start', 'phase', 'tick', 'sample', 'workers', 'log', 'tune-progress', 'tune-step', 'done'];
