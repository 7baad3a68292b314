/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a file's data lives on the block device under its filesystem:
 * FIEMAP, plus btrfs's chunk mapping (btrfs reports addresses in its own
 * logical space); and where the file system's free space is, from which it
 * will allocate a growing file's next blocks (GETFSMAP).  wberr-run and
 * wberr-stress turn these ranges into dm-wberr rule ranges and tie logged
 * faults to files.
 */
#ifndef WB_FIEMAP_H
#define WB_FIEMAP_H

#include <stdint.h>

struct wb_extent {
	uint64_t first, last;	/* 512-byte sectors of the fs's device, inclusive */
	uint64_t logical;	/* where @first's data is in the file, in 512-byte sectors */
	uint32_t flags;		/* FIEMAP_EXTENT_*; UNKNOWN also when btrfs has no chunk for it */
};

/*
 * Up to @max extents of @fd (FIEMAP_FLAG_SYNC first when @sync), in file
 * order.  Returns their number or -errno; *complete says whether the last
 * one returned is the file's last (FIEMAP_EXTENT_LAST).
 */
int wb_fiemap(int fd, int sync, struct wb_extent *out, int max, int *complete);

struct fsmap;
/*
 * The free space of the file system @fd is on, as FS_IOC_GETFSMAP reports
 * it now (ext4 and xfs: records owned by FMR_OWN_FREE; needs
 * CAP_SYS_ADMIN), adjacent records merged, in device order.  Returns
 * their number, -E2BIG when there are more than @max, or -errno
 * (-ENOTTY: the file system has no GETFSMAP).
 */
int wb_fsmap_free(int fd, struct wb_extent *out, int max);
/*
 * Adds the FMR_OWN_FREE records of @recs (@n of them, in device order) to
 * @out, which holds *@nout extents: bytes become 512-byte sectors, a
 * record adjacent to the last extent extends it.  0, or -E2BIG when
 * @max would be exceeded.
 */
int wb_fsmap_take(const struct fsmap *recs, unsigned int n, struct wb_extent *out, int *nout, int max);

#endif
