/**
 * How a pool picks the worker for the next request. Each picker is a pure function
 * of the workers' in-flight counts (`loads[i]`) and its own small state, so tests
 * can check the choice without a server.
 */
import { seededRandom } from './random.js';

export const BALANCERS = ['random', 'round-robin', 'least-requests', 'p2c'];

/** Any worker, uniformly at random. */
export function pickRandom(loads, random) {
  return Math.floor(random() * loads.length);
}

/** The next worker in turn; `turn` counts picks so far. */
export function pickRoundRobin(loads, turn) {
  return turn % loads.length;
}

/**
 * The worker with the fewest requests in flight. The scan starts at `start` so
 * that ties rotate instead of always landing on worker 0.
 */
export function pickLeastRequests(loads, start = 0) {
  const n = loads.length;
  let best = start % n;
  for (let k = 1; k < n; k++) {
    const i = (start + k) % n;
    if (loads[i] < loads[best]) best = i;
  }
  return best;
}

/** The two distinct workers power-of-two-choices compares (one worker: itself twice). */
export function p2cPair(n, random) {
  const a = Math.floor(random() * n);
  if (n < 2) return [a, a];
  let b = Math.floor(random() * (n - 1));
  if (b >= a) b++;
  return [a, b];
}

/** Power of two choices (Envoy's least_request): two at random, the less loaded of them. */
export function pickP2C(loads, random) {
  const [a, b] = p2cPair(loads.length, random);
  return loads[b] < loads[a] ? b : a;
}

/**
 * A stateful picker for one pool.
 * @param {'random'|'round-robin'|'least-requests'|'p2c'} name
 * @param {{seed?: number}} [options]
 * @returns {(loads: number[]) => number} index of the chosen worker
 */
export function createBalancer(name, { seed = 1 } = {}) {
  const random = seededRandom(seed);
  let turn = 0;
  switch (name) {
    case 'random':
      return (loads) => pickRandom(loads, random);
    case 'round-robin':
      return (loads) => pickRoundRobin(loads, turn++);
    case 'least-requests':
      return (loads) => pickLeastRequests(loads, turn++);
    case 'p2c':
      return (loads) => pickP2C(loads, random);
    default:
      throw new Error(`unknown balance '${name}'; use one of ${BALANCERS.join(', ')}`);
  }
}
