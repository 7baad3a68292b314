// SPDX-License-Identifier: GPL-2.0
/* Parsing what dm-wberr and tracefs print, and the rules we send. */
#include <errno.h>
#include <stdlib.h>
#include "dm.h"
#include "wb_names.h"
#include "trace.h"
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

static void test_trace_lines(void)
{
	struct wb_tev *v = NULL;
	int n = 0, cap = 0;
	const char *text =
		"# tracer: nop\n"
		"       fsynctest-68      [000] .N...    10.074371: filemap_set_wb_err: dev=253:0 ino=0xc errseq=0x0\n"
		"       fsynctest-68      [000] .N...    10.078827: file_check_and_advance_wb_err: file=(____ptrval____) dev=253:0 ino=0xc old=0x0 new=0x1005\n"
		"       wberr-run-70      [000] .....    10.1: tracing_mark_write: wb B 0 0 3\n"
		"     jbd2/dm-0-8-55      [000] .N...    10.081975: filemap_set_wb_err: dev=0:3 ino=0xfd00000 errseq=0x0\n"
		"     kworker/0:1-9      [000] .....    11.0: filemap_set_wb_err: dev=253:0 ino=0xd errseq=0x6e old=0x0 errno=110 seq=0\n"
		"       wberr-run-71      [000] .....    11.5: file_check_and_advance_sb_err: file=0000 dev=253:0 ino=0xd old=0x0 new=0x106e errno=110 seq=0\n";

	is_int(6, trace_parse(text, &v, &n, &cap), "six events");
	if (n == 6) {
		is_int(WB_TEV_SET, v[0].kind, "set event");
		is_int(0xc, v[0].ino, "ino");
		is_int(68, v[0].pid, "pid");
		is_int(WB_TEV_ADVANCE, v[1].kind, "advance event");
		is_int(0x1005, v[1].new, "new cursor");
		is_int(WB_TEV_MARK, v[2].kind, "marker");
		is_str("wb B 0 0 3", v[2].mark, "call marker text");
		is_int(0xfd00000, v[3].ino, "bdev inode is the kernel dev_t");
		is_int(55, v[3].pid, "pid after a dashed comm");
		is_int(-1, v[3].err, "stock 6.12 set events carry no errno");
		is_int(110, v[4].err, "patched set events carry the errno recorded");
		is_int(WB_TEV_SB_ADVANCE, v[5].kind, "syncfs cursor event");
		is_int(0x106e, v[5].new, "its new value");
	}
	free(v);
}

int main(void)
{
	test_log_lines();
	test_add_message();
	test_trace_lines();
	return tap_done();
}
