/*
 * The machine's floor for bench:strategies: what one request's command costs with
 * nothing around it. Runs the workload's command N times, one after another, as a
 * server at its cheapest would: posix_spawnp (glibc clones with CLONE_VM|CLONE_VFORK),
 * stdout on a pipe read to its end, the exit reaped with waitpid. Prints
 * {"spawns":N,"selfMs":…,"childrenMs":…}: this process's CPU and the commands'.
 *
 * Usage: spawn-loop <count> <command> [args...]
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <sys/resource.h>

extern char **environ;

static double ms(struct timeval t) { return t.tv_sec * 1000.0 + t.tv_usec / 1000.0; }

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: spawn-loop <count> <command> [args...]\n");
    return 2;
  }
  long count = strtol(argv[1], NULL, 10);
  char buffer[65536];
  for (long i = 0; i < count; i++) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) { perror("pipe2"); return 1; }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    pid_t pid;
    int failed = posix_spawnp(&pid, argv[2], &actions, NULL, argv + 2, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (failed) { fprintf(stderr, "posix_spawnp %s failed (%d)\n", argv[2], failed); return 1; }
    while (read(fds[0], buffer, sizeof buffer) > 0) {}
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
  }
  struct rusage self, children;
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &children);
  printf("{\"spawns\":%ld,\"selfMs\":%.1f,\"childrenMs\":%.1f}\n", count,
         ms(self.ru_utime) + ms(self.ru_stime), ms(children.ru_utime) + ms(children.ru_stime));
  return 0;
}
