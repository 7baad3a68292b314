// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the oracle on synthetic evidence: a clean history passes,
 * and each way the kernel could lie (lost, double, wrong errno, causeless)
 * is caught as its own kind.  (The trace parser is lib/c's one parser,
 * tested in lib/c/tests/test_trace.c.)
 * Prints TAP 14; exit 0 only if every test passed.
 */
#include "oracle.h"
#include "util.h"
#include "wb_test.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>


/* ---- a tiny evidence builder */

struct ev {
	struct wbs_oracle_in in;
	char *lines;		/* trace text being built */
	size_t len;
};

static void ev_init(struct ev *e)
{
	memset(e, 0, sizeof(*e));
	e->in.meta.dev_major = 252;
	e->in.meta.dev_minor = 0;
	e->in.meta.sweep_done = 1;
	e->in.meta.sb_margin_ns = 2000000;
	e->in.meta.clock_step_ns = 100;
	e->in.meta.cpus = 1;
	e->in.meta.go_ns = 1000000;
	e->in.meta.stop_ns = 2000000000;
	/* file 0: ino 10, sectors 100-199; file 1: ino 11, 200-299 */
	wb_files_set(&e->in.files, 0, 10, "/f0");
	wb_files_set(&e->in.files, 1, 11, "/f1");
	wb_files_add_extent(&e->in.files, 0, 100, 199);
	wb_files_add_extent(&e->in.files, 1, 200, 299);
}

static void tline(struct ev *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void tline(struct ev *e, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	e->lines = wbs_xrealloc(e->lines, e->len + (size_t)n + 2, 1);
	memcpy(e->lines + e->len, buf, (size_t)n);
	e->len += (size_t)n;
	e->lines[e->len++] = '\n';
	e->lines[e->len] = '\0';
}

static void t_set(struct ev *e, unsigned int us, unsigned int ino, unsigned int old)
{
	tline(e, "     kworker/0:1-7       [000] .....     0.%06u: filemap_set_wb_err: dev=252:0 ino=0x%x errseq=0x%x",
	      us, ino, old);
}

static void t_adv(struct ev *e, unsigned int us, unsigned int pid,
		  unsigned int ino, unsigned int old, unsigned int new)
{
	tline(e, "    wberr-stress-%u      [000] .....     0.%06u: file_check_and_advance_wb_err: file=(____ptrval____) dev=252:0 ino=0x%x old=0x%x new=0x%x",
	      pid, us, ino, old, new);
}

static void t_mark(struct ev *e, unsigned int us, unsigned int pid, char m,
		   unsigned int proc, unsigned int fdi, unsigned int seq)
{
	tline(e, "    wberr-stress-%u      [000] .....     0.%06u: tracing_mark_write: wb %c %u %u %u",
	      pid, us, m, proc, fdi, seq);
}

/* A sync call: markers at us and us + 100, the record in between. */
static void sync_call(struct ev *e, unsigned int us, unsigned int proc,
		      unsigned int fdi, unsigned int file, unsigned int op,
		      int ret, int err, unsigned int seq)
{
	struct wb_recs *rs = &e->in.recs;
	struct wb_rec r = {
		.t0 = (uint64_t)us * 1000 + 10, .t1 = (uint64_t)us * 1000 + 90,
		.ino = e->in.files.ino[file], .pid = 100 + proc, .seq = seq,
		.ret = ret, .err = err, .proc = (uint16_t)proc, .file = (uint16_t)file,
		.fdi = (uint8_t)fdi, .op = (uint8_t)op,
	};

	rs->v = wbs_xrealloc(rs->v, rs->n + 1, sizeof(*rs->v));
	rs->v[rs->n++] = r;
}

static void fault(struct ev *e, unsigned int us, uint64_t sector, int err)
{
	struct wb_faultlog *fl = &e->in.faults;
	struct wb_fault f = { .ns = (uint64_t)us * 1000, .sector = sector,
			       .nr = 8, .err = err };

	strcpy(f.opclass, "write");
	strcpy(f.status, err == EIO ? "ioerr" : "nospc");
	strcpy(f.flags, "-");
	fl->v = wbs_xrealloc(fl->v, fl->n + 1, sizeof(*fl->v));
	fl->v[fl->n++] = f;
}

static void open_recs(struct ev *e)
{
	unsigned int p;

	for (p = 0; p < 2; p++) {
		struct wb_rec r = { .t0 = 1000, .t1 = 2000, .ino = 10,
				     .pid = 100 + p, .seq = 0, .proc = (uint16_t)p,
				     .op = WB_REC_OPEN };

		e->in.recs.v = wbs_xrealloc(e->in.recs.v, e->in.recs.n + 1,
					    sizeof(r));
		e->in.recs.v[e->in.recs.n++] = r;
	}
}

/*
 * The base history: fds (proc 0, fd 0) and (proc 1, fd 0) on file 0.  A
 * fault, then a set (instance 1); proc 0's fsync reports it, proc 1's too,
 * proc 0's next fsync returns 0.  Knobs break it in one way each.
 */
struct knobs {
	int p1_lost;		/* proc 1's fsync returns 0, no advance */
	int p0_double;		/* proc 0's second fsync fails again */
	int p0_errno;		/* proc 0 returns this errno instead */
	int no_fault;		/* no fault logged */
	int extra_fault;	/* a fault with no set after it */
	int syncfs_lost;	/* syncfs after the set returns 0 */
	int p0_jump;		/* proc 0's cursor advances from another value */
	int p0_silent;		/* proc 0's first fsync advances, returns 0 */
	int syncfs_again;	/* proc 1's second syncfs: 1 fails with no new
				 * error, 2 fails after a new one, 3 returns 0
				 * after a new one */
};

static unsigned long run(const struct knobs *k, struct wbs_oracle_out *out)
{
	struct ev e;
	unsigned long v;
	FILE *null = fopen("/dev/null", "w");

	ev_init(&e);
	open_recs(&e);
	if (!k->no_fault)
		fault(&e, 1000, 120, EIO);
	t_set(&e, 1100, 10, 0x0);
	/* proc 0 fsync: B 1200, advance 1250, E 1300 */
	t_mark(&e, 1200, 100, 'B', 0, 0, 1);
	t_adv(&e, 1250, 100, 10, k->p0_jump ? 0x2005 : 0x0, 0x1005);
	t_mark(&e, 1300, 100, 'E', 0, 0, 1);
	sync_call(&e, 1200, 0, 0, 0, WB_REC_FSYNC, k->p0_silent ? 0 : -1,
		  k->p0_silent ? 0 : k->p0_errno ? k->p0_errno : EIO, 1);
	/* proc 1 fsync */
	t_mark(&e, 1400, 101, 'B', 1, 0, 1);
	if (!k->p1_lost)
		t_adv(&e, 1450, 101, 10, 0x0, 0x1005);
	t_mark(&e, 1500, 101, 'E', 1, 0, 1);
	sync_call(&e, 1400, 1, 0, 0, WB_REC_FSYNC, k->p1_lost ? 0 : -1,
		  k->p1_lost ? 0 : EIO, 1);
	/* proc 0 second fsync: nothing new */
	t_mark(&e, 1600, 100, 'B', 0, 0, 2);
	t_mark(&e, 1700, 100, 'E', 0, 0, 2);
	sync_call(&e, 1600, 0, 0, 0, WB_REC_FSYNC, k->p0_double ? -1 : 0,
		  k->p0_double ? EIO : 0, 2);
	/* proc 1 syncfs, the set is 8 ms before it: must fail */
	t_mark(&e, 9500, 101, 'B', 1, 0, 2);
	t_mark(&e, 9600, 101, 'E', 1, 0, 2);
	sync_call(&e, 9500, 1, 0, 0, WB_REC_SYNCFS, k->syncfs_lost ? 0 : -1,
		  k->syncfs_lost ? 0 : EIO, 2);
	if (k->extra_fault)
		fault(&e, 9000, 130, EIO);
	if (k->syncfs_again >= 2) {	/* on file 1, which no fd holds */
		fault(&e, 14000, 240, EIO);
		t_set(&e, 15000, 11, 0x0);
		/* its CPU's next event shows the s_wb_err update done */
		t_set(&e, 16000, 11, 0x2005);
	}
	if (k->syncfs_again) {
		t_mark(&e, 20000, 101, 'B', 1, 0, 3);
		t_mark(&e, 20100, 101, 'E', 1, 0, 3);
		sync_call(&e, 20000, 1, 0, 0, WB_REC_SYNCFS,
			  k->syncfs_again == 3 ? 0 : -1,
			  k->syncfs_again == 3 ? 0 : EIO, 3);
	}
	tline(&e, "# entries-in-buffer/entries-written: 9/9   #P:1");
	wb_trace_parse(&e.in.trace, e.lines);
	wb_trace_sort(&e.in.trace);
	wb_recs_sort(&e.in.recs);
	/* T_DEBUG=1 prints the violations of every case */
	v = wbs_oracle_check(&e.in, out, getenv("T_DEBUG") || !null ? stderr : null, 50);
	if (null)
		fclose(null);
	free(e.lines);
	wbs_oracle_free(&e.in);
	return v;
}

int main(void)
{
	struct wbs_oracle_out out;
	struct knobs k;

	printf("TAP version 14\n");

	memset(&k, 0, sizeof(k));
	ok(run(&k, &out) == 0, "clean history: no violation");
	ok(out.checked_pairs == 2 && out.errors == 3,
	   "clean history: the set is checked against both fds");

	memset(&k, 0, sizeof(k));
	k.p1_lost = 1;
	run(&k, &out);
	ok(out.violations[WBS_V_LOST] >= 1, "an fd never told of an error: lost-error");

	memset(&k, 0, sizeof(k));
	k.p0_double = 1;
	run(&k, &out);
	ok(out.violations[WBS_V_NO_CAUSE] == 1 && out.nviolations == 1,
	   "an error reported twice: error-without-cause, nothing else");

	memset(&k, 0, sizeof(k));
	k.p0_errno = ENOSPC;
	run(&k, &out);
	ok(out.violations[WBS_V_WRONG_ERRNO] == 1, "another errno than the advanced one: wrong-errno");

	memset(&k, 0, sizeof(k));
	k.no_fault = 1;
	run(&k, &out);
	ok(out.violations[WBS_V_SET_NO_FAULT] == 1, "a writeback error with no fault: errseq-error-without-fault");

	memset(&k, 0, sizeof(k));
	k.extra_fault = 1;
	run(&k, &out);
	ok(out.violations[WBS_V_FAULT_NO_SET] == 1, "a fault that left no error: fault-without-errseq-error");

	memset(&k, 0, sizeof(k));
	k.syncfs_lost = 1;
	run(&k, &out);
	ok(out.violations[WBS_V_LOST] == 1, "syncfs after an fs error returns 0: lost-error");

	/* a later syncfs: its windows start at the previous one */
	memset(&k, 0, sizeof(k));
	k.syncfs_again = 1;
	run(&k, &out);
	ok(out.violations[WBS_V_NO_CAUSE] == 1 && out.nviolations == 1 &&
	   out.syncfs_checked == 2 && out.syncfs_armed == 1,
	   "a second syncfs fails with no error since the first: error-without-cause, nothing else");

	memset(&k, 0, sizeof(k));
	k.syncfs_again = 2;
	ok(run(&k, &out) == 0 && out.syncfs_armed == 2,
	   "a second syncfs fails after a new error: no violation, both armed");

	memset(&k, 0, sizeof(k));
	k.syncfs_again = 3;
	run(&k, &out);
	ok(out.violations[WBS_V_LOST] == 1 && out.nviolations == 1,
	   "a second syncfs returns 0 after a new error: lost-error, nothing else");

	/* the shared rules' cursor verdicts (lib/c wb_invariants) */
	memset(&k, 0, sizeof(k));
	k.p0_jump = 1;
	run(&k, &out);
	ok(out.violations[WBS_V_CURSOR] == 1 && out.nviolations == 1,
	   "an advance from another value: cursor-discontinuity, nothing else");

	memset(&k, 0, sizeof(k));
	k.p0_silent = 1;
	run(&k, &out);
	ok(out.violations[WBS_V_ADVANCED_NO_ERROR] == 1,
	   "an advance to an error, the call returned 0: advanced-no-error");

	return tap_done();
}
