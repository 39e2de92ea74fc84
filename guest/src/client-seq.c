// SPDX-License-Identifier: GPL-2.0
/*
 * client-seq: the sequences of system calls that a current libtracefs
 * (1.8) makes in its own unit tests, replayed against an instance (or the
 * top level) so that the kernel's answers can be checked exactly.
 *
 *   client-seq snapshot-raw DIR [premap]
 *       Empty DIR's live buffer (open "trace" with O_TRUNC), write 5000
 *       samples of 8 bytes ({cpu, value}) to trace_marker, each pinned
 *       to a random CPU, write 1 to "snapshot", then read every CPU's
 *       per_cpu/cpuN/snapshot_raw as libtracefs does: O_NONBLOCK, splice
 *       into a pipe, and read() of one sub-buffer when splice has nothing.
 *       Every sample must be found exactly once, on its CPU, with time
 *       stamps that never go back on a CPU. "premap" first maps and
 *       unmaps every CPU's trace_pipe_raw (libtracefs' earlier tests do).
 *
 *   client-seq cpu-pipe DIR N mapped|mapped-meta|unmapped [marker]
 *       Enable syscalls/sys_enter_getppid in DIR, then a thread moves
 *       CPU 0's events into a file (splice of trace_pipe_raw, or copies
 *       out of the mapping behind TRACE_MMAP_IOCTL_GET_READER: up to the
 *       reader sub-buffer's commit, which the writer may still move, as
 *       libtracefs does, or with mapped-meta up to the meta page's
 *       reader.read, as tools/tracing/mmap-record does) while the
 *       main thread, on CPU 0, calls getppid() N times; the thread is then
 *       stopped and flushes what is left (read() of trace_pipe_raw, or
 *       GET_READER until nothing is new). The file must hold exactly the
 *       N events of this process. "marker": N writes of one byte to DIR's
 *       trace_marker and their ftrace/print entries instead, for kernels
 *       without syscall events (the debug lane's).
 *
 * Both print one line: "OK ..." or "FAIL ..." with the counts, and exit 0
 * or 1 (2 on usage or setup errors).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* include/uapi/linux/trace_mmap.h (the base's headers have none) */
#include "trace-mmap-abi.h"
#define COMMIT_MASK	((1ULL << 30) - 1)
#define NSAMPLES	5000

static const char *dir;
static long subbuf;			/* the sub-buffer size, header included */
static int ncpus;

static void die(const char *what)
{
	printf("FAIL setup: %s: %s\n", what, strerror(errno));
	exit(2);
}

static char *path(const char *name)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static void write_file(const char *name, const char *val)
{
	int fd = open(path(name), O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die(name);
	close(fd);
}

static long read_long(const char *file)
{
	char buf[64] = "";
	int fd = open(file, O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		die(file);
	close(fd);
	return atol(buf);
}

/* the sub-buffer size from DIR's events/header_page, as libtracefs takes it */
static long header_page_size(void)
{
	char buf[1024] = "", *p;
	long off, size;
	int fd = open(path("events/header_page"), O_RDONLY);

	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0)
		die("events/header_page");
	close(fd);
	p = strstr(buf, "field: char data;");
	if (!p || sscanf(p, "field: char data;\toffset:%ld;\tsize:%ld;", &off, &size) != 2)
		die("events/header_page: no data field");
	return off + size;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/*
 * Walk the events of one sub-buffer as read() and splice() hand it over:
 * call fn(payload, len, ts) for each data event. Returns the events seen.
 */
typedef void (*event_fn)(const unsigned char *p, uint32_t len, uint64_t ts, void *arg);

static long walk(const unsigned char *sub, uint32_t from, uint32_t to, uint64_t ts,
		 event_fn fn, void *arg)
{
	const unsigned char *p = sub + SUBBUF_HDR + from, *end = sub + SUBBUF_HDR + to;
	long n = 0;

	while (p + 4 <= end) {
		uint32_t hdr, len, ext;

		memcpy(&hdr, p, 4);
		switch (hdr & 31) {
		case 29:	/* padding */
			if (!(hdr >> 5))
				return n;
			memcpy(&len, p + 4, 4);
			ts += hdr >> 5;
			p += 4 + len;
			continue;
		case 30:	/* time extend */
			memcpy(&ext, p + 4, 4);
			ts += ((uint64_t)ext << 27) | (hdr >> 5);
			p += 8;
			continue;
		case 31:	/* absolute time stamp */
			memcpy(&ext, p + 4, 4);
			ts = ((uint64_t)ext << 27) | (hdr >> 5);
			p += 8;
			continue;
		case 0:
			memcpy(&len, p + 4, 4);
			if (len < 4 || p + 8 + len - 4 > end)
				return n;
			ts += hdr >> 5;
			fn(p + 8, len - 4, ts, arg);
			p += 4 + len;
			break;
		default:
			len = (hdr & 31) * 4;
			ts += hdr >> 5;
			fn(p + 4, len, ts, arg);
			p += 4 + len;
			break;
		}
		n++;
	}
	return n;
}

static uint64_t page_ts(const unsigned char *sub)
{
	uint64_t ts;

	memcpy(&ts, sub, 8);
	return ts;
}

static uint32_t page_commit(const unsigned char *sub)
{
	uint64_t c;

	memcpy(&c, sub + 8, 8);
	c &= COMMIT_MASK;
	return c > (uint64_t)subbuf - SUBBUF_HDR ? (uint32_t)(subbuf - SUBBUF_HDR) : (uint32_t)c;
}

/* --- snapshot-raw */

struct sample {
	int cpu;
	int value;
};

static struct sample samples[NSAMPLES];
static int found[NSAMPLES], print_id;
/* sample i has value first_value + i: unique, so a sample is found by value */
static int first_value;

struct snap_walk {
	int cpu;
	uint64_t last_ts;
	long backwards, wrong_cpu, events;
};

static void snap_event(const unsigned char *p, uint32_t len, uint64_t ts, void *arg)
{
	struct snap_walk *w = arg;
	struct sample s;
	uint16_t type;
	int i;

	if (ts < w->last_ts)
		w->backwards++;
	w->last_ts = ts;
	memcpy(&type, p, 2);
	/* print_entry: trace_entry (8), ip (8), buf */
	if (type != print_id || len < 16 + sizeof(s))
		return;
	memcpy(&s, p + 16, sizeof(s));
	w->events++;
	i = s.value - first_value;
	if (s.value < first_value || i >= NSAMPLES)
		return;
	if (samples[i].cpu != w->cpu)
		w->wrong_cpu++;
	found[i]++;
}

static void snap_page(const unsigned char *sub, struct snap_walk *w)
{
	walk(sub, 0, page_commit(sub), page_ts(sub), snap_event, w);
}

/* map and unmap every CPU's trace_pipe_raw, taking one reader */
static void premap(void)
{
	char name[64];
	int cpu;

	for (cpu = 0; cpu < ncpus; cpu++) {
		struct trace_buffer_meta *meta;
		int fd;

		snprintf(name, sizeof(name), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		fd = open(path(name), O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			die(name);
		meta = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
		if (meta == MAP_FAILED)
			die("mmap of the meta page");
		if (ioctl(fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
			die("TRACE_MMAP_IOCTL_GET_READER");
		munmap(meta, getpagesize());
		close(fd);
	}
}

/* read CPU's snapshot_raw as libtracefs does: splice, then read() */
static long read_snapshot_cpu(int cpu, unsigned char *page, struct snap_walk *w)
{
	char name[64];
	ssize_t n, got;
	int fd, p[2];

	w->cpu = cpu;
	w->last_ts = 0;
	snprintf(name, sizeof(name), "per_cpu/cpu%d/snapshot_raw", cpu);
	fd = open(path(name), O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die(name);
	if (pipe(p))
		die("pipe");
	for (;;) {
		n = splice(fd, NULL, p[1], NULL, 16 * subbuf, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0) {
			for (got = 0; got < n; got += subbuf) {
				if (read(p[0], page, subbuf) != subbuf)
					die("read of the pipe");
				snap_page(page, w);
			}
			continue;
		}
		n = read(fd, page, subbuf);
		if (n <= 0)
			break;
		snap_page(page, w);
	}
	if (n < 0 && errno != EAGAIN)
		die("read of snapshot_raw");
	close(p[0]);
	close(p[1]);
	close(fd);
	return 0;
}

/*
 * One round: empty the live buffer, write the samples, swap, read the
 * snapshot of CPU @only (all CPUs if < 0). Every sample of the CPUs read
 * must be found once; none of another CPU's.
 */
static int snapshot_round(int only, unsigned char *page)
{
	long missing = 0, twice = 0, extra = 0;
	struct snap_walk w = { 0 };
	int i, fd, cpu;

	fd = open(path("trace"), O_WRONLY | O_TRUNC);
	if (fd < 0)
		die("trace");
	close(fd);
	fd = open(path("trace_marker"), O_WRONLY);
	if (fd < 0)
		die("trace_marker");
	/*
	 * Random values could repeat (5000 of 2^31 did, about once in 170
	 * rounds): a repeated value found on one CPU was then counted as the
	 * other sample's, on the wrong CPU.
	 */
	first_value = (random() & 0x3fffffff) + 1;
	for (i = 0; i < NSAMPLES; i++) {
		samples[i].cpu = random() % ncpus;
		samples[i].value = first_value + i;
		found[i] = 0;
		pin(samples[i].cpu);
		sched_yield();
		if (write(fd, &samples[i], sizeof(samples[i])) != sizeof(samples[i]))
			die("write of a sample to trace_marker");
	}
	close(fd);
	write_file("snapshot", "1");

	for (cpu = 0; cpu < ncpus; cpu++)
		if (only < 0 || cpu == only)
			read_snapshot_cpu(cpu, page, &w);
	for (i = 0; i < NSAMPLES; i++) {
		int want = only < 0 || samples[i].cpu == only;

		missing += want && !found[i];
		twice += found[i] > 1;
		extra += !want && found[i];
	}
	if (missing || twice || extra || w.backwards || w.wrong_cpu) {
		printf("FAIL snapshot_raw, %s %d: %ld samples missing, %ld read twice, %ld of other CPUs, "
		       "%ld on the wrong CPU, %ld time stamps going back (%ld samples read)\n",
		       only < 0 ? "CPUs, all of" : "CPU", only < 0 ? ncpus : only, missing, twice, extra,
		       w.wrong_cpu, w.backwards, w.events);
		return 1;
	}
	return 0;
}

/* a round for all CPUs, then one a CPU, as libtracefs' test does */
static int snapshot_raw(int map_first)
{
	unsigned char *page = malloc(subbuf);
	int cpu, bad;

	if (!page)
		die("malloc");
	if (map_first)
		premap();
	srandom(getpid());
	bad = snapshot_round(-1, page);
	for (cpu = 0; cpu < ncpus && !bad; cpu++)
		bad = snapshot_round(cpu, page);
	write_file("snapshot", "0");
	free(page);
	if (!bad)
		printf("OK snapshot_raw: %d rounds of %d samples, each read once from its CPU's snapshot\n",
		       ncpus + 1, NSAMPLES);
	return bad;
}

/* --- cpu-pipe */

static int pipe_fd, out_fd, mapped, enter_id, by_meta, use_marker;
static volatile int done;
static struct trace_buffer_meta *meta;
static unsigned char *subbufs;
static size_t subbufs_len;

/* a copy of the events in [from, to) of a mapped sub-buffer, as a page */
static void copy_out(const unsigned char *sub, uint32_t from, uint32_t to)
{
	unsigned char *page = calloc(1, subbuf);
	uint64_t commit = to - from;

	if (!page)
		die("calloc");
	memcpy(page, sub, 8);	/* the time stamp the deltas start from */
	memcpy(page + 8, &commit, 8);
	memcpy(page + SUBBUF_HDR, sub + SUBBUF_HDR + from, to - from);
	if (write(out_fd, page, subbuf) != subbuf)
		die("write to the output file");
	free(page);
}

/*
 * One step of a mapped reader that copies out what the writer committed
 * on the reader sub-buffer, reading its commit from the mapping (the
 * writer may still be adding to it), and asks for a new reader when it
 * has seen it all. Returns 1 when it copied something.
 */
static unsigned int cur_id, cur_done;
static uint64_t lost;

static int mapped_step(void)
{
	const unsigned char *sub;
	uint32_t commit;

	/* a new reader sub-buffer is the reader's from its start */
	if (cur_id != meta->reader.id) {
		cur_id = meta->reader.id;
		cur_done = 0;
		lost += meta->reader.lost_events;
	}
	sub = subbufs + (size_t)cur_id * meta->subbuf_size;
	/* what the writer committed, or what GET_READER handed over */
	commit = by_meta ? meta->reader.read : page_commit(sub);
	if (commit > cur_done) {
		copy_out(sub, cur_done, commit);
		cur_done = commit;
		/* tell the kernel how far we got */
		if (ioctl(pipe_fd, TRACE_MMAP_IOCTL_GET_READER) < 0 && errno != EAGAIN)
			die("TRACE_MMAP_IOCTL_GET_READER");
		return 1;
	}
	if (ioctl(pipe_fd, TRACE_MMAP_IOCTL_GET_READER) < 0 && errno != EAGAIN)
		die("TRACE_MMAP_IOCTL_GET_READER");
	return cur_id != meta->reader.id || page_commit(subbufs + (size_t)meta->reader.id *
							meta->subbuf_size) > cur_done;
}

static void *pipe_thread(void *unused __attribute__((unused)))
{
	unsigned char *page = malloc(subbuf);
	int p[2];
	ssize_t n;

	cpu_set_t all;
	int cpu;

	if (!page || pipe(p))
		die("pipe");
	/* the reader runs wherever it can, as a recorder's thread does */
	CPU_ZERO(&all);
	for (cpu = 0; cpu < ncpus; cpu++)
		CPU_SET(cpu, &all);
	sched_setaffinity(0, sizeof(all), &all);
	while (!done) {
		if (mapped) {
			mapped_step();
			continue;
		}
		n = splice(pipe_fd, NULL, p[1], NULL, 16 * subbuf, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n > 0 && splice(p[0], NULL, out_fd, NULL, n, SPLICE_F_MOVE) != n)
			die("splice into the output file");
	}
	/* flush: everything committed before the stop, once */
	if (mapped) {
		while (mapped_step())
			;
	} else {
		while ((n = read(pipe_fd, page, subbuf)) > 0)
			if (write(out_fd, page, n) != n)
				die("write to the output file");
		if (n < 0 && errno != EAGAIN)
			die("read of trace_pipe_raw");
	}
	close(p[0]);
	close(p[1]);
	free(page);
	return NULL;
}

struct pipe_count {
	long mine, other;
};

static void pipe_event(const unsigned char *p, uint32_t len, uint64_t ts, void *arg)
{
	struct pipe_count *c = arg;
	uint16_t type;
	int32_t pid;

	(void)ts;
	if (len < 8)
		return;
	memcpy(&type, p, 2);
	memcpy(&pid, p + 4, 4);
	if (type != enter_id)
		return;
	if (pid == getpid())
		c->mine++;
	else
		c->other++;
}

static int cpu_pipe(long n, int map)
{
	struct pipe_count c = { 0 };
	unsigned char *page = malloc(subbuf);
	char file[] = "/tmp/client-seq.XXXXXX";
	pthread_t th;
	long i, pages = 0, lost_unknown = 0;
	int marker_fd = -1;
	ssize_t r;

	if (!page)
		die("malloc");
	mapped = map;
	write_file("tracing_on", "1");
	out_fd = mkstemp(file);
	if (out_fd < 0)
		die("mkstemp");
	unlink(file);
	pipe_fd = open(path("per_cpu/cpu0/trace_pipe_raw"), O_RDONLY | O_NONBLOCK);
	if (pipe_fd < 0)
		die("per_cpu/cpu0/trace_pipe_raw");
	if (map) {
		meta = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, pipe_fd, 0);
		if (meta == MAP_FAILED)
			die("mmap of the meta page");
		subbufs_len = (size_t)meta->subbuf_size * meta->nr_subbufs;
		subbufs = mmap(NULL, subbufs_len, PROT_READ, MAP_SHARED, pipe_fd,
			       meta->meta_page_size);
		if (subbufs == MAP_FAILED)
			die("mmap of the sub-buffers");
		/* what earlier readers consumed of the reader sub-buffer */
		cur_id = meta->reader.id;
		cur_done = meta->reader.read;
	}
	write_file("trace", "");
	if (use_marker) {
		marker_fd = open(path("trace_marker"), O_WRONLY);
		if (marker_fd < 0)
			die("trace_marker");
	} else {
		write_file("events/syscalls/sys_enter_getppid/enable", "1");
	}
	pin(0);
	if (pthread_create(&th, NULL, pipe_thread, NULL))
		die("pthread_create");
	usleep(200000);
	for (i = 0; i < n; i++) {
		if (!use_marker)
			syscall(SYS_getppid);
		else if (write(marker_fd, "m", 1) != 1)
			die("write to trace_marker");
	}
	done = 1;
	pthread_join(th, NULL);
	if (use_marker)
		close(marker_fd);
	else
		write_file("events/syscalls/sys_enter_getppid/enable", "0");
	if (map) {
		munmap(subbufs, subbufs_len);
		munmap(meta, getpagesize());
	}
	close(pipe_fd);

	if (lseek(out_fd, 0, SEEK_SET))
		die("lseek");
	while ((r = read(out_fd, page, subbuf)) == subbuf) {
		uint64_t commit, stored;

		memcpy(&commit, page + 8, 8);
		if (commit & (1ULL << 30)) {
			memcpy(&stored, page + SUBBUF_HDR + page_commit(page), 8);
			lost += stored;
		} else if (commit & (1ULL << 31)) {
			lost_unknown++;
		}
		walk(page, 0, page_commit(page), 0, pipe_event, &c);
		pages++;
	}
	close(out_fd);
	free(page);
	if (r != 0) {
		printf("FAIL cpu-pipe %s N=%ld: the file ends with %zd bytes, not a whole sub-buffer\n",
		       map ? "mapped" : "unmapped", n, r);
		return 1;
	}
	if (c.mine != n) {
		char st[1024] = "";
		int sfd = open(path("per_cpu/cpu0/stats"), O_RDONLY);

		if (sfd >= 0 && read(sfd, st, sizeof(st) - 1) > 0)
			for (char *q = st; *q; q++)
				if (*q == '\n')
					*q = ' ';
		if (sfd >= 0)
			close(sfd);
		printf("cpu0 stats: %s\n", st);
		printf("FAIL cpu-pipe %s N=%ld: the file holds %ld of this process's events (%ld pages; "
		       "lost %llu, and %ld pages lost an unknown number)\n",
		       map ? "mapped" : "unmapped", n, c.mine, pages, (unsigned long long)lost,
		       lost_unknown);
		return 1;
	}
	printf("OK cpu-pipe %s N=%ld: %ld events in %ld pages\n", map ? "mapped" : "unmapped",
	       n, c.mine, pages);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		goto usage;
	dir = argv[2];
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	subbuf = header_page_size();
	if (!strcmp(argv[1], "snapshot-raw") && (argc == 3 || (argc == 4 && !strcmp(argv[3], "premap")))) {
		print_id = read_long("/sys/kernel/tracing/events/ftrace/print/id");
		return snapshot_raw(argc == 4);
	}
	if (!strcmp(argv[1], "cpu-pipe") && (argc == 5 || (argc == 6 && !strcmp(argv[5], "marker"))) &&
	    (!strcmp(argv[4], "mapped") || !strcmp(argv[4], "unmapped") ||
	     !strcmp(argv[4], "mapped-meta"))) {
		by_meta = !strcmp(argv[4], "mapped-meta");
		use_marker = argc == 6;
		enter_id = read_long(use_marker ? "/sys/kernel/tracing/events/ftrace/print/id" :
				     "/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id");
		return cpu_pipe(atol(argv[3]), strcmp(argv[4], "unmapped") != 0);
	}
usage:
	fprintf(stderr, "usage: %s snapshot-raw DIR [premap] | "
		"cpu-pipe DIR N mapped|mapped-meta|unmapped [marker]\n", argv[0]);
	return 2;
}
