// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-fdshell: hold named file descriptors open across device changes and
 * report the errno of every call, so a shell test can script "open two fds,
 * write, break the device, fsync each" without losing the fds in between.
 *
 * Reads one command per line from stdin and prints one result line each:
 *
 *   open NAME PATH FLAGS        FLAGS: comma list of a scenario's open flags
 *                               (lib/c's wb_open_flag_names: O_RDWR,O_CREAT,...)
 *   write NAME BYTES FILL       buffered write at the current offset, FILL a byte (0xab)
 *   pwrite NAME OFFSET BYTES FILL
 *   fsync NAME | fdatasync NAME | syncfs NAME | close NAME
 *   sync                        sync(2): writes back, reports nothing ("sync = 0")
 *   fdinfo NAME                 the fd's writeback-error state, see below
 *   sh COMMAND...               run COMMAND with /bin/sh, result is its exit status
 *   marker TEXT...              write TEXT to the trace_marker, to label the trace
 *
 * The verbs that are scenario ops (open ... sync) are the op table's names
 * (tools/wberr-run/ops.h) and take the scenario's flag names; fdinfo, sh
 * and marker are the shell's own: what a shell test needs between two
 * calls while the fds stay open.
 *
 * Result lines: "<verb> <name> = <ERRNAME|0>" (sh: "sh = <status>").  A
 * malformed command prints "error: <reason>" and exits 2: a test script with
 * a typo must fail loudly, not skip a step.
 *
 * fdinfo copies, field by field, the two lines kernel/patches (0003) adds
 * to /proc/self/fdinfo (one result line; spaces inside a value become commas):
 *
 *   fdinfo NAME = wb_err=<errno>,<unreported> sb_err=<errno>,<unreported>
 *
 * or "fdinfo NAME = absent" on a kernel without them, and for the files the
 * kernel does not show them for (not a regular file or block device, or on
 * a stacking file system such as overlayfs).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wb_names.h"

#define MAX_FDS 64

struct named_fd {
	char name[32];
	int fd;
};

struct fd_table {
	struct named_fd slot[MAX_FDS];
	int count;
};

static int *lookup(struct fd_table *t, const char *name, int create)
{
	for (int i = 0; i < t->count; i++)
		if (!strcmp(t->slot[i].name, name))
			return &t->slot[i].fd;
	if (!create || t->count == MAX_FDS || strlen(name) >= sizeof(t->slot[0].name))
		return NULL;
	snprintf(t->slot[t->count].name, sizeof(t->slot[0].name), "%s", name);
	t->slot[t->count].fd = -1;
	return &t->slot[t->count++].fd;
}

/* "O_RDWR,O_CREAT": the scenario's open flag names (lib/c wb_names) */
static int parse_flags(const char *spec, int *flags)
{
	char buf[128], *tok, *save = NULL;
	int v;

	*flags = O_CLOEXEC;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		v = wb_name_lookup(wb_open_flag_names, tok);
		if (v < 0)
			return -1;
		*flags |= v;
	}
	return 0;
}

/* Writes BYTES of FILL; an aligned buffer so O_DIRECT fds work too. */
static int do_write(int fd, long long off, long long bytes, int fill)
{
	void *buf;
	long long done = 0;
	int err = 0;

	if (posix_memalign(&buf, 4096, 1 << 20))
		return ENOMEM;
	memset(buf, fill, 1 << 20);
	while (done < bytes) {
		size_t n = bytes - done > (1 << 20) ? (1 << 20) : (size_t)(bytes - done);
		ssize_t r = off < 0 ? write(fd, buf, n) : pwrite(fd, buf, n, off + done);

		if (r < 0) {
			err = errno;
			break;
		}
		done += r;
	}
	free(buf);
	return err;
}

static void usage_error(const char *what, const char *line)
{
	printf("error: %s in '%s'\n", what, line);
	fflush(stdout);
	exit(2);
}

static void trace_marker(const char *text)
{
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, text, strlen(text)) < 0)
			perror("trace_marker");
		close(fd);
	}
}

/* Prints the two errseq fields of /proc/self/fdinfo/FD on one line. */
static void show_fdinfo(const char *name, int fd)
{
	static const char *const keys[] = { "wb_err", "sb_err" };
	enum { NKEYS = sizeof(keys) / sizeof(keys[0]) };
	char path[64], line[256], out[NKEYS][96] = { "", "" };
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f) {
		printf("fdinfo %s = %s\n", name, wb_errno_name(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *p;

		if (!tab || tab == line || tab[-1] != ':')
			continue;
		tab[-1] = '\0';
		for (unsigned int i = 0; i < NKEYS; i++) {
			if (strcmp(line, keys[i]))
				continue;
			tab[strcspn(tab, "\n")] = '\0';
			for (p = tab + 1; *p; p++)
				if (*p == ' ')
					*p = ',';
			snprintf(out[i], sizeof(out[i]), "%s", tab + 1);
			found |= 1 << i;
		}
	}
	fclose(f);
	if (found != (1 << NKEYS) - 1)
		printf("fdinfo %s = absent\n", name);
	else
		printf("fdinfo %s = wb_err=%s sb_err=%s\n", name, out[0], out[1]);
}

int main(void)
{
	struct fd_table table = { .count = 0 };
	char line[4096];

	while (fgets(line, sizeof(line), stdin)) {
		char verb[16], name[64], arg1[1024], arg2[64], arg3[64];
		char *nl = strchr(line, '\n');
		int n, err = 0, *fd;

		if (nl)
			*nl = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		n = sscanf(line, "%15s %63s %1023s %63s %63s", verb, name, arg1, arg2, arg3);
		if (!strcmp(verb, "sh")) {
			int st = system(line + 3);

			printf("sh = %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128);
			fflush(stdout);
			continue;
		}
		if (!strcmp(verb, "marker")) {
			trace_marker(line + 7);
			continue;
		}
		if (!strcmp(verb, "sync")) {
			sync();
			printf("sync = 0\n");
			fflush(stdout);
			continue;
		}
		if (n < 2)
			usage_error("missing fd name", line);
		fd = lookup(&table, name, !strcmp(verb, "open"));
		if (!fd)
			usage_error("unknown fd name", line);
		if (!strcmp(verb, "open")) {
			int flags;

			if (n != 4 || parse_flags(arg2, &flags))
				usage_error("open takes NAME PATH FLAGS (O_RDWR,O_CREAT,...)", line);
			*fd = open(arg1, flags, 0644);
			err = *fd < 0 ? errno : 0;
		} else if (!strcmp(verb, "write") || !strcmp(verb, "pwrite")) {
			int is_p = verb[0] == 'p';
			const char *bytes = is_p ? arg2 : arg1, *fill = is_p ? arg3 : arg2;

			if (n != (is_p ? 5 : 4))
				usage_error("write takes NAME [OFFSET] BYTES FILL", line);
			err = do_write(*fd, is_p ? atoll(arg1) : -1, atoll(bytes),
				       (int)strtol(fill, NULL, 0));
		} else if (!strcmp(verb, "fsync")) {
			err = fsync(*fd) ? errno : 0;
		} else if (!strcmp(verb, "fdatasync")) {
			err = fdatasync(*fd) ? errno : 0;
		} else if (!strcmp(verb, "syncfs")) {
			err = syncfs(*fd) ? errno : 0;
		} else if (!strcmp(verb, "close")) {
			err = close(*fd) ? errno : 0;
			*fd = -1;
		} else if (!strcmp(verb, "fdinfo")) {
			show_fdinfo(name, *fd);
			fflush(stdout);
			continue;
		} else {
			usage_error("unknown verb", line);
		}
		printf("%s %s = %s\n", verb, name, wb_errno_name(err));
		fflush(stdout);
	}
	return 0;
}
