import React from 'react';
import { Box, Text } from 'ink';
import { describeLoad, describeTarget } from '../describe-plan.js';
import { useTone } from '../theme.js';
import { cpuBudgetLabel } from '../../base/labels.js';

const h = React.createElement;

// Shared with the progress lines, which must not load React (src/ui/describe-plan.js).
export { describeLoad, describeTarget };

/**
 * A CPU model without trademarks and filler, so it fits a line:
 * "Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz" → "Intel Xeon Platinum 8259CL @ 2.50GHz".
 * @param {string} model
 * @returns {string}
 */
export function shortCpuModel(model) {
  return model
    .replace(/\((R|TM|tm|r)\)/g, '')
    .replace(/\b(CPU|Processor)\b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Runtime, libuv and the machine: "node 20.20.2 · libuv 1.46.0 · Intel Xeon … × 2 cores".
 * @param {object|null} machine the `start` event's machine
 * @returns {string}
 */
export function describeMachine(machine) {
  if (!machine) return '';
  const parts = [];
  if (machine.node) parts.push(`node ${machine.node.replace(/^v/, '')}`);
  if (machine.libuv) parts.push(`libuv ${machine.libuv}`);
  const cores = cpuBudgetLabel(machine);
  if (machine.cpuModel || cores) parts.push([machine.cpuModel && shortCpuModel(machine.cpuModel), cores].filter(Boolean).join(' × '));
  return parts.join(' · ');
}

/**
 * How the strategy's runtimes spawn (the `start` event's runtimes): "spawns by fork
 * (node 26.10.0)", or "main spawns by fork (node 20.20.2) · workers by vfork (bun 1.4.5)";
 * '' when unknown (--url).
 * @param {Array<{ role: string, kind: string, version: string|null, spawnMechanism: string|null }>|null|undefined} runtimes
 * @returns {string}
 */
export function describeSpawn(runtimes) {
  if (!runtimes?.length) return '';
  const one = (r) => `${r.spawnMechanism ?? 'unknown'} (${r.kind}${r.version ? ` ${r.version}` : ''})`;
  if (runtimes.length === 1) return `spawns by ${one(runtimes[0])}`;
  return runtimes.map((r, i) => `${r.role}${i === 0 ? ' spawns' : ''} by ${one(r)}`).join(' · ');
}

/**
 * Three lines: the strategy and its options, the load, then runtime and machine,
 * with how the strategy spawns. Lines are cut, not wrapped, when the terminal is narrow;
 * a short terminal keeps the first `lines` of them.
 * @param {{ plan: import('../plan-view.js').PlanView|null, machine: object|null, runtimes?: object[]|null, lines?: number }} props
 */
/** The lines Header draws at most: the target, the load (once there is a plan), the machine. */
export const headerLines = (plan) => (plan ? 3 : 2);

export function Header({ plan, machine, runtimes = null, lines = 3 }) {
  const tone = useTone();
  return h(
    Box,
    { flexDirection: 'column' },
    ...[
      h(Text, { key: 'target', wrap: 'truncate-end' }, h(Text, { bold: true, color: tone('accent') }, 'spawnbench '), describeTarget(plan).join(' · ')),
      plan ? h(Text, { key: 'load', wrap: 'truncate-end' }, h(Text, { color: tone('dim') }, 'load '), describeLoad(plan).join(' · ')) : null,
      h(Text, { key: 'machine', wrap: 'truncate-end', color: tone('dim') }, [describeMachine(machine), describeSpawn(runtimes)].filter(Boolean).join(' · ')),
    ].filter(Boolean).slice(0, lines),
  );
}
