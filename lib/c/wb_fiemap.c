// SPDX-License-Identifier: GPL-2.0
#include "wb_fiemap.h"
#include "wb_fs.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/fsmap.h>

/*
 * btrfs FIEMAP reports addresses in btrfs's logical (chunk) space.  Map one
 * to the device with the chunk tree (BTRFS_IOC_TREE_SEARCH on the chunk
 * items): physical = stripe[0].offset + (logical - chunk start), which is
 * exact for the single-device SINGLE data profile mkfs.btrfs makes here.
 * Returns (uint64_t)-1 when no chunk covers it.
 */
static uint64_t btrfs_logical_to_physical(int fd, uint64_t logical)
{
	struct btrfs_ioctl_search_args args;
	struct btrfs_ioctl_search_key *k = &args.key;
	uint64_t found = (uint64_t)-1;

	memset(&args, 0, sizeof(args));
	k->tree_id = BTRFS_CHUNK_TREE_OBJECTID;
	k->min_objectid = k->max_objectid = BTRFS_FIRST_CHUNK_TREE_OBJECTID;
	k->min_type = k->max_type = BTRFS_CHUNK_ITEM_KEY;
	k->max_offset = (uint64_t)-1;
	k->max_transid = (uint64_t)-1;
	k->nr_items = 4096;
	if (ioctl(fd, BTRFS_IOC_TREE_SEARCH, &args))
		return found;
	for (unsigned i = 0, off = 0; i < k->nr_items; i++) {
		struct btrfs_ioctl_search_header sh;
		struct btrfs_chunk ch;
		struct btrfs_stripe st;

		if (off + sizeof(sh) > sizeof(args.buf))
			break;
		memcpy(&sh, args.buf + off, sizeof(sh));
		off += sizeof(sh);
		if (off + sh.len > sizeof(args.buf))
			break;
		if (sh.type == BTRFS_CHUNK_ITEM_KEY && sh.len >= sizeof(ch)) {
			memcpy(&ch, args.buf + off, sizeof(ch) - sizeof(ch.stripe));
			memcpy(&st, args.buf + off + offsetof(struct btrfs_chunk, stripe), sizeof(st));
			if (logical >= sh.offset && logical < sh.offset + ch.length)
				found = st.offset + (logical - sh.offset);
		}
		off += sh.len;
	}
	return found;
}

int wb_fiemap(int fd, int sync, struct wb_extent *out, int max, int *complete)
{
	size_t sz = sizeof(struct fiemap) + (size_t)max * sizeof(struct fiemap_extent);
	struct fiemap *fm = calloc(1, sz);
	struct statfs sfs;
	int chunks, fs, n;

	if (!fm)
		return -ENOMEM;
	fs = fstatfs(fd, &sfs) ? -1 : wb_fs_by_magic((unsigned long)sfs.f_type);
	chunks = fs >= 0 && wb_fs[fs].extents == WB_FS_EXTENTS_CHUNKS;
	fm->fm_length = FIEMAP_MAX_OFFSET;
	fm->fm_flags = sync ? FIEMAP_FLAG_SYNC : 0;
	fm->fm_extent_count = (uint32_t)max;
	if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
		n = -errno;
		free(fm);
		return n;
	}
	for (n = 0; n < (int)fm->fm_mapped_extents && n < max; n++) {
		const struct fiemap_extent *fe = &fm->fm_extents[n];
		uint64_t phys = fe->fe_physical;

		out[n].flags = fe->fe_flags;
		if (chunks && !(fe->fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
					       FIEMAP_EXTENT_DATA_INLINE))) {
			phys = btrfs_logical_to_physical(fd, phys);
			if (phys == (uint64_t)-1)
				out[n].flags |= FIEMAP_EXTENT_UNKNOWN;
		}
		out[n].logical = fe->fe_logical / 512;
		out[n].first = phys / 512;
		out[n].last = (phys + fe->fe_length) / 512 - 1;
	}
	*complete = n > 0 && (fm->fm_extents[n - 1].fe_flags & FIEMAP_EXTENT_LAST);
	free(fm);
	return n;
}

int wb_fsmap_take(const struct fsmap *recs, unsigned int n, struct wb_extent *out, int *nout, int max)
{
	for (unsigned int i = 0; i < n; i++) {
		const struct fsmap *r = &recs[i];
		uint64_t first = r->fmr_physical / 512, last;

		if (r->fmr_owner != FMR_OWN_FREE || r->fmr_length < 512)
			continue;
		last = (r->fmr_physical + r->fmr_length) / 512 - 1;
		if (*nout && out[*nout - 1].last + 1 == first) {
			out[*nout - 1].last = last;
			continue;
		}
		if (*nout == max)
			return -E2BIG;
		out[(*nout)++] = (struct wb_extent){ .first = first, .last = last };
	}
	return 0;
}

#define FSMAP_BATCH 128

int wb_fsmap_free(int fd, struct wb_extent *out, int max)
{
	struct fsmap_head *h = calloc(1, fsmap_sizeof(FSMAP_BATCH));
	int n = 0, rc = 0;

	if (!h)
		return -ENOMEM;
	/* every device, every owner, from the start to the end */
	h->fmh_keys[1].fmr_device = UINT32_MAX;
	h->fmh_keys[1].fmr_flags = UINT32_MAX;
	h->fmh_keys[1].fmr_physical = UINT64_MAX;
	h->fmh_keys[1].fmr_owner = UINT64_MAX;
	h->fmh_keys[1].fmr_offset = UINT64_MAX;
	h->fmh_count = FSMAP_BATCH;
	for (;;) {
		if (ioctl(fd, FS_IOC_GETFSMAP, h) < 0) {
			rc = -errno;
			break;
		}
		if (!h->fmh_entries)
			break;
		rc = wb_fsmap_take(h->fmh_recs, h->fmh_entries, out, &n, max);
		if (rc || (h->fmh_recs[h->fmh_entries - 1].fmr_flags & FMR_OF_LAST))
			break;
		fsmap_advance(h);
	}
	free(h);
	return rc ? rc : n;
}
