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
	       "syncfs advance event (patch 0005)");
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
	/* options/record-tgid: "(%7d) " or "(-------) " between pid and cpu */
	is_int(0, wb_tev_parse("        postgres-412     (    398) [001] .....   120.000100: file_check_and_advance_wb_err: file=00000000c0ffee00 dev=253:0 ino=0x11 old=0x0 new=0x3005 errno=5 seq=1", &e),
	       "record-tgid: advance event");
	ok(e.kind == WB_TEV_ADVANCE && e.pid == 412 && e.tgid == 398 && e.cpu == 1 && e.us == 120000100 &&
	   e.ino == 0x11 && e.new == 0x3005 && !strcmp(e.file, "00000000c0ffee00"), "pid, tgid, cpu, time and fields");
	is_int(0, wb_tev_parse("     kworker/0:1-9       (-------) [000] .....    11.000002: filemap_set_wb_err: dev=253:0 ino=0xd errseq=0x0 errno=5", &e),
	       "record-tgid, tgid unknown: the dashes are no pid separator");
	ok(e.kind == WB_TEV_SET && e.pid == 9 && e.tgid == 0 && e.err == 5, "pid 9, tgid 0");
	is_int(0, wb_tev_parse("    jbd2/dm-0-8-55      (     55) [000] .N...    10.081975: filemap_set_wb_err: dev=0:3 ino=0xfd00000 errseq=0x0", &e),
	       "record-tgid and a comm with dashes");
	ok(e.pid == 55 && e.tgid == 55, "pid and tgid");
	is_int(0, wb_tev_parse("       wberr-run-287     (    287) [000] .....    13.023320: tracing_mark_write: wb app armed", &e),
	       "record-tgid: a marker");
	ok(e.kind == WB_TEV_MARK && !strcmp(e.mark, "wb app armed") && e.tgid == 287, "its text and tgid");
	is_int(0, wb_tev_parse("           <...>-77      [000] 5.000001: file_check_and_advance_wb_err: file=0 dev=8:1 ino=0x2 old=0x0 new=0x0", &e),
	       "no irq-info flags, a forgotten comm");
	ok(e.pid == 77 && e.us == 5000001, "pid and time");
	{
		struct wb_thead h;

		is_int(0, wb_trace_head(" Web Content-1234    (   1200) [003] d..1.   7.000009: sys_fsync(fd: 1f)", &h),
		       "head of a syscall line, comm with a space");
		ok(h.pid == 1234 && h.tgid == 1200 && h.cpu == 3 && h.us == 7000009 && !strcmp(h.comm, "Web Content") &&
		   !strcmp(h.body, "sys_fsync(fd: 1f)"), "comm, ids, time and body");
		is_int(-1, wb_trace_head("CPU:1 [LOST 120 EVENTS]", &h), "a lost-events line has no head");
		is_int(-1, wb_trace_head("  x-1 [000] ..... 1.0 sys_sync()", &h), "no colon after the time: refused");
		is_int(-1, wb_trace_head("  x [000] ..... 1.0: sys_sync()", &h), "no pid: refused");
	}
	is_int(-1, wb_tev_parse("# tracer: nop", &e), "comments are no events");
	is_int(-1, wb_tev_parse("   x-1 [000] ..... 1.0: sched_switch: prev=a", &e), "other events are refused");
	is_int(-1, wb_tev_parse("filemap_set_wb_err: dev=253:0 ino=0xc errseq=0x0", &e), "a line without its head is refused");
	return tap_done();
}
