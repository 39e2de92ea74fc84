// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs-pipe: what shell tests cannot do with trace_pipe-like files.
 *
 *   tracefs-pipe nonblock FILE        read with O_NONBLOCK; prints
 *                                     "EAGAIN" or "DATA <bytes>"
 *   tracefs-pipe poll FILE MS         poll for POLLIN; prints "READY" or
 *                                     "TIMEOUT"
 *   tracefs-pipe splice FILE          splice into a pipe until EAGAIN;
 *                                     prints "SPLICED <bytes>"
 *   tracefs-pipe splicedump FILE      the same, copying what the pipe
 *                                     got to stdout
 *   tracefs-pipe drain FILE           read (O_NONBLOCK) until EAGAIN;
 *                                     prints "<bytes> <lines> <ns>"
 *   tracefs-pipe dump FILE            read (O_NONBLOCK) until EAGAIN and
 *                                     copy what was read to stdout
 *   tracefs-pipe follow FILE          read as cat does, copying to stdout,
 *                                     until SIGTERM; what a read returned
 *                                     is always copied (a killed cat loses
 *                                     what the kernel consumed for it)
 *   tracefs-pipe write FILE STR N     write STR N times; prints the ns
 *                                     per write, or the errno name
 *   tracefs-pipe toggle FILE N        write "1", then "0", N times (as to
 *                                     an enable file); prints the ns per
 *                                     pair, or the errno name
 *   tracefs-pipe errno FILE STR       write STR once; prints "OK" or the
 *                                     errno name (EINVAL, EBUSY, ...)
 *   tracefs-pipe markers FILE TAG N   write the N lines "TAG:0" .. "TAG:N-1"
 *                                     (one write each); prints how many
 *                                     writes succeeded, and each one
 *                                     refused as "refused TAG:I ERRNO"
 *                                     on stderr
 *   tracefs-pipe maphold FILE MS      mmap() the first page of FILE (a
 *                                     trace_pipe_raw), print "MAPPED" or
 *                                     the errno name, hold the mapping
 *                                     MS milliseconds, then unmap
 *
 * Exit status: 0 when the operation ran (whatever it found), 1 when a
 * read of follow failed (it says so on stderr), 2 on usage or setup
 * errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case ENOMEM: return "ENOMEM";
	case EAGAIN: return "EAGAIN";
	case ENODEV: return "ENODEV";
	case ENOENT: return "ENOENT";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case ENOSPC: return "ENOSPC";
	case EINTR: return "EINTR";
	case EBADF: return "EBADF";
	default: return "E?";
	}
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static volatile sig_atomic_t follow_stop;

static void follow_term(int sig)
{
	(void)sig;
	follow_stop = 1;
}

static int write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0) {
		printf("OPEN-%s\n", errname(errno));
		exit(2);
	}
	return fd;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	const char *op, *path;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: %s nonblock|poll|splice|splicedump|drain|dump|follow|write|toggle|errno|markers FILE ...\n",
			argv[0]);
		return 2;
	}
	op = argv[1];
	path = argv[2];

	if (!strcmp(op, "nonblock")) {
		ssize_t r;

		fd = open_or_die(path, O_RDONLY | O_NONBLOCK);
		r = read(fd, buf, sizeof(buf));
		if (r < 0)
			printf("%s\n", errname(errno));
		else
			printf("DATA %zd\n", r);
	} else if (!strcmp(op, "poll") && argc == 4) {
		struct pollfd p;
		int r;

		fd = open_or_die(path, O_RDONLY);
		p.fd = fd;
		p.events = POLLIN;
		r = poll(&p, 1, atoi(argv[3]));
		if (r < 0)
			printf("%s\n", errname(errno));
		else
			printf("%s\n", r && (p.revents & POLLIN) ? "READY" : "TIMEOUT");
	} else if (!strcmp(op, "splice") || !strcmp(op, "splicedump")) {
		int dump = !strcmp(op, "splicedump");
		long long total = 0;
		int pfd[2];
		ssize_t r;

		fd = open_or_die(path, O_RDONLY | O_NONBLOCK);
		if (pipe(pfd))
			return 2;
		for (;;) {
			r = splice(fd, NULL, pfd[1], NULL, 65536, SPLICE_F_NONBLOCK);
			if (r <= 0)
				break;
			total += r;
			/* empty the pipe so that it never fills */
			while (r > 0) {
				ssize_t n = read(pfd[0], buf, r < (ssize_t)sizeof(buf) ? (size_t)r : sizeof(buf));

				if (n <= 0)
					break;
				if (dump && write(1, buf, n) != n)
					return 2;
				r -= n;
			}
		}
		if (r < 0 && errno != EAGAIN)
			printf("%s\n", errname(errno));
		else if (!dump)
			printf("SPLICED %lld\n", total);
	} else if (!strcmp(op, "drain")) {
		long long bytes = 0, lines = 0, t0;
		ssize_t r, i;

		fd = open_or_die(path, O_RDONLY | O_NONBLOCK);
		t0 = now_ns();
		while ((r = read(fd, buf, sizeof(buf))) > 0) {
			bytes += r;
			for (i = 0; i < r; i++)
				lines += buf[i] == '\n';
		}
		printf("%lld %lld %lld\n", bytes, lines, now_ns() - t0);
	} else if (!strcmp(op, "dump")) {
		ssize_t r;

		fd = open_or_die(path, O_RDONLY | O_NONBLOCK);
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			if (write(1, buf, r) != r)
				return 2;
	} else if (!strcmp(op, "follow")) {
		struct sigaction sa = { .sa_handler = follow_term };
		struct pollfd pfd;
		struct timespec tick = { 0, 100 * 1000 * 1000 };
		sigset_t term, unblocked;
		ssize_t r;

		/*
		 * SIGTERM stays blocked but while waiting in ppoll(), so that
		 * it never lands between a read and the copy of its data, nor
		 * between the check of follow_stop and the wait.
		 */
		sigemptyset(&term);
		sigaddset(&term, SIGTERM);
		sigprocmask(SIG_BLOCK, &term, &unblocked);
		sigaction(SIGTERM, &sa, NULL);
		fd = open_or_die(path, O_RDONLY | O_NONBLOCK);
		pfd.fd = fd;
		pfd.events = POLLIN;
		while (!follow_stop) {
			r = read(fd, buf, sizeof(buf));
			if (r > 0) {
				if (write_all(1, buf, r))
					return 2;
				continue;
			}
			if (r == 0)
				break;
			if (errno != EAGAIN) {
				/* a reader that stops early says so */
				fprintf(stderr, "follow %s: read: %s\n", path,
					errname(errno));
				return 1;
			}
			/* the timeout is a safety net for a missed wake-up */
			ppoll(&pfd, 1, &tick, &unblocked);
		}
	} else if (!strcmp(op, "write") && argc == 5) {
		long n = atol(argv[4]), i;
		size_t len = strlen(argv[3]);
		long long t0;

		fd = open_or_die(path, O_WRONLY);
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			if (write(fd, argv[3], len) < 0) {
				printf("%s\n", errname(errno));
				return 0;
			}
		}
		printf("%lld\n", n ? (now_ns() - t0) / n : 0);
	} else if (!strcmp(op, "toggle") && argc == 4) {
		long n = atol(argv[3]), i;
		long long t0;

		fd = open_or_die(path, O_WRONLY);
		t0 = now_ns();
		for (i = 0; i < 2 * n; i++) {
			if (write(fd, i & 1 ? "0" : "1", 1) < 0) {
				printf("%s\n", errname(errno));
				return 0;
			}
		}
		printf("%lld\n", n ? (now_ns() - t0) / n : 0);
	} else if (!strcmp(op, "errno") && argc == 4) {
		fd = open_or_die(path, O_WRONLY);
		if (write(fd, argv[3], strlen(argv[3])) < 0)
			printf("%s\n", errname(errno));
		else
			printf("OK\n");
	} else if (!strcmp(op, "markers") && argc == 5) {
		long n = atol(argv[4]), i, ok = 0;
		char line[128];
		int len;

		fd = open_or_die(path, O_WRONLY);
		for (i = 0; i < n; i++) {
			len = snprintf(line, sizeof(line), "%s:%ld\n", argv[3], i);
			ssize_t r = write(fd, line, len);

			if (r == len)
				ok++;
			else if (r < 0)
				fprintf(stderr, "refused %s:%ld %s\n", argv[3], i, errname(errno));
			else
				fprintf(stderr, "refused %s:%ld SHORT-%zd\n", argv[3], i, r);
		}
		printf("%ld\n", ok);
	} else if (!strcmp(op, "maphold") && argc == 4) {
		long page = sysconf(_SC_PAGESIZE);
		void *map;

		fd = open_or_die(path, O_RDONLY);
		map = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED) {
			printf("%s\n", errname(errno));
			return 0;
		}
		printf("MAPPED\n");
		fflush(stdout);
		usleep(atol(argv[3]) * 1000);
		munmap(map, page);
	} else {
		fprintf(stderr, "unknown operation %s\n", op);
		return 2;
	}
	return 0;
}
