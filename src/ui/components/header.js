import React from 'react';
import { Box, Text } from 'ink';
import { formatCount, formatDuration } from '../format.js';
import { useTone } from '../theme.js';

const h = React.createElement;

/**
 * The plan in words, leaving out what the plan does not set:
 * "baseline on node · 30 connections · 10s + 2s warm-up · workload echo".
 * @param {object|null} plan
 * @returns {string[]} parts, joined by the caller
 */
export function describePlan(plan) {
  if (!plan) return ['starting…'];
  const parts = [];
  const strategy = typeof plan.strategy === 'object' ? plan.strategy?.name : plan.strategy;
  if (strategy) parts.push(plan.runtime ? `${strategy} on ${plan.runtime}` : strategy);
  else if (plan.url) parts.push(plan.url);
  if (plan.poolSize) parts.push(`pool ${plan.poolSize}${plan.balance ? ` ${plan.balance}` : ''}`);
  if (plan.workerRuntime) parts.push(`workers on ${plan.workerRuntime}`);
  if (plan.rate) parts.push(`${formatCount(plan.rate)} req/s open loop`);
  else if (plan.connections) parts.push(`${plan.connections} connections`);
  const amount = plan.requests ? `${formatCount(plan.requests)} requests` : formatDuration(plan.durationMs);
  parts.push(plan.warmupMs ? `${amount} + ${formatDuration(plan.warmupMs)} warm-up` : amount);
  const workload = typeof plan.workload === 'object' ? plan.workload?.name : plan.workload;
  if (workload) parts.push(`workload ${workload}`);
  return parts;
}

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
  const cores = machine.cores ? `${machine.cores} core${machine.cores === 1 ? '' : 's'}` : '';
  if (machine.cpuModel || cores) parts.push([machine.cpuModel && shortCpuModel(machine.cpuModel), cores].filter(Boolean).join(' × '));
  return parts.join(' · ');
}

/**
 * Two lines: the strategy and its options, then runtime and machine. Lines are
 * cut, not wrapped, when the terminal is narrow.
 * @param {{ plan: object|null, machine: object|null }} props
 */
export function Header({ plan, machine }) {
  const tone = useTone();
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, { wrap: 'truncate-end' }, h(Text, { bold: true, color: tone('accent') }, 'spawnbench '), describePlan(plan).join(' · ')),
    h(Text, { wrap: 'truncate-end', color: tone('dim') }, describeMachine(machine)),
  );
}
