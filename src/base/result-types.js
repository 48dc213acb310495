/**
 * The result documents spawnbench makes, as types: what flows from an engine through
 * analysis to report/ and ui/, what `--json` prints and `--out` writes. Types only: this
 * module exports no value. `schema/result.schema.json` says the same for readers of the
 * JSON; test/result-types.test.js holds the two in step (every field the schema names
 * is here, required there means not optional here, nullable there means `|null` here).
 *
 * A field added to a result is added here and, when users should rely on it, to the
 * schema; a field is never renamed or removed within a format.
 */

/**
 * Milliseconds; null where nothing was measured (no response succeeded).
 * @typedef {object} Latency
 * @property {number|null} [minMs]
 * @property {number|null} [meanMs]
 * @property {number|null} p50Ms
 * @property {number|null} [p75Ms]
 * @property {number|null} p90Ms
 * @property {number|null} p99Ms
 * @property {number|null} [p999Ms]
 * @property {number|null} maxMs
 */

/**
 * Failed requests by kind, and their total.
 * @typedef {object} LoadErrors
 * @property {number} total
 * @property {number} [connect]
 * @property {number} [reset]
 * @property {number} [timeout]
 * @property {number} [parse]
 * @property {number} [mismatch]
 * @property {number} [non2xx]
 * @property {number} [tls]
 */

/**
 * One second of the measured phase.
 * @typedef {object} LoadSecond
 * @property {number} second
 * @property {number} requests
 * @property {number} errors
 * @property {number|null} p50Ms
 * @property {number|null} p90Ms
 * @property {number|null} p99Ms
 * @property {number|null} maxMs
 */

/**
 * What the load generator measured (src/load/): the measured phase only.
 * @typedef {object} LoadResult
 * @property {'closed'|'open'} [mode] closed loop (connections) or open loop (--rate)
 * @property {number} [connections]
 * @property {number} [threads] generator threads
 * @property {number|null} [rate] the open loop's arrival rate, requests/s
 * @property {number|null} durationMs measured time
 * @property {number} requests measured requests (warm-up not counted)
 * @property {number|null} rps requests per second over the measured phase
 * @property {number} [bytes] bytes received
 * @property {Latency} latency every response's latency (failures included)
 * @property {Latency} [succeededLatency] the successful responses' latency: what the gates read
 * @property {string} [histogram] the latency histogram, encoded (hdr-histogram-js)
 * @property {LoadErrors} errors
 * @property {Record<string, number>} [statuses] responses by status code
 * @property {Record<string, unknown>} [bodySamples]
 * @property {ErrorTexts[]} [errorTexts] the first lines of error bodies (a failed request's errno), cleaned: by status or kind, most frequent first
 * @property {number} [missed] open loop: requests not sent when due
 * @property {number} [unsolicited] parse errors with no request in flight (bytes or a response nobody asked for), also in errors.parse
 * @property {LoadSecond[]} [series]
 * @property {{ ms: number, longestMs: number, inWarmup?: boolean }|null} [generatorStopped] spawnbench itself did not run while measuring (Ctrl-Z, SIGSTOP), or in an open loop's warm-up (inWarmup: its requests were then sent late into the measured time): in all and the longest stop, ms
 * @property {boolean} [speaksTls] nothing succeeded, connections were reset, and a TLS handshake succeeded where plain HTTP was sent (src/runner/engine-shell.js)
 * @property {{ pid: number|null, label: string|null, silentMs: number, cpuPct: number, fromStart?: boolean }|null} [spinning] no response arrived while a server process kept a CPU busy with its probe silent (analysis/busy-silence.js)
 * @property {{ cpuPct: number|null, elu: number|null, writePath?: string }} [generator]
 * @property {string[]} [notes]
 * @property {Endpoint[]} [endpoints] with --mix (or a repeated --path): one per entry of the mix
 */

/**
 * One entry of a mix, measured on its own (src/load/): `load.endpoints`.
 * @typedef {object} Endpoint
 * @property {string} name the entry's name, or METHOD path
 * @property {string} method
 * @property {string} path with its query, as sent
 * @property {number} weight
 * @property {number} [weightShare]
 * @property {number} requests measured responses of this entry
 * @property {number} [share] its share of the measured responses, 0..1
 * @property {number} [rps]
 * @property {LoadErrors} errors
 * @property {Record<string, number>} [statuses]
 * @property {number|null} p50Ms
 * @property {number|null} [p90Ms]
 * @property {number|null} p99Ms
 * @property {number|null} [maxMs]
 * @property {Latency} [latency]
 * @property {string|null} histogram
 * @property {ErrorTexts[]} [errorTexts]
 */

/**
 * The texts of one error status or kind (src/load/counters.js).
 * @typedef {object} ErrorTexts
 * @property {number|null} status a non-2xx status; null for a failed request
 * @property {string} kind 'non2xx', 'connect', 'reset', …
 * @property {number} count
 * @property {Array<{ text: string, count: number }>} texts most frequent first
 * @property {number} [other] the count of texts not kept
 */

/**
 * One metric of the table (src/analysis/metrics.js) as measured in a result.
 * @typedef {object} MetricFigure
 * @property {string} id
 * @property {number|null} value in `unit`; null when the result does not hold it
 * @property {string} unit
 * @property {'higher'|'lower'} better
 * @property {'ms'|'rps'|'count'|'percent'|'fraction'|'number'} format
 * @property {string|null} [process] the process the figure came from
 * @property {number|null} [of] the whole a count is a share of
 * @property {number} [unsolicited] errors: responses no request asked for, counted in `value` but failing no request
 * @property {'no-successes'|'no-responses'} [why] why `value` has no data (its gates fail)
 */

/**
 * One --assert outcome.
 * @typedef {object} Assertion
 * @property {'assert-pass'|'assert-fail'|'assert-not-measured'} id
 * @property {string} expr
 * @property {string} metric
 * @property {'<'|'<='|'>'|'>='|'='} op
 * @property {number} limit
 * @property {string} unit
 * @property {number|null} measured
 * @property {string|null} [where]
 * @property {string|null} [process]
 * @property {'no-successes'|'no-responses'|'stopped-early'|'generator-stopped'|'run-failed'|'stopped-answering'|'lost-requests'|'lost-requests-endpoint'|'timed-out'|'baseline-stopped-early'|'baseline-failed'|'no-rows'|'comparison-stopped-early'|'no-endpoints'|'ambiguous-endpoint'|'unsolicited'|'outside'} [why] why nothing was measured, or why the figure measured cannot pass (src/analysis/assert-evaluate.js)
 * @property {string} [endpoint] the endpoint of a mix it filtered on
 * @property {boolean} pass
 */

/**
 * --against: the changes from a baseline result, each judged against the noise.
 * @typedef {object} Against
 * @property {'against'} id
 * @property {string} [file]
 * @property {AgainstDelta[]} [deltas]
 * @property {Array<{ workload: string, strategy: string, deltas: AgainstDelta[] }>} [rows] between two compare results
 * @property {string[]} [unmatched] between two compare results: the rows of one only
 * @property {Array<{ name: string, deltas: AgainstDelta[], summary: AgainstSummary }>} [endpoints] each endpoint found in both results, judged on its own
 * @property {{ before: { kind: string|null, name: string|null }, after: { kind: string|null, name: string|null } }} [differentTargets]
 *   present when the baseline measured another target
 * @property {{ before: { requests: string[], body: boolean, rate: number|null, connections: number|null }, after: { requests: string[], body: boolean, rate: number|null, connections: number|null } }} [differentLoads]
 * @property {{ before: { cpuModel: string|null, cpus: number|null }, after: { cpuModel: string|null, cpus: number|null } }} [differentMachines]
 *   the two ran on other CPUs (another model, or a CPU budget of other size)
 *   present when the baseline sent other requests (method, path, mix, a body) or another load (--connections, --rate)
 * @property {'stopped-early'|'failed'} [baselineCut] present when the baseline's figures cover part of its run (stopped
 *   before its end, or its run failed): change gates against it fail
 * @property {AgainstSummary} summary
 */

/**
 * The marked changes of --against, counted.
 * @typedef {{ changes: number, better: number, worse: number }} AgainstSummary
 */

/**
 * One figure's change from the baseline (src/analysis/against-deltas.js).
 * @typedef {object} AgainstDelta
 * @property {string} metric
 * @property {string} unit
 * @property {number|null} before
 * @property {number|null} after
 * @property {number|null} changePct (after − before) / before × 100; null when before is 0
 * @property {boolean|null} significant beyond the noise; null when it cannot be judged
 * @property {boolean|null} better the change is an improvement
 * @property {object} noise the figures behind `significant`
 */

/**
 * A run's plan: options made plain (run-plan.js, server-command-plan.js).
 * @typedef {object} RunPlan
 * @property {string} [command]
 * @property {{ kind: 'strategy'|'url'|'command' } & Record<string, any>} target
 * @property {{ enabled: boolean, intervalMs: number }} [probe]
 * @property {Record<string, any>} [output]
 * @property {{ name: string, command: string, args: string[], expectedBytes?: number|null } | null} [workload]
 * @property {LoadPlan} load the load options, as startLoad() takes them
 */

/**
 * A run plan's load (src/plan/run-plan.js, checked by src/load/load-options.js): the fields every
 * report describes, named; the rest as startLoad() takes them.
 * @typedef {{ rate: number|null, connections: number, threads: number, requests: number|null,
 *   durationMs: number|null, warmupMs: number, extendToMs?: number|null } & Record<string, any>} LoadPlan
 */

/**
 * The machine line's facts (src/machine/machine.js).
 * @typedef {object} Machine
 * @property {string} node
 * @property {string} libuv
 * @property {string} [v8]
 * @property {string} platform
 * @property {string} arch
 * @property {string} [cpuModel]
 * @property {number} cores
 * @property {number} [physicalCores]
 * @property {number} [memTotalBytes]
 * @property {import('../machine/cpu-budget.js').CpuBudget} [cpu] the CPU budget (src/machine/cpu-budget.js)
 */

/**
 * One process's (or thread's) figures over the measured phase (src/sample/recorder.js);
 * null where not measured.
 * @typedef {object} ProcessSummary
 * @property {number|null} [elu] event-loop utilisation, 0..1 (probe)
 * @property {number|null} [blockedFraction] the main thread's time blocked inside spawn, 0..1 (probe)
 * @property {number|null} [msPerSpawn]
 * @property {number|null} [spawnsPerSec]
 * @property {number|null} [loopDelayP50Ms]
 * @property {number|null} [loopDelayP99Ms]
 * @property {number|null} [loopDelayMaxMs]
 * @property {number|null} [gcMs]
 * @property {number|null} [cpuPct] % of one core (a process's covers its threads)
 * @property {number|null} [rssBytes] peak
 * @property {number|null} [heapUsedBytes] peak
 * @property {number|null} [loopCpuPct]
 * @property {number|null} [waitPct]
 * @property {number|null} [inFlight]
 * @property {number|null} [busy] busy share, 0..1: ELU, or a thread's CPU time (src/sample/thread-busy.js)
 * @property {'elu'|'cpu'|null} [busyFrom]
 * @property {{ count: number, busy: number|null, cpuPct: number|null, maxCpuPct: number|null } & Record<string, unknown> | null} [otherThreads]
 *   libuv's pool and V8's threads
 * @property {string|null} [spawnTiming]
 * @property {{ kind: string, version: string, libuv?: string, spawnMechanism?: string } | null} [runtime]
 * @property {RouteFigures[]|null} [routes] each HTTP route's cost to this thread, costliest first (the probe's route timer)
 */

/**
 * One route's cost to a thread, by method and path template (src/probe/route-timer.js).
 * @typedef {object} RouteFigures
 * @property {string} route 'GET /items/:id'
 * @property {number} requests scaled up from the timed ones
 * @property {number} [sampledRequests] the requests timed
 * @property {number} [loopMs] main-thread time in all, scaled up
 * @property {number} loopMsPerRequest
 * @property {number} spawnsPerRequest
 * @property {number} [blockedMsPerRequest] time blocked in spawn
 * @property {number|null} busyShare its share of the thread's busy time (an estimate)
 */

/**
 * One process or thread the samplers followed (src/sample/recorder.js).
 * @typedef {object} ProcessSamples
 * @property {string} [key]
 * @property {number} pid
 * @property {number|null} [threadId]
 * @property {string} [role] 'main', 'worker', 'thread', 'replaced', …
 * @property {string} [label]
 * @property {number|null} [requests] completed while sampling
 * @property {object[]} [series] one entry per sample
 * @property {ProcessSummary|null} [summary]
 */

/**
 * What the samplers saw over the measured phase (src/sample/): per process and thread,
 * the spawned commands, the cores, the generator, the CPU quotas' throttling.
 * @typedef {object} SamplesSummary
 * @property {ProcessSamples[]} processes
 * @property {string} [spawnTiming]
 * @property {{ cpuPct: number|null, seen?: number, spawns?: number, rssBytes?: number|null,
 *   failures?: Array<{ command: string, code: string, count: number }>|null }} [spawned] the spawned commands; `failures`:
 *   the spawns the probe saw fail, by command and errno (null: none did)
 * @property {{ cpus: number[] }} [system]
 * @property {{ cpuPct: number|null, elu: number|null }} [generator]
 * @property {{ available: boolean, reason: string|null, program?: string }} [probe] `program`: the server's executable where it is no Node.js (python3.11)
 * @property {Throttling[]} [throttling]
 * @property {string[]} [notes]
 * @property {{ cores: number|null, users: Array<{ name: string, count: number, cores: number, pids?: number[], parents?: number[] }>, elapsedMs?: number, rest?: { names: number, cores: number } }|null} [otherUsers]
 *   the CPU of processes outside the run (src/sample/other-users.js)
 * @property {Downstream[]|null} [downstreams]
 */

/**
 * One CPU quota's figures over the measured phase (src/sample/throttling.js).
 * @typedef {object} Throttling
 * @property {Array<'server'|'spawnbench'>} roles whose quota it is
 * @property {number} quotaCpus
 * @property {string} [cgroup] the cgroup path that sets the quota
 * @property {1|2} [version]
 * @property {number} periods quota periods that ran
 * @property {number} [throttledPeriods]
 * @property {number|null} fraction throttled ÷ periods (null: no period ran)
 * @property {number} throttledMs time the group's threads were held back
 * @property {number|null} usageCpus CPUs the cgroup used on average (null where not readable)
 * @property {number|null} [periodMs] the quota's period (cpu.cfs_period_us, cpu.max): a throttled group stops for up to this long
 */

/**
 * A peer the server held connections to (src/sample/downstreams.js), over the measured phase.
 * @typedef {object} Downstream
 * @property {string} peer 'address:port', or 'unix:<path>'
 * @property {'tcp'|'unix'} [transport]
 * @property {string|null} name the process listening on it, when on this host and readable
 * @property {number|null} [pid]
 * @property {number} connections
 * @property {number} meanConnections
 */

/**
 * The server's stderr, its most frequent lines (src/runner/stderr-lines.js).
 * @typedef {object} ServerStderr
 * @property {Array<{ text: string, count: number }>} lines
 * @property {number} other
 * @property {number} total
 */

/**
 * How many requests succeeded: the one type src/analysis/request-outcome.js makes.
 * @typedef {import('../analysis/request-outcome.js').RequestOutcome} RequestOutcome
 */

/**
 * A run's recommendation (src/analysis/run-advice.js): ids and figures; words from report/.
 * @typedef {object} RunRecommendation
 * @property {number|null} size
 * @property {string|null} policy
 * @property {string|null} strategy
 * @property {string|null} basis
 * @property {string|null} confidence
 * @property {Array<{ id: string, figures?: Record<string, any> }>} reasons
 * @property {{ command: string, argv: string[], steps?: number, expectedMs?: number } | null} confirmWith
 * @property {Record<string, any>|null} estimate
 */

/**
 * A Node process's threads other than its main thread and Workers (libuv's pool, V8's), over the
 * measured phase (src/sample/proc-sampler.js), in all and by kind (src/sample/thread-kinds.js).
 * @typedef {object} OtherThreads
 * @property {number} count
 * @property {number|null} busy mean threads working
 * @property {number|null} cpuPct
 * @property {number|null} maxCpuPct the busiest thread's
 * @property {Record<string, { count: number, busy: number|null, cpuPct: number|null, waitPct?: number|null }>} [kinds]
 * @property {number} [poolSize]
 */

/**
 * The runtime a probed process reported, and how it spawns (src/analysis/spawn-mechanism.js).
 * @typedef {object} ProcessRuntime
 * @property {string} kind 'node', 'bun', 'deno'
 * @property {string|null} version
 * @property {string|null} [libuv]
 * @property {string|null} [spawnMechanism]
 * @property {string} [path]
 * @property {string} [role] whose runtime: 'main', 'workers' (a result's `runtimes`)
 */

/**
 * One sample of a process (src/sample/recorder.js): `t` in ms, the probe's report when it sent one.
 * @typedef {object} ProcessSample
 * @property {number} t
 * @property {number|null} [cpuPct]
 * @property {number|null} [rssBytes]
 * @property {number|null} [requests]
 * @property {{ elu?: number|null, loopDelay?: { p99Ms?: number|null }|null, spawn?: { blockedFraction?: number|null }|null }|null} [probe]
 */

/**
 * The figures behind a delta's mark (src/analysis/against-deltas.js): which are there depends
 * on its noise model, or `reason` when it could not be judged.
 * @typedef {object} DeltaNoise
 * @property {string} [reason] 'single-sample', 'no-noise-model', 'one-repeat', 'too-few-requests', 'too-few-seconds', 'no-successes' (a compare row none of whose requests succeeded), …
 * @property {number} [minRequests]
 * @property {number} [minSeconds]
 * @property {number} [marginRps]
 * @property {[number, number]} [before] the interval or repeats' range before
 * @property {[number, number]} [after]
 * @property {[number, number]} [repeats]
 * @property {number} [shareBefore]
 * @property {number} [shareAfter]
 */

/**
 * One diagnose finding (src/analysis/verdicts.js): its id and figures, and once worded
 * (src/report/diagnose-words.js) its title, evidence and next steps.
 * @typedef {object} DiagnoseFinding
 * @property {string} id
 * @property {string} [kind]
 * @property {string|null} [where]
 * @property {Record<string, any>} [figures] free-form per verdict: each verdict's own figures
 * @property {string} [title]
 * @property {string[]} [evidence]
 * @property {string[]} [next]
 */

/**
 * Diagnose's verdict and the rest it found (`diagnosis`).
 * @typedef {object} Diagnosis
 * @property {DiagnoseFinding} verdict
 * @property {DiagnoseFinding[]} findings
 * @property {Array<{ id: 'cpu'|'probe', reason?: string|null, mode?: string }>} [unseen] what could not be seen, as ids
 * @property {string[]} [notSeen] the same in words
 * @property {Record<string, number>} [thresholds]
 */

/**
 * The size knob diagnose found in a server command, with the tune command that sizes the
 * server by it (src/diagnose/diagnose-engine.js; src/analysis/size-knob.js's FoundKnob).
 * @typedef {object} DiagnoseSizeKnob
 * @property {'flag'|'env'} kind
 * @property {string} [flag]
 * @property {string} [name]
 * @property {number|null} value
 * @property {string} written
 * @property {string[]} command
 * @property {string[]} tune
 */

/**
 * Requests whose command failed to start, by command and errno (src/analysis/spawn-failures.js).
 * @typedef {object} SpawnFailureCount
 * @property {string} command
 * @property {string} code
 * @property {number} count
 * @property {string|null} limit
 * @property {number|null} [limitValue]
 * @property {number} [answered] of them, requests whose error response said so (`spawn echo EMFILE`)
 * @property {number} [seen] of them, failed spawns the probe saw in the server's processes
 */

/**
 * Diagnose's CPU profiles (src/diagnose/diagnose-engine.js): `cpuProfile`.
 * @typedef {object} CpuProfileSummary
 * @property {string} dir
 * @property {string[]} files
 * @property {{ file: string, busyMs: number, functions: Array<{ name: string, url?: string, line?: number, selfMs: number, share: number }> }|null} top
 * @property {number|null} [freeBytes] with no profile: the bytes free in the folder's file system (null: unread)
 */

/**
 * Fields every result document has.
 * @typedef {object} ResultBase
 * @property {'spawnbench'} tool
 * @property {1} format
 * @property {string} [createdAt]
 * @property {Machine} [machine]
 * @property {ProcessRuntime[]} [runtimes]
 * @property {string[]} [notes]
 * @property {string[]} [failures] why the measurement failed; non-empty means exit 1
 * @property {boolean} [stoppedEarly]
 * @property {number} [exitCode]
 * @property {Against} [against]
 * @property {Assertion[]} [assertions]
 * @property {MetricFigure[]} [metrics]
 */

/**
 * The server's open-files limit where it explains connections that were reset: the lowest soft
 * limit of its processes (ulimit -n), the run's connections, the requests reset or not connected, and
 * the limit it needs (the connections and what Node holds itself).
 * @typedef {{ openFiles: number, connections: number, failed: number, needed: number }} OpenFilesLimit
 */

/**
 * `spawnbench run` (and each tune step's and compare run's own run).
 * @typedef {ResultBase & {
 *   kind: 'run',
 *   plan: RunPlan,
 *   machine: Machine,
 *   load: LoadResult,
 *   notes: string[],
 *   failures: string[],
 *   samples?: SamplesSummary|null,
 *   strategy?: Record<string, any>|null,
 *   target?: Record<string, any>,
 *   serverStderr?: ServerStderr|null,
 *   outcome?: RequestOutcome,
 *   workerDeaths?: object[],
 *   spawnFailures?: { total: number, failures: SpawnFailureCount[], swallowed?: number }|null,
 *   openFilesLimit?: OpenFilesLimit|null,
 *   serverExit?: { code: number|null, signal: string|null }|null,
 *   recommendation?: RunRecommendation|null,
 *   server?: Record<string, any>,
 *   sizeKnob?: Record<string, any>|null,
 * }} RunResult
 */

/**
 * `spawnbench diagnose`.
 * @typedef {ResultBase & {
 *   kind: 'diagnose',
 *   plan: RunPlan,
 *   machine: Machine,
 *   load: LoadResult,
 *   diagnosis: Diagnosis,
 *   notes: string[],
 *   failures: string[],
 *   target?: Record<string, any>,
 *   samples?: SamplesSummary|null,
 *   serverStderr?: ServerStderr|null,
 *   mainThread?: Record<string, any>|null,
 *   serverExit?: Record<string, any>|null,
 *   gc?: Record<string, any>,
 *   cpuProfile?: CpuProfileSummary|null,
 *   sizeKnob?: DiagnoseSizeKnob|null,
 *   outcome?: RequestOutcome,
 *   spawnFailures?: { total: number, failures: SpawnFailureCount[], swallowed?: number }|null,
 *   openFilesLimit?: OpenFilesLimit|null,
 * }} DiagnoseResult
 */

/**
 * `spawnbench tune`.
 * @typedef {ResultBase & {
 *   kind: 'tune',
 *   plan: Record<string, any>,
 *   steps?: Array<Record<string, any>>,
 *   search?: Record<string, any>,
 *   usl?: Record<string, any>|null,
 *   recommendation?: Record<string, any> & { cells?: Array<Record<string, any> & { metrics?: MetricFigure[] }> },
 *   downstreamsBySize?: object[],
 *   otherUsersBySize?: object[],
 *   workers?: object[],
 *   processes?: Record<string, any>|null,
 * }} TuneResult
 */

/**
 * `spawnbench compare`.
 * @typedef {ResultBase & {
 *   kind: 'compare',
 *   plan: Record<string, any>,
 *   runs?: Array<Record<string, any>>,
 *   rows?: Array<Record<string, any> & { metrics?: MetricFigure[] }>,
 * }} CompareResult
 */

/**
 * Any result document.
 * @typedef {RunResult|DiagnoseResult|TuneResult|CompareResult} Result
 */

export {};
