// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-run's cross-checks replayed on the host: one step's recorded
 * evidence (the trace text as tracefs prints it, the fault log's lines as
 * dm-wberr answers them, the call's errno and the model's prediction) is
 * fed to crosscheck.c, which must pass it clean and name each planted
 * violation.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crosscheck.h"
#include "wb_test.h"

/* step 6: fsync(a) on ino 0xc after dm-wberr failed its write with EIO */
static const char clean_trace[] =
	"# tracer: nop\n"
	"       wberr-run-71      [000] .....    10.000000: tracing_mark_write: wb B 0 0 6\n"
	"     kworker/0:1-9       [000] .....    10.000100: filemap_set_wb_err: dev=253:0 ino=0xc errseq=0x0\n"
	"       wberr-run-71      [000] .....    10.000200: file_check_and_advance_wb_err: file=0000 dev=253:0 ino=0xc old=0x0 new=0x3005\n"
	"       wberr-run-71      [000] .....    10.000300: tracing_mark_write: wb E 0 0 6\n"
	"       wberr-run-71      [000] .....    10.000400: tracing_mark_write: wb B 0 0 7\n";
static const char fault_line[] = "3 10000050000 1 write - 2048 8 ioerr";

struct replay {
	struct wb_trace t;
	struct wb_attr a;
	long call;		/* step 6's */
	struct wb_fault fault;
	struct or_pred pred;
	char msg[1024];
};

static void unload(struct replay *r)
{
	wb_attr_free(&r->a);
	wb_trace_free(&r->t);
}

/* parse and attribute like exec.c does after the step */
static void load(struct replay *r, const char *trace)
{
	unload(r);
	memset(r, 0, sizeof(*r));
	xc_attribute(&r->t, &r->a, trace);
	r->call = xc_call(&r->a, 6);
	wb_fault_parse(fault_line, &r->fault);
	r->pred = (struct or_pred){ .valid = 1, .err = EIO, .consumed = 1, .cur_before = 0, .cur_after = 0x3005 };
}

static int fault_set(struct replay *r, unsigned long ino)
{
	return xc_fault_set(&r->fault, "f", ino, &r->t, r->msg, sizeof(r->msg));
}

static int cursor(struct replay *r, unsigned long ino)
{
	return xc_cursor(&r->pred, ino, &r->a, r->call, r->msg, sizeof(r->msg));
}

/* replace the first occurrence of @from in @text by @to (test data only) */
static char *plant(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char *out = malloc(strlen(text) + strlen(to) + 1);

	memcpy(out, text, (size_t)(at - text));
	strcpy(out + (at - text), to);
	strcat(out, at + strlen(from));
	return out;
}

static void test_clean_step(struct replay *r)
{
	load(r, clean_trace);
	is_int(5, r->t.n, "replay: the recorded trace has 5 events");
	ok(r->call >= 0 && r->a.calls[r->call].enter == 0 && r->a.calls[r->call].exit == 3,
	   "replay: the call's window is found, between B6 and E6");
	ok(r->call >= 0 && r->a.calls[r->call].nadv == 1 && r->a.adv[r->a.calls[r->call].adv] == 2,
	   "replay: the cursor move in it is the call's");
	is_int(EIO, r->fault.err, "replay: the fault log line is an EIO write");
	is_int(1, fault_set(r, 0xc), "clean: the fault left a set on the file");
	is_int(1, cursor(r, 0xc), "clean: the cursor moved as the model says");
	is_int(1, xc_cause(EIO, 0, 0, 1, r->msg, sizeof(r->msg)), "clean: the error has a logged fault");
	is_int(1, xc_cause(0, 0, 0, 0, r->msg, sizeof(r->msg)), "clean: success needs no fault");
	is_int(0, strstr(r->msg, "CROSS-CHECK") != NULL, "clean: no CROSS-CHECK message");
	ok(strstr(r->msg, "trace: ino 0xc cursor 0 -> 0x3005") != NULL, "clean: the move is noted: %s", r->msg);
}

static void test_planted(struct replay *r)
{
	char *t;

	/* 1: the set event is missing */
	t = plant(clean_trace, "filemap_set_wb_err: dev=253:0 ino=0xc", "filemap_set_wb_err: dev=253:0 ino=0xd");
	load(r, t);
	free(t);
	is_int(0, fault_set(r, 0xc), "planted: a fault without a set on its file is caught");
	ok(strstr(r->msg, "CROSS-CHECK: fault #3 (ioerr sector 2048) hit f but no filemap_set_wb_err on ino 0xc") != NULL,
	   "  with the fault and the inode: %s", r->msg);

	/* 2: the model advances the cursor, the kernel does not */
	t = plant(clean_trace, "advance_wb_err: file=0000 dev=253:0 ino=0xc", "advance_wb_err: file=0000 dev=253:0 ino=0xe");
	load(r, t);
	free(t);
	is_int(0, cursor(r, 0xc), "planted: a missing cursor move is caught");
	ok(strstr(r->msg, "no file_check_and_advance_wb_err event for ino 0xc") != NULL, "  %s", r->msg);

	/* 3: the kernel advances where the model saw nothing new */
	load(r, clean_trace);
	r->pred.consumed = 0;
	r->pred.err = 0;
	is_int(0, cursor(r, 0xc), "planted: an unexpected cursor move is caught");
	ok(strstr(r->msg, "where the model saw nothing new") != NULL, "  %s", r->msg);

	/* 4: the kernel's cursor holds another errno */
	t = plant(clean_trace, "new=0x3005", "new=0x301c");
	load(r, t);
	free(t);
	is_int(0, cursor(r, 0xc), "planted: a cursor moved to another errno is caught");
	ok(strstr(r->msg, "moved to 0x301c (ENOSPC), model says EIO") != NULL, "  %s", r->msg);

	/* 5: the advance happened outside the call's window */
	t = plant(clean_trace, "wb E 0 0 6", "wb X 0 0 6");
	load(r, t);
	free(t);
	is_int(-1, r->call, "planted: a lost E marker leaves no sound window (xc_step skips the check)");

	/* 6: syncfs wants the sb event, an fsync event is not enough */
	load(r, clean_trace);
	r->pred.sb = 1;
	is_int(0, cursor(r, 0xc), "planted: syncfs is judged by f_sb_err's event only");

	/* 7: an error although the device failed nothing */
	load(r, clean_trace);
	is_int(0, xc_cause(EIO, 0, 0, 0, r->msg, sizeof(r->msg)), "planted: an error from nowhere is caught");
	ok(strstr(r->msg, "CROSS-CHECK: an error although the device failed nothing") != NULL, "  %s", r->msg);
	r->msg[0] = 0;
	is_int(1, xc_cause(EIO, 1, 0, 0, r->msg, sizeof(r->msg)), "  unless the scenario names the error");
	is_int(1, xc_cause(EINVAL, 0, 1, 0, r->msg, sizeof(r->msg)), "  or the step programs faults");
}

/* the cases test_oracle.c had for oracle_check_trace, on xc_cursor */
static void test_model_moves(struct replay *r)
{
	static const char two[] =
		"  wberr-run-71 [000] ..... 1.000000: tracing_mark_write: wb B 0 0 6\n"
		"  wberr-run-71 [000] ..... 1.000001: file_check_and_advance_wb_err: file=0 dev=253:0 ino=0xc old=0x0 new=0x1005\n"
		"  wberr-run-71 [000] ..... 1.000002: file_check_and_advance_wb_err: file=0 dev=253:0 ino=0xd old=0x0 new=0x1005\n"
		"  wberr-run-71 [000] ..... 1.000003: tracing_mark_write: wb E 0 0 6\n";
	struct or_pred *p = &r->pred;

	load(r, two);
	*p = (struct or_pred){ .valid = 1, .err = EIO, .consumed = 1, .cur_before = 0, .cur_after = 0x1005 };
	is_int(1, cursor(r, 0xc), "advance event on the inode matches");
	r->msg[0] = 0;
	is_int(0, cursor(r, 0xe), "no event for the inode: mismatch");
	ok(strstr(r->msg, "no file_check_and_advance_wb_err") != NULL, "%s", r->msg);
	p->consumed = 0;
	p->err = 0;
	is_int(0, cursor(r, 0xd), "an unexpected cursor move is caught");
	p->consumed = 1;
	p->err = ENOSPC;
	is_int(0, cursor(r, 0xc), "a different errno in the cursor is caught");
	p->valid = 0;
	is_int(1, cursor(r, 0xc), "no prediction, nothing to check");
}

int main(void)
{
	struct replay r = { 0 };

	test_clean_step(&r);
	test_planted(&r);
	test_model_moves(&r);
	unload(&r);
	return tap_done();
}
