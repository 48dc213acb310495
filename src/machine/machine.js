/**
 * Static facts about this machine and runtime, read once per run; systeminformation's
 * (its calls cost tens to hundreds of ms, so never per interval) once per boot.
 */
import os from 'node:os';
import path from 'node:path';
import { readFileSync, statSync } from 'node:fs';
import { ownCpuBudget } from './cpu-budget.js';
import { writeFileAtomic } from '../output/atomic-file.js';

let cached;

/**
 * systeminformation's CPU facts (manufacturer, brand, physical cores), kept for the rest
 * of the boot in a file of the temp dir named by the user and the boot id: si.cpu()
 * runs lscpu twice and dmidecode (~0.1 CPU-s, in every run's figures of spawnbench's
 * own CPU), and the answer does not change until the machine restarts. Without a
 * boot id (no /proc) or a writable temp dir, it is asked every time.
 * @param {{ read?: () => Promise<object>, dir?: string, bootId?: string|null }} [how] (tests)
 * @returns {Promise<{ manufacturer?: string, brand?: string, physicalCores?: number }|null>}
 */
export async function cpuFacts({ read = readWithSysteminformation, dir = os.tmpdir(), bootId = readBootId() } = {}) {
  const file = bootId ? path.join(dir, `spawnbench-machine-${process.getuid?.() ?? 'user'}-${bootId}.json`) : null;
  const kept = file ? readKept(file) : null;
  if (kept) return kept;
  let cpu = null;
  try {
    const { manufacturer, brand, physicalCores } = await read();
    cpu = { manufacturer, brand, physicalCores };
  } catch {
    return null; // systeminformation failing must not fail a run; os.cpus() is enough
  }
  if (file) {
    try {
      writeFileAtomic(file, JSON.stringify(cpu));
    } catch {
      // a read-only temp dir: asked again next time
    }
  }
  return cpu;
}

/**
 * The kept facts, or null: not written yet this boot, unreadable, not this user's (the
 * temp dir is shared: another user could leave a file under this name) or not their shape.
 * @param {string} file
 */
function readKept(file) {
  try {
    if (process.getuid && statSync(file).uid !== process.getuid()) return null;
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    const text = (v) => v === undefined || v === null || typeof v === 'string';
    const count = (v) => v === undefined || v === null || (Number.isInteger(v) && v > 0);
    return kept && typeof kept === 'object' && text(kept.manufacturer) && text(kept.brand) && count(kept.physicalCores) ? kept : null;
  } catch {
    return null;
  }
}

/** systeminformation's CPU facts; the package loads only when they are not kept yet (~24 modules). */
async function readWithSysteminformation() {
  const { default: si } = await import('systeminformation');
  return si.cpu();
}

/** This boot's id (/proc/sys/kernel/random/boot_id), or null. */
function readBootId() {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replace(/[^\w-]/g, '') || null;
  } catch {
    return null;
  }
}

/**
 * `cores` is availableParallelism() as before; `cpu` is what sizes the run: the
 * CPU budget (src/machine/cpu-budget.js) with its source, the host's hardware threads and
 * physical cores.
 * @returns {Promise<{node: string, libuv: string, v8: string, platform: string, arch: string, cpuModel: string, cores: number,
 *   physicalCores: number|null, memTotalBytes: number, cpu: import('./cpu-budget.js').CpuBudget}>}
 */
export function readMachine() {
  cached ??= (async () => {
    const cpu = await cpuFacts();
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
