// SPDX-License-Identifier: GPL-2.0
/*
 * rb-consume: drain one CPU's trace_pipe_raw and look at every event, the
 * way a live analysis tool does, for the benchmark of the mapped reader.
 *
 *   rb-consume mmap|read|splice FILE
 *
 * mmap:   map FILE and take sub-buffers with TRACE_MMAP_IOCTL_GET_READER,
 *         walking the events in place;
 * read:   read() pages into a buffer and walk them there;
 * splice: splice() pages into a pipe, read() the pipe into a buffer and
 *         walk them there; the last, partial page (which splice does not
 *         hand over) with read(), as trace-cmd does.
 * All open FILE with O_NONBLOCK and stop when nothing is left, so run them
 * on a buffer whose tracing is off. Each walk decodes every event header
 * and reads the event's first word (its type).
 *
 * Prints "events N bytes B wall_ns W cpu_ns C lost L setup_ns U sum S":
 * the events, the bytes of sub-buffer data walked, the elapsed and CPU
 * time of the drain (from the first read, splice or ioctl to the last),
 * the events the buffer reported lost, the elapsed time of mmap() and
 * munmap() (mmap only: a reader maps once and drains for long), and a
 * sum of the event types (so that the walk is not optimised away).
 * Exit status: 0 when drained, 1 on a failed call, 2 on usage errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "trace-mmap-abi.h"

#define COMMIT_FLAGS		(3ULL << 30)	/* RB_MISSED_EVENTS/STORED */
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)

static unsigned long long events, bytes, lost, sum;
static long long t0, c0, t1, c1, setup_ns;
static long page_size;

static long long ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* the drain proper, between its first and its last call */
static void start_clock(void)
{
	t0 = ns(CLOCK_MONOTONIC);
	c0 = ns(CLOCK_PROCESS_CPUTIME_ID);
}

static void stop_clock(void)
{
	t1 = ns(CLOCK_MONOTONIC);
	c1 = ns(CLOCK_PROCESS_CPUTIME_ID);
}

static void fail(const char *what)
{
	fprintf(stderr, "rb-consume: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* walk the events in [from, to) of the data of sub-buffer SUB */
static void walk(const unsigned char *sub, unsigned int from, unsigned int to)
{
	const unsigned char *p = sub + SUBBUF_HDR + from;
	const unsigned char *end = sub + SUBBUF_HDR + to;

	while (p + 4 <= end) {
		uint32_t hdr, len;

		memcpy(&hdr, p, 4);
		switch (hdr & 31) {
		case 29:	/* padding: the rest of the page, or array[0] */
			if (!(hdr >> 5))
				return;
			memcpy(&len, p + 4, 4);
			p += 4 + len;
			continue;
		case 30:	/* time extend */
		case 31:	/* absolute time stamp */
			p += 8;
			continue;
		case 0:		/* length in array[0], data after it */
			memcpy(&len, p + 4, 4);
			if (len < 4 || p + 4 + len > end)
				return;
			sum += p[8] | p[9] << 8;
			p += 4 + len;
			break;
		default:	/* type_len words of data */
			sum += p[4] | p[5] << 8;
			p += 4 + (hdr & 31) * 4;
			break;
		}
		events++;
	}
}

/* a page as read() and splice() hand it over: its commit says how much */
static void walk_page(const unsigned char *page)
{
	uint64_t commit, len, stored;

	memcpy(&commit, page + 8, 8);
	len = commit & ~COMMIT_FLAGS;
	if (len > (uint64_t)page_size - SUBBUF_HDR)
		len = page_size - SUBBUF_HDR;
	if ((commit & RB_MISSED_STORED) && len + SUBBUF_HDR + 8 <= (uint64_t)page_size) {
		memcpy(&stored, page + SUBBUF_HDR + len, 8);
		lost += stored;
	}
	walk(page, 0, len);
	bytes += len;
}

static void by_read(int fd)
{
	unsigned char *page = malloc(page_size);
	ssize_t n;

	if (!page)
		fail("malloc");
	if (!t0)
		start_clock();
	while ((n = read(fd, page, page_size)) > 0)
		walk_page(page);
	if (n < 0 && errno != EAGAIN)
		fail("read");
	stop_clock();
	free(page);
}

static void by_splice(int fd)
{
	unsigned char *page = malloc(page_size);
	ssize_t n, got;
	int p[2];

	if (!page || pipe(p))
		fail("pipe");
	start_clock();
	for (;;) {
		n = splice(fd, NULL, p[1], NULL, 16 * page_size, SPLICE_F_NONBLOCK);
		if (n <= 0)
			break;
		for (got = 0; got < n; got += page_size) {
			if (read(p[0], page, page_size) != page_size)
				fail("read of the pipe");
			walk_page(page);
		}
	}
	if (n < 0 && errno != EAGAIN)
		fail("splice");
	close(p[0]);
	close(p[1]);
	by_read(fd);
	free(page);
}

static void by_mmap(int fd)
{
	struct trace_buffer_meta *meta;
	unsigned int id = ~0U, done = 0;
	size_t data_len;
	unsigned char *data;
	long long s0 = ns(CLOCK_MONOTONIC), s1;

	meta = mmap(NULL, page_size, PROT_READ, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED)
		fail("mmap of the meta page");
	data_len = (size_t)meta->subbuf_size * meta->nr_subbufs;
	data = mmap(NULL, data_len, PROT_READ, MAP_SHARED, fd, meta->meta_page_size);
	if (data == MAP_FAILED)
		fail("mmap of the sub-buffers");
	s1 = ns(CLOCK_MONOTONIC);
	start_clock();
	for (;;) {
		if (ioctl(fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
			fail("TRACE_MMAP_IOCTL_GET_READER");
		if (meta->reader.id != id) {
			/* a new sub-buffer: what was lost before it */
			lost += meta->reader.lost_events;
			id = meta->reader.id;
			done = 0;
		} else if (meta->reader.read == done) {
			break;		/* nothing new */
		}
		walk(data + (size_t)id * meta->subbuf_size, done, meta->reader.read);
		bytes += meta->reader.read - done;
		done = meta->reader.read;
	}
	stop_clock();
	munmap(data, data_len);
	munmap(meta, page_size);
	setup_ns = s1 - s0 + ns(CLOCK_MONOTONIC) - t1;
}

int main(int argc, char **argv)
{
	int fd;

	if (argc != 3 || (strcmp(argv[1], "mmap") && strcmp(argv[1], "read") &&
			  strcmp(argv[1], "splice"))) {
		fprintf(stderr, "usage: %s mmap|read|splice TRACE_PIPE_RAW\n", argv[0]);
		return 2;
	}
	page_size = sysconf(_SC_PAGESIZE);
	fd = open(argv[2], O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		fail(argv[2]);
	if (!strcmp(argv[1], "mmap"))
		by_mmap(fd);
	else if (!strcmp(argv[1], "read"))
		by_read(fd);
	else
		by_splice(fd);
	close(fd);
	printf("events %llu bytes %llu wall_ns %lld cpu_ns %lld lost %llu setup_ns %lld sum %llu\n",
	       events, bytes, t1 - t0, c1 - c0, lost, setup_ns, sum);
	return 0;
}
