/**
 * Thresholds and defaults, one named export each, with its unit and the reason
 * for its value. Views and analysis read them from here, never a second copy.
 */

/**
 * --against: how many standard errors apart two runs' figures must be to count
 * as a change (unitless z). 2 ≈ a 95% two-sided interval: about one figure in 20
 * of an unchanged server is marked by chance, once per seven-figure comparison at most.
 */
export const AGAINST_Z = 2;

/**
 * --against: fewest per-second throughput samples a run needs for its noise to be
 * estimated (seconds). With two, the standard deviation is one difference; three
 * is the least that says anything about spread.
 */
export const AGAINST_MIN_SECONDS = 3;

/**
 * --against: fewest requests slower than a percentile (in each run) for that
 * percentile's confidence interval to be trusted (requests). The binomial
 * interval behind it is an approximation that holds from about five events
 * (the usual n·p ≥ 5 rule): p99 needs 500 requests, p99.9 5,000.
 */
export const AGAINST_MIN_TAIL_REQUESTS = 5;
