// SPDX-License-Identifier: GPL-2.0
/*
 * cpu-of: the CPU time of a command and of every process it waited for,
 * for benchmarks of recorders that fork per-CPU workers (trace-cmd).
 *
 *   cpu-of FILE CMD [ARG...]
 *
 * Runs CMD, passes SIGINT and SIGTERM on to it, and when it exits writes
 * "cpu_ns N" to FILE: user plus system time of CMD and of the children it
 * waited for (the kernel sums them from each task's exact run time).
 * Exit status: CMD's, 127 when it could not run, 2 on usage errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t child;

static void pass_on(int sig)
{
	if (child > 0)
		kill(child, sig);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = pass_on };
	struct rusage ru;
	long long cpu_ns;
	int status;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: %s FILE CMD [ARG...]\n", argv[0]);
		return 2;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	child = fork();
	if (child < 0) {
		perror("fork");
		return 127;
	}
	if (!child) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "cpu-of: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(child, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("wait4");
			return 127;
		}
	}
	cpu_ns = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
		 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
	f = fopen(argv[1], "w");
	if (!f || fprintf(f, "cpu_ns %lld\n", cpu_ns) < 0 || fclose(f)) {
		perror(argv[1]);
		return 127;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
