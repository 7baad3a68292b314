// SPDX-License-Identifier: GPL-2.0
/* wb_dm: the table lines it sends, and its refusals that need no kernel. */
#include <errno.h>
#include <string.h>

#include "wb_dm.h"
#include "wb_test.h"

static void test_split(void)
{
	uint64_t start, len;
	const char *params;
	char target[16];
	size_t plen;

	is_int(0, wb_dm_table_split("0 2048 wberr /dev/vdb 0 4 log_size 65536 seed 7",
				    &start, &len, target, sizeof(target), &params, &plen),
	       "a wberr line splits");
	ok(start == 0 && len == 2048, "start and length");
	is_str("wberr", target, "target");
	is_str("/dev/vdb 0 4 log_size 65536 seed 7", params, "params: the rest");
	is_int(34, (int)plen, "their length");

	is_int(0, wb_dm_table_split("2048 8 linear 253:0 100\n0 1 zero\n", &start, &len,
				    target, sizeof(target), &params, &plen),
	       "the first line of two");
	ok(start == 2048 && len == 8, "its numbers");
	is_str("linear", target, "its target");
	is_int(9, (int)plen, "params stop at the newline");
	ok(!strncmp(params, "253:0 100", plen), "and are that line's");

	is_int(0, wb_dm_table_split("0 1 zero", &start, &len, target, sizeof(target),
				    &params, &plen), "a target without params");
	is_str("zero", target, "target");
	is_int(0, (int)plen, "empty params");

	is_int(-1, wb_dm_table_split("0 1\n2 3 zero", &start, &len, target, sizeof(target),
				     &params, &plen), "no target on the line: not the next line's");
	is_int(-1, wb_dm_table_split("0 zero", &start, &len, target, sizeof(target),
				     &params, &plen), "no length");
	is_int(-1, wb_dm_table_split("0 1 a-target-name-too-long", &start, &len, target,
				     sizeof(target), &params, &plen), "a target name longer than the buffer");
}

static void test_wberr_table(void)
{
	char buf[128];

	is_int(0, wb_dm_wberr_table(buf, sizeof(buf), 131072, "/dev/vdb", 42), "built");
	is_str("0 131072 wberr /dev/vdb 0 4 log_size 65536 seed 42", buf,
	       "what dmsetup create --table got before");
	is_int(-1, wb_dm_wberr_table(buf, 20, 131072, "/dev/vdb", 42), "a short buffer is refused");
}

static void test_bad_tables(void)
{
	/* refused before any ioctl: no kernel needed */
	is_int(-EINVAL, wb_dm_create("wb-test-none", ""), "an empty table");
	is_str("empty table", wb_dm_error(), "named");
	is_int(-EINVAL, wb_dm_reload("wb-test-none", "0 8\n"), "a line without a target");
	ok(strstr(wb_dm_error(), "bad table line") != NULL, "named with the line");
}

int main(void)
{
	test_split();
	test_wberr_table();
	test_bad_tables();
	return tap_done();
}
