/**
 * The variable that switches the profiler preload on, shared by spawnbench and the
 * preload (importing the preload itself would start profiling spawnbench).
 */
export const CPU_PROF_DIR_ENV = 'SPAWNBENCH_CPU_PROF_DIR';
