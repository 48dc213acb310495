/**
 * spawnbench run (the default command): boot a strategy, take a URL, or start the
 * user's own server given after `--`; drive it, report, recommend.
 */
export default {
  name: 'run',
  summary: 'boot a strategy, take --url, or start your own server (after --); drive it with load, report, recommend (the default command)',
  isDefault: true,
  groups: ['strategy', 'pool', 'workload', 'runtime', 'url', 'load', 'output', 'against', 'assert', 'html', 'server', 'sizeEnv'],
  arguments: '[command...]',
  passThrough: true, // spawnbench -- node server.js --workers 3: --workers is the server's, not ours
  options: (cmd) =>
    cmd.addHelpText('after', [
      '',
      'Your own server (after --), started as tune and diagnose start it (a free port in PORT, or --port N;',
      'ready when it accepts connections; stopped with everything it started), driven, and sized:',
      '  spawnbench -- node server.js                              run is the default command',
      '  spawnbench run -- node server.js --workers 3              the size knob is found in its arguments',
      '  spawnbench run --size-env WORKERS -- node server.js       ... or named (WEB_CONCURRENCY, WORKERS, … are found)',
      '  spawnbench run --size-env WORKERS --pool-size 4 -- node server.js   this run at size 4',
      '  spawnbench run --port 3000 --path /api -- npm start       a server on a fixed port, behind a launcher',
      'The summary says which knob it found and where, and ends in a recommendation for it with the',
      'spawnbench tune command that confirms it.',
      'That recommendation comes from one run\'s model. It is checked by throughput, not by size: tune\'s',
      'throughput at the recommended size must be within 5% of tune\'s best (sizes tune cannot tell apart).',
    ].join('\n')),
  async action(options, io, operands, cmd) {
    const [{ commandOperands }, { prepareExtras }] = await Promise.all([import('./operands.js'), import('./extras.js')]);
    const command = commandOperands(operands, cmd);
    // The plan and the engine load once a run starts: --help and --version never pay for them (issue 28).
    // The knob is looked for in the environment the server inherits: spawnbench's own.
    const plan = command === null
      ? (await import('../plan/run-plan.js')).buildRunPlan(options)
      : (await import('../plan/server-command-plan.js')).buildOwnRunPlan(options, command, process.env);
    const extras = prepareExtras(options, 'run', 'run', plan);
    const [{ createRun }, { formatSummary }, { formatLiveAdvice }, { runEngineCommand }] = await Promise.all([
      import('../runner/run-engine.js'), import('../report/summary.js'), import('../report/run-advice-summary.js'), import('./present.js'),
    ]);
    return runEngineCommand(plan, createRun, formatSummary, io, extras, { formatAdvice: formatLiveAdvice });
  },
};
