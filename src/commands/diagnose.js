/**
 * spawnbench diagnose: start the user's server (or take --url), drive it, and say
 * why its event loop stalls: a verdict with evidence and a next step.
 */
export default {
  name: 'diagnose',
  summary: 'start your server (after --) or take --url, load it, and say why its event loop stalls',
  groups: ['diagnose', 'url', 'load', 'output', 'against', 'assert', 'html'],
  arguments: '[command...]',
  passThrough: true, // diagnose node server.js --port 4: --port is the server's, not ours
  options: (cmd) =>
    cmd.addHelpText('after', [
      '',
      'Examples:',
      '  spawnbench diagnose -- node server.js              PORT is set to a free port; readiness = accepts connections',
      '  spawnbench diagnose --port 3000 -- npm start       for a server that listens on a fixed port',
      '  spawnbench diagnose --cpu-prof -- node server.js   also profile it and list the top functions',
      '  spawnbench diagnose --url http://127.0.0.1:3000/x --pid 1234   a running server, seen from outside',
    ].join('\n')),
  async action(options, io, operands) {
    // The plan and the engine load once diagnose starts: --help and --version never pay for them (issue 28).
    const [{ buildDiagnosePlan }, { prepareExtras }] = await Promise.all([import('../diagnose/diagnose-plan.js'), import('./extras.js')]);
    const plan = buildDiagnosePlan(options, operands[0] ?? []);
    const extras = prepareExtras(options, 'diagnose', 'diagnose', plan);
    const [{ createDiagnose }, { formatDiagnose }, { runEngineCommand }] = await Promise.all([
      import('../diagnose/diagnose-engine.js'), import('../report/diagnose-text.js'), import('./present.js'),
    ]);
    return runEngineCommand(plan, createDiagnose, formatDiagnose, io, extras);
  },
};
