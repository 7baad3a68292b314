// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-errseq-probe: drive named file descriptors from a script and show
 * each fd's writeback-error state from /proc/self/fdinfo, for the guest
 * tests of the kernel/patches series.
 *
 * One command per line on stdin, one result line each on stdout:
 *
 *   open NAME PATH FLAGS         FLAGS: comma list of rw,ro,wo,creat,trunc
 *   pwrite NAME OFFSET BYTES FILL
 *   fsync NAME | fdatasync NAME | syncfs NAME | close NAME
 *   sync                         sync(2): writes back, reports nothing
 *   fdinfo NAME                  the fd's wb_err/sb_err lines, see below
 *   sh COMMAND...                run COMMAND with /bin/sh
 *
 * Results: "<verb> <name> = <ERRNAME|0>", "sh = <status>", and for fdinfo
 *
 *   fdinfo NAME = wb_err=<hex>,<errno>,<unseen> wb_err_cursor=<hex>
 *                 sb_err=<hex>,<errno>,<unseen> sb_err_cursor=<hex>
 *
 * (one line), copied field by field from the kernel, or
 * "fdinfo NAME = absent" when the kernel does not print them.  A
 * malformed command prints "error: ..." and exits 2.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FDS 16

static struct {
	char name[32];
	int fd;
} slots[MAX_FDS];
static int nslots;

static const char *errname(int err)
{
	const char *name = err ? strerrorname_np(err) : "0";

	return name ? name : "E?";
}

static void usage_error(const char *what, const char *line)
{
	printf("error: %s in '%s'\n", what, line);
	fflush(stdout);
	exit(2);
}

static int *lookup(const char *name, int create)
{
	for (int i = 0; i < nslots; i++)
		if (!strcmp(slots[i].name, name))
			return &slots[i].fd;
	if (!create || nslots == MAX_FDS || strlen(name) >= sizeof(slots[0].name))
		return NULL;
	strcpy(slots[nslots].name, name);
	slots[nslots].fd = -1;
	return &slots[nslots++].fd;
}

static int parse_flags(const char *spec, int *flags)
{
	char buf[128], *tok, *save = NULL;

	*flags = O_CLOEXEC;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "rw"))
			*flags |= O_RDWR;
		else if (!strcmp(tok, "ro"))
			*flags |= O_RDONLY;
		else if (!strcmp(tok, "wo"))
			*flags |= O_WRONLY;
		else if (!strcmp(tok, "creat"))
			*flags |= O_CREAT;
		else if (!strcmp(tok, "trunc"))
			*flags |= O_TRUNC;
		else
			return -1;
	}
	return 0;
}

static int do_pwrite(int fd, long long off, long long bytes, int fill)
{
	char buf[65536];

	memset(buf, fill, sizeof(buf));
	while (bytes > 0) {
		size_t n = bytes > (long long)sizeof(buf) ? sizeof(buf) : (size_t)bytes;
		ssize_t r = pwrite(fd, buf, n, off);

		if (r < 0)
			return errno;
		off += r;
		bytes -= r;
	}
	return 0;
}

/* Prints the four errseq fields of /proc/self/fdinfo/FD on one line. */
static void show_fdinfo(const char *name, int fd)
{
	static const char *const keys[] = {
		"wb_err", "wb_err_cursor", "sb_err", "sb_err_cursor",
	};
	char path[64], line[256], out[4][96] = { "", "", "", "" };
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f) {
		printf("fdinfo %s = %s\n", name, errname(errno));
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *p;

		if (!tab || tab == line || tab[-1] != ':')
			continue;
		tab[-1] = '\0';
		for (unsigned int i = 0; i < 4; i++) {
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
	if (found != 0xf)
		printf("fdinfo %s = absent\n", name);
	else
		printf("fdinfo %s = wb_err=%s wb_err_cursor=%s sb_err=%s sb_err_cursor=%s\n",
		       name, out[0], out[1], out[2], out[3]);
}

int main(void)
{
	char line[4096];

	while (fgets(line, sizeof(line), stdin)) {
		char verb[16], name[64], arg1[1024], arg2[64], arg3[64];
		int n, err = 0, *fd;

		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		n = sscanf(line, "%15s %63s %1023s %63s %63s", verb, name, arg1, arg2, arg3);
		if (!strcmp(verb, "sh")) {
			int st;

			fflush(stdout);
			st = system(line + 3);
			printf("sh = %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128);
			fflush(stdout);
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
		fd = lookup(name, !strcmp(verb, "open"));
		if (!fd)
			usage_error("unknown fd name", line);
		if (!strcmp(verb, "open")) {
			int flags;

			if (n != 4 || parse_flags(arg2, &flags))
				usage_error("open takes NAME PATH FLAGS", line);
			*fd = open(arg1, flags, 0644);
			err = *fd < 0 ? errno : 0;
		} else if (!strcmp(verb, "pwrite")) {
			if (n != 5)
				usage_error("pwrite takes NAME OFFSET BYTES FILL", line);
			err = do_pwrite(*fd, atoll(arg1), atoll(arg2),
					(int)strtol(arg3, NULL, 0));
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
		printf("%s %s = %s\n", verb, name, errname(err));
		fflush(stdout);
	}
	return 0;
}
