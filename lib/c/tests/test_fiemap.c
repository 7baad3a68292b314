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
#include <linux/fsmap.h>

#include "wb_fiemap.h"
#include "wb_test.h"

/*
 * GETFSMAP's records to free extents: only FMR_OWN_FREE's, bytes to
 * sectors, adjacent records merged (ext4 reports a free extent that ends a
 * block group and the next group's as two), and a refusal past @max.  The
 * ioctl itself runs in the guest (tests/apps/005's appending writer).
 */
static void test_fsmap_take(void)
{
	struct fsmap r[5] = {
		{ .fmr_physical = 0, .fmr_length = 1 << 20, .fmr_owner = FMR_OWN_METADATA },
		{ .fmr_physical = 1 << 20, .fmr_length = 4096, .fmr_owner = FMR_OWN_FREE },
		{ .fmr_physical = (1 << 20) + 4096, .fmr_length = 8192, .fmr_owner = FMR_OWN_FREE },
		{ .fmr_physical = 2 << 20, .fmr_length = 4096, .fmr_owner = 131 },	/* an inode's */
		{ .fmr_physical = 3 << 20, .fmr_length = 1 << 20, .fmr_owner = FMR_OWN_FREE },
	};
	struct wb_extent e[2];
	int n = 0;

	is_int(0, wb_fsmap_take(r, 5, e, &n, 2), "fsmap: the records taken");
	is_int(2, n, "fsmap: two free extents, the adjacent ones merged");
	ok(e[0].first == 2048 && e[0].last == 2048 + 24 - 1, "fsmap: the first in sectors (%llu-%llu)",
	   (unsigned long long)e[0].first, (unsigned long long)e[0].last);
	ok(e[1].first == 6144 && e[1].last == 8191, "fsmap: the second, after an inode's block");
	n = 0;
	is_int(-E2BIG, wb_fsmap_take(r, 5, e, &n, 1), "fsmap: more free extents than room: refused");
}

int main(int argc, char **argv)
{
	char path[4096], buf[65536];
	struct wb_extent e[16];
	uint64_t sectors = 0;
	int fd, n, complete = 0;

	test_fsmap_take();

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
