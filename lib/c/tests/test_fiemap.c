// SPDX-License-Identifier: GPL-2.0
/*
 * wb_fiemap on a file of the host's build directory: written data comes
 * back as one or more plain extents covering the file.  The btrfs mapping
 * is exercised in the guest (scenarios on btrfs target files by extent).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/fiemap.h>

#include "wb_fiemap.h"
#include "wb_test.h"

int main(int argc, char **argv)
{
	char path[4096], buf[65536];
	struct wb_extent e[16];
	uint64_t sectors = 0;
	int fd, n, complete = 0;

	snprintf(path, sizeof(path), "%s/fiemap-test.XXXXXX", argc > 1 ? argv[1] : "/tmp");
	fd = mkstemp(path);
	ok(fd >= 0, "a scratch file");
	if (fd < 0)
		return tap_done();
	unlink(path);
	memset(buf, 'x', sizeof(buf));
	ok(write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "64 KiB written");
	n = wb_fiemap(fd, 1, e, 16, &complete);
	if (n == -EOPNOTSUPP) {
		wb_tap_point(wb_test(), 1, 0, "SKIP the host filesystem has no FIEMAP", "FIEMAP");
		close(fd);
		return tap_done();
	}
	ok(n > 0 && complete, "FIEMAP with sync returns the file's extents, the last marked");
	for (int i = 0; i < n; i++)
		sectors += e[i].last - e[i].first + 1;
	ok(n > 0 && sectors >= sizeof(buf) / 512, "they cover the data (%llu sectors)",
	   (unsigned long long)sectors);
	ok(n > 0 && !(e[0].flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC)),
	   "and are allocated, not delayed");
	is_int(0, wb_fiemap(fd, 0, e, 0, &complete), "room for none: none returned");
	close(fd);
	return tap_done();
}
