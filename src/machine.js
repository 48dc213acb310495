/**
 * Static facts about this machine and runtime, read once per run with
 * systeminformation (its calls cost tens to hundreds of ms, so never per interval).
 */
import os from 'node:os';
import si from 'systeminformation';
import { ownCpuBudget } from './cpu-budget.js';

let cached;

/**
 * `cores` is availableParallelism() as before; `cpu` is what sizes the run: the
 * CPU budget (src/cpu-budget.js) with its source, the host's hardware threads and
 * physical cores.
 * @returns {Promise<{node: string, libuv: string, v8: string, platform: string, arch: string, cpuModel: string, cores: number,
 *   physicalCores: number|null, memTotalBytes: number, cpu: import('./cpu-budget.js').CpuBudget}>}
 */
export function readMachine() {
  cached ??= (async () => {
    let cpu = null;
    try {
      cpu = await si.cpu();
    } catch {
      // systeminformation failing must not fail a run; os.cpus() below is enough.
    }
    const cpus = os.cpus();
    const budget = ownCpuBudget();
    const physicalCores = budget.physicalCores ?? cpu?.physicalCores ?? null;
    const brand = cpu ? [cpu.manufacturer, cpu.brand].filter(Boolean).join(' ') : '';
    return {
      node: process.versions.node,
      libuv: process.versions.uv,
      v8: process.versions.v8,
      platform: process.platform,
      arch: process.arch,
      cpuModel: brand || cpus[0]?.model?.trim() || 'unknown CPU',
      cores: os.availableParallelism(),
      physicalCores,
      memTotalBytes: os.totalmem(),
      cpu: { ...budget, physicalCores },
    };
  })();
  return cached;
}
