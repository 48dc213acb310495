/** spawnbench list: the strategies found under strategies/, with their descriptions. */
export default {
  name: 'list',
  summary: 'list the strategies spawnbench can boot',
  groups: [],
  options: (cmd) => cmd.option('--json', 'print the list as JSON'),
  async action(options, io) {
    const { listStrategies, defaultStrategyName } = await import('../strategies/registry.js');
    const strategies = listStrategies();
    if (options.json) {
      io.stdout.write(`${JSON.stringify(strategies.map(({ name, description, pool, runtimes, workerRuntimes, platforms }) => ({ name, description, pool, runtimes, workerRuntimes, platforms })))}\n`);
      return 0;
    }
    const width = Math.max(...strategies.map((s) => s.name.length));
    const fallback = defaultStrategyName();
    for (const s of strategies) {
      const tags = [s.pool ? 'pool' : null, s.name === fallback ? 'default' : null].filter(Boolean);
      io.stdout.write(`${s.name.padEnd(width)}  ${s.description}${tags.length ? ` [${tags.join(', ')}]` : ''}\n`);
    }
    return 0;
  },
};
