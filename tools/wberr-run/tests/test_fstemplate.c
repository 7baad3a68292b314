// SPDX-License-Identifier: GPL-2.0
/* File system templates: a restore gives back exactly the captured bytes. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "fstemplate.h"
#include "wb_test.h"

#define SIZE (3u << 20)

static unsigned char img[SIZE], back[SIZE];

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
	fst_free(&t);
	is_int(-E2BIG, fst_capture(fd, SIZE, 4 * FST_BLOCK, &t), "over the size limit: refused, nothing kept");
	is_int(0, (int)t.nblk, "and the template is empty");
	is_int(-EINVAL, fst_capture(fd, 1000, 1u << 20, &t), "a size off the block size is refused");
	close(fd);
	return tap_done();
}
