/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a file's data lives on the block device under its filesystem:
 * FIEMAP, plus btrfs's chunk mapping (btrfs reports addresses in its own
 * logical space).  wberr-run and wberr-stress turn these ranges into
 * dm-wberr rule ranges and tie logged faults to files.
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

#endif
