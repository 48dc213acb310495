/**
 * spawnbench tune: sweep pool sizes and balancing policies of a pool strategy, or
 * of the user's own server given after --, and recommend one with the evidence.
 */

export default {
  name: 'tune',
  summary: 'sweep pool sizes and balancing policies of a pool strategy or of your own server (after --), recommend one with the evidence',
  groups: ['strategy', 'workload', 'runtime', 'load', 'output', 'tune', 'knobs', 'server', 'html'],
  arguments: '[command...]',
  passThrough: true, // tune --size-env W -- node server.js --workers 4: --workers is the server's
  options: (cmd) =>
    cmd.addHelpText('after', [
      '',
      'Your own server (after --), started afresh at each step as diagnose starts it:',
      '  spawnbench tune --size-env WEB_CONCURRENCY -- node server.js          size through an environment variable',
      '  spawnbench tune -- node server.js --workers {size}                    size through its arguments',
      '  spawnbench tune --size-env WORKERS --policy-env NODE_CLUSTER_SCHED_POLICY --balance-policies rr,none -- node app.js',
      '  spawnbench tune --processes 1,2,3 -- node api.js                      the unchanged server in 1, 2, 3 node:cluster processes (as pm2 -i N)',
    ].join('\n')),
  async action(options, io, operands, cmd) {
    // The plan, the checks and the engine load once a sweep starts: --help and --version never pay for them (issue 28).
    const [{ buildTunePlan }, { commandOperands }, { prepareExtras }] = await Promise.all([
      import('../tune/tune-plan.js'), import('./operands.js'), import('./extras.js'),
    ]);
    const extras = prepareExtras(options, 'tune');
    const plan = buildTunePlan(options, commandOperands(operands, cmd));
    const [{ createTune }, { formatTune }, { runEngineCommand }] = await Promise.all([
      import('../tune/tune-engine.js'), import('../report/tune-text.js'), import('./present.js'),
    ]);
    return runEngineCommand(plan, createTune, formatTune, io, extras);
  },
};
