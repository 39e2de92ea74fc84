// SPDX-License-Identifier: GPL-2.0
/*
 * syscall-loop: the cost of one system call, for benchmarks of what
 * tracing adds to it (a tracepoint at system call entry, the function
 * tracer on the call's handler).
 *
 *   syscall-loop N    make N getppid() calls; prints the ns per call
 *
 * Exit status: 0 when the calls ran, 2 on usage errors.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n, i;
	long long t0;

	if (argc != 2 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: %s N\n", argv[0]);
		return 2;
	}
	t0 = now_ns();
	/* syscall(): no libc caching, each one enters the kernel */
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	printf("%lld\n", (now_ns() - t0) / n);
	return 0;
}
