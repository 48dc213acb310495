/**
 * The exhaustive sweep: every pool size × policy, `repeat` times, interleaved
 * (all sizes and policies once, then all again) so that drift of the machine
 * during the sweep spreads evenly over the cells instead of favouring one.
 */

/**
 * @param {number[]} sizes
 * @param {string[]} policies
 * @param {number} repeat
 * @returns {{ size: number, policy: string, repeat: number }[]} in the order to measure
 */
export function interleave(sizes, policies, repeat) {
  const order = [];
  for (let r = 1; r <= repeat; r++) {
    for (const size of sizes) for (const policy of policies) order.push({ size, policy, repeat: r });
  }
  return order;
}

/**
 * @param {{ sizes: number[], policies: string[], repeat: number }} plan
 * @returns {{ mode: 'exhaustive', exhaustiveSteps: number, nextBatch: (steps: object[]) => object[] }}
 */
export function createExhaustiveSearch({ sizes, policies, repeat }) {
  let given = false;
  return {
    mode: 'exhaustive',
    exhaustiveSteps: sizes.length * policies.length * repeat,
    nextBatch() {
      if (given) return [];
      given = true;
      return interleave(sizes, policies, repeat);
    },
  };
}
