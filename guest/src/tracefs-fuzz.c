// SPDX-License-Identifier: GPL-2.0
/*
 * tracefs-fuzz: bad input for tracefs files, seeded and reproducible.
 *
 *   tracefs-fuzz SEED OPS FILE:ERRNO,ERRNO... [dir:DIR:ERRNO,...] ...
 *
 * Runs OPS operations, each on a target picked at random. On a file:
 * writes of random bytes (up to 70000), of tokens that parsers get wrong
 * ("-1", " 1", "0x1", huge numbers, binary), of the two halves of a value
 * in separate writes, reads of random sizes with O_NONBLOCK, ioctl() with
 * random commands and arguments, and mmap() with random lengths, offsets
 * and protections. On "dir:DIR": mkdir and rmdir of names from a small
 * pool, valid and not (empty, ".", "..", 300 characters, control bytes).
 * Every failure must carry one of the errnos listed for its target; reads
 * may also give EAGAIN, ioctl ENOTTY/EINVAL/EFAULT, mmap ENODEV/EACCES/
 * EINVAL/ENOMEM. Anything else is counted as unexpected. The same SEED
 * gives the same operations.
 *
 * Prints one line per file ("FILE ops N ok N ERRNO N ... unexpected N
 * ms N", the last the time its operations took) and a last line
 * "unexpected N". Exit status 0 if N is 0, 1 otherwise,
 * 2 on usage errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES	32
#define NR_ERRNOS	134

struct target {
	const char	*path;
	int		is_dir;
	char		allowed[NR_ERRNOS];
	long		ops, ok;
	long		err[NR_ERRNOS];
	long		unexpected;
	long long	ns;
};

static unsigned long long rng;

static unsigned int rnd(unsigned int n)
{
	/* xorshift64*, seeded from the command line */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (unsigned int)((rng * 2685821657736338717ULL) >> 32) % n;
}

static const struct { const char *name; int no; } names[] = {
	{ "EINVAL", EINVAL }, { "EBUSY", EBUSY }, { "ENOMEM", ENOMEM },
	{ "EAGAIN", EAGAIN }, { "ENODEV", ENODEV }, { "ENOENT", ENOENT },
	{ "EPERM", EPERM }, { "EACCES", EACCES }, { "EFAULT", EFAULT },
	{ "ENOSPC", ENOSPC }, { "EINTR", EINTR }, { "E2BIG", E2BIG },
	{ "ERANGE", ERANGE }, { "EEXIST", EEXIST }, { "ENOTTY", ENOTTY },
	{ "EBADF", EBADF }, { "EIO", EIO }, { "EOPNOTSUPP", EOPNOTSUPP },
	{ "ENAMETOOLONG", ENAMETOOLONG }, { "ENOTEMPTY", ENOTEMPTY },
	{ "ENOTDIR", ENOTDIR }, { "EROFS", EROFS },
};

static const char *errname(int no)
{
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].no == no)
			return names[i].name;
	return NULL;
}

static int errnum(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].name, name))
			return names[i].no;
	return -1;
}

static const char * const tokens[] = {
	"0", "1", "2", "-1", "1\n", "0\n", " 1", "1 ", "01", "0x1", "1.0",
	"\n", "", "abc", "99999999999999999999999", "4294967296", "-0",
	"1\n1\n", "\xff\xfe\x01", "+1", "1\t", "0b1",
};

static char buf[70001];

enum { OP_WRITE, OP_READ, OP_IOCTL, OP_MMAP, OP_DIR };

static const char *op_names[] = { "write", "read", "ioctl", "mmap", "mkdir/rmdir" };

/* errnos that an operation may always give, whatever the target */
static int always_allowed(int op, int e)
{
	switch (op) {
	case OP_READ:
		return e == EAGAIN;
	case OP_IOCTL:
		return e == ENOTTY || e == EINVAL || e == EFAULT;
	case OP_MMAP:
		return e == ENODEV || e == EACCES || e == EINVAL || e == ENOMEM;
	}
	return 0;
}

static void note(struct target *t, long ret, int op)
{
	t->ops++;
	if (ret >= 0) {
		t->ok++;
		return;
	}
	if (errno >= 0 && errno < NR_ERRNOS)
		t->err[errno]++;
	if (errno < 0 || errno >= NR_ERRNOS ||
	    !(t->allowed[errno] || always_allowed(op, errno))) {
		/* the first few in full, then only the counts */
		if (t->unexpected++ < 5)
			fprintf(stderr, "unexpected: %s on %s: %s\n",
				op_names[op], t->path, strerror(errno));
	}
}

static long do_write(const char *path, const void *data, size_t len)
{
	long ret;
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return -1;
	ret = write(fd, data, len);
	close(fd);
	return ret;
}

static const char * const dir_names[] = {
	"fuzz-0", "fuzz-1", "fuzz-2", "", ".", "..", "a\nb", "\x01\x7f",
	"with space", "fuzz-0/inner",
};

static void dir_op(struct target *t)
{
	char path[512], name[320];
	unsigned int i = rnd(sizeof(dir_names) / sizeof(dir_names[0]) + 1);

	if (i == sizeof(dir_names) / sizeof(dir_names[0])) {
		/* longer than NAME_MAX */
		memset(name, 'n', 300);
		name[300] = '\0';
	} else {
		snprintf(name, sizeof(name), "%s", dir_names[i]);
	}
	snprintf(path, sizeof(path), "%s/%s", t->path, name);
	if (rnd(2))
		note(t, mkdir(path, 0755), OP_DIR);
	else
		note(t, rmdir(path), OP_DIR);
}

static void one_op(struct target *t)
{
	size_t len, i;
	long ret;
	void *map;
	int fd;

	if (t->is_dir) {
		dir_op(t);
		return;
	}

	switch (rnd(8)) {
	case 0:		/* random bytes: up to 8 KiB, one time in 8 up to 70000 */
		/*
		 * set_ftrace_filter matches each token of a write against
		 * every function: 70000 random bytes took a quarter of a
		 * second there, half the fuzzer's time in a KCSAN run (the
		 * per-file "ms" figures).
		 */
		len = rnd(8) ? rnd(8193) : rnd(sizeof(buf));
		for (i = 0; i < len; i++)
			buf[i] = rnd(256);
		note(t, do_write(t->path, buf, len), OP_WRITE);
		break;
	case 1:
	case 2:		/* a token */
		i = rnd(sizeof(tokens) / sizeof(tokens[0]));
		note(t, do_write(t->path, tokens[i], strlen(tokens[i])), OP_WRITE);
		break;
	case 3:		/* a value in two writes on one descriptor */
		fd = open(t->path, O_WRONLY);
		if (fd < 0) {
			note(t, -1, OP_WRITE);
			break;
		}
		ret = write(fd, "1", 1);
		note(t, ret, OP_WRITE);
		ret = write(fd, "\n", 1);
		note(t, ret, OP_WRITE);
		close(fd);
		break;
	case 4:		/* a long run of digits */
		/*
		 * Either a small number or one that overflows an unsigned
		 * long: 6 to 19 ones parse, and as buffer_size_kb they ask
		 * 108 MB a CPU and more. Up to the guest's memory that
		 * is a valid request, which a debug guest under TCG takes
		 * minutes to allocate, holding trace_types_lock (seed
		 * 337642548 wrote 1111111, and another fuzzer's close of
		 * trace_pipe raised the hung-task report). Exhausting
		 * memory is not bad input.
		 */
		len = rnd(2) ? 1 + rnd(5) : 20 + rnd(4981);
		memset(buf, '1', len);
		note(t, do_write(t->path, buf, len), OP_WRITE);
		break;
	case 5:		/* ioctl, random command and argument */
		fd = open(t->path, O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			note(t, -1, OP_READ);
			break;
		}
		ret = ioctl(fd, rnd(4) ? rnd(0x100) : (unsigned long)rnd(~0U),
			    rnd(2) ? 0UL : (unsigned long)rnd(~0U));
		note(t, ret, OP_IOCTL);
		close(fd);
		break;
	case 6:		/* mmap, random length, offset and protection */
		fd = open(t->path, rnd(2) ? O_RDONLY : O_RDWR);
		if (fd < 0) {
			note(t, -1, OP_READ);
			break;
		}
		len = (1 + rnd(64)) * 4096;
		map = mmap(NULL, len, rnd(2) ? PROT_READ : PROT_READ | PROT_WRITE,
			   MAP_SHARED, fd, (off_t)rnd(16) * 4096);
		if (map == MAP_FAILED) {
			note(t, -1, OP_MMAP);
		} else {
			note(t, 0, OP_MMAP);
			munmap(map, len);
		}
		close(fd);
		break;
	default:	/* read, never blocking */
		fd = open(t->path, O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			note(t, -1, OP_READ);
			break;
		}
		ret = read(fd, buf, 1 + rnd(sizeof(buf) - 1));
		note(t, ret, OP_READ);
		close(fd);
		break;
	}
}

int main(int argc, char **argv)
{
	static struct target t[MAX_FILES];
	long ops, i, unexpected = 0;
	unsigned long long seed;
	int n = 0, a, e;
	char *end;

	if (argc < 4 || argc - 3 > MAX_FILES) {
		fprintf(stderr, "usage: %s SEED OPS FILE:ERRNO,... ...\n", argv[0]);
		return 2;
	}
	/* the seed names the run: a typo must not silently fuzz with 0 */
	errno = 0;
	seed = strtoull(argv[1], &end, 10);
	if (errno || end == argv[1] || *end) {
		fprintf(stderr, "bad seed '%s': a decimal number\n", argv[1]);
		return 2;
	}
	rng = seed * 2654435761ULL + 1;
	ops = atol(argv[2]);
	printf("seed %llu, %ld operations\n", seed, ops);

	for (a = 3; a < argc; a++, n++) {
		char *colon = strrchr(argv[a], ':'), *tok;

		t[n].path = argv[a];
		if (!strncmp(argv[a], "dir:", 4)) {
			t[n].is_dir = 1;
			t[n].path = argv[a] + 4;
		}
		if (!colon)
			continue;
		*colon = '\0';
		for (tok = strtok(colon + 1, ","); tok; tok = strtok(NULL, ",")) {
			e = errnum(tok);
			if (e < 0) {
				fprintf(stderr, "unknown errno %s\n", tok);
				return 2;
			}
			t[n].allowed[e] = 1;
		}
	}

	for (i = 0; i < ops; i++) {
		struct target *cur = &t[rnd(n)];
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		one_op(cur);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		cur->ns += (t1.tv_sec - t0.tv_sec) * 1000000000LL + t1.tv_nsec - t0.tv_nsec;
	}

	for (a = 0; a < n; a++) {
		printf("%s ops %ld ok %ld", t[a].path, t[a].ops, t[a].ok);
		for (e = 0; e < NR_ERRNOS; e++)
			if (t[a].err[e])
				printf(" %s %ld", errname(e) ? errname(e) : "E?", t[a].err[e]);
		printf(" unexpected %ld ms %lld\n", t[a].unexpected, t[a].ns / 1000000);
		unexpected += t[a].unexpected;
	}
	printf("unexpected %ld\n", unexpected);
	return unexpected ? 1 : 0;
}
