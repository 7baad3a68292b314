// SPDX-License-Identifier: GPL-2.0
#include "wb_sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *read_all(const char *path, int flags, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | flags);
	size_t cap = 65536, off = 0;
	char *b, *nb;
	ssize_t n;

	if (fd < 0)
		return NULL;
	b = malloc(cap);
	while (b) {
		if (off + 4096 > cap) {
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap *= 2;
		}
		n = read(fd, b + off, cap - off - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && (flags & O_NONBLOCK))
			break;	/* a pipe with nothing more in it */
		if (n < 0) {
			free(b);
			b = NULL;
		}
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	if (!b)
		return NULL;
	b[off] = 0;
	if (len)
		*len = off;
	return b;
}

char *wb_read_file(const char *path, size_t *len)
{
	return read_all(path, 0, len);
}

char *wb_drain_file(const char *path, size_t *len)
{
	return read_all(path, O_NONBLOCK, len);
}

int wb_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(text);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, len);
	if (close(fd) || n != (ssize_t)len)
		return -1;
	return 0;
}

int wb_flusher_hold(void)
{
	return wb_write_file("/proc/sys/vm/dirty_writeback_centisecs", "360000") |
	       wb_write_file("/proc/sys/vm/dirty_expire_centisecs", "360000");
}

int wb_flusher_restore(void)
{
	return wb_write_file("/proc/sys/vm/dirty_writeback_centisecs", "500") |
	       wb_write_file("/proc/sys/vm/dirty_expire_centisecs", "3000");
}

FILE *wb_fopen_in(const char *dir, const char *name, const char *mode)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, mode);
}
