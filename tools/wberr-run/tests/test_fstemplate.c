// SPDX-License-Identifier: GPL-2.0
/* File system templates: a restore gives back exactly the captured bytes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fstemplate.h"
#include "wb_test.h"

#define SIZE (3u << 20)

static unsigned char img[SIZE], back[SIZE];

/* a template kept in a file comes back the same, and only for its key */
static void test_files(int fd, const struct fst *t)
{
	char dir[] = "/var/tmp/wberr-fstd-XXXXXX", path[128], cmd[160];
	struct fst l;
	FILE *f;

	ok(mkdtemp(dir) != NULL, "a scratch directory");
	snprintf(path, sizeof(path), "%s/k.fst", dir);
	is_int(-ENOENT, fst_load(path, "key A", 1u << 20, &l), "no file: -ENOENT");
	is_int(0, fst_save(path, "key A", t), "saved under key A");
	is_int(-ESTALE, fst_load(path, "key B", 1u << 20, &l), "loaded for key B: -ESTALE, not another kind's image");
	is_int(-ESTALE, fst_load(path, "key", 1u << 20, &l), "nor for a prefix of its key");
	is_int(-EINVAL, fst_load(path, "key A", 4 * FST_BLOCK, &l), "over the size limit: refused");
	is_int(0, fst_load(path, "key A", 1u << 20, &l), "loaded for key A");
	ok(l.bytes == t->bytes && l.nblk == t->nblk && !memcmp(l.blk, t->blk, t->nblk * sizeof(*t->blk)) &&
	   !memcmp(l.data, t->data, t->nblk * FST_BLOCK), "the same size, blocks and bytes");
	memset(back, 0x77, SIZE);
	ok(pwrite(fd, back, SIZE, 0) == SIZE && !fst_restore(fd, &l), "the loaded one restored");
	ok(pread(fd, back, SIZE, 0) == SIZE && !memcmp(img, back, SIZE), "byte for byte the captured image");
	fst_free(&l);
	f = fopen(path, "r+b");
	ok(f && !fseek(f, -1, SEEK_END) && fputc(0, f) != EOF && !fputc(0, f) && !fclose(f),
	   "a byte appended to the file");
	is_int(-EINVAL, fst_load(path, "key A", 1u << 20, &l), "a file longer than it says: -EINVAL");
	is_int(0, (int)l.nblk, "and nothing kept");
	ok(truncate(path, 40) == 0, "the file cut short");
	is_int(-EINVAL, fst_load(path, "key A", 1u << 20, &l), "a file cut short: -EINVAL");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ok(system(cmd) == 0, "scratch directory removed");
}

int main(void)
{
	char path[] = "/var/tmp/wberr-fst-XXXXXX";
	int fd = mkstemp(path);
	struct fst t;

	ok(fd >= 0, "a scratch file");
	if (fd < 0)
		return tap_done();
	unlink(path);
	/* an "image": a superblock, a run across the 1 MiB chunk edge, one
	 * block at the end, zeros elsewhere */
	for (int i = 0; i < 100; i++)
		img[1024 + i] = (unsigned char)(i + 1);
	for (unsigned i = (1u << 20) - 8192; i < (1u << 20) + 8192; i++)
		img[i] = 0x5a;
	img[SIZE - 1] = 0xff;
	ok(pwrite(fd, img, SIZE, 0) == SIZE, "image written");
	is_int(0, fst_capture(fd, SIZE, 1u << 20, &t), "captured");
	is_int(6, (int)t.nblk, "only the non-zero blocks are kept (1 + 4 + 1)");
	/* an instance scribbles everywhere */
	for (unsigned i = 0; i < SIZE; i += 512)
		back[i] = 0x77;
	ok(pwrite(fd, back, SIZE, 0) == SIZE, "the device is scribbled on");
	is_int(0, fst_restore(fd, &t), "restored");
	ok(pread(fd, back, SIZE, 0) == SIZE && !memcmp(img, back, SIZE), "byte for byte the captured image");
	test_files(fd, &t);
	fst_free(&t);
	is_int(-E2BIG, fst_capture(fd, SIZE, 4 * FST_BLOCK, &t), "over the size limit: refused, nothing kept");
	is_int(0, (int)t.nblk, "and the template is empty");
	is_int(-EINVAL, fst_capture(fd, 1000, 1u << 20, &t), "a size off the block size is refused");
	close(fd);
	return tap_done();
}
