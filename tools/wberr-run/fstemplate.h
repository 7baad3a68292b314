/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file system image as mkfs left it, kept as its non-zero 4 KiB blocks:
 * captured once from the device after the first mkfs of a kind, restored
 * onto the device for every later instance of that kind (zero the range,
 * write the blocks back), which gives the same bytes a new mkfs would,
 * minus mkfs's cost under TCG (85% of an instance's time: docs/bench).
 */
#ifndef WBERR_FSTEMPLATE_H
#define WBERR_FSTEMPLATE_H

#include <stddef.h>
#include <stdint.h>

#define FST_BLOCK 4096

struct fst {
	uint64_t bytes;		/* the image's size */
	size_t nblk;
	uint64_t *blk;		/* block numbers, ascending */
	unsigned char *data;	/* nblk * FST_BLOCK bytes, 4 KiB aligned */
};

/* read [0, @bytes) of @fd (a multiple of FST_BLOCK) and keep its non-zero
 * blocks; at most @max_data bytes of them (-E2BIG beyond).  0 or -errno */
int fst_capture(int fd, uint64_t bytes, size_t max_data, struct fst *t);
/* make [0, t->bytes) of @fd the captured image: zero it (BLKZEROOUT on a
 * block device, a punched hole in a file, written zeros else), write the
 * blocks, fsync.  0 or -errno */
int fst_restore(int fd, const struct fst *t);
void fst_free(struct fst *t);

/*
 * Templates kept across runs (WBERR_TEMPLATES, stack.h): one file per
 * kind, "wberr-fst 1\n", the kind's key and a newline, the image's size
 * and block count as two little-endian u64s, the block numbers, the
 * blocks.  fst_save() writes @path through a temporary name and a rename,
 * so a reader never sees half a file; fst_load() gives -ENOENT when
 * there is none, -ESTALE when it was made for another key (two keys
 * whose file names collide), -EINVAL when it is not such a file.  0 or
 * -errno.
 */
int fst_save(const char *path, const char *key, const struct fst *t);
int fst_load(const char *path, const char *key, size_t max_data, struct fst *t);

#endif
