/**
 * Thresholds, limits and defaults: each a named constant with its unit and the reason for
 * its value. One place for every number a decision depends on.
 */

// --- Hardening: limits that keep spawnbench bounded whatever its input or its children do ---

/**
 * Open files spawnbench needs to start, count. Loading its modules alone opens ~350 at once
 * (the ESM loader reads the import graph in parallel: 300 failed, 400 passed on Node 20), and a
 * run adds its connections, the strategy's pipes and the sampler's /proc reads.
 */
export const MIN_OPEN_FILES = 1024;
