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
 * @property {string[]} [errorTexts] the first lines of error bodies, cleaned
 * @property {number} [missed] open loop: requests not sent when due
 * @property {LoadSecond[]} [series]
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
 * @property {object[]} [errorTexts]
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
 * @property {'no-successes'|'no-responses'} [why] why nothing was measured
 * @property {string} [endpoint] the endpoint of a mix it filtered on
 * @property {boolean} pass
 */

/**
 * --against: the changes from a baseline result, each judged against the noise.
 * @typedef {object} Against
 * @property {'against'} id
 * @property {string} [file]
 * @property {object[]} [deltas]
 * @property {object[]} [rows]
 * @property {object[]} [endpoints] each endpoint found in both results, judged on its own
 * @property {{ before: { kind: string|null, name: string|null }, after: { kind: string|null, name: string|null } }} [differentTargets]
 *   present when the baseline measured another target
 * @property {object} summary
 */

/**
 * A run's plan: options made plain (run-plan.js, server-command-plan.js).
 * @typedef {object} RunPlan
 * @property {string} [command]
 * @property {{ kind: 'strategy'|'url'|'command' } & Record<string, any>} target
 * @property {{ enabled: boolean, intervalMs: number }} [probe]
 * @property {Record<string, any>} [output]
 * @property {{ name: string, command: string, args: string[], expectedBytes?: number|null } | null} [workload]
 * @property {Record<string, any>} load the load options, as startLoad() takes them
 */

/**
 * The machine line's facts (src/machine.js).
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
 * @property {Record<string, any>} [cpu] the CPU budget (src/cpu-budget.js)
 */

/**
 * What the samplers saw over the measured phase (src/sample/): per process and thread,
 * the spawned commands, the cores, the generator, the CPU quotas' throttling.
 * @typedef {object} SamplesSummary
 * @property {Array<Record<string, any>>} processes
 * @property {string} [spawnTiming]
 * @property {Record<string, any>} [spawned]
 * @property {{ cpus: number[] }} [system]
 * @property {Record<string, any>} [generator]
 * @property {{ available: boolean, reason: string|null }} [probe]
 * @property {object[]} [throttling]
 * @property {string[]} [notes]
 * @property {Record<string, any>|null} [otherUsers]
 * @property {object[]|null} [downstreams]
 */

/**
 * How many requests succeeded (src/analysis/request-outcome.js).
 * @typedef {object} RequestOutcome
 * @property {string} id
 * @property {number} attempts
 * @property {number} succeeded
 * @property {number} failed
 * @property {number} [failedShare]
 * @property {number|null} [succeededRps]
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
 * Fields every result document has.
 * @typedef {object} ResultBase
 * @property {'spawnbench'} tool
 * @property {1} format
 * @property {string} [createdAt]
 * @property {Machine} [machine]
 * @property {object[]} [runtimes]
 * @property {string[]} [notes]
 * @property {string[]} [failures] why the measurement failed; non-empty means exit 1
 * @property {boolean} [stoppedEarly]
 * @property {number} [exitCode]
 * @property {Against} [against]
 * @property {Assertion[]} [assertions]
 * @property {MetricFigure[]} [metrics]
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
 *   serverStderr?: Record<string, any>|null,
 *   outcome?: RequestOutcome,
 *   workerDeaths?: object[],
 *   spawnFailures?: Record<string, any>|null,
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
 *   diagnosis: Record<string, any>,
 *   notes: string[],
 *   failures: string[],
 *   target?: Record<string, any>,
 *   samples?: SamplesSummary|null,
 *   serverStderr?: Record<string, any>|null,
 *   mainThread?: Record<string, any>|null,
 *   serverExit?: Record<string, any>|null,
 *   gc?: Record<string, any>,
 *   cpuProfile?: Record<string, any>|null,
 *   sizeKnob?: Record<string, any>|null,
 *   outcome?: RequestOutcome,
 *   spawnFailures?: Record<string, any>|null,
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
