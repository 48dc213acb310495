/**
 * Every threshold and default of spawnbench, in one place: each a named export
 * with its unit and the reason for its value. Views (dashboard, text summary,
 * tune, compare, diagnose) read these names and keep no copy of a number, so a
 * figure called "the limit" is the same in every view. Where two views must
 * differ, they get two names and the comment says why.
 *
 * This module imports nothing: every layer may read it (src/README.md).
 */

// ── Defaults of a run ────────────────────────────────────────────────────────

/**
 * Closed-loop keep-alive connections when --connections is not given (count).
 * The experiment behind spawnbench drove its server with 30 connections; the
 * CLI and the programmatic startLoad() use the same value, so a run from the
 * API measures what the same run from the command line measures.
 */
export const DEFAULT_CONNECTIONS = 30;

/**
 * Measured duration when neither --duration nor --requests is given (ms): long
 * enough for p99 to settle at thousands of req/s. Also the measured time from
 * which a run's recommendation can be "high" confidence (40 sampler intervals):
 * a shorter run weighs one slow second (a GC, another program's burst) more.
 */
export const DEFAULT_DURATION_MS = 10_000;

/** Warm-up before the measured phase of `spawnbench run` (ms): JIT, pools and page cache settle in about a second; two leave margin. */
export const DEFAULT_WARMUP_MS = 2_000;

/** Per-request timeout (ms): ten times the slowest healthy response seen in the experiment, so only hung requests count as timeouts. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Load generator threads when --generator-threads is not given (count): one thread drives thousands of req/s, and every further one takes a CPU from the server measured. */
export const DEFAULT_GENERATOR_THREADS = 1;

/** Seed of the random and p2c balancers when --seed is not given: a fixed seed, so two runs of one command pick the same workers. */
export const DEFAULT_SEED = 1;

/**
 * Open loop without --connections: enough connections for every request of this
 * many seconds to be in flight at once (s), so a server that answers within it
 * never makes a request wait for a free connection (rate 50/s → 25 connections).
 */
export const OPEN_LOOP_HEADROOM_S = 0.5;

/**
 * Fewest connections the open loop opens by itself (count): a low rate still gets
 * a few spare connections for the odd slow response (documented for --rate: 10 to 1,000).
 */
export const OPEN_LOOP_MIN_DEFAULT_CONNECTIONS = 10;

/** Most connections the open loop opens by itself (count): beyond this a machine runs out of ephemeral ports and file descriptors. */
export const OPEN_LOOP_MAX_DEFAULT_CONNECTIONS = 1000;

/**
 * How long a server may take to accept connections (ms). Deno's first start on a
 * loaded 2-core machine takes seconds; a healthy node strategy is ready in ~100 ms.
 */
export const READY_TIMEOUT_MS = 15_000;

/** How long a strategy or server gets to stop its workers after SIGTERM before its whole process group is killed (ms). */
export const STOP_GRACE_MS = 3_000;

/**
 * How long the load generator's stop() waits for its threads' final reports
 * before terminating them (ms). Not STOP_GRACE_MS: a generator thread only has a
 * report to send, a server may have workers and children to stop.
 */
export const GENERATOR_STOP_GRACE_MS = 2_000;

/**
 * How long diagnose lets a server listen elsewhere but not on the port it was
 * given before that is the answer ("listens on port N; pass --port N"), ms: some
 * servers open an admin or metrics port first, then the real one once they are
 * ready (connected to their database): at 1 s, a server that opened three such ports
 * 1.5 s before its own was told to pass --port <its admin port>.
 */
export const WRONG_PORT_GRACE_MS = 3_000;

/**
 * How often, while a server starts, its process group's listening ports are read to see
 * whether it listens elsewhere, ms: each read is all of /proc/net/tcp and tcp6, which a
 * load test leaves thousands of sockets long (TIME_WAIT), ~50 ms of the kernel's time at
 * 10,000; read at each 100 ms connection attempt it was most of spawnbench's CPU in a short
 * run. Well under WRONG_PORT_GRACE_MS: the answer comes at most this much later.
 */
export const WRONG_PORT_CHECK_MS = 500;

/**
 * How long `run -- <command>` waits for the port after the command exited 0 before it
 * was ready, ms: a launcher that daemonises (pm2 start, a double fork) leaves a server
 * that listens soon after (a Node server boots in ~0.1–0.3 s here, a few seconds on a
 * loaded machine); a command that simply ended (`run -- true`) is then said to have
 * exited with code 0, not left to the ready timeout and blamed on the port.
 */
export const DAEMON_LISTEN_GRACE_MS = 5_000;

/**
 * Room under the process limit (`ulimit -u`: the user's processes and threads), tasks,
 * below which a server that died at start is said to have been stopped by the limit:
 * five Node processes' worth (~10 threads each before a line of JavaScript runs), a
 * cluster primary, its workers and the load generator's threads. Measured: under
 * `ulimit -u 40` and `45` a node:cluster worker aborted (SIGABRT) with no message, its
 * primary exited 1 (once with its sibling's EPIPE stack), and 12–19 tasks of the user
 * were left running: a room of 21–33.
 */
export const PROCESS_LIMIT_ROOM_TASKS = 50;

/**
 * Open loop: a request sent this much after it was due counts as missed (ms).
 * Timers in a busy event loop fire 1-4 ms late; 10 ms is well above that jitter
 * and below any latency worth measuring at a fixed rate.
 */
export const LATE_SLACK_MS = 10;

/**
 * Open loop: when less than this share of the rate asked was answered, the rate is far
 * beyond what the server (or the connections) gave (--rate 1000000 against a server
 * answering 11,000 req/s), and the note says so and to lower --rate first: more
 * connections help only a server with room. 0..1
 */
export const OPEN_LOOP_BEYOND_SHARE = 0.5;

/**
 * Sampling interval of the samplers and the probe (ms): four samples a second
 * show a stall of half a second and cost the probed server well under 1%.
 */
export const SAMPLE_INTERVAL_MS = 250;

/** A thread silent for this many report intervals (count) has exited, or its probe has: its row leaves the live view. */
export const STALE_INTERVALS = 3;

/** Range of --sample-interval (ms): faster than 10 Hz costs the probed server more than the 1% budget; slower than 1 Hz hides stalls. */
export const SAMPLE_INTERVAL_RANGE_MS = Object.freeze([100, 1000]);

/** Upper bound of --repeat (count): past ~100 passes a sweep runs for hours; a typo (--repeat 1000) should not. */
export const MAX_REPEAT = 100;

/**
 * Per-step defaults of tune, shorter than run's (10 s after 2 s): a sweep runs
 * dozens of steps, and three repeats of 3 s tell close sizes apart better than
 * one of 10 s (drift spreads over the interleaved repeats).
 */
export const TUNE_DEFAULTS = Object.freeze({ durationMs: 3_000, warmupMs: 1_000, repeat: 3, search: 'exhaustive' });

/**
 * Responses a tune step needs before its figures rank sizes (count). On a 1–2 s endpoint
 * (a login API hashing with bcrypt) a 3 s step at 30 connections got 0–45 responses and
 * measured 18 req/s where wrk measured 23 (#37): a p99 and a median over fewer than a
 * couple of hundred responses move by more than the 5% band sizes are told apart by.
 */
export const TUNE_MIN_RESPONSES = 200;

/**
 * A tune step measures at least this many times its own p99 (wall time): a step shorter
 * than a few of its slowest responses counts the requests that happened to finish in it,
 * and a closed loop's first round of responses all land at once.
 */
export const TUNE_P99_MULTIPLE = 5;

/**
 * Longest a tune step's measured phase is extended to, past its -d, while it has fewer
 * than TUNE_MIN_RESPONSES responses or measured less than TUNE_P99_MULTIPLE × its p99 (ms).
 * A minute covers 200 responses at 3.4 req/s; a step that has not got them by then is
 * marked too few and not ranked, rather than a sweep taking hours. A longer -d is kept.
 */
export const TUNE_STEP_MAX_MS = 60_000;

/**
 * Slack when a step's measured phase is checked on its once-a-second ticks (ms): a tick is
 * stamped when every generator thread has reported, a few ms either side of the second,
 * so a tick this close to the step's -d counts as having reached it.
 */
export const STEP_TICK_SLACK_MS = 200;

/**
 * Per-run defaults of compare, shorter than run's (10 s after 2 s): every strategy
 * runs `repeat` times per workload; three interleaved repeats of 5 s show the
 * spread that one 10 s run hides.
 */
export const COMPARE_DEFAULTS = Object.freeze({ durationMs: 5_000, warmupMs: 1_000, repeat: 3, workloads: Object.freeze(['echo']) });

/**
 * The largest pool tune measures unless --sizes says otherwise, as a multiple of
 * the hardware threads: 2, so the curve passes one worker per core. Also the
 * largest pool a run recommends: past twice the cores every worker competes for
 * the same cores (the REST-API write-up in BACKGROUND peaked at 6 workers on 16
 * cores and lost throughput from 8).
 */
export const TUNE_MAX_SIZE_FACTOR = 2;

/** Upper bound of --pool-size and --sizes (workers): more processes than this only measure the scheduler. */
export const MAX_POOL_SIZE = 256;

// ── The load generator's own limit ──────────────────────────────────────────

/**
 * Event-loop utilisation of the busiest generator thread (0..1) from which the
 * generator, not the server, may have set the pace: a loop busy 90% of the time
 * cannot send much faster, and its own queueing leaks into p99. The load notes,
 * diagnose's generator-limited finding and tune's bottleneck all use it.
 */
export const GENERATOR_BUSY_ELU = 0.9;

/**
 * Measured time below which the generator's ELU says nothing about the run: over a
 * few milliseconds a thread is busy starting and connecting, so `-d 1ms` read 100%
 * and told the user the generator had limited a run that sent a handful of requests.
 * No "generator busy" note below it. ms
 */
export const GENERATOR_BUSY_MIN_MS = 500;

/**
 * A measured request still unanswered when the run ended, waiting at least this long (ms) and
 * UNANSWERED_STALL_FACTOR times longer than any answered request, means the server stopped answering:
 * the figures, which leave it out (as wrk), are not the server's, and the run is not sized from them.
 * Half a second is many times a healthy request's latency and longer than a GC pause; a server frozen
 * (SIGSTOP) for 1.5 s of a 3 s run was called healthy with max 19.6 ms, and compare's 2 s runs of it
 * held requests 0.8 s.
 */
export const UNANSWERED_STALL_MS = 500;

/**
 * How many times the longest answered request an unanswered one must have waited to be a stall (ratio):
 * a slow endpoint's request cut off by the end waits at most about as long as the answered ones.
 */
export const UNANSWERED_STALL_FACTOR = 2;

/**
 * A run of -n requests is ended when no response came for this many --timeout periods (count): every
 * request sent in them timed out, so the server answers nothing, and -n would be settled one timeout
 * at a time (-n 100000 on 4 connections of a frozen server: days).
 */
export const SILENT_END_TIMEOUTS = 3;

/** The least silence that ends a -n run (ms), whatever --timeout: a short --timeout is no reason to give up sooner. */
export const SILENT_END_MIN_MS = 3_000;

/**
 * A server process whose probe stopped reporting for at least SILENT_PROBE_MIN_MS (ms) at the end of a run,
 * while /proc saw it on a CPU at least SILENT_PROBE_BUSY_PCT (% of one core) on average, had its event loop
 * held by JavaScript or a synchronous call. 500 ms is two sampler intervals; 80% leaves room for a loaded
 * machine's waits for a core (a `for (;;)` read 96-100% on a 2-core host with other work).
 */
export const SILENT_PROBE_MIN_MS = 500;
export const SILENT_PROBE_BUSY_PCT = 80;

/**
 * The least address space (ulimit -v) spawnbench starts with (bytes). Node reserves address space for
 * each thread's V8 code range and heap: on Node 20, x64, `run -- node server.js` died with a V8 "Fatal
 * process OOM" trap at 1.5 GB and ran at 1.8 GB (the server inherits the limit); 2 GiB leaves a margin.
 */
export const MIN_ADDRESS_SPACE_BYTES = 2 * 1024 ** 3;

/**
 * The address space (ulimit -v) each load-generator thread beyond the first adds to MIN_ADDRESS_SPACE_BYTES
 * (bytes): a worker thread reserves its own V8 heap and code range. On Node 20, x64, `run --generator-threads 2`
 * died with a V8 "Fatal process OOM" trap (exit 133) at 2 GiB and an abort at 2.25 GB, and ran at 2.3 GB.
 */
export const GENERATOR_THREAD_ADDRESS_SPACE_BYTES = 512 * 1024 ** 2;

/**
 * The least stack (ulimit -s) spawnbench starts with (bytes). V8 assumes its main thread has 984 kB of
 * stack (its --stack-size default) and only checks against that: with less, a deep call runs off the
 * real stack and Node dies by SIGSEGV, not a RangeError. On Node 20, x64, `spawnbench --help` died so
 * (exit 139, no word) at `ulimit -s 70` and ran at 80; 1 MiB is V8's assumption with the native frames below it.
 */
export const MIN_STACK_BYTES = 1024 ** 2;

/**
 * The same level as GENERATOR_BUSY_ELU, in the unit the /proc sampler gives:
 * CPU per generator thread, % of one core. One level in two units, so the
 * dashboard's generator warning and tune's "the generator is the limit" agree
 * (they were 80% and 85% before, and a user saw two different limits).
 */
export const GENERATOR_BUSY_CPU_PCT = 90;

// ── Spawn ────────────────────────────────────────────────────────────────────

/**
 * Share of wall time a thread spends frozen inside child_process spawn (0..1)
 * from which it is a problem worth fixing: diagnose's spawn-blocked verdict and
 * the dashboard's highlight. libuv forks and waits for exec on the calling thread
 * (~1.3 ms per `echo` here), so at 10% the thread already loses a tenth of its
 * time, and one process cannot pass ~800 spawns/s; the incident behind
 * spawnbench sat at 30%.
 */
export const SPAWN_BLOCKED_FRACTION = 0.1;

/**
 * Share of the main thread's wall time blocked in spawn (0..1) from which tune
 * names the main thread as what capped throughput ("more workers will not help").
 * A different claim from SPAWN_BLOCKED_FRACTION: a thread can lose a tenth of its
 * time and still have room, so the bottleneck needs more. The write-up behind
 * spawnbench measured ~30% when a Node server could not start more than ~40
 * processes at a time; 25% leaves room for sampling noise below that.
 */
export const SPAWN_BLOCKED_LIMIT_FRACTION = 0.25;

// ── Event loop ───────────────────────────────────────────────────────────────

/** Median event-loop delay (ms) from which a loop is stalled (Clinic Doctor's threshold): half of all timers and I/O callbacks run 10 ms late. */
export const LOOP_DELAY_P50_MS = 10;

/**
 * Event-loop delay at p99 (ms) from which the loop stalls at times: one callback
 * in a hundred waits longer than a typical request takes. Diagnose and the
 * dashboard's loop column both use it.
 */
export const LOOP_DELAY_P99_MS = 50;

/** Longest event-loop delay (ms) that is a user-visible stall (Clinic Doctor's threshold). */
export const LOOP_DELAY_MAX_MS = 100;

/**
 * Share of wall time in JavaScript (0..1) needed when only the tail (p99, max)
 * is late: stalls that come back (100 ms every 500 ms is 0.2), not one
 * preemption or a one-off hiccup on a mostly idle loop (seen: a 60 ms delay at
 * ELU 0.07 on a crowded machine).
 */
export const JS_SHARE_FOR_TAIL = 0.1;

/**
 * A request's main-thread time (ms, the probe's route timer) under which no one request holds the event loop: a late
 * loop whose routes all take less, and account for most of its busy time (ROUTES_BUSY_SHARE), is late from many short
 * requests queued in one turn, not from long synchronous work. Seen: hello-world at 1,000 connections, 0.04 ms a
 * request, loop delay p50 21 ms, read "blocked by JavaScript … move long synchronous work to a worker thread".
 */
export const SHORT_REQUEST_MS = 1;

/** Share of the main thread's busy time (0..1) the routes must account for before their times say what held it. */
export const ROUTES_BUSY_SHARE = 0.8;

/**
 * ELU (0..1) from which a thread is saturated (Clinic Doctor's 95% median): the
 * rate seen is about the most it serves. Diagnose's healthy verdict and the
 * dashboard's ELU highlight.
 */
export const SATURATED_ELU = 0.95;

/** Below this ELU (0..1) a linear extrapolation of capacity is mostly noise, so diagnose gives none. */
export const MIN_ELU_TO_EXTRAPOLATE = 0.05;

/**
 * The share (0..1) of its limit a server must use before diagnose's healthy verdict
 * scales the rate seen up to a capacity in a straight line. At light load each
 * request also pays for waking the server (and a probe's fixed cost weighs more),
 * so the line falls short: a hello-world server that serves 43,498 req/s at
 * `-c 30` (diagnose, 2 cores) was scaled to 1,483 from `--rate 100` (main thread
 * 7% busy), 7,080 from `--rate 1000` (14%), 22,120 from `--rate 6000` (27%) and
 * 20,657 from `-c 1` (47%), but 37,350 from `-c 2` (73%) and 38,012 from `-c 4`
 * (88%). Below it the capacity is said to be unknown, unless each request is
 * costly enough that waking is a small part of it (EXTRAPOLATE_MIN_COST_MS).
 */
export const EXTRAPOLATE_MIN_SHARE = 0.6;

/**
 * A request that takes this much of its limit (ms of a thread, or of a core for the
 * CPU budget) is scaled from a lighter load, at least EXTRAPOLATE_MIN_SHARE_COSTLY
 * of the limit: waking the server is a small part of it. A route burning 2 ms of
 * JavaScript (truth about 450 req/s) was scaled to 366 from `--rate 100` (27% busy,
 * 2.7 ms each) and 386 from `--rate 200`; from `--rate 50` (15%) it was 332. At light
 * load the fixed cost weighs on each request too: a hello-world server at `--rate 200`
 * read 1.04 ms a request on Node 26 (main thread 21% busy, fresh-clone CI), so 1 ms
 * was too low a mark.
 */
export const EXTRAPOLATE_MIN_COST_MS = 2;

/** The least share of its limit a costly request (EXTRAPOLATE_MIN_COST_MS) is scaled from. */
export const EXTRAPOLATE_MIN_SHARE_COSTLY = 0.2;

/**
 * Event-loop utilisation of the strategy's main thread, averaged over a run
 * (0..1), from which tune names it as the limit. Clinic Doctor flags a median
 * ELU ≥ 0.95 per 10 ms sample (SATURATED_ELU); averaged over a whole run, 0.9
 * already means most requests wait behind others on that loop, and adding
 * workers behind it cannot raise throughput. Two names because a run average
 * sits below the per-sample level for the same saturated loop.
 */
export const MAIN_ELU_LIMIT = 0.9;

/**
 * The workers' mean busy share (0..1) below which they took no work from the main thread: no
 * hand-off to be the limit. An idle helper thread (a log transport's, an eval'd timer) beside a
 * server blocked by its own JavaScript read "the main thread's hand-off is the limit … 1 thread
 * have room"; a pool its main thread feeds too slowly still works a share of the time (35-40% seen).
 */
export const HANDOFF_MIN_WORKER_BUSY = 0.02;

// ── Worker threads ───────────────────────────────────────────────────────────

/**
 * Share of wall time (0..1) by which a worker thread's ELU may exceed what its
 * time on a CPU, in the run queue and blocked in spawn explains before ELU is
 * not believed and the thread's CPU time is its busy figure. A thread sleeping in
 * `Atomics.wait` (piscina's idle threads, by default) reads as busy to ELU:
 * measured, a thread that slept 2 s there read ELU 1.09. 0.2 leaves room for the
 * gap between a 250 ms ELU interval and a /proc reading taken a moment apart,
 * and for short synchronous I/O, which a loop's ELU counts too.
 */
export const ELU_CPU_DISAGREE = 0.2;

/**
 * CPU (% of one core) from which one of a process's other threads (libuv's pool,
 * V8's GC and compiler threads) counts as working in an interval: an idle libuv
 * or V8 thread wakes for well under 1%; 10% is a pool thread doing requests' work.
 */
export const OTHER_THREAD_BUSY_PCT = 10;

/**
 * How often a process's other threads are read (ms): their figures are means over a
 * run, not live, and a reading of a 7-thread process cost ~250 µs of CPU on the
 * crowded 2-core VM (load 19), too much for every 250 ms interval.
 */
export const OTHER_THREADS_EVERY_MS = 1_000;

/**
 * How soon after the measured phase starts its other threads are first read (ms). Their
 * readings restart with the phase: a reading that reached back into the boot and the
 * warm-up read a saturated libuv pool thread 81% busy over a 1.5 s diagnose (CI, Node 26),
 * below POOL_BUSY_FRACTION, and its verdict was "healthy". Half a second gives a figure to a
 * 1 s run too.
 */
export const OTHER_THREADS_FIRST_MS = 500;

/**
 * CPU of the server (% of one core) below which its CPU per request is too small
 * to scale a capacity by: at 1% the /proc tick resolution (10 ms a tick over 250 ms
 * intervals) is already a large share of it.
 */
export const MIN_SERVER_CPU_PCT = 1;

/**
 * Mean busy share (0..1) of a pool's workers (threads or processes) from which
 * the pool is at capacity when the cores are full too (MACHINE_CPU_LIMIT_PCT):
 * each worker has about a tenth of its time left, less than what a request's
 * arrival jitter needs.
 */
export const POOL_BUSY_FRACTION = 0.85;

// ── GC ───────────────────────────────────────────────────────────────────────

/** Share of wall time in GC pauses (0..1) from which allocation, not the work, sets the pace. */
export const GC_FRACTION = 0.1;

/** The window GC pauses are summed over (ms), for GC_PEAK_MS_PER_SEC. */
export const GC_WINDOW_MS = 1_000;

/** GC pause time within one second (ms) that stalls the loop long enough to show in p99 latency (Clinic Doctor's GC threshold). */
export const GC_PEAK_MS_PER_SEC = 100;

// ── CPU, seen from outside ───────────────────────────────────────────────────

/**
 * Share of wall time runnable (on a CPU or waiting in the run queue for one),
 * 0..1, or the same as a fraction of one core where the run queue cannot be
 * read: a single-threaded process this busy has no idle time left to answer
 * promptly. Diagnose's cpu-bound verdict and the dashboard's CPU highlight
 * (as BUSY_FRACTION × 100 % of one core).
 */
export const BUSY_FRACTION = 0.9;

/** Mean busy share of all cores (%) from which the machine itself is the limit: the remaining 10% is what the kernel, interrupts and the samplers take. */
export const MACHINE_CPU_LIMIT_PCT = 90;

/**
 * Cores busy beyond what spawnbench saw the strategy, its commands and the
 * generator use (cores), from which the machine-limit finding names other
 * processes, and from which a run's recommendation calls its figures contended
 * (and lowers its confidence): below half a core, the gap is within the
 * difference between /proc readings taken at slightly different moments.
 */
export const OTHER_PROCESSES_CORES = 0.5;

/**
 * What a second hardware thread of a core adds, in cores (0..1): the pool-size
 * estimate and the budget's capacity count a sibling as this much of a core, not
 * as a second one. Two threads share one core's execution units; a second thread
 * gains only while the first stalls. Intel quotes "up to 30%"; published runs of
 * independent single-threaded processes (the shape of fork + exec per request)
 * on a 4-core/8-thread i7 gained 20–30% (blog.stuffedcow.net, 2011); BACKGROUND's
 * 16-core/24-thread REST API peaked at 6 workers, nowhere near 24. This project's
 * VMs have no SMT to measure on, so the share is the middle of the published range.
 */
export const SMT_SIBLING_SHARE = 0.25;

/**
 * Share of a cgroup's CPU-quota periods that ended throttled (0..1) from which the
 * quota is the limit: a quarter of the 100 ms periods cut short means the group
 * asked for more than its quota again and again, not in one burst. Under a
 * saturating load the share goes to 80–100%; an unlimited run shows 0.
 */
export const QUOTA_THROTTLED_FRACTION = 0.25;

/**
 * Share of wall time the server's main thread waited in the run queue (0..1):
 * a fifth of the time ready but not running; loop-delay figures are then partly
 * the scheduler's. An uncrowded machine shows well under 5%.
 */
export const CPU_STARVED_FRACTION = 0.2;

/**
 * Share of wall time in the run queue (0..1) from which the wait is the verdict:
 * the thread waited for a CPU longer than it could have run, so every
 * wall-clock figure is mostly the machine's.
 */
export const CPU_STARVED_VERDICT_FRACTION = 0.5;

// ── Latency and errors ───────────────────────────────────────────────────────

/** Median latency on loopback (ms) that is slow: a request that only runs local JavaScript takes well under a millisecond. */
export const SLOW_P50_MS = 20;

/**
 * Requests (count) an endpoint of a --mix needs before its own median is read as slow (SLOW_P50_MS) where the whole
 * mix's is not. Seen: diagnose --mix with one route waiting 80 ms on a timer (19% of the requests) read "healthy".
 */
export const SLOW_ENDPOINT_MIN_REQUESTS = 20;

/** p99 latency on loopback (ms) at which requests queue behind work rather than being slow to compute. */
export const SLOW_P99_MS = 50;

/** p99 at least this many times p50 (ratio) is a long tail, the shape of requests waiting behind occasional stalls (evidence only). */
export const LONG_TAIL_RATIO = 5;

/** ELU at most this (0..1): the loop is idle at least half of the time, so it is not what makes requests wait. */
export const IDLE_ELU_MAX = 0.5;

/** Without the probe: the main thread runnable at most this share of the time (0..1, or that fraction of one core), so it is not what requests wait for. */
export const IDLE_BUSY_MAX = 0.5;

/**
 * Share of requests that failed (0..1) above which the figures describe failures
 * as much as the service. A run's recommendation is of low confidence from there:
 * errors end requests early or late, so per-request demands are off by up to it.
 */
export const ERROR_RATE = 0.01;

/**
 * Share of requests that failed (0..1) from which a run is said to have mostly
 * failed: a line the summary, dashboard and HTML report cannot hide, and no
 * recommendation, since its figures describe failing requests (an error answered
 * at once makes a server look fast) more than the service (issue #25: 85% of
 * requests 500 under `ulimit -u 50` gave a confident pool size).
 */
export const MOSTLY_FAILED_SHARE = 0.5;

// ── Tune's recommendation ────────────────────────────────────────────────────

/**
 * Throughput band, as a fraction below the best median rps: 5% is about the
 * run-to-run drift of a 10 s run on a shared 2-vCPU machine, so sizes inside it
 * are not reliably slower, and the smaller pool costs less memory and cores.
 */
export const RPS_BAND = 0.05;

/** p99 band, as a fraction above the best median p99: tail latency of short runs wanders more than throughput, hence twice the rps band. */
export const P99_BAND = 0.1;

/**
 * Gain in median rps (fraction) for a policy to count as "clearly higher
 * throughput" than the one with the best p99: the same margin as RPS_BAND, below
 * which sizes are already treated as equal.
 */
export const CLEAR_RPS_GAIN = 0.05;

/**
 * How far (fraction) the USL fit's curve must move between two measured sizes, against
 * a measured move beyond RPS_BAND the other way, to contradict the measured curve
 * (#36: a fit with σ 2.075 predicted falling from 1 worker on while the data rose to 4).
 * 1%: below it the fit is flat there, which any noisy plateau allows.
 */
export const USL_DIRECTION_MIN = 0.01;

/**
 * How far (fraction) connections / latency may be from the measured throughput for
 * Little's law to say every connection was waiting on the server (src/analysis/little-law.js).
 * On a closed loop the two agree up to the generator's own time between requests; 20%
 * leaves room for a median standing in for the mean (a right-skewed latency's median is
 * below its mean). Seen: 30 connections / 2.4 ms p50 = 12,500 req/s against 12,498 measured.
 */
export const LITTLE_LAW_TOLERANCE = 0.2;

/**
 * A request's time at least this many times its main thread's work (ratio, ELU / throughput) is a wait outside the
 * server (a database, a downstream, a timer), when every connection was waiting on it (Little's law) and the median
 * is slow (SLOW_P50_MS). Seen: a proxy through a 4-socket agent to a 20 ms downstream, 30 connections, p50 169 ms for
 * 0.9 ms of work: "the limit is the load offered" while wrk at 60 and 120 connections served no more.
 */
export const WAIT_WORK_RATIO = 10;

/**
 * A measured report interval of the load generator longer than its period (one second) by at least this (ms): spawnbench
 * itself did not run for that long (Ctrl-Z or SIGSTOP, a suspended machine, a debugger), so nothing was sent then. A busy
 * generator thread reports a few hundred ms late at most (seen under load 20 on 2 cores); a second late is a stop.
 * Seen: spawnbench stopped 2 s of a 3-s run read "18,100 req/s … the limit is the load offered" of a server that served
 * 54,284 requests in the ~1 s it was driven.
 */
export const GENERATOR_STOPPED_MIN_MS = 1000;

/**
 * An open loop whose throughput reached at least this share of its rate (0..1) was served in full: the rate offered, not
 * the server, set the throughput, and every size that serves it shows the same. Seen: `tune --processes 1,2 --rate 50`
 * read "throughput stopped rising past it (50 req/s at 2 workers) … the limit is one spawnbench does not sample; look at
 * what the workers wait on (memory and swap, disk, a downstream service, locks)".
 */
export const OPEN_LOOP_RATE_MET = 0.9;

/**
 * A second Ctrl-C or SIGTERM within this many ms of the first is the same one delivered twice, not a user's second
 * press (ms): `timeout`, a CI runner or a shell that signals both the process and its group delivers it twice within
 * microseconds, and a compare stopped so once exited 130 with no table and no --out, as a second press does.
 */
export const SIGNAL_REPEAT_MIN_MS = 500;

/**
 * Busiest thread (busy or ELU, 0..1) from which the connection count is not called the
 * limit, though Little's law holds (it holds on any closed loop the generator kept full):
 * a thread this busy is near its own limit, and more connections would mostly queue.
 * A full run once read a CPU-burning server's main thread 0.83 busy on a crowded machine
 * and called the connection count the limit.
 */
export const CONNECTION_BOUND_MAX_BUSY = 0.75;

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

/**
 * How much CPU libuv's pool threads of a user's server must use during a run,
 * % of one core (all of them together), before an inherited UV_THREADPOOL_SIZE
 * counts as its size knob. An idle pool (a server that only spawns and serves
 * HTTP: its pool threads read 0% here) is not what limits it, so sizing it
 * would change nothing; a pool that hashes (fixtures/servers/threadpool.js)
 * reads tens of percent. 10% is well above a pool that only resolves a few
 * DNS names or opens a few files.
 */
export const POOL_THREADS_MATTER_PCT = 10;

/**
 * The same as a share of the server's own CPU (its processes, all threads): on a
 * machine so busy that the server gets few requests through, the pool's CPU is
 * small in cores but not in share. Measured here at load average 36 (3 s runs,
 * 8 connections): fixtures/servers/threadpool.js's pool (and V8's threads) used
 * 26% of its process's CPU, fixtures/servers/spawn-per-request.js's 2%. 0.2
 * keeps them apart.
 */
export const POOL_THREADS_MATTER_SHARE = 0.2;

// ── What the views show ──────────────────────────────────────────────────────

/**
 * Dashboard refresh (ms): at most 4 frames a second, the low end of the 4–10/s a
 * live view needs to look live, because each frame costs ~2.5–3.6 ms of CPU
 * (React + Ink's full-frame output, measured on a loaded 2-core machine) and the
 * budget is 2% of a core (bench/dashboard.js). Samples arrive every 250 ms, so
 * every sample shows.
 */
export const DASHBOARD_REFRESH_MS = 250;

/** Gap between progress lines without a TTY (ms): at most every few seconds, so logs and CI output stay readable. */
export const PROGRESS_INTERVAL_MS = 2_000;

/** Below this CPU (% of one core) the summary leaves out the spawned-commands line: rounding noise on a server that spawns nothing. */
export const MIN_SHOWN_CPU_PCT = 0.5;

/** Functions the --cpu-prof summary lists (count): the few with the most self time are where to look; the profile has the rest. */
export const TOP_FUNCTIONS = 10;

// ── --against: a run judged against a baseline ──────────────────────────────

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

// ── A run's recommendation ───────────────────────────────────────────────────

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
 * Measured time below which diagnose does not call a server healthy, in ms: four probe intervals
 * of 250 ms, the fewest in which a blocked loop shows in the loop delay and ELU. A handler that
 * burns 2 ms per request (-w 0, a shared 2-core machine at load 5) read "healthy: no stall found …
 * nothing to fix" over -n 20 (0.1 s) and -d 200ms, and once in two over 500 ms; "the event loop is
 * blocked by JavaScript" in 6 runs of 7 over 1 s, 3 of 3 over 2 s, and over 10 s.
 */
export const DIAGNOSE_MIN_MEASURED_MS = 1000;

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
 * Share of its busy time a worker's or main thread's loop waited in the run queue
 * (/proc/<pid>/schedstat), from which the run is called contended: at 25% a
 * quarter of what ELU calls busy is the machine's doing, not the server's.
 */
export const ADVICE_CONTENDED_WAIT = 0.25;

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

/**
 * The same share for a loop that spawns with posix_spawn (spawnbench's Node workers where
 * node:ffi or koffi loads: strategies/lib/posix-spawn.js), 0..1. glibc clones with
 * CLONE_VM|CLONE_VFORK: nothing to drop, and the parent sleeps until the child's exec
 * switches memory, a larger part of a cheaper child. Measured the same way (single-worker
 * runs, stretch 2.4–2.6, `echo`, Node 20.20 with koffi, 5 s): 0.52 for fork-pool, 0.55 for
 * comm-channel. With 0.34 the knee of runs at 1, 2 and 3 workers came out 0.75–0.81, and
 * the advice said 1 worker where 1, 2 and 3 workers served 653–741, 941–1,015 and
 * 861–869 req/s; with 0.53 it comes out 0.83–1.00, and the advice says 2.
 */
export const EXEC_WAIT_SHARE_OF_CHILD_CPU_POSIX_SPAWN = 0.53;

// ── How a runtime spawns ───────────────────────────────────────────────────────

/**
 * libuv version (major.minor.patch) from which uv_spawn uses posix_spawn (vfork
 * semantics) on Linux instead of fork: libuv 1.53.0, released 2026-09. A fork copies
 * the page tables of the whole calling process and the calling thread waits until
 * the child has exec'd; posix_spawn shares the parent's memory until exec, so the
 * time blocked per spawn no longer grows with the size of the process.
 */
export const POSIX_SPAWN_LIBUV = '1.53.0';

// ── Limits that keep spawnbench safe on hostile input ────────────────────────

/**
 * Open files spawnbench needs to start, count. Loading its modules alone opens ~350 at once
 * (the ESM loader reads the import graph in parallel: 300 failed, 400 passed on Node 20), and a
 * run adds its connections, the strategy's pipes and the sampler's /proc reads.
 */
export const MIN_OPEN_FILES = 1024;

/**
 * Open files a run needs besides its connections, count: Node's own, the sampler's /proc reads,
 * the server's pipes. Under `ulimit -n 1024`, -c 960 ran with no error and -c 1000 had 245 connects
 * fail with spawnbench's own EMFILE, counted as the server's errors.
 */
export const OPEN_FILES_BESIDES_CONNECTIONS = 64;

/**
 * A second of the measured phase with no response at all, between seconds that had some (or before
 * the first: a server still getting ready when the warm-up ended), is a pause of the server (a debugger, SIGSTOP, a VM or container pause, a long GC) when its other
 * seconds answered at least this many responses each (median, count) and its median latency was
 * below PAUSE_MAX_P50_MS: such a server has a response in every second it runs. A server frozen
 * 2 s of a 5 s run (kill -STOP) answered 0 in two seconds beside 11,000 to 24,000 in the others,
 * and was sized all the same ("run 2 processes … 3.7× this run's").
 */
export const PAUSE_MIN_RPS = 20;

/** Median latency, ms, below which a second without a response is a pause (see PAUSE_MIN_RPS). */
export const PAUSE_MAX_P50_MS = 200;

/**
 * Open files a Node server holds besides its connections, count: a plain http server on Node 20
 * holds 21 at start (stdio, epoll, eventfd, signal pipes, its listening socket; ls /proc/PID/fd),
 * the probe a few more. A server whose open-files limit is below its connections plus these cannot
 * accept them all: libuv accepts and closes what it cannot hold, and the client sees resets.
 */
export const SERVER_OWN_FILES = 32;

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

/**
 * Deepest nesting of objects and lists a result file may have, levels. spawnbench's own
 * results nest 8 deep (a run, a diagnose); a file edited to nest thousands deep made
 * `report --json` end in "Maximum call stack size exceeded" (JSON.stringify recurses), so
 * such a file is refused when read, far below where any reader runs out of stack.
 */
export const MAX_RESULT_DEPTH = 100;

// ── Error texts, other CPU users, downstreams (issue 30) ─────────────────────

/**
 * Bytes kept of one error text (an error body's first line, a stderr line), UTF-8:
 * room for PostgreSQL's "sorry, too many clients already" or a Node errno line with
 * its path, short enough to print in a summary line.
 */
export const ERROR_TEXT_BYTES = 200;

/**
 * Distinct texts kept per status and kind (count): the first few seen; later new
 * texts are only counted. A server that puts a request id in every error body
 * must not grow the generator's memory with the number of requests.
 */
export const ERROR_TEXTS_KEPT = 5;

/**
 * Status and kind pairs the generator keeps texts for (count): statuses are 100–599
 * and kinds 7, but a real run shows a handful; this bounds a hostile server.
 */
export const ERROR_KEYS_KEPT = 24;

/** Distinct stderr lines of the server counted during a run (count): the rest are counted as other lines. */
export const STDERR_LINES_KEPT = 50;

/**
 * How often the whole of /proc is read for the processes outside the run and for
 * the server's downstream connections (ms): once a second. A full /proc read is
 * ~15 µs per process (~100 here, ~1.5 ms), too much at every 250 ms sample.
 */
export const WIDE_SCAN_INTERVAL_MS = 1_000;

/**
 * Least CPU a process name must have used to be listed as an other CPU user (cores):
 * a twentieth of a core. Below it are the machine's daemons and kernel threads,
 * which wake a few times a second and would fill the list with noise.
 */
export const OTHER_USER_MIN_CORES = 0.05;

/** Process names listed as other CPU users (count), most CPU first. */
export const OTHER_USERS_SHOWN = 4;

/**
 * Share of the machine's cores one other program (all its processes by name) must use
 * to be named in a limit sentence (0..1): a quarter of a 2-core machine is half a
 * core, the level at which OTHER_PROCESSES_CORES already calls a machine shared.
 */
export const OTHER_USER_SHARE = 0.25;

/** Downstream peers kept per interval (count), most connections first. */
export const DOWNSTREAMS_KEPT = 8;

/**
 * Connections to a downstream that must be added between two sizes for tune to call
 * it a jump (count): one more worker with a pool of one is not a story; a pool's
 * worth (pg's default is 10) is.
 */
export const DOWNSTREAM_JUMP_CONNECTIONS = 2;

// ── Threads outside the event loop (libuv's pool, V8's, an addon's) ─────────

/**
 * Share of the server's CPU (0..1, all its threads) from which the threads outside
 * its event loops (libuv's pool, V8's platform, an addon's native threads) are where
 * its work runs: a pbkdf2 or bcrypt server's pool threads take 90–99% of its CPU
 * (fixtures/servers/pbkdf2.js: 109% of 110%), a JavaScript-bound server's V8 threads
 * a few percent (GC and compiler work beside the loop). Half keeps them far apart.
 */
export const OFF_LOOP_SHARE = 0.5;

/**
 * Time a server's threads outside its event loops were runnable (on a CPU or waiting
 * for one; cores' worth) from which they are not off-CPU, so requests that are slow
 * while the loop is idle are not waiting on I/O or a downstream but on those threads:
 * one pool thread hashing is runnable a whole core's worth, even when a crowded machine
 * gives it a third of a core (measured: 0.31 cores on a CPU, 0.91 per thread runnable,
 * load 18); a server waiting on a database or a timer ~0.01
 * (fixtures/servers/slow-downstream.js). A pool thread waiting on a slow disk is
 * off-CPU and stays below it: that is I/O.
 */
export const OFF_LOOP_BUSY_CORES = 0.5;
/**
 * Most endpoints a --mix may hold (count): each is counted on its own in every generator
 * thread, with latency counts and a histogram of ~0.2 MB each (23,221 buckets of 8 bytes),
 * so 200 cost ~80 MB per thread; a browser capture with more is mostly static files to drop.
 */
export const MIX_MAX_ENTRIES = 200;

/**
 * Longest the server's process tree is read again, after the measured load, while no process of
 * its group listens (ms): a launcher that restarts its server every 1.5 s (the restarts fixture)
 * was caught between two children at both reads and taken for the server itself.
 */
export const LISTENER_WAIT_MS = 1500;

/**
 * Free space below which a --cpu-prof-dir whose profiles are missing is said to be full (bytes): Node
 * writes a profile when the server exits and fails silently on a full disk, which read "the server was
 * not a Node.js process, or it was killed". A 2 s profile of a hello-world server is 68 kB; a busy
 * application's of 10 s a few MB.
 */
export const CPU_PROFILE_ROOM_BYTES = 1024 * 1024;
