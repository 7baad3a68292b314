// SPDX-License-Identifier: GPL-2.0
/*
 * wb_attr, the one attributor: each kind of call window, each set to its
 * fault by the rules wb_attr.h states, set errnos decoded on a stock
 * kernel, and which cursor moves consumed a set.  The judges' own tests
 * (tools/wberr-run/tests/test_synctrace.c, test_crosscheck.c, test_evidence.c,
 * tools/wberr-stress/tests/test_oracle.c) drive it through whole runs.
 */
#include <errno.h>
#include <string.h>

#include "wb_attr.h"
#include "wb_test.h"

#define H(pid, cpu, us) "  t-" #pid " [00" #cpu "] ..... 1." us ": "

static int load(struct wb_trace *t, struct wb_attr *a, enum wb_window w, const char *text)
{
	const struct wb_attr_cfg cfg = { .windows = w };

	memset(t, 0, sizeof(*t));
	return wb_trace_parse(t, text) || wb_attr_calls(a, t, &cfg);
}

static void done(struct wb_trace *t, struct wb_attr *a)
{
	wb_attr_free(a);
	wb_trace_free(t);
}

/* wberr-stress: each worker marks its own call; another worker's moves are not its */
static void test_marks_task(void)
{
	struct wb_trace t;
	struct wb_attr a;

	is_int(0, load(&t, &a, WB_WIN_MARKS_TASK,
		       H(10, 0, "000001") "tracing_mark_write: wb B 0 1 5\n"
		       H(11, 1, "000002") "tracing_mark_write: wb B 1 0 7\n"
		       H(10, 0, "000003") "file_check_and_advance_wb_err: file=a dev=8:0 ino=0x5 old=0x0 new=0x1005\n"
		       H(11, 1, "000004") "file_check_and_advance_wb_err: file=b dev=8:0 ino=0x6 old=0x0 new=0x0\n"
		       H(10, 0, "000005") "tracing_mark_write: wb E 0 1 5\n"
		       H(10, 0, "000006") "file_check_and_advance_wb_err: file=a dev=8:0 ino=0x5 old=0x1005 new=0x1005\n"
		       H(11, 1, "000007") "tracing_mark_write: wb E 1 0 7\n"),
	       "marks per task: attributed");
	ok(a.ncalls == 2 && a.calls[0].proc == 0 && a.calls[0].fd == 1 && a.calls[0].seq == 5 &&
	   a.calls[0].enter == 0 && a.calls[0].exit == 4, "worker 0's call: B at 0, E at 4");
	ok(a.call_of[2] == 0 && a.call_of[3] == 1, "each move is its own worker's call");
	is_int(-1, a.call_of[5], "a move after the worker's E is no call's");
	ok(a.calls[1].nadv == 1 && a.adv[a.calls[1].adv] == 3, "worker 1's call has its one move");
	done(&t, &a);
}

/* wberr-run: the runner marks, an agent moves the cursor */
static void test_marks_all(void)
{
	struct wb_trace t;
	struct wb_attr a;

	is_int(0, load(&t, &a, WB_WIN_MARKS_ALL,
		       H(70, 0, "000001") "tracing_mark_write: wb B 1 0 3\n"
		       H(71, 1, "000002") "file_check_and_advance_wb_err: file=a dev=8:0 ino=0x5 old=0x0 new=0x1005\n"
		       H(70, 0, "000003") "tracing_mark_write: wb E 1 0 3\n"
		       H(71, 1, "000004") "file_check_and_advance_wb_err: file=a dev=8:0 ino=0x5 old=0x1005 new=0x1005\n"),
	       "marks by the runner: attributed");
	ok(a.ncalls == 1 && a.call_of[1] == 0 && a.call_of[3] == -1,
	   "the agent's move between the runner's markers is the step's, the one after none's");
	done(&t, &a);
}

/* program mode: a syscall's window is its thread's entry to exit */
static void test_syscalls(void)
{
	struct wb_trace t;
	struct wb_attr a;

	is_int(0, load(&t, &a, WB_WIN_SYSCALLS,
		       H(5, 0, "000001") "sys_fsync(fd: 3)\n"
		       H(6, 1, "000002") "sys_write(fd: 1, buf: 0, count: 5)\n"
		       H(5, 0, "000003") "file_check_and_advance_wb_err: file=a dev=8:0 ino=0x5 old=0x0 new=0x1005\n"
		       H(6, 1, "000004") "sys_write -> 0x5\n"
		       H(5, 0, "000005") "sys_fsync -> 0xfffffffffffffffb\n"
		       H(7, 0, "000006") "sys_write -> 0xffffffffffffffe0\n"),
	       "syscalls: attributed");
	is_int(2, (int)a.ncalls, "the fsync and the failed write; the plain write is no call");
	ok(a.calls[0].kind == WB_CALL_FSYNC && a.calls[0].ret == -EIO && a.calls[0].fd == 3 && a.calls[0].nadv == 1 &&
	   a.call_of[2] == 0, "the fsync, its -EIO and its move");
	ok(a.calls[1].kind == WB_CALL_O_SYNC_WRITE && (a.calls[1].state & WB_CALL_NO_ENTER) && a.calls[1].ret == -32,
	   "a failed write whose entry was not traced");
	done(&t, &a);
}

static struct wb_fault fault(uint64_t ns, int err, uint64_t sector)
{
	return (struct wb_fault){ .ns = ns, .err = err, .sector = sector, .nr = 8 };
}

/* which fault a set came from */
static void test_owners(void)
{
	struct wb_trace t;
	struct wb_attr a;
	struct wb_files fs = { 0 };
	const struct wb_fault f[] = {
		fault(1000001000, ENOSPC, 100),	/* 0: on ino 5's data */
		fault(1000005000, EIO, 100),	/* 1: on ino 5's data, later */
		fault(1000025000, EIO, 900),	/* 2: on no known file's data */
		fault(1000050000, EIO, 100),	/* 3: after every set */
		fault(1000003000, 0, 100),	/* 4: a drop */
	};

	wb_files_set(&fs, 0, 5, "f5");
	wb_files_add_extent(&fs, 0, 100, 199);
	wb_files_set(&fs, 1, 6, "f6");
	wb_files_add_extent(&fs, 1, 200, 299);
	is_int(0, load(&t, &a, WB_WIN_MARKS_ALL,
		       H(9, 0, "000010") "filemap_set_wb_err: dev=8:0 ino=0x5 errseq=0x0 errno=28\n"
		       H(9, 0, "000020") "filemap_set_wb_err: dev=8:0 ino=0x5 errseq=0x0\n"
		       H(9, 0, "000030") "filemap_set_wb_err: dev=8:0 ino=0x7 errseq=0x0 errno=5\n"
		       H(9, 0, "000031") "filemap_set_wb_err: dev=0:3 ino=0x800000 errseq=0x0 errno=5\n"
		       H(9, 0, "000032") "filemap_set_wb_err: dev=8:0 ino=0x6 errseq=0x0 errno=5\n"
		       H(9, 0, "000040") "file_check_and_advance_wb_err: file=a dev=8:0 ino=0x5 old=0x0 new=0x1005\n"),
	       "sets: parsed");
	is_int(0, wb_attr_faults(&a, f, 5, &fs, 8, 0), "faults attributed");
	ok(wb_attr_hit(&a, 0, 0) && !wb_attr_hit(&a, 0, 1) && !a.known[2], "fault 0 hit f5; fault 2 no known file");
	is_int(0, (int)a.set_fault[0], "ENOSPC recorded: the ENOSPC fault, though an EIO one fired later");
	is_int(1, (int)a.set_fault[1], "errno decoded (EIO): the EIO fault on its data, not the ENOSPC one");
	is_int(2, (int)a.set_fault[2], "a set on a file nobody knew: the fault on no known file's data");
	is_int(2, (int)a.set_fault[3], "the block device's own inode (metadata): that fault too");
	is_int(2, (int)a.set_fault[4], "a known file whose data no fault hit: the fault on unknown sectors");
	ok(a.set_err[1] == EIO && a.set_decoded[1], "a stock set's errno, decoded from the next value on its inode");
	is_int(1, (int)wb_attr_fault_before(&a, 0, 1000006000), "the latest failing fault on f5 by then");
	is_int(-1, (int)wb_attr_fault_before(&a, 1, 1000090000), "none on f6");
	ok(wb_attr_consumed(&a, 5, 1) && !wb_attr_consumed(&a, 5, 4), "the move consumed ino 5's set, not ino 6's");
	done(&t, &a);
	wb_files_free(&fs);
}

int main(void)
{
	test_marks_task();
	test_marks_all();
	test_syscalls();
	test_owners();
	return tap_done();
}
