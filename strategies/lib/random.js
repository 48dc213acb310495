/**
 * A seeded pseudo-random generator, so `random` and `p2c` balancing repeat from
 * run to run (config.seed). mulberry32: 32 bits of state, plenty for picking workers.
 * @param {number} seed any integer
 * @returns {() => number} a float in [0, 1) per call
 */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
