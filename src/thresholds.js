/**
 * Thresholds and defaults shared by analysis, reports and the dashboard: one place
 * for each number, with its unit and the reason for its value.
 */

/**
 * libuv version (major.minor.patch) from which uv_spawn uses posix_spawn (vfork
 * semantics) on Linux instead of fork: libuv 1.53.0, released 2026-09. A fork copies
 * the page tables of the whole calling process and the calling thread waits until
 * the child has exec'd; posix_spawn shares the parent's memory until exec, so the
 * time blocked per spawn no longer grows with the size of the process.
 */
export const POSIX_SPAWN_LIBUV = '1.53.0';
