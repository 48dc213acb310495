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

/**
 * Longest line read from a child's stdout or stderr, in bytes. The rest of a longer line is
 * dropped (the line is logged cut, with a note): a child writing without newlines (100+ MB/s
 * seen) must not grow spawnbench's memory. 64 KiB holds any control line and log line.
 */
export const MAX_CHILD_LINE_BYTES = 64 * 1024;

/** Lines of a child's stderr kept for error messages, count. */
export const STDERR_TAIL_LINES = 12;

/** Bytes of a child's stderr kept for error messages: a screenful, whatever the line lengths. */
export const STDERR_TAIL_BYTES = 4 * 1024;

/** Stack-frame lines (`    at …`) kept in a row in the stderr tail: the `Error: …` line above them must survive. */
export const STDERR_TAIL_FRAMES = 2;

/**
 * Longest time any flag may give (--duration, --warmup, --timeout, --ready-timeout, …), ms:
 * 24 h. Node's timers hold at most 2^31-1 ms (24.8 days) and fire after 1 ms beyond that,
 * so a longer value would end the wait at once; no measurement here needs more than a day.
 */
export const MAX_DURATION_MS = 24 * 3_600_000;

/**
 * Highest --rate, requests per second. One generator thread sends ~30k/s on this 2-core
 * machine; 1e6 leaves room for big machines and many threads, while the schedule's
 * per-tick work stays bounded (1e8 overran a 2 s run by 60%, 1e12 never ended).
 */
export const MAX_RATE = 1_000_000;

/**
 * Largest result file `spawnbench report` reads, bytes: 64 MiB. A 10-minute run's result
 * (histogram, per-second series, samples) is a few MB; reading stops here, so a wrong
 * file (/dev/zero, a disk image) ends at once instead of filling memory.
 */
export const MAX_RESULT_FILE_BYTES = 64 * 1024 * 1024;
