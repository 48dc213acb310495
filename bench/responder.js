/**
 * bench:generator's fast responder, bench/responder/hello.c, built when a C compiler
 * (`cc`) is on PATH: "hi\n" to every request from one thread on epoll, cheaper per
 * request than any load generator, so that the generator is the bottleneck the bench
 * measures (a Go net/http responder pinned to one core answered slower than one core
 * of wrk asked, and every tool then measured its idle wake-ups).
 */
import { fileURLToPath } from 'node:url';
import { buildC } from './floor.js';

const SOURCE = fileURLToPath(new URL('./responder/hello.c', import.meta.url));

/** @returns {{ binary: string, cleanup: () => void } | { skipped: string }} */
export const buildResponder = () => buildC(SOURCE, 'hello', 'no C responder');
