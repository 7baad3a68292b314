// SPDX-License-Identifier: GPL-2.0
#include "extents.h"
#include "util.h"
#include "wb_sys.h"
#include "wb_fiemap.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/fiemap.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_EXTENTS 64

int wbs_files_add(struct wb_files *fs, unsigned int idx, int fd, const char *path)
{
	/* the oracle ties every fault to written data: nothing else may be in range */
	const uint32_t bad = FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
			     FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_NOT_ALIGNED |
			     FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_DATA_TAIL |
			     FIEMAP_EXTENT_UNWRITTEN;
	struct wb_extent e[MAX_EXTENTS];
	struct stat st;
	int i, n, complete;

	if (fstat(fd, &st))
		return -1;
	n = wb_fiemap(fd, 1, e, MAX_EXTENTS, &complete);
	if (n < 0) {
		errno = -n;
		wbs_warn(1, "FIEMAP %s", path);
		return -1;
	}
	if (!n || !complete) {
		wbs_warn(0, "%s: no extents or more than %d", path, MAX_EXTENTS);
		return -1;
	}
	if (wb_files_set(fs, idx, st.st_ino, path))
		return -1;
	for (i = 0; i < n; i++) {
		if (e[i].flags & bad) {
			wbs_warn(0, "%s: extent %d has flags 0x%x (not plain data)",
				 path, i, e[i].flags);
			return -1;
		}
		if (wb_files_add_extent(fs, idx, e[i].first, e[i].last))
			return -1;
	}
	return 0;
}


