/**
 * Short labels that both the text reports (src/report/) and the dashboard
 * (src/ui/) show. Those two folders sit side by side and do not import each
 * other, so a label both need lives here, once.
 */

/** What the policy column says when a user's server balanced with its own code (no policy knob). */
export const OWN_POLICY_LABEL = '(own)';

/**
 * A policy for a table cell or a progress line: the policy, or OWN_POLICY_LABEL for none.
 * @param {string|null} policy
 * @returns {string}
 */
export function policyLabel(policy) {
  return policy ?? OWN_POLICY_LABEL;
}
