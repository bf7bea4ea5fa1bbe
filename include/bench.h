/* include/bench.h: the in-kernel benchmarks (kernel/test/bench.c), run by the
 * boot option bench=NAME[,NAME] (or bench=all).  Each prints
 * "bench: NAME VALUE UNIT" lines, then "bench: done N figures, E errors",
 * and exits QEMU (status 0 iff no errors).  tools/bench.sh reads them;
 * docs/benchmarks.md explains them. */
#ifndef _BENCH_H
#define _BENCH_H
/* Called from kmain once the initcalls have run; does not return. */
void bench_run(const char *selection) __attribute__((noreturn));
#endif
