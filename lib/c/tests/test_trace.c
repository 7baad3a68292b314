// SPDX-License-Identifier: GPL-2.0
/* wb_trace: every line form the two kernels print, and what is refused. */
#include "wb_trace.h"
#include "wb_test.h"

int main(void)
{
	struct wb_tev e;

	is_int(0, wb_tev_parse("       fsynctest-68      [001] .N...    10.074371: filemap_set_wb_err: dev=253:0 ino=0xc errseq=0x1005", &e),
	       "stock set event");
	ok(e.kind == WB_TEV_SET && e.pid == 68 && e.cpu == 1 && e.us == 10074371 && e.major == 253 &&
	   e.minor == 0 && e.ino == 0xc, "its head, dev and inode");
	ok(e.errseq == 0x1005 && e.old == 0x1005 && e.new == 0 && e.err == -1,
	   "stock: errseq= is the old value, no errno");
	is_int(0, wb_tev_parse("     kworker/0:1-9      [000] .....    11.000002: filemap_set_wb_err: dev=253:0 ino=0xd errseq=0x1005 errno=110", &e),
	       "patched set event");
	ok(e.errseq == 0x1005 && e.old == 0x1005 && e.new == 0 && e.err == 110 && e.pid == 9,
	   "patched: errseq= is the old value as in stock, errno= the error recorded");
	is_int(0, wb_tev_parse("     kworker/0:1-9      [000] .....    11.000002: filemap_set_wb_err: dev=253:0 ino=0xd errseq=0x6e old=0x0 errno=110 seq=0", &e),
	       "set event of the series before issue 14");
	ok(e.errseq == 0x6e && e.old == 0 && e.new == 0x6e && e.err == 110 && e.pid == 9,
	   "there errseq= is the new value, old= the old, errno= the error");
	is_int(0, wb_tev_parse("     jbd2/dm-0-8-55      [000] .N...    10.081975: filemap_set_wb_err: dev=0:3 ino=0xfd00000 errseq=0x0", &e),
	       "a comm with dashes");
	is_int(55, e.pid, "the pid follows the last dash");
	is_int(0, wb_tev_parse("       fsynctest-68      [000] .N...    10.078827: file_check_and_advance_wb_err: file=(____ptrval____) dev=253:0 ino=0xc old=0x0 new=0x1005", &e),
	       "advance event");
	ok(e.kind == WB_TEV_ADVANCE && e.old == 0 && e.new == 0x1005 && !strcmp(e.file, "(____ptrval____)"),
	   "cursor old, new and file");
	is_int(0, wb_tev_parse("       wberr-run-71      [000] .....    11.5: file_check_and_advance_wb_err: file=0000 dev=253:0 ino=0xd old=0x1005 new=0x306e errno=110 seq=1", &e),
	       "patched advance event");
	ok(e.kind == WB_TEV_ADVANCE && e.old == 0x1005 && e.new == 0x306e, "patched: old= and new= as in stock");
	is_int(0, wb_tev_parse("       wberr-run-71      [000] .....    11.5: file_check_and_advance_sb_err: file=0000 dev=253:0 ino=0xd old=0x0 new=0x106e errno=110 seq=0", &e),
	       "syncfs advance event (patch 0004)");
	ok(e.kind == WB_TEV_SB_ADVANCE && e.new == 0x106e, "its kind and new value");
	is_int(0, wb_tev_parse("  wberr-stress-80 [001] ..... 12.000001: tracing_mark_write: wb B 1 2 3", &e), "a marker");
	ok(e.kind == WB_TEV_MARK && !strcmp(e.mark, "wb B 1 2 3") && e.us == 12000001, "its text and time");
	{
		struct wb_call_mark m = { .what = 'E', .proc = 7, .fd = 3, .seq = 41 }, back;
		char buf[64];

		is_int(12, wb_call_mark_format(buf, sizeof(buf), &m), "call marker: its length");
		is_str("wb E 7 3 41\n", buf, "call marker: the line written to trace_marker");
		is_int(-1, wb_call_mark_format(buf, 8, &m), "call marker: a short buffer is refused");
		is_int(0, wb_call_mark_parse(e.mark, &back), "call marker: the traced text parses");
		ok(back.what == 'B' && back.proc == 1 && back.fd == 2 && back.seq == 3, "call marker: its fields");
		is_int(-1, wb_call_mark_parse("wb X 1 2 3", &back), "call marker: only B and E");
		is_int(-1, wb_call_mark_parse("wbs B 1 2 3", &back), "call marker: another tool's text is refused");
		is_int(-1, wb_call_mark_parse("wb B 1 2 3x", &back), "call marker: trailing junk is refused");
	}
	is_int(-1, wb_tev_parse("# tracer: nop", &e), "comments are no events");
	is_int(-1, wb_tev_parse("   x-1 [000] ..... 1.0: sched_switch: prev=a", &e), "other events are refused");
	is_int(-1, wb_tev_parse("filemap_set_wb_err: dev=253:0 ino=0xc errseq=0x0", &e), "a line without its head is refused");
	return tap_done();
}
