// SPDX-License-Identifier: GPL-2.0
/*
 * libtracefs-seq: the sequence of libtracefs 1.8's own unit-test suite
 * (its order, its instance, its event and its counts), made with the
 * library's calls, linked statically against the current Debian
 * libtracefs (scripts/fetch-libtracefs.sh). Where guest/src/client-seq.c
 * replays the system calls, this runs the library itself: what a user
 * of a current libtracefs gets from this kernel.
 *
 *   libtracefs-seq [-s SAMPLES] [-m MANY] [-r RUNS] [-b KB] [-M] [-F] [-o STEP]
 *
 * SAMPLES markers a snapshot or raw round (5000), MANY sub-buffers' worth
 * of events in the "many" pipe case (1000), RUNS runs of the mapped
 * "many" case (3). -b sets the top level's and the instance's
 * buffer_size_kb first (fewer sub-buffers for buffer_percent to fill on
 * slow kernels); the top level gets its size back at the end. -M counts
 * trace_marker writes (ftrace/print) where the suite counts
 * sys_enter_getppid events (kernels without syscall events: the debug
 * lane's). -F leaves out step 5's function tracer runs, reported as a
 * skip (on the debug kernel, tracing the functions of every other task
 * takes more than ten minutes). Prints "RESULT <name> PASS|FAIL|SKIP
 * <detail>" lines and exits 0; 2 on a setup error.
 *
 * The suite's steps, in its order:
 *  1. tracefs_instance_reset() of the top level; mount points checked.
 *  2. cpu read: N getppid() calls on CPU 0, then non-blocking reads of
 *     CPU 0 until empty; exactly N events of this process, for N = 1,
 *     half a sub-buffer's worth, one, one more, 50 (top level and
 *     instance, unmapped and mapped).
 *  3. buffer_percent 0, 1, 50, 100: a blocked tracefs_cpu_read_buf()
 *     must not return below the percentage, and must return above it.
 *  4. cpu pipe: a thread moves CPU 0's sub-buffers into a file while
 *     N getppid() calls run; stop, flush: the file holds exactly N. A
 *     mapped flush of the library can stop with sub-buffers left in the
 *     ring (on upstream's kernels too, pipe_thread()): a second flush
 *     gets them, and its share is reported.
 *  5. pid filters with the function tracer and syscall events, this
 *     process traced or (notrace) everything else, each run followed by
 *     a raw iteration (mapped) that stops part way; other instances
 *     with their first tracer and kprobe events (state only).
 *  6. the snapshot iteration: clear, SAMPLES markers on random CPUs,
 *     tracefs_snapshot_snap(), tracefs_iterate_snapshot_events():
 *     every marker once, on its CPU, in time order; then per CPU.
 *  7. the raw iteration (a mapped one on this kernel), the same way.
 *  8. follow events, with CPU 0's buffer resized and restored, then the
 *     snapshot iteration again; and with 8 KiB sub-buffers, the
 *     snapshot iteration (top level and instance) and the pipe.
 *  9. header_page: with the top level at 8 KiB sub-buffers and the
 *     instance at 4 KiB, then the other way round, each one's
 *     events/header_page (its text, and libtraceevent's reading of it)
 *     names its own size.
 * -o runs one step only: read, percent, pipe, state, iterate, follow, 8k,
 * header-page.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <tracefs.h>
#include <kbuffer.h>

/*
 * The archives are built against glibc 2.38 or newer, whose headers map
 * strtol() and sscanf() to their C23 names; Debian 12's glibc has the
 * old ones only, which behave the same for what libtracefs parses.
 */
long __isoc23_strtol(const char *s, char **e, int b);
long long __isoc23_strtoll(const char *s, char **e, int b);
unsigned long __isoc23_strtoul(const char *s, char **e, int b);
unsigned long long __isoc23_strtoull(const char *s, char **e, int b);
int __isoc23_sscanf(const char *s, const char *f, ...);
int __isoc23_fscanf(FILE *fp, const char *f, ...);
long __isoc23_strtol(const char *s, char **e, int b) { return strtol(s, e, b); }
long long __isoc23_strtoll(const char *s, char **e, int b) { return strtoll(s, e, b); }
unsigned long __isoc23_strtoul(const char *s, char **e, int b) { return strtoul(s, e, b); }
unsigned long long __isoc23_strtoull(const char *s, char **e, int b) { return strtoull(s, e, b); }
int __isoc23_sscanf(const char *s, const char *f, ...)
{
	va_list ap;
	int r;

	va_start(ap, f);
	r = vsscanf(s, f, ap);
	va_end(ap);
	return r;
}

int __isoc23_fscanf(FILE *fp, const char *f, ...)
{
	va_list ap;
	int r;

	va_start(ap, f);
	r = vfscanf(fp, f, ap);
	va_end(ap);
	return r;
}

#define INSTANCE	"libtracefs_seq"
#define SYSTEM		"syscalls"
#define EVENT		"sys_enter_getppid"

static struct tracefs_instance *inst;	/* the suite's instance */
static struct tep_handle *tep;
static int ncpus, nsamples = 5000, many = 1000, runs = 3, buffer_kb;
static bool can_map, use_marker, no_function;
static const char *only_step;	/* -o: the one step to run */
static int marker_size;		/* bytes a one-byte marker takes in a sub-buffer */
static cpu_set_t all_cpus;

static void result(const char *name, bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("RESULT %s %s ", name, ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void skip(const char *name, const char *why)
{
	printf("RESULT %s SKIP %s\n", name, why);
	fflush(stdout);
}

static const char *where(struct tracefs_instance *in)
{
	return in ? "inst" : "top";
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
	sched_yield();
}

static void unpin(void)
{
	sched_setaffinity(0, sizeof(all_cpus), &all_cpus);
}

static void getppids(long n)
{
	while (n-- > 0)
		getppid();
}

/* --- steps 2 to 4: one CPU's buffer, read in the library's ways */

struct cpu_test {
	struct tracefs_instance *in;
	struct tracefs_cpu *tcpu;
	struct kbuffer *kbuf;
	void *buf;
	int bufsize, per_buf, nr_subbufs, pid, fd, marker_fd;
	bool map, nonblock;
	volatile bool done;
	off_t flushed;		/* where the library's flush ended in fd */
};

static int temp_fd(void)
{
	char name[] = "/tmp/libtracefs-seqXXXXXX";
	int fd = mkstemp(name);

	unlink(name);
	return fd;
}

static int cpu_open(struct cpu_test *t)
{
	t->tcpu = t->map ? tracefs_cpu_open_mapped(t->in, 0, t->nonblock) :
			   tracefs_cpu_open(t->in, 0, t->nonblock);
	return t->tcpu ? 0 : -1;
}

/*
 * The suite's estimate of the events a sub-buffer holds: the event's
 * fields rounded up to a long, and a 4-byte header (the real events are
 * smaller, so "a sub-buffer's worth" spans part of a second one).
 */
static int events_per_buf(void)
{
	struct tep_format_field **f;
	struct tep_event *ev;
	int max = 0, i;

	/* markers are larger than the estimate: their measured size */
	if (use_marker)
		return marker_size > 0 ? tep_get_sub_buffer_data_size(tep) / marker_size : -1;
	ev = tep_find_event_by_name(tep, SYSTEM, EVENT);
	if (!ev)
		return -1;
	f = tep_event_fields(ev);
	for (i = 0; f && f[i]; i++)
		if (f[i]->offset + f[i]->size > max)
			max = f[i]->offset + f[i]->size;
	free(f);
	max = ((max + sizeof(long) - 1) & ~(sizeof(long) - 1)) + 4;
	return tep_get_sub_buffer_data_size(tep) / max;
}

static int cpu_setup(struct cpu_test *t, struct tracefs_instance *in, bool nonblock, bool map)
{
	memset(t, 0, sizeof(*t));
	t->marker_fd = -1;
	t->in = in;
	t->map = map;
	t->nonblock = nonblock;
	tracefs_trace_on(in);
	t->fd = temp_fd();
	if (t->fd < 0 || cpu_open(t))
		return -1;
	t->bufsize = tracefs_cpu_read_size(t->tcpu);
	t->nr_subbufs = tracefs_instance_get_buffer_size(in, 0) * 1024 /
			tep_get_sub_buffer_data_size(tep);
	t->per_buf = events_per_buf();
	t->buf = calloc(1, t->bufsize);
	t->kbuf = tep_kbuffer(tep);
	t->pid = getpid();
	if (!t->buf || !t->kbuf || t->per_buf <= 0 || t->nr_subbufs <= 0)
		return -1;
	tracefs_instance_file_clear(in, "trace");
	if (use_marker) {
		char *path = tracefs_instance_get_file(in, "trace_marker");

		t->marker_fd = path ? open(path, O_WRONLY) : -1;
		tracefs_put_tracing_file(path);
		if (t->marker_fd < 0)
			return -1;
	} else if (tracefs_event_enable(in, SYSTEM, EVENT)) {
		return -1;
	}
	pin(0);
	return 0;
}

/* @n events of this process on CPU 0: getppid() calls, or markers */
static void emit(struct cpu_test *t, long n)
{
	while (n-- > 0) {
		if (!use_marker)
			getppid();
		else if (write(t->marker_fd, "x", 1) != 1)
			break;
	}
}

static void cpu_teardown(struct cpu_test *t)
{
	unpin();
	if (!use_marker)
		tracefs_event_disable(t->in, SYSTEM, EVENT);
	else if (t->marker_fd >= 0)
		close(t->marker_fd);
	if (t->fd >= 0)
		close(t->fd);
	tracefs_cpu_close(t->tcpu);
	free(t->buf);
	kbuffer_free(t->kbuf);
}

static int cpu_reopen(struct cpu_test *t)
{
	close(t->fd);
	tracefs_cpu_close(t->tcpu);
	t->fd = temp_fd();
	return cpu_open(t);
}

/*
 * This process's events in the sub-buffer in t->buf; -1 if it is none
 * (its commit, the low 30 bits of the 8-byte word after the time stamp,
 * runs past the bytes read).
 */
static long count_page(struct cpu_test *t)
{
	unsigned long long ts, commit;
	struct tep_record rec;
	long n = 0;

	memcpy(&commit, (char *)t->buf + 8, sizeof(commit));
	if ((commit & ((1ULL << 30) - 1)) > (unsigned long long)t->bufsize - 16 ||
	    kbuffer_load_subbuffer(t->kbuf, t->buf))
		return -1;
	while ((rec.data = kbuffer_read_event(t->kbuf, &ts))) {
		rec.ts = ts;
		n += tep_data_pid(tep, &rec) == t->pid;
		kbuffer_next_event(t->kbuf, NULL);
	}
	return n;
}

/*
 * A top level that nothing has used yet is at its boot minimum ("7
 * (expanded: 1408)" in buffer_size_kb): the first event the suite enables
 * expands it, after cpu_setup() counted its sub-buffers from the minimum.
 * Expand it first, to the size it reports it would take.
 */
static void expand_top_level(void)
{
	char *size = tracefs_instance_file_read(NULL, "buffer_size_kb", NULL);
	char *exp = size ? strstr(size, "(expanded: ") : NULL;

	if (exp)
		tracefs_instance_set_buffer_size(NULL, atoi(exp + strlen("(expanded: ")), -1);
	free(size);
}

static void cpu_read_test(struct tracefs_instance *in, bool map)
{
	char name[64], bad[256] = "";
	struct cpu_test t;
	long counts[5], i;

	snprintf(name, sizeof(name), "cpu-read-%s%s", where(in), map ? "-mapped" : "");
	if (cpu_setup(&t, in, true, map)) {
		result(name, false, "setup: %s", strerror(errno));
		cpu_teardown(&t);
		return;
	}
	counts[0] = 1;
	counts[1] = t.per_buf / 2;
	counts[2] = t.per_buf;
	counts[3] = t.per_buf + 1;
	counts[4] = t.per_buf * 50L;
	for (i = 0; i < 5; i++) {
		long got = 0, n;
		int ret;

		emit(&t, counts[i]);
		while ((ret = tracefs_cpu_read(t.tcpu, t.buf, false)) > 0) {
			n = count_page(&t);
			if (n < 0) {
				got = -1;
				break;
			}
			got += n;
		}
		if (got != counts[i])
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), " %ld of %ld;",
				 got, counts[i]);
	}
	result(name, !bad[0], "%s", bad[0] ? bad : "1, half, one, one more and 50 sub-buffers' worth, each exact");
	cpu_teardown(&t);
}

static void *read_buf_thread(void *arg)
{
	struct cpu_test *t = arg;

	tracefs_cpu_read_buf(t->tcpu, false);
	t->done = true;
	return NULL;
}

/* a blocked reader wakes above buffer_percent, and not below it */
static void buf_percent_test(struct tracefs_instance *in, bool map)
{
	static const int pcts[] = { 0, 1, 50, 100 };
	char name[64], bad[256] = "";
	struct cpu_test t;
	unsigned int i;
	int save;

	snprintf(name, sizeof(name), "buf-percent-%s%s", where(in), map ? "-mapped" : "");
	if (cpu_setup(&t, in, false, map)) {
		result(name, false, "setup: %s", strerror(errno));
		cpu_teardown(&t);
		return;
	}
	save = tracefs_instance_get_buffer_percent(in);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		char page[t.bufsize];
		int pct = pcts[i], w;
		pthread_t th;

		if (i && cpu_reopen(&t)) {
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), " reopen failed;");
			break;
		}
		tracefs_instance_clear(in);
		tracefs_instance_set_buffer_percent(in, pct);
		t.done = false;
		pthread_create(&th, NULL, read_buf_thread, &t);
		msleep(100);
		if (t.done)
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad), " %d%%: woke empty;", pct);
		if (pct) {
			int minp = (100 + t.nr_subbufs - 1) / t.nr_subbufs;

			if (pct < minp)
				pct = minp;
			emit(&t, (long)t.nr_subbufs * t.per_buf * pct / 100 - t.per_buf);
			msleep(100);
			if (t.done)
				snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
					 " %d%%: woke below;", pcts[i]);
			emit(&t, t.per_buf * 2);
		} else {
			emit(&t, t.per_buf);
		}
		/* a liveness bound, not a time to meet */
		for (w = 0; w < 300 && !t.done; w++)
			msleep(100);
		if (!t.done)
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
				 " %d%%: not woken above in 30 s;", pcts[i]);
		while (tracefs_cpu_flush(t.tcpu, page) > 0)
			;
		tracefs_cpu_stop(t.tcpu);
		pthread_join(th, NULL);
	}
	tracefs_instance_set_buffer_percent(in, save);
	result(name, !bad[0], "%s", bad[0] ? bad : "0, 1, 50 and 100%: woken above, not below");
	cpu_teardown(&t);
}

static void *pipe_thread(void *arg)
{
	struct cpu_test *t = arg;
	long ret = 0;

	unpin();
	while (!t->done && ret >= 0) {
		ret = tracefs_cpu_write(t->tcpu, t->fd, false);
		if (ret < 0 && errno == EAGAIN)
			ret = 0;
	}
	if (ret >= 0 || errno == EAGAIN) {
		do
			ret = tracefs_cpu_flush_write(t->tcpu, t->fd);
		while (ret > 0);
	}
	/*
	 * The suite stops here. A mapped flush may stop early: libtracefs
	 * takes an unchanged reader ID after GET_READER for the end, but
	 * GET_READER only moves the kernel's read over the rest of the reader
	 * sub-buffer when the library read that rest without asking (the
	 * writer was still on it when it was handed over), as upstream's
	 * does. The next GET_READER hands over the next one: flush again.
	 */
	t->flushed = lseek(t->fd, 0, SEEK_CUR);
	if (ret >= 0) {
		do
			ret = tracefs_cpu_flush_write(t->tcpu, t->fd);
		while (ret > 0);
	}
	return (void *)ret;
}

/*
 * What a failed pipe case leaves to look at: the kernel's count of CPU 0
 * (entries, overrun, read events) and each sub-buffer of the file, with
 * its events and the time they span, to place the events that are missing.
 */
static void pipe_diagnose(struct cpu_test *t)
{
	unsigned long long ts, first, last;
	char *st = tracefs_instance_file_read(t->in, "per_cpu/cpu0/stats", NULL);
	int page = 0;
	long n;

	printf("DIAG cpu0 stats: ");
	for (char *q = st; q && *q; q++)
		putchar(*q == '\n' ? ' ' : *q);
	printf("\n");
	free(st);
	lseek(t->fd, 0, SEEK_SET);
	while (read(t->fd, t->buf, t->bufsize) > 0) {
		if (kbuffer_load_subbuffer(t->kbuf, t->buf))
			break;
		n = 0;
		first = last = 0;
		while (kbuffer_read_event(t->kbuf, &ts)) {
			if (!n++)
				first = ts;
			last = ts;
			kbuffer_next_event(t->kbuf, NULL);
		}
		printf("DIAG page %d: %ld events, %llu..%llu\n", page++, n, first, last);
	}
}

static void cpu_pipe_one(struct cpu_test *t, const char *name, long expect)
{
	long got = 0, late = 0, n;
	int pages = 0, lost = 0, bad = 0;
	char again[160] = "";
	pthread_t th;
	off_t at = 0;
	void *ret;

	tracefs_instance_file_clear(t->in, "trace");
	if (ftruncate(t->fd, 0) || lseek(t->fd, 0, SEEK_SET)) {
		result(name, false, "temp file: %s", strerror(errno));
		return;
	}
	t->done = false;
	pthread_create(&th, NULL, pipe_thread, t);
	sleep(1);
	emit(t, expect);
	t->done = true;
	tracefs_cpu_stop(t->tcpu);
	pthread_join(th, &ret);
	lseek(t->fd, 0, SEEK_SET);
	while (read(t->fd, t->buf, t->bufsize) > 0) {
		bool second = at >= t->flushed;

		at += t->bufsize;
		n = count_page(t);
		pages++;
		if (n < 0) {
			bad++;
			continue;
		}
		lost += kbuffer_missed_events(t->kbuf) != 0;
		got += n;
		if (second)
			late += n;
	}
	if (late)
		snprintf(again, sizeof(again),
			 ", %ld of them from a second flush (the library's stopped early)", late);
	if (got != expect || bad || (long)ret < 0)
		pipe_diagnose(t);
	result(name, got == expect && !bad && (long)ret >= 0,
	       "%ld of %ld events in %d sub-buffers%s (%d marked lost, %d not sub-buffers), mover returned %ld",
	       got, expect, pages, again, lost, bad, (long)ret);
}

static void cpu_pipe_test(struct tracefs_instance *in, bool map, const char *tag)
{
	struct cpu_test t;
	char name[96], base[64];
	int r;

	snprintf(base, sizeof(base), "cpu-pipe-%s%s-%s", where(in), tag, map ? "mapped" : "unmapped");
	if (cpu_setup(&t, in, true, map)) {
		snprintf(name, sizeof(name), "%s-setup", base);
		result(name, false, "%s", strerror(errno));
		cpu_teardown(&t);
		return;
	}
#define PIPE(suffix, n) do { \
		snprintf(name, sizeof(name), "%s-%s", base, suffix); \
		cpu_pipe_one(&t, name, n); \
	} while (0)
	if (!*tag) {
		PIPE("1", 1);
		PIPE("half", t.per_buf / 2);
		PIPE("full", t.per_buf);
	}
	PIPE("full-plus-1", t.per_buf + 1);
	PIPE("many", (long)t.per_buf * many);
	/*
	 * the mapped reader lost a sub-buffer's tail one run in two, before
	 * "ring-buffer: Look at the commit page before the reader page's size"
	 */
	for (r = 2; map && r <= runs; r++) {
		char s[32];

		snprintf(s, sizeof(s), "many-run%d", r);
		PIPE(s, (long)t.per_buf * many);
	}
	cpu_teardown(&t);
}

/* --- step 5: state the suite leaves: filters, tracers, other instances */

static void *spinner(void *arg)
{
	volatile bool *stop = arg;

	while (!*stop)
		getppid();
	return NULL;
}

/* the suite's pid checks stop an iteration part way: leave a mapped reader mid-buffer */
static int stop_after_cb(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	long *left = ctx;

	(void)ev, (void)rec, (void)cpu;
	return --*left > 0 ? 0 : -1;
}

/*
 * The suite's pid filter tests: trace this process only, or (notrace)
 * everything else, which fills every CPU's buffer; then iterate the raw
 * events (mapped on this kernel, every CPU) and stop part way.
 */
static void pid_filters(struct tracefs_instance *in, bool function, bool notrace)
{
	volatile bool stop = false;
	long left = 100;
	pthread_t a, b;

	tracefs_trace_off(in);
	tracefs_instance_clear(in);
	if (function) {
		tracefs_tracer_set(in, TRACEFS_TRACER_FUNCTION);
		tracefs_filter_pid_function(in, getpid(), true, notrace);
	} else {
		tracefs_event_enable(in, "syscalls", NULL);
		tracefs_event_enable(in, "raw_syscalls", NULL);
		tracefs_filter_pid_events(in, getpid(), true, notrace);
	}
	pthread_create(&a, NULL, spinner, (void *)&stop);
	pthread_create(&b, NULL, spinner, (void *)&stop);
	tracefs_trace_on(in);
	getppids(1000);
	msleep(100);
	stop = true;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	tracefs_trace_off(in);
	tracefs_iterate_raw_events(tep, in, NULL, 0, stop_after_cb, &left);
	tracefs_instance_clear(in);
	if (function) {
		tracefs_filter_pid_function_clear(in, false);
		tracefs_filter_pid_function_clear(in, true);
		tracefs_tracer_clear(in);
	} else {
		tracefs_filter_pid_events_clear(in, false);
		tracefs_filter_pid_events_clear(in, true);
		tracefs_event_disable(in, NULL, NULL);
	}
	tracefs_trace_on(in);
}

/*
 * The suite sets an instance's first tracer. Not one that keeps a CPU busy
 * on purpose (hwlat, osnoise, timerlat: listed first on 7.2): under
 * emulation they hold the guest's vCPUs for minutes.
 */
static bool busy_tracer(const char *name)
{
	return !strcmp(name, "hwlat") || !strcmp(name, "osnoise") ||
	       !strcmp(name, "timerlat");
}

static void other_instances(void)
{
	struct tracefs_instance *o;
	char **tracers, *list, *first;
	int i;

	o = tracefs_instance_create("libtracefs_seq_file");
	list = tracefs_instance_file_read(o, "available_tracers", NULL);
	first = list ? strtok(list, " \n") : NULL;
	while (first && busy_tracer(first))
		first = strtok(NULL, " \n");
	if (first)
		tracefs_instance_file_write(o, "current_tracer", first);
	free(list);
	tracefs_instance_file_write(NULL, "kprobe_events", "p:mkdir do_mkdirat path=+u0($arg2):ustring");
	tracefs_instance_file_append(NULL, "kprobe_events", "-:mkdir");
	tracefs_instance_file_clear(NULL, "kprobe_events");
	tracefs_instance_destroy(o);
	tracefs_instance_free(o);

	o = tracefs_instance_create("libtracefs_seq_reset");
	tracers = tracefs_instance_tracers(o);
	for (i = 0; tracers && tracers[i] && busy_tracer(tracers[i]); i++)
		;
	if (tracers && tracers[i])
		tracefs_tracer_set(o, TRACEFS_TRACER_CUSTOM, tracers[i]);
	tracefs_list_free(tracers);
	tracefs_event_enable(o, "sched", "sched_switch");
	tracefs_instance_file_write(o, "trace_clock", "global");
	tracefs_instance_file_write(o, "set_ftrace_filter", "schedule:stacktrace");
	tracefs_event_file_write(o, "sched", "sched_switch", "filter", "common_pid == 5");
	tracefs_instance_reset(o);
	tracefs_instance_destroy(o);
	tracefs_instance_free(o);
}

/* --- steps 6 to 8: the iterations */

struct sample {
	int cpu;
	int value;
};

static struct sample *samples;
static struct {
	long found, wrong_cpu, ts_back;
	unsigned long long last_ts;
	int only;
} it;

static int sample_cb(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	struct tep_format_field *f;
	struct sample *s;
	int i;

	(void)ctx;
	if (it.last_ts > rec->ts)
		it.ts_back++;
	it.last_ts = rec->ts;
	if ((it.only >= 0 && cpu != it.only) || cpu != rec->cpu)
		it.wrong_cpu++;
	f = tep_find_field(ev, "buf");
	if (!f)
		return 0;
	s = (struct sample *)((char *)rec->data + f->offset);
	for (i = 0; i < nsamples; i++) {
		if (samples[i].value == s->value && samples[i].cpu == cpu) {
			samples[i].value = 0;
			it.found++;
			break;
		}
	}
	return 0;
}

static int write_samples(struct tracefs_instance *in)
{
	char *path = tracefs_instance_get_file(in, "trace_marker");
	int fd = path ? open(path, O_WRONLY) : -1, i, bad = 0;

	tracefs_put_tracing_file(path);
	if (fd < 0)
		return -1;
	for (i = 0; i < nsamples; i++) {
		samples[i].cpu = rand() % ncpus;
		samples[i].value = random() | 1;
		pin(samples[i].cpu);
		bad += write(fd, &samples[i], sizeof(samples[i])) != sizeof(samples[i]);
	}
	unpin();
	close(fd);
	return bad;
}

static void iterate_round(struct tracefs_instance *in, int cpu, bool snap, const char *tag)
{
	cpu_set_t *set = NULL;
	size_t size = 0;
	long want = 0;
	char name[64];
	int i, ret, bad_writes;

	if (cpu < 0)
		snprintf(name, sizeof(name), "%s-%s%s-all", snap ? "snapshot" : "raw", where(in), tag);
	else
		snprintf(name, sizeof(name), "%s-%s%s-cpu%d", snap ? "snapshot" : "raw", where(in), tag,
			 cpu);
	if (snap)
		tracefs_instance_clear(in);
	if (cpu >= 0) {
		set = CPU_ALLOC(ncpus);
		size = CPU_ALLOC_SIZE(ncpus);
		CPU_ZERO_S(size, set);
		CPU_SET_S(cpu, size, set);
	}
	memset(&it, 0, sizeof(it));
	it.only = cpu;
	bad_writes = write_samples(in);
	if (snap) {
		if (tracefs_snapshot_snap(in)) {
			result(name, false, "tracefs_snapshot_snap: %s", strerror(errno));
			goto out;
		}
		ret = tracefs_iterate_snapshot_events(tep, in, set, size, sample_cb, NULL);
	} else {
		ret = tracefs_iterate_raw_events(tep, in, set, size, sample_cb, NULL);
	}
	for (i = 0; i < nsamples; i++)
		want += cpu < 0 || samples[i].cpu == cpu;
	result(name, !ret && !bad_writes && it.found == want && !it.wrong_cpu && !it.ts_back,
	       "iterate %d, %ld of %ld markers found, %d writes failed, %ld on a wrong CPU, %ld back in time",
	       ret, it.found, want, bad_writes, it.wrong_cpu, it.ts_back);
out:
	if (set)
		CPU_FREE(set);
}

static void iterate_test(struct tracefs_instance *in, bool snap, const char *tag, bool per_cpu)
{
	int cpu;

	iterate_round(in, -1, snap, tag);
	for (cpu = 0; per_cpu && cpu < ncpus; cpu++)
		iterate_round(in, cpu, snap, tag);
	if (snap)
		tracefs_snapshot_free(in);
}

static int ignore_cb(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	(void)ev, (void)rec, (void)cpu, (void)ctx;
	return 0;
}

static void *stop_iterating(void *arg)
{
	sleep(1);
	tracefs_iterate_stop(arg);
	return NULL;
}

/* what "Follow events" and "Follow events clear" do to the buffers */
static void follow_events(struct tracefs_instance *in)
{
	pthread_t th;
	size_t size;

	tracefs_follow_event(tep, in, "sched", "sched_switch", ignore_cb, NULL);
	tracefs_follow_missed_events(in, ignore_cb, NULL);
	tracefs_event_enable(in, "sched", "sched_switch");
	tracefs_event_enable(in, "sched", "sched_waking");
	tracefs_tracer_set(in, TRACEFS_TRACER_FUNCTION);
	pthread_create(&th, NULL, stop_iterating, in);
	tracefs_iterate_raw_events(tep, in, NULL, 0, ignore_cb, NULL);
	pthread_join(th, NULL);

	/*
	 * CPU 0 resized and restored as the suite does: it passes
	 * getpagesize() * 4 for "four pages", but the call takes KiB (16 MiB)
	 */
	size = tracefs_instance_get_buffer_size(in, 0);
	tracefs_instance_set_buffer_size(in, getpagesize() * 4, 0);
	tracefs_trace_on(in);
	getppids(100);
	tracefs_trace_off(in);
	tracefs_iterate_raw_events(tep, in, NULL, 0, NULL, NULL);
	tracefs_instance_set_buffer_size(in, size, 0);
	tracefs_follow_event_clear(in, NULL, NULL);
	tracefs_follow_missed_events_clear(in);
	tracefs_tracer_clear(in);
	tracefs_event_disable(in, NULL, NULL);
	tracefs_trace_on(in);
}

/*
 * With -M: what one-byte markers take in CPU 0's sub-buffer of the
 * instance (header, ip, text and padding), from the commit of a page
 * holding 100 of them.
 */
static int measure_marker(void)
{
	char *path = tracefs_instance_get_file(inst, "trace_marker");
	int fd = path ? open(path, O_WRONLY) : -1, i, n;
	struct tracefs_cpu *tcpu;
	unsigned long long commit = 0;
	char *page;

	tracefs_put_tracing_file(path);
	tcpu = tracefs_cpu_open(inst, 0, true);
	if (fd < 0 || !tcpu)
		return -1;
	page = calloc(1, tracefs_cpu_read_size(tcpu));
	tracefs_instance_file_clear(inst, "trace");
	pin(0);
	for (i = 0; i < 100; i++)
		if (write(fd, "x", 1) != 1)
			break;
	unpin();
	n = page ? tracefs_cpu_flush(tcpu, page) : -1;
	if (n > 16)
		memcpy(&commit, page + 8, sizeof(commit));
	free(page);
	tracefs_cpu_close(tcpu);
	close(fd);
	tracefs_instance_file_clear(inst, "trace");
	/* rounded down: a time extend (8 bytes) among them is no marker's */
	return i == 100 && commit ? (int)((commit & ((1ULL << 30) - 1)) / 100) : -1;
}

/*
 * The sub-buffer that @in's own events/header_page describes, in bytes:
 * its data field's offset plus size. By the text, and by what libtraceevent
 * makes of the instance's headers (tracefs_load_headers() of the
 * instance's directory). -1 where either cannot be read; -2 where they
 * disagree.
 */
static int header_page_subbuf(struct tracefs_instance *in)
{
	char *text = tracefs_instance_file_read(in, "events/header_page", NULL);
	char *dir = tracefs_instance_get_dir(in);
	struct tep_handle *h = tep_alloc();
	int offset = -1, size = -1, parsed = -1;
	char *p;

	p = text ? strstr(text, "field: char data;") : NULL;
	if (p && sscanf(p, "field: char data;\toffset:%d;\tsize:%d;", &offset, &size) != 2)
		offset = size = -1;
	if (h && dir && tracefs_load_headers(dir, h) == 0)
		parsed = tep_get_sub_buffer_size(h);
	free(text);
	tracefs_put_tracing_file(dir);
	tep_free(h);
	if (offset < 0 || size <= 0 || parsed < 0)
		return -1;
	return offset + size == parsed ? parsed : -2;
}

/*
 * Each instance's events/header_page names its own sub-buffer size, not
 * the top level's. A reader must size an instance's reads by the
 * instance's own headers; libtracefs 1.8's tracefs_cpu_open() loads the
 * top level's for every instance, which is why its own utest fails once
 * the two sizes differ. Both ways round: a larger top level, then a
 * larger instance.
 */
static void header_page_test(void)
{
	static const struct { int top_kb, inst_kb; } sizes[] = { { 8, 4 }, { 4, 8 } };
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int top_kb = sizes[i].top_kb, inst_kb = sizes[i].inst_kb;
		char name[48];
		int top, own;

		snprintf(name, sizeof(name), "header-page-top%dk-inst%dk", top_kb, inst_kb);
		if (tracefs_instance_set_subbuf_size(NULL, top_kb) ||
		    tracefs_instance_set_subbuf_size(inst, inst_kb)) {
			result(name, false, "tracefs_instance_set_subbuf_size: %s", strerror(errno));
			continue;
		}
		top = header_page_subbuf(NULL);
		own = header_page_subbuf(inst);
		result(name, top == top_kb * 1024 && own == inst_kb * 1024,
		       "top level %d bytes (want %d), instance %d bytes (want %d)",
		       top, top_kb * 1024, own, inst_kb * 1024);
	}
	tracefs_instance_set_subbuf_size(inst, 4);
	tracefs_instance_set_subbuf_size(NULL, 4);
}

static time_t start;

static void cpu_pipe_4k(struct tracefs_instance *in, bool map)
{
	cpu_pipe_test(in, map, "");
}

/* @fn at the top level, then the instance; unmapped, then mapped if it can */
static void each_variant(void (*fn)(struct tracefs_instance *in, bool map))
{
	struct tracefs_instance *where[] = { NULL, inst };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		fn(where[i], false);
		if (can_map)
			fn(where[i], true);
	}
}

/* should step @name run? Each step says on stderr when it starts */
static bool step(const char *name)
{
	if (only_step && strcmp(only_step, name))
		return false;
	fprintf(stderr, "step %s at %ld s\n", name, (long)(time(NULL) - start));
	return true;
}

int main(int argc, char **argv)
{
	ssize_t top_kb;
	struct stat st;
	int opt;

	while ((opt = getopt(argc, argv, "s:m:r:b:MFo:")) != -1) {
		switch (opt) {
		case 's':
			nsamples = atoi(optarg);
			break;
		case 'm':
			many = atoi(optarg);
			break;
		case 'r':
			runs = atoi(optarg);
			break;
		case 'b':
			buffer_kb = atoi(optarg);
			break;
		case 'M':
			use_marker = true;
			break;
		case 'F':
			no_function = true;
			break;
		case 'o':
			only_step = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-s SAMPLES] [-m MANY] [-r RUNS] [-b KB] [-M] [-F] [-o STEP]\n", argv[0]);
			return 2;
		}
	}
	start = time(NULL);
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	sched_getaffinity(0, sizeof(all_cpus), &all_cpus);
	srand(getpid());
	srandom(getpid());
	samples = calloc(nsamples, sizeof(*samples));
	tep = tracefs_local_events(NULL);
	inst = tracefs_instance_create(INSTANCE);
	if (!samples || !tep || !inst) {
		printf("libtracefs-seq: setup: %s\n", strerror(errno));
		return 2;
	}
	can_map = tracefs_mapped_is_supported();
	expand_top_level();
	top_kb = tracefs_instance_get_buffer_size(NULL, -1);
	if (buffer_kb > 0)
		result("buffer-size", !tracefs_instance_set_buffer_size(NULL, buffer_kb, -1) &&
		       !tracefs_instance_set_buffer_size(inst, buffer_kb, -1),
		       "%d KiB a CPU, top level and instance", buffer_kb);
	if (use_marker) {
		marker_size = measure_marker();
		result("marker-size", marker_size > 0, "%d bytes a one-byte marker", marker_size);
	}
	tracefs_instance_reset(NULL);
	result("tracing-dir", stat(tracefs_tracing_dir(), &st) == 0 && S_ISDIR(st.st_mode),
	       "%s", tracefs_tracing_dir());

	if (step("read"))
		each_variant(cpu_read_test);
	if (step("percent"))
		each_variant(buf_percent_test);
	if (step("pipe")) {
		each_variant(cpu_pipe_4k);
		if (!can_map)
			skip("mapped", "tracefs_mapped_is_supported() is false: no mapped variants");
	}
	if (step("state")) {
		pid_filters(NULL, false, false);
		pid_filters(inst, false, false);
		pid_filters(NULL, false, true);
		pid_filters(inst, false, true);
		if (no_function) {
			skip("pid-filters-function", "-F: no function tracer runs with pid filters");
		} else {
			pid_filters(NULL, true, false);
			pid_filters(inst, true, false);
			pid_filters(NULL, true, true);
			pid_filters(inst, true, true);
		}
		other_instances();
	}
	if (step("iterate")) {
		iterate_test(NULL, true, "", true);
		iterate_test(inst, true, "", true);
		iterate_test(NULL, false, "", true);
		iterate_test(inst, false, "", true);
	}
	if (step("follow")) {
		follow_events(NULL);
		follow_events(inst);
		iterate_test(NULL, true, "-after-follow", false);
		iterate_test(inst, true, "-after-follow", false);
	}
	/*
	 * Two-page sub-buffers. libtracefs sizes every reader by the top
	 * level's events/header_page, whatever the instance (upstream 6.12
	 * gives each instance its own, as this kernel does): the top level
	 * gets the instance's size too, or the library reads half
	 * sub-buffers.
	 */
	if (step("8k")) {
		if (tracefs_instance_set_subbuf_size(NULL, 8) == 0 &&
		    tracefs_instance_set_subbuf_size(inst, 8) == 0) {
			iterate_test(NULL, true, "-8k", false);
			iterate_test(inst, true, "-8k", false);
			cpu_pipe_test(inst, false, "-8k");
			if (can_map)
				cpu_pipe_test(inst, true, "-8k");
		} else {
			result("subbuf-8k", false, "tracefs_instance_set_subbuf_size: %s",
			       strerror(errno));
		}
		tracefs_instance_set_subbuf_size(inst, 4);
		tracefs_instance_set_subbuf_size(NULL, 4);
	}
	if (step("header-page"))
		header_page_test();

	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	tracefs_instance_reset(NULL);
	if (buffer_kb > 0 && top_kb > 0)
		tracefs_instance_set_buffer_size(NULL, top_kb, -1);
	return 0;
}
