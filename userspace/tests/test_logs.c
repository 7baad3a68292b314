// SPDX-License-Identifier: GPL-2.0
/* Parsing what tracefs prints (dm-wberr's log and rules: lib/c's
 * test_faultlog and test_rule). */
#include <errno.h>
#include <stdlib.h>
#include "wb_names.h"
#include "trace.h"
#include "wb_test.h"

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
	test_trace_lines();
	return tap_done();
}
