/**
 * Thresholds and defaults, one place: named exports, each with its unit and the
 * reason for its value. Analysis and every view read them from here.
 */

/**
 * How much more of the work the busiest worker of a user's server may do than
 * the mean worker before its balancing counts as lopsided, as a ratio of shares
 * (1 = perfectly even). 1.3 is a 65/35 split between two workers. Measured on
 * fixtures/servers/workers-flag.js (2 and 3 workers, 8 connections, 2 s steps,
 * a loaded 2-core VM): round-robin 1.00–1.08, random 1.02–1.14; its
 * first-free policy at 2 connections, which leaves a worker idle, 1.86. So 1.3
 * is the server's balancing, not noise.
 */
export const LOPSIDED_RATIO = 1.3;
