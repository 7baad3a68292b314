// SPDX-License-Identifier: GPL-2.0
/* Parsing what dm-wberr prints, and the rules we send (trace lines: lib/c test_trace). */
#include <errno.h>
#include <stdlib.h>
#include "dm.h"
#include "wb_names.h"
#include "wb_test.h"

static void test_log_lines(void)
{
	struct wb_fault *v = NULL;
	int n = 0, cap = 0;
	const char *text =
		"3 1234567 1 write - 2048 128 timeout\n"
		"4 1234999 2 flush preflush 0 0 ioerr\n"
		"garbage\n"
		"5 1235000 1 write fua 4096 8 resv_conflict\n";

	is_int(3, dm_parse_log(text, 0, &v, &n, &cap), "three entries, garbage skipped");
	if (n == 3) {
		is_int(3, v[0].seq, "seq");
		is_int(2048, v[0].sector, "sector");
		is_int(128, v[0].nr, "nr_sectors");
		is_int(ETIMEDOUT, v[0].err, "timeout -> ETIMEDOUT");
		is_str("flush", v[1].opclass, "opclass");
		is_int(EBADE, v[2].err, "resv_conflict -> EBADE");
	}
	n = 0;
	is_int(1, dm_parse_log(text, 5, &v, &n, &cap), "entries before from_seq are dropped");
	free(v);
}

static void test_add_message(void)
{
	struct fault_spec f = { .ops = WB_OP_WRITE | WB_OP_FUA, .count = 1, .skip = 2 };
	char buf[256];

	dm_format_add(&f, "timeout", 1, 100, 227, buf, sizeof(buf));
	is_str("add write,fua timeout sectors=100-227 skip=2 count=1", buf, "file-targeted rule");
	f.ops = WB_OP_ALL;
	f.count = 0;
	f.skip = 0;
	f.prob = 10000;
	f.action = ACT_FAIL;
	f.delay_ms = 50;
	dm_format_add(&f, "nexus", 0, 0, 0, buf, sizeof(buf));
	is_str("add all nexus prob=10000 action=delay:50", buf, "probabilistic delayed rule");
	f.prob = 0;
	f.action = ACT_PASS;
	f.split = 1;
	snprintf(f.bio_flags, sizeof(f.bio_flags), "meta,!sync");
	dm_format_add(&f, "ioerr", 1, 8, 15, buf, sizeof(buf));
	is_str("add all ioerr sectors=8-15 action=delay:50:pass flags=meta,!sync split=1", buf,
	       "dm-wberr 1.1's keys: delay then pass, flags, split");
	f.delay_ms = 0;
	f.action = ACT_DROP;
	f.split = 0;
	f.bio_flags[0] = 0;
	dm_format_add(&f, "ioerr", 0, 0, 0, buf, sizeof(buf));
	is_str("add all ioerr action=drop", buf, "drop at once");
}

int main(void)
{
	test_log_lines();
	test_add_message();
	return tap_done();
}
