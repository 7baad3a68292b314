// SPDX-License-Identifier: GPL-2.0
/* wb_sys: whole-file reads and '>'-like writes on a host scratch file. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "wb_sys.h"
#include "wb_test.h"

int main(void)
{
	char path[] = "/tmp/wb-sys-test.XXXXXX", *big, *got;
	size_t len = 0, n = 300000;
	int fd = mkstemp(path);

	ok(fd >= 0, "a scratch file");
	if (fd < 0)
		return tap_done();
	close(fd);
	is_int(0, wb_write_file(path, "longer text"), "write");
	is_int(0, wb_write_file(path, "short"), "write again");
	got = wb_read_file(path, &len);
	is_str("short", got, "the second write replaced the first (O_TRUNC, like '>')");
	is_int(5, len, "and the length is its length");
	free(got);
	big = malloc(n + 1);
	memset(big, 'a', n);
	big[n] = 0;
	wb_write_file(path, big);
	got = wb_read_file(path, &len);
	ok(got && len == n && !strcmp(got, big), "a file larger than the first buffer reads whole");
	free(got);
	free(big);
	unlink(path);
	ok(!wb_read_file(path, NULL), "a missing file reads as NULL");
	is_int(-1, wb_write_file(path, "x"), "and is not created by a write");
	return tap_done();
}
