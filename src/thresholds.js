/**
 * Named thresholds and defaults, one place for every view. Each says its unit and
 * why it has its value. (The tune recommender's own thresholds still live in
 * src/analysis/recommend.js and bottleneck.js; the recommendation at the end of a
 * run imports them from there rather than keeping a second copy.)
 */

/**
 * Measured time below which a run cannot recommend a pool size or policy, in ms:
 * 8 sampler intervals of 250 ms, the fewest over which a worker's ELU and CPU are
 * means rather than a couple of readings, and the shortest run tune's own steps
 * are commonly given (`-d 2s`). Runs measure a little off their duration (tune's
 * 2 s steps measured 2,000–2,023 ms, a 3 s run 2,999 ms), hence the slack below.
 */
export const ADVICE_MIN_MEASURED_MS = 2000;

/**
 * Timer slack allowed under ADVICE_MIN_MEASURED_MS, in ms: a run ends on a timer
 * and measures a few ms off its duration (above); 50 ms covers that with room and
 * is 2.5% of the minimum, too little to change what the means say.
 */
export const ADVICE_TIMER_SLACK_MS = 50;

/**
 * Requests below which a run cannot recommend, whatever its length: under ~200
 * responses the per-worker counts carry too little to tell an even pool from a
 * lopsided one (the binomial band is wider than a third of each worker's share
 * for 3 workers).
 */
export const ADVICE_MIN_REQUESTS = 200;

/**
 * Measured time from which one run's recommendation can be called "high"
 * confidence (when nothing else lowers it), in ms: run's default duration, 40
 * sampler intervals; shorter runs lower it one step, since one slow second (a
 * GC, another program's burst) weighs more in their means.
 */
export const ADVICE_SOLID_MEASURED_MS = 10_000;

/**
 * Width of the noise band of per-worker request counts and in-flight counts, in
 * standard deviations of a binomial draw (each of R requests lands on one of N
 * workers with p = 1/N): outside ±3σ a count happens by chance about 3 times in
 * 1,000 per worker, so a pool flagged as lopsided is lopsided, not unlucky.
 */
export const BALANCE_NOISE_Z = 3;

/**
 * Pool size up to which a lopsided pool is pointed at least-requests rather than
 * p2c, in workers: scanning every worker's in-flight count costs nothing at this
 * size and is exact; beyond it p2c (two random workers, the less loaded wins,
 * Envoy's least_request) gets nearly the same balance at a constant cost.
 */
export const LEAST_REQUESTS_MAX_POOL = 8;

/**
 * Busy share each worker is planned at, 0..1: the pool size is the knee (workers'
 * demand × what the shared resources allow) divided by this. At the knee itself a
 * closed system runs below both bounds (a worker waiting for its child's exec
 * leaves the next request queued behind it), so a pool sized exactly there loses
 * throughput to one worker more; 80% leaves that slack (one worker at knee 0.93 →
 * 2 workers) without adding a worker for every hundredth of demand.
 */
export const POOL_TARGET_BUSY = 0.8;

/**
 * Largest pool a run recommends, as a multiple of the cores: past twice the
 * cores every worker competes for the same cores (the REST-API write-up in
 * BACKGROUND peaked at 6 workers on 16 cores and lost throughput from 8), and
 * tune's default sweep stops there too.
 */
export const ADVICE_MAX_POOL_PER_CORE = 2;

/**
 * CPU of processes outside the run, in cores, from which the run's figures are
 * called contended (and the confidence lowered): below half a core the gap is the
 * difference between /proc readings taken at slightly different moments (the
 * same bound as bottleneck.js's OTHER_PROCESSES_CORES).
 */
export const ADVICE_OTHER_CORES = 0.5;

/**
 * Share of its busy time a worker's or main thread's loop waited in the run queue
 * (/proc/<pid>/schedstat), from which the run is called contended: at 25% a
 * quarter of what ELU calls busy is the machine's doing, not the server's.
 */
export const ADVICE_CONTENDED_WAIT = 0.25;

/**
 * Share of requests failing from which a run's recommendation is of low
 * confidence, as a fraction: errors end requests early or late, so per-request
 * demands are off by up to that share (diagnose flags 1% as "requests failing").
 */
export const ADVICE_ERROR_SHARE = 0.01;

/**
 * Extra time each tune step takes beyond its warm-up and measured time, in ms:
 * booting the strategy fresh, stopping it with its workers and the step's
 * bookkeeping. `npm run bench:advice` prints it for every sweep it runs: 2.5–3.5 s
 * a step for fork-pool and comm-channel with 1–4 workers at load averages of
 * 12–17 on this project's shared 2-core machine (five sweeps). A quiet machine
 * boots faster, and an estimate a little long is the better error for a user
 * deciding whether to start a sweep.
 */
export const TUNE_STEP_OVERHEAD_MS = 3000;

/**
 * Measured time the dashboard waits for before it shows live advice, in ms: a
 * second more than the final recommendation needs, so the first advice on screen
 * does not rest on the first samples alone, which still hold the queue the
 * warm-up left in flight.
 */
export const LIVE_ADVICE_MIN_MS = 3000;

/**
 * Main-thread time a pool strategy spends per request handing it to a worker and
 * the answer back, in ms: fork-pool's main thread at ELU 0.15 served 916 req/s
 * (README's example run on this project's 2-core machine), 0.16 ms a request.
 * A run without a pool cannot measure it, so its expected gain uses this.
 */
export const POOL_MAIN_MS_PER_REQUEST = 0.16;

/**
 * Share of a spawned command's CPU time that its parent waits through inside
 * spawn (fork returns, the child drops the copied memory and execs; the parent
 * wakes when exec has succeeded), 0..1. Used as the floor of a worker's time
 * asleep inside spawn once contention is taken out: dividing that time by the
 * worker's own run-queue stretch holds at a moderate stretch but removes nearly
 * all of it at a stretch of 10–20. Measured with `echo` on this project's 2-core
 * machine from single-worker runs (stretch ≈ 3): 0.35 for fork-pool, 0.34 for
 * comm-channel. With it, the pool-size knee of runs at 1, 2, 3 and 4 workers of
 * both strategies came out 0.92–1.00 (0.68–0.94 without it).
 */
export const EXEC_WAIT_SHARE_OF_CHILD_CPU = 0.34;
