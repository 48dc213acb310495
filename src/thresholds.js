/**
 * Thresholds and defaults, one place: named exports, each with its unit and the
 * reason for its value. Analysis and every view read them from here.
 */

/**
 * How much more of the work the busiest worker of a user's server may do than
 * the mean worker before its balancing counts as lopsided, as a ratio of shares
 * (1 = perfectly even). 1.3 is a 65/35 split between two workers: round-robin
 * over 1 s steps on a 2-core VM stays within 1.05 (measured on
 * fixtures/servers/workers-flag.js), so 1.3 is balancing, not noise.
 */
export const LOPSIDED_RATIO = 1.3;
