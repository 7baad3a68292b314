// SPDX-License-Identifier: GPL-2.0
/* wb_trace: every line form the two kernels print, and what is refused. */
#include "wb_trace.h"
#include "wb_test.h"

/* filemap_set_wb_err as stock, patched and the series before issue 14 print it */
static void test_set_events(void)
{
	struct wb_ev e;

	is_int(0, wb_ev_parse("       fsynctest-68      [001] .N...    10.074371: filemap_set_wb_err: dev=253:0 ino=0xc errseq=0x1005", &e),
	       "stock set event");
	ok(e.kind == WB_EV_SET && e.pid == 68 && e.cpu == 1 && e.us == 10074371 && e.es.major == 253 &&
	   e.es.minor == 0 && e.es.ino == 0xc, "its head, dev and inode");
	ok(e.es.errseq == 0x1005 && e.es.old == 0x1005 && e.es.new == 0 && e.es.err == -1,
	   "stock: errseq= is the old value, no errno");
	is_int(0, wb_ev_parse("     kworker/0:1-9      [000] .....    11.000002: filemap_set_wb_err: dev=253:0 ino=0xd errseq=0x1005 errno=110", &e),
	       "patched set event");
	ok(e.es.errseq == 0x1005 && e.es.old == 0x1005 && e.es.new == 0 && e.es.err == 110 && e.pid == 9,
	   "patched: errseq= is the old value as in stock, errno= the error recorded");
	is_int(0, wb_ev_parse("     kworker/0:1-9      [000] .....    11.000002: filemap_set_wb_err: dev=253:0 ino=0xd errseq=0x6e old=0x0 errno=110 seq=0", &e),
	       "set event of the series before issue 14");
	ok(e.es.errseq == 0x6e && e.es.old == 0 && e.es.new == 0x6e && e.es.err == 110 && e.pid == 9,
	   "there errseq= is the new value, old= the old, errno= the error");
	is_int(0, wb_ev_parse("     jbd2/dm-0-8-55      [000] .N...    10.081975: filemap_set_wb_err: dev=0:3 ino=0xfd00000 errseq=0x0", &e),
	       "a comm with dashes");
	is_int(55, e.pid, "the pid follows the last dash");
}

/* file_check_and_advance_wb_err and _sb_err, stock and patched */
static void test_advance_events(void)
{
	struct wb_ev e;

	is_int(0, wb_ev_parse("       fsynctest-68      [000] .N...    10.078827: file_check_and_advance_wb_err: file=(____ptrval____) dev=253:0 ino=0xc old=0x0 new=0x1005", &e),
	       "advance event");
	ok(e.kind == WB_EV_ADVANCE && e.es.old == 0 && e.es.new == 0x1005 && !strcmp(e.es.file, "(____ptrval____)"),
	   "cursor old, new and file");
	is_int(0, wb_ev_parse("       wberr-run-71      [000] .....    11.5: file_check_and_advance_wb_err: file=0000 dev=253:0 ino=0xd old=0x1005 new=0x306e errno=110 seq=1", &e),
	       "patched advance event");
	ok(e.kind == WB_EV_ADVANCE && e.es.old == 0x1005 && e.es.new == 0x306e, "patched: old= and new= as in stock");
	is_int(0, wb_ev_parse("       wberr-run-71      [000] .....    11.5: file_check_and_advance_sb_err: file=0000 dev=253:0 ino=0xd old=0x0 new=0x106e errno=110 seq=0", &e),
	       "syncfs advance event (patch 0005)");
	ok(e.kind == WB_EV_SB_ADVANCE && e.es.new == 0x106e, "its kind and new value");
}

/* a tracing_mark_write marker, and the call marker its text holds */
static void test_markers(void)
{
	struct wb_call_mark m = { .what = 'E', .proc = 7, .fd = 3, .seq = 41 }, back;
	struct wb_ev e;
	char buf[64];

	is_int(0, wb_ev_parse("  wberr-stress-80 [001] ..... 12.000001: tracing_mark_write: wb B 1 2 3", &e), "a marker");
	ok(e.kind == WB_EV_MARK && !strcmp(e.mark.text, "wb B 1 2 3") && e.us == 12000001, "its text and time");

	is_int(12, wb_call_mark_format(buf, sizeof(buf), &m), "call marker: its length");
	is_str("wb E 7 3 41\n", buf, "call marker: the line written to trace_marker");
	is_int(-1, wb_call_mark_format(buf, 8, &m), "call marker: a short buffer is refused");
	is_int(0, wb_call_mark_parse(e.mark.text, &back), "call marker: the traced text parses");
	ok(back.what == 'B' && back.proc == 1 && back.fd == 2 && back.seq == 3, "call marker: its fields");
	is_int(-1, wb_call_mark_parse("wb X 1 2 3", &back), "call marker: only B and E");
	is_int(-1, wb_call_mark_parse("wbs B 1 2 3", &back), "call marker: another tool's text is refused");
	is_int(-1, wb_call_mark_parse("wb B 1 2 3x", &back), "call marker: trailing junk is refused");
}

/* options/record-tgid: "(%7d) " or "(-------) " between pid and cpu */
static void test_record_tgid(void)
{
	struct wb_ev e;

	is_int(0, wb_ev_parse("        postgres-412     (    398) [001] .....   120.000100: file_check_and_advance_wb_err: file=00000000c0ffee00 dev=253:0 ino=0x11 old=0x0 new=0x3005 errno=5 seq=1", &e),
	       "record-tgid: advance event");
	ok(e.kind == WB_EV_ADVANCE && e.pid == 412 && e.tgid == 398 && e.cpu == 1 && e.us == 120000100 &&
	   e.es.ino == 0x11 && e.es.new == 0x3005 && !strcmp(e.es.file, "00000000c0ffee00"), "pid, tgid, cpu, time and fields");
	is_int(0, wb_ev_parse("     kworker/0:1-9       (-------) [000] .....    11.000002: filemap_set_wb_err: dev=253:0 ino=0xd errseq=0x0 errno=5", &e),
	       "record-tgid, tgid unknown: the dashes are no pid separator");
	ok(e.kind == WB_EV_SET && e.pid == 9 && e.tgid == 0 && e.es.err == 5, "pid 9, tgid 0");
	is_int(0, wb_ev_parse("    jbd2/dm-0-8-55      (     55) [000] .N...    10.081975: filemap_set_wb_err: dev=0:3 ino=0xfd00000 errseq=0x0", &e),
	       "record-tgid and a comm with dashes");
	ok(e.pid == 55 && e.tgid == 55, "pid and tgid");
	is_int(0, wb_ev_parse("       wberr-run-287     (    287) [000] .....    13.023320: tracing_mark_write: wb app armed", &e),
	       "record-tgid: a marker");
	ok(e.kind == WB_EV_MARK && !strcmp(e.mark.text, "wb app armed") && e.tgid == 287, "its text and tgid");
	is_int(0, wb_ev_parse("           <...>-77      [000] 5.000001: file_check_and_advance_wb_err: file=0 dev=8:1 ino=0x2 old=0x0 new=0x0", &e),
	       "no irq-info flags, a forgotten comm");
	ok(e.pid == 77 && e.us == 5000001, "pid and time");
}

/* wb_trace_head: any line's head, whatever its body */
static void test_heads(void)
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

/* syscalls, as program mode traces them */
static void test_syscalls(void)
{
	struct wb_ev e;

	is_int(0, wb_ev_parse("        postgres-412     (    398) [001] .....   120.000050: sys_sync_file_range(fd: 7, offset: 2000, nbytes: 1000, flags: 2)", &e),
	       "a syscall's entry");
	ok(e.kind == WB_EV_SYS_ENTER && !strcmp(wb_syscalls[e.sys.sys].name, "sync_file_range") &&
	   e.sys.fd == 7 && e.sys.off == 0x2000 && e.sys.len == 0x1000 && e.sys.flags == 2,
	   "its name, fd, offset, length and flags (hex)");
	is_int(0, wb_ev_parse("        postgres-412     (    398) [001] .....   120.000150: sys_fsync -> 0xfffffffffffffffb", &e),
	       "a syscall's exit");
	ok(e.kind == WB_EV_SYS_EXIT && e.sys.ret == -5 && wb_syscalls[e.sys.sys].kind == WB_CALL_FSYNC,
	   "its return, negative");
	is_int(-1, wb_ev_parse("  x-1 [000] ..... 1.0: sys_openat(dfd: ffffff9c)", &e), "other syscalls are not read");
	is_int(-1, wb_ev_parse("  x-1 [000] ..... 1.0: sys_fsync -> junk", &e), "a malformed exit is refused");
}

/* io_uring and sched, as program mode traces them */
static void test_uring_and_sched(void)
{
	struct wb_ev e;

	is_int(0, wb_ev_parse("             fio-90      [000] .....     3.000001: io_uring_submit_req: ring 000000001, req 000000002, user_data 0x7, opcode FSYNC, flags 0x0, sq_thread 0", &e),
	       "an io_uring submit");
	ok(e.kind == WB_EV_URING_SUBMIT && !strcmp(e.ur.ring, "000000001") && !strcmp(e.ur.req, "000000002") &&
	   e.ur.user_data == 7 && !strcmp(e.ur.op, "FSYNC"), "its ring, request, user data and opcode");
	is_int(0, wb_ev_parse("             fio-90      [000] .....     3.000002: io_uring_file_get: ring 000000001, req 000000002, user_data 0x7, fd 5", &e),
	       "io_uring_file_get");
	ok(e.kind == WB_EV_URING_FILE && e.ur.val == 5, "its fd");
	is_int(0, wb_ev_parse("        iou-wrk-91      [001] .....     3.000009: io_uring_complete: ring 000000001, req 000000002, user_data 0x7, result -5, cflags 0x0 extra1 0 extra2 0 ", &e),
	       "an io_uring completion");
	ok(e.kind == WB_EV_URING_COMPLETE && e.ur.val == -5, "its result");
	is_int(0, wb_ev_parse("            bash-50      [000] .....     1.000001: sched_process_fork: comm=bash pid=50 child_comm=my app child_pid=51", &e),
	       "a fork, the child's comm with a space");
	ok(e.kind == WB_EV_FORK && e.proc.pid == 51 && e.proc.parent == 50 && !strcmp(e.proc.comm, "my app"),
	   "child, parent and comm");
	/* block completions: a real driver's failures (wb_backend.h) */
	is_int(0, wb_ev_parse("          <idle>-0       [000] ..s1.    21.500001: block_rq_complete: 8,0 W () 2048 + 128 none,0,0 [-61]", &e),
	       "block_rq_complete, 6.12 (ioprio printed)");
	ok(e.kind == WB_EV_BLK && e.blk.major == 8 && e.blk.minor == 0 && !strcmp(e.blk.rwbs, "W") &&
	   e.blk.sector == 2048 && e.blk.nr == 128 && e.blk.err == 61 && !e.blk.bio,
	   "its disk, rwbs, sector, sectors and the status's errno (ENODATA), a request");
	is_int(0, wb_ev_parse("     kworker/0:1-9       [000] .....     2.000001: block_rq_complete: 259,0 FWS () 0 + 0 [-5]", &e),
	       "block_rq_complete, 6.1 (no ioprio), a flush");
	ok(e.blk.major == 259 && !strcmp(e.blk.rwbs, "FWS") && e.blk.nr == 0 && e.blk.err == 5, "its fields");
	is_int(0, wb_ev_parse("     kworker/0:1-9       [000] .....     2.000001: block_rq_error: 259,0 WS () 8 + 8 none,0,0 [-121]", &e),
	       "block_rq_error");
	ok(e.kind == WB_EV_BLK && e.blk.err == 121 && e.blk.sector == 8, "its fields");
	is_int(0, wb_ev_parse("     kworker/u2:1-30     [000] .....     3.000001: block_bio_complete: 253,1 WS 4096 + 64 [-28]", &e),
	       "block_bio_complete: a bio-based device");
	ok(e.kind == WB_EV_BLK && e.blk.bio && e.blk.major == 253 && e.blk.minor == 1 && e.blk.sector == 4096 &&
	   e.blk.nr == 64 && e.blk.err == 28, "its device, sectors and ENOSPC");
	is_int(0, wb_ev_parse("          <idle>-0       [000] ..s1.    21.500001: block_rq_complete: 8,0 R () 16 + 8 none,0,0 [0]", &e),
	       "a success parses too (the runner filters error != 0)");
	is_int(0, e.blk.err, "errno 0");
	is_int(-1, wb_ev_parse("          <idle>-0       [000] ..s1.    21.500001: block_rq_complete: 8,0 W 2048 + 128 [-5]", &e),
	       "a request line without its cmd is refused");
	is_int(-1, wb_ev_parse("          <idle>-0       [000] ..s1.    21.500001: block_bio_complete: 253,1 WS 4096 + 64", &e),
	       "a line without its error is refused");
	is_int(0, wb_ev_parse("          my app-51      [000] .....     1.000002: sched_process_exec: filename=/usr/bin/my app pid=51 old_pid=51", &e),
	       "an exec, the filename with a space");
	ok(e.kind == WB_EV_EXEC && e.proc.pid == 51 && !strcmp(e.proc.exe, "/usr/bin/my app") &&
	   !strcmp(e.proc.comm, "my app"), "its pid, filename and comm");
}

/* wb_trace_parse: a whole trace in pieces, sorted, raw lines kept */
static void test_whole_trace(void)
{
	struct wb_trace t = { 0 };
	char buf[128];

	is_int(0, wb_trace_parse(&t, "# entries-in-buffer/entries-written: 3/5   #P:1\n"
			      "  a-1 [000] ..... 2.000000: tracing_mark_write: wb B 0 0 1\n"
			      "CPU:0 [LOST 7 EVENTS]\n"
			      "  torn line\n"
			      "  a-1 [000] ..... 1.000000: filemap_set_wb_err: dev=253:0 ino=0x5 errseq=0x0 errno=5"),
	       "a whole trace");
	ok(t.n == 2 && t.header_seen && t.lost == 9 && t.skipped == 1 && t.lines == 5,
	   "two events; the header's and the LOST line's losses; one torn line skipped");
	ok(t.v[0].mark.is_call && t.v[0].mark.call.what == 'B' && t.v[0].mark.call.seq == 1 &&
	   t.v[0].line == 2 && t.v[1].line == 5, "the marker is a call marker; line numbers");
	is_str("  a-1 [000] ..... 2.000000: tracing_mark_write: wb B 0 0 1", wb_trace_line(&t, &t.v[0], buf, sizeof(buf)),
	       "an event's raw line");
	is_int(0, wb_trace_parse(&t, "  b-2 [001] ..... 3.000000: tracing_mark_write: wb E 0 0 1\n"), "a second piece");
	ok(t.n == 3 && t.v[2].line == 6 && t.v[2].pid == 2, "appended, line numbers going on");
	wb_trace_sort(&t);
	ok(t.v[0].kind == WB_EV_SET && t.v[1].line == 2 && t.v[2].line == 6, "sorted by time stamp");
	is_str("  a-1 [000] ..... 1.000000: filemap_set_wb_err: dev=253:0 ino=0x5 errseq=0x0 errno=5",
	       wb_trace_line(&t, &t.v[0], buf, sizeof(buf)), "raw lines follow their events");
	wb_trace_free(&t);
}

/* what is no event */
static void test_refused(void)
{
	struct wb_ev e;

	is_int(-1, wb_ev_parse("# tracer: nop", &e), "comments are no events");
	is_int(-1, wb_ev_parse("   x-1 [000] ..... 1.0: sched_switch: prev=a", &e), "other events are refused");
	is_int(-1, wb_ev_parse("filemap_set_wb_err: dev=253:0 ino=0xc errseq=0x0", &e), "a line without its head is refused");
}

int main(void)
{
	test_set_events();
	test_advance_events();
	test_markers();
	test_record_tgid();
	test_heads();
	test_syscalls();
	test_uring_and_sched();
	test_whole_trace();
	test_refused();
	return tap_done();
}
