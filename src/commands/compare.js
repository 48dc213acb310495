/** spawnbench compare: the same load on several strategies and workloads, as the experiment's table. */

export default {
  name: 'compare',
  summary: 'run several strategies (and workloads, and your own servers with --command) under the same load and print the table, with ratios',
  groups: ['pool', 'runtime', 'load', 'output', 'compare', 'server', 'against', 'assert', 'html'],
  async action(options, io) {
    // The plan and the engine load once a comparison starts: --help and --version never pay for them (issue 28).
    const [{ buildComparePlan }, { prepareExtras }] = await Promise.all([import('../compare/compare-plan.js'), import('./extras.js')]);
    const plan = buildComparePlan(options);
    const extras = prepareExtras(options, 'compare', 'compare', null);
    const [{ createCompare }, { formatCompare, formatCompareMarkdown }, { runEngineCommand }] = await Promise.all([
      import('../compare/compare-engine.js'), import('../report/compare-text.js'), import('./present.js'),
    ]);
    return runEngineCommand(plan, createCompare, options.markdown ? formatCompareMarkdown : formatCompare, io, extras);
  },
};
