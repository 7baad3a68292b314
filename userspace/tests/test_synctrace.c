// SPDX-License-Identifier: GPL-2.0
/*
 * synctrace: program mode's trace, in the exact 6.12 line formats (the
 * head of trace_print_context() with and without record-tgid, syscall
 * events as trace_syscalls.c prints them, io_uring, sched, the filemap
 * events stock and with patch 0005), parsed, attributed and rendered.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include "synctrace.h"
#include "wb_test.h"

/* ---- building trace text ---- */

struct tb {
	FILE *f;
	char *text;
	size_t len;
	int tgids;		/* print record-tgid's column */
};

static void tb_open(struct tb *t, int tgids)
{
	t->text = NULL;
	t->len = 0;
	t->tgids = tgids;
	t->f = open_memstream(&t->text, &t->len);
}

static char *tb_close(struct tb *t)
{
	fclose(t->f);
	return t->text;
}

/* one event line: the head exactly as trace_print_context() prints it */
static void __attribute__((format(printf, 7, 8)))
ev(struct tb *t, const char *comm, int pid, int tgid, int cpu, unsigned long long us, const char *fmt, ...)
{
	va_list ap;

	fprintf(t->f, "%16s-%-7d ", comm, pid);
	if (t->tgids && tgid)
		fprintf(t->f, "(%7d) ", tgid);
	else if (t->tgids)
		fputs("(-------) ", t->f);
	fprintf(t->f, "[%03d] ..... %5llu.%06llu: ", cpu, us / 1000000, us % 1000000);
	va_start(ap, fmt);
	vfprintf(t->f, fmt, ap);
	va_end(ap);
	fputc('\n', t->f);
}

static void raw(struct tb *t, const char *line)
{
	fprintf(t->f, "%s\n", line);
}

/* ---- a small JSON checker: the renderer's output must parse ---- */

static const char *json_value(const char *p);

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *json_list(const char *p, char close, int keyed)
{
	p = ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (keyed) {
			if (!(p = json_string(ws(p))))
				return NULL;
			p = ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = json_value(p)))
			return NULL;
		p = ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p)
{
	char *end;

	p = ws(p);
	if (*p == '{')
		return json_list(p, '}', 1);
	if (*p == '[')
		return json_list(p, ']', 0);
	if (*p == '"')
		return json_string(p);
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		strtod(p, &end);
		return end > p ? end : NULL;
	}
	return NULL;
}

static int json_valid(const char *text)
{
	const char *end = json_value(text);

	return end && !*ws(end);
}

/* ---- lookups ---- */

static const struct sc_call *call_of(const struct sc_log *log, uint32_t tid, int kind)
{
	for (size_t i = 0; i < log->ncalls; i++)
		if (log->calls[i].tid == tid && log->calls[i].kind == kind)
			return &log->calls[i];
	return NULL;
}

static long idx_of(const struct sc_log *log, const struct sc_call *c)
{
	return c ? (long)(c - log->calls) : -2;
}

static const struct sc_cursor *cursor_of(const struct sc_log *log, const struct sc_call *c, size_t i)
{
	return c && i < c->ncur ? &log->curs[log->cidx[c->cur + i]] : NULL;
}

/* the seer of @fate that is call @call, NULL */
static const struct sc_seer *seer_of(const struct sc_fate *fate, long call)
{
	for (size_t i = 0; i < fate->nseers; i++)
		if (fate->seers[i].call == call)
			return &fate->seers[i];
	return NULL;
}

static struct wb_fault entry(unsigned long long us, const char *status, int err)
{
	struct wb_fault f = { .ns = us * 1000, .rule = 1, .err = err, .sector = 2048, .nr = 8 };

	snprintf(f.opclass, sizeof(f.opclass), "write");
	snprintf(f.status, sizeof(f.status), "%s", status);
	return f;
}

static char *render(void (*fn)(FILE *, const struct sc_report *), const struct sc_report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fn(f, r);
	fclose(f);
	return text;
}

/*
 * Trace A: record-tgid on, patch 0005's fields.  The runner is pid 50.
 *   fault 1 ino 0xc   an fsync consumes EIO; a syncfs sees it through the sb
 *   fault 2 ino 0xd   fork child and parent share one file (told once),
 *                     a separate open is told too
 *   fault 4 ino 0xf   set, never consumed: lost
 *   fault 5 ino 0x10  a drop: silent
 *   fault 6 ino 0x11  an O_DSYNC pwrite64 consumes ETIMEDOUT
 *   fault 7 ino 0x12  an io_uring fsync in an io-wq worker consumes EIO
 *   fault 8           never fires
 *   pid 600           an fsync error no fault explains; the runner's own is left out
 */
static char *trace_a(void)
{
	struct tb t;

	tb_open(&t, 1);
	raw(&t, "# tracer: nop");
	raw(&t, "#");
	raw(&t, "#           TASK-PID       TGID     CPU#  |||||  TIMESTAMP  FUNCTION");
	ev(&t, "wberr-run", 50, 50, 0, 100000000, "tracing_mark_write: wb app armed");
	ev(&t, "wberr-run", 50, 50, 0, 100000010, "sys_write(fd: 5, buf: 7ffc00001000, count: 11)");
	ev(&t, "wberr-run", 50, 50, 0, 100000020, "sys_write -> 0xb");
	/* fault 1 fires at 100000500 */
	ev(&t, "kworker/u8:2", 30, 30, 1, 100000600, "filemap_set_wb_err: dev=253:0 ino=0xc errseq=0x0 errno=5");
	ev(&t, "sqlite3", 100, 100, 0, 100001000, "sys_fsync(fd: 3)");
	ev(&t, "sqlite3", 100, 100, 0, 100001200, "file_check_and_advance_wb_err: file=00000000aaaa0001 dev=253:0 ino=0xc old=0x0 new=0x1005 errno=5 seq=0");
	ev(&t, "sqlite3", 100, 100, 0, 100001300, "sys_fsync -> 0xfffffffffffffffb");
	ev(&t, "sqlite3", 100, 100, 0, 100001400, "sys_write(fd: 4, buf: 55d0c0de0000, count: c8)");
	ev(&t, "sqlite3", 100, 100, 0, 100001450, "sys_write -> 0xc8");
	ev(&t, "sync", 700, 700, 1, 100001500, "sys_syncfs(fd: 3)");
	ev(&t, "sync", 700, 700, 1, 100001550, "file_check_and_advance_sb_err: file=00000000aaaa0700 dev=253:0 ino=0x2 old=0x0 new=0x1005 errno=5 seq=0");
	ev(&t, "sync", 700, 700, 1, 100001600, "sys_syncfs -> 0xfffffffffffffffb");
	/* fault 2 fires at 100002000 */
	ev(&t, "sqlite3", 200, 200, 0, 100001700, "sched_process_fork: comm=sqlite3 pid=200 child_comm=sqlite3 child_pid=201");
	ev(&t, "kworker/0:1", 9, 0, 0, 100002100, "filemap_set_wb_err: dev=253:0 ino=0xd errseq=0x0 errno=5");
	ev(&t, "sqlite3", 201, 201, 1, 100002200, "sys_fdatasync(fd: 3)");
	ev(&t, "sqlite3", 201, 201, 1, 100002250, "file_check_and_advance_wb_err: file=00000000bbbb0001 dev=253:0 ino=0xd old=0x0 new=0x1005 errno=5 seq=0");
	ev(&t, "sqlite3", 201, 201, 1, 100002300, "sys_fdatasync -> 0xfffffffffffffffb");
	ev(&t, "sqlite3", 200, 200, 0, 100002400, "sys_fsync(fd: 3)");
	ev(&t, "sqlite3", 200, 200, 0, 100002450, "sys_fsync -> 0x0");
	ev(&t, "reader", 300, 300, 0, 100002500, "sys_fsync(fd: 6)");
	ev(&t, "reader", 300, 300, 0, 100002550, "file_check_and_advance_wb_err: file=00000000cccc0001 dev=253:0 ino=0xd old=0x0 new=0x1005 errno=5 seq=0");
	ev(&t, "reader", 300, 300, 0, 100002600, "sys_fsync -> 0xfffffffffffffffb");
	/* fault 4 at 100003000, fault 5 (drop) at 100003500 */
	ev(&t, "kworker/0:1", 9, 9, 0, 100003100, "filemap_set_wb_err: dev=253:0 ino=0xf errseq=0x0 errno=5");
	raw(&t, "this line is garbage");
	ev(&t, "sqlite3", 100, 100, 0, 100003600, "sys_fsync -> zz");
	raw(&t, "CPU:1 [LOST 3 EVENTS]");
	/* fault 6 at 100004000 */
	ev(&t, "kworker/1:0", 31, 31, 1, 100004100, "filemap_set_wb_err: dev=253:0 ino=0x11 errseq=0x0 errno=110");
	ev(&t, "sqlite3", 100, 100, 0, 100004200, "sys_pwrite64(fd: 5, buf: 55d0c0de1000, count: 3e8, pos: 7d0)");
	ev(&t, "sqlite3", 100, 100, 0, 100004300, "file_check_and_advance_wb_err: file=00000000aaaa0005 dev=253:0 ino=0x11 old=0x0 new=0x106e errno=110 seq=0");
	ev(&t, "sqlite3", 100, 100, 0, 100004400, "sys_pwrite64 -> 0xffffffffffffff92");
	/* fault 7 at 100005000 */
	ev(&t, "kworker/0:1", 9, 9, 0, 100005100, "filemap_set_wb_err: dev=253:0 ino=0x12 errseq=0x0 errno=5");
	ev(&t, "app", 500, 500, 0, 100005150, "io_uring_submit_req: ring 00000000dddd0000, req 00000000dddd0002, user_data 0x2, opcode WRITE, flags 0x0, sq_thread 0");
	ev(&t, "app", 500, 500, 0, 100005200, "io_uring_submit_req: ring 00000000dddd0000, req 00000000dddd0001, user_data 0x1, opcode FSYNC, flags 0x0, sq_thread 0");
	ev(&t, "app", 500, 500, 0, 100005210, "io_uring_file_get: ring 00000000dddd0000, req 00000000dddd0001, user_data 0x1, fd 7");
	ev(&t, "iou-wrk-500", 501, 500, 1, 100005300, "file_check_and_advance_wb_err: file=00000000dddd0007 dev=253:0 ino=0x12 old=0x0 new=0x1005 errno=5 seq=0");
	ev(&t, "iou-wrk-500", 501, 500, 1, 100005400, "io_uring_complete: ring 00000000dddd0000, req 00000000dddd0001, user_data 0x1, result -5, cflags 0x0 extra1 0 extra2 0 ");
	/* errors no fault explains; the runner's own is not the program's */
	ev(&t, "sqlite3", 600, 600, 0, 100006000, "sys_fsync(fd: 9)");
	ev(&t, "sqlite3", 600, 600, 0, 100006100, "sys_fsync -> 0xfffffffffffffffb");
	ev(&t, "wberr-run", 50, 50, 0, 100006200, "sys_fsync(fd: 8)");
	ev(&t, "wberr-run", 50, 50, 0, 100006300, "sys_fsync -> 0xfffffffffffffffb");
	ev(&t, "wberr-run", 50, 50, 0, 100006400, "tracing_mark_write: wb app recovery");
	ev(&t, "wberr-run", 50, 50, 0, 100006500, "tracing_mark_write: wb B 0 0 1");
	/* the trace ends inside this one */
	ev(&t, "sqlite3", 100, 100, 0, 100007000, "sys_fdatasync(fd: 3)");
	return tb_close(&t);
}

static void test_parse_a(const struct sc_log *log)
{
	const struct sc_call *c;
	const struct sc_cursor *cur;

	is_int(2, log->skipped, "trace A: the garbage line and the torn exit are skipped, not fatal");
	is_int(3, log->lost, "trace A: [LOST 3 EVENTS] is counted");
	ok(log->tgids, "trace A: tgids recorded");
	is_int(2, log->nmarks, "trace A: the two \"wb app\" marks, not the call marker");
	ok(log->nmarks == 2 && !strcmp(log->marks[0].text, "armed") && !strcmp(log->marks[1].text, "recovery"),
	   "marks: armed, recovery");
	is_int(10, log->ncalls, "trace A: ten sync calls (plain writes dropped)");
	ok(!call_of(log, 50, SC_O_SYNC_WRITE), "the runner's marker write is no sync call");

	c = call_of(log, 100, SC_FSYNC);
	ok(c && c->fd == 3 && c->ret == -EIO && c->tgid == 100 && c->enter_us == 100001000 &&
	   c->exit_us == 100001300 && !strcmp(c->comm, "sqlite3") && c->ncur == 1, "fsync: fd 3, -EIO, one cursor move");
	cur = cursor_of(log, c, 0);
	ok(cur && cur->err == EIO && cur->ino == 0xc && !strcmp(cur->file, "00000000aaaa0001") && !cur->sb &&
	   cur->call == idx_of(log, c), "its cursor: EIO consumed on ino 0xc through file aaaa0001");

	c = call_of(log, 100, SC_O_SYNC_WRITE);
	ok(c && !strcmp(c->sys, "pwrite64") && c->fd == 5 && c->off == 2000 && c->len == 1000 &&
	   c->ret == -ETIMEDOUT && c->ncur == 1, "O_DSYNC pwrite64: kept, its pos, count and -ETIMEDOUT");

	c = call_of(log, 500, SC_URING_FSYNC);
	ok(c && c->fd == 7 && c->ret == -EIO && c->enter_us == 100005200 && c->exit_us == 100005400 &&
	   !strcmp(c->sys, "FSYNC") && c->ncur == 1 && !(c->state & SC_AMBIGUOUS),
	   "io_uring fsync: the submitter, fd from io_uring_file_get, the cqe result");
	cur = cursor_of(log, c, 0);
	ok(cur && cur->tid == 501 && cur->tgid == 500, "its cursor move ran in the io-wq worker, tid 501");

	c = call_of(log, 700, SC_SYNCFS);
	cur = cursor_of(log, c, 0);
	ok(c && c->ret == -EIO && cur && cur->sb && cur->major == 253, "syncfs: -EIO and its f_sb_err move");

	c = call_of(log, 200, SC_FSYNC);
	ok(c && c->ret == 0 && c->ncur == 0, "the fork parent's fsync: 0, no cursor move (the child was told)");

	c = call_of(log, 100, SC_FDATASYNC);
	ok(c && (c->state & SC_NO_EXIT) && c->ret == 0 && c->exit_us == 0, "the trace ended inside an fdatasync");

	ok(log->nprocs == 1 && log->procs[0].pid == 201 && log->procs[0].parent == 200 &&
	   !strcmp(log->procs[0].comm, "sqlite3"), "the fork: child 201 of 200");
	ok(log->nsets == 5 && log->sets[1].tgid == 0 && log->sets[1].err == EIO &&
	   log->sets[1].err_from == SC_ERR_TRACED, "five sets; (-------) gives tgid 0; errno= traced");
	for (size_t i = 1; i < log->ncalls; i++)
		if (log->calls[i].line < log->calls[i - 1].line)
			ok(0, "calls in entry order");
}

static void test_attr_a(const struct sc_log *log)
{
	static const uint64_t ino1[] = { 0xc }, ino2[] = { 0xd }, ino4[] = { 0xf }, ino5[] = { 0x10 },
			      ino6[] = { 0x11 }, ino7[] = { 0x12 }, ino8[] = { 0xc };
	struct wb_fault l1[] = { entry(100000500, "ioerr", EIO), entry(100000510, "ioerr", EIO) };
	struct wb_fault l2[] = { entry(100002000, "ioerr", EIO) };
	struct wb_fault l4[] = { entry(100003000, "ioerr", EIO) };
	struct wb_fault l5[] = { entry(100003500, "ok", 0), entry(100003510, "ok", 0) };
	struct wb_fault l6[] = { entry(100004000, "timeout", ETIMEDOUT) };
	struct wb_fault l7[] = { entry(100005000, "ioerr", EIO) };
	struct sc_fault f[] = {
		{ 1, EIO, 253, 0, ino1, 1, l1, 2 }, { 2, EIO, 253, 0, ino2, 1, l2, 1 },
		{ 4, EIO, 253, 0, ino4, 1, l4, 1 }, { 5, 0, 253, 0, ino5, 1, l5, 2 },
		{ 6, ETIMEDOUT, 253, 0, ino6, 1, l6, 1 }, { 7, EIO, 253, 0, ino7, 1, l7, 1 },
		{ 8, EIO, 253, 0, ino8, 1, NULL, 0 },
	};
	struct sc_path paths[] = { { 253, 0, 0xc, "/db/main.db" }, { 253, 0, 0xd, "/db/\"odd\"\\name\x01\xff" } };
	struct sc_attr a;
	struct sc_report r = { log, f, 7, &a, paths, 2 };
	const struct sc_seer *s;
	const struct sc_call *c;
	char *text, *json;

	is_int(0, sc_attribute(log, 50, f, 7, &a), "trace A: attributed");
	is_int(SC_SEEN, a.fates[0].verdict, "fault 1: seen");
	ok(a.fates[0].nfired == 2 && a.fates[0].fired_us == 100000500 && a.fates[0].last_us == 100000510 &&
	   a.fates[0].nsets == 1, "fault 1: two bios from 100000500 us, one set");
	c = call_of(log, 100, SC_FSYNC);
	s = seer_of(&a.fates[0], idx_of(log, c));
	ok(s && s->set == (long)a.fates[0].sets[0] && s->match == 1, "fault 1: the fsync saw it, errno as recorded");
	s = seer_of(&a.fates[0], idx_of(log, call_of(log, 700, SC_SYNCFS)));
	ok(s && s->set == -1 && s->cursor >= 0 && log->curs[s->cursor].sb, "fault 1: syncfs saw it through the super block");
	is_int(2, a.fates[0].nseers, "fault 1: two seers");

	is_int(SC_SEEN, a.fates[1].verdict, "fault 2: seen");
	is_int(2, a.fates[1].nseers, "fault 2: by the fork child and the separate open, once each");
	s = seer_of(&a.fates[1], idx_of(log, call_of(log, 201, SC_FDATASYNC)));
	ok(s && !strcmp(log->curs[s->cursor].file, "00000000bbbb0001"), "fault 2: the child through the shared file");
	s = seer_of(&a.fates[1], idx_of(log, call_of(log, 300, SC_FSYNC)));
	ok(s && !strcmp(log->curs[s->cursor].file, "00000000cccc0001"), "fault 2: the other open through its own file");
	ok(!seer_of(&a.fates[1], idx_of(log, call_of(log, 200, SC_FSYNC))), "fault 2: not the parent: its file was told");

	is_int(SC_LOST, a.fates[2].verdict, "fault 4: lost (set, never consumed)");
	is_int(SC_SILENT, a.fates[3].verdict, "fault 5: silent (a drop, nothing recorded)");
	is_int(2, a.fates[3].nfired, "fault 5: two bios dropped");
	is_int(SC_SEEN, a.fates[4].verdict, "fault 6: seen");
	s = seer_of(&a.fates[4], idx_of(log, call_of(log, 100, SC_O_SYNC_WRITE)));
	ok(s && s->match == 1, "fault 6: by the O_DSYNC pwrite64, -ETIMEDOUT as recorded");
	is_int(SC_SEEN, a.fates[5].verdict, "fault 7: seen");
	ok(seer_of(&a.fates[5], idx_of(log, call_of(log, 500, SC_URING_FSYNC))), "fault 7: by the io_uring fsync");
	is_int(SC_NOT_FIRED, a.fates[6].verdict, "fault 8: not fired");
	is_int(0, a.fates[6].nsets, "fault 8: given no set (fault 1's is after fault 1's fire, and 8 never fired)");

	is_int(1, a.nunexplained, "one unexplained error");
	ok(a.nunexplained == 1 && a.unexplained[0] == (size_t)idx_of(log, call_of(log, 600, SC_FSYNC)),
	   "pid 600's fsync; not the runner's own, not the fdatasync without exit");
	ok(sc_excluded(&a, call_of(log, 50, SC_FSYNC)), "the runner's fsync is excluded");

	text = render(sc_render_text, &r);
	ok(text && strstr(text, "+0.000  mark                  armed"), "timeline: relative to the first mark");
	ok(text && strstr(text, "fsync                 sqlite3[100] fd 3 /db/main.db -> -5 EIO") &&
	   strstr(text, "saw fault #1 via file 00000000aaaa0001, errno as recorded"),
	   "timeline: the fsync with its path, errno name and the fault it consumed");
	ok(text && strstr(text, "uring_fsync           app[500] fd 7"), "timeline: the io_uring fsync");
	ok(text && strstr(text, "fault #4 lost") && strstr(text, "fault #5 silent") &&
	   strstr(text, "fault #8 not-fired") && strstr(text, "fault #2 seen by 2:"), "timeline: verdicts");
	ok(text && strstr(text, "# unexplained errors: 1") && strstr(text, "sqlite3[600] fd 9 -> -5 EIO"),
	   "timeline: the unexplained error");
	ok(text && !strstr(text, "wberr-run[50] fd 8"), "timeline: the runner's calls are left out");
	ok(text && strstr(text, "fork                  sqlite3[201] from 200"), "timeline: the fork of a caller");
	ok(text && strstr(text, "2 malformed skipped, 3 events lost"), "timeline: says what the trace lost");
	if (text && getenv("SYNCTRACE_SHOW"))
		fputs(text, stderr);
	json = render(sc_render_json, &r);
	ok(json && json_valid(json), "JSON: valid");
	ok(json && strstr(json, "\"/db/\\\"odd\\\"\\\\name\\u0001\\ufffd\""), "JSON: quotes, backslash, control, bad UTF-8 escaped");
	ok(json && strstr(json, "\"verdict\":\"lost\"") && strstr(json, "\"kind\":\"uring_fsync\""), "JSON: verdicts and kinds");
	if (json && getenv("SYNCTRACE_SHOW"))
		fputs(json, stderr);
	free(text);
	free(json);
	sc_attr_free(&a);
}

/*
 * Trace B: a stock kernel (no errno=, no syncfs event) without
 * record-tgid.  The checkpointer: postgres 400 writes, writeback fails,
 * postgres 401 opens the file later and its fsync consumes the error
 * (its cursor was sampled as 0: the error was unseen).  A syncfs with no
 * cursor event sees it too.  A second error on the same inode after it
 * was seen is never consumed and its errno is not known.
 */
static char *trace_b(void)
{
	struct tb t;

	tb_open(&t, 0);
	ev(&t, "wberr-run", 60, 0, 0, 200000000, "tracing_mark_write: wb app armed");
	ev(&t, "postgres", 400, 0, 0, 200000010, "sys_pwrite64(fd: c, buf: 7f00aa000000, count: 2000, pos: 0)");
	ev(&t, "postgres", 400, 0, 0, 200000050, "sys_pwrite64 -> 0x2000");
	/* fault 11 at 200000100 */
	ev(&t, "kworker/u8:1", 40, 0, 1, 200000200, "filemap_set_wb_err: dev=253:0 ino=0x20 errseq=0x0");
	ev(&t, "postgres", 401, 0, 0, 200001000, "sys_fsync(fd: 14)");
	ev(&t, "postgres", 401, 0, 0, 200001100, "file_check_and_advance_wb_err: file=00000000eeee0001 dev=253:0 ino=0x20 old=0x0 new=0x1005");
	ev(&t, "postgres", 401, 0, 0, 200001200, "sys_fsync -> 0xfffffffffffffffb");
	ev(&t, "postgres", 402, 0, 0, 200001300, "sys_syncfs(fd: 3)");
	ev(&t, "postgres", 402, 0, 0, 200001500, "sys_syncfs -> 0xfffffffffffffffb");
	ev(&t, "postgres", 403, 0, 0, 200001600, "sys_msync(start: 7f0000000000, len: 2000, flags: 4)");
	ev(&t, "postgres", 403, 0, 0, 200001650, "sys_msync -> 0x0");
	ev(&t, "postgres", 403, 0, 0, 200001700, "sys_sync_file_range(fd: e, offset: 0, nbytes: 1000, flags: 7)");
	ev(&t, "postgres", 403, 0, 0, 200001750, "sys_sync_file_range -> 0x0");
	ev(&t, "postgres", 404, 0, 0, 200001800, "sys_sync()");
	ev(&t, "postgres", 404, 0, 0, 200001850, "sys_sync -> 0x0");
	/* fault 12 at 200001900 */
	ev(&t, "kworker/u8:1", 40, 0, 1, 200002000, "filemap_set_wb_err: dev=253:0 ino=0x20 errseq=0x1005");
	ev(&t, "postgres", 400, 0, 0, 200002100, "sched_process_exec: filename=/usr/lib/postgresql/15/bin/postgres pid=400 old_pid=400");
	return tb_close(&t);
}

static void test_b(void)
{
	static const uint64_t ino[] = { 0x20 };
	struct wb_fault l11[] = { entry(200000100, "ioerr", EIO) }, l12[] = { entry(200001900, "ioerr", EIO) };
	struct sc_fault f[] = { { 11, EIO, 253, 0, ino, 1, l11, 1 }, { 12, EIO, 253, 0, ino, 1, l12, 1 } };
	struct sc_log log = { 0 };
	struct sc_attr a;
	struct sc_report r = { &log, f, 2, &a, NULL, 0 };
	const struct sc_call *c;
	const struct sc_seer *s;
	char *text = trace_b(), *out;

	is_int(0, sc_parse(text, &log), "trace B (stock, no tgid): parsed");
	ok(!log.tgids && log.skipped == 0, "no tgids, nothing skipped");
	is_int(5, log.ncalls, "fsync, syncfs, msync, sync_file_range, sync; the buffered pwrite64 dropped");
	c = call_of(&log, 404, SC_SYNC);
	ok(c && c->fd == -1 && c->ret == 0 && c->exit_us == 200001850, "sync(): no arguments, no fd");
	ok(log.nsets == 2 && log.sets[0].err == EIO && log.sets[0].err_from == SC_ERR_DECODED,
	   "stock set: errno decoded from the next value on the inode (the checkpointer's cursor)");
	ok(log.nsets == 2 && log.sets[1].err == -1 && log.sets[1].err_from == SC_ERR_UNKNOWN,
	   "a stock set nothing traced after: errno unknown");
	c = call_of(&log, 403, SC_MSYNC);
	ok(c && c->fd == -1 && c->off == 0x7f0000000000ull && c->len == 0x2000 && c->flags == 4,
	   "msync: no fd, its start, len and flags");
	c = call_of(&log, 403, SC_SYNC_FILE_RANGE);
	ok(c && c->fd == 14 && c->len == 0x1000 && c->flags == 7, "sync_file_range: fd, nbytes, flags");
	ok(log.nprocs == 1 && !strcmp(log.procs[0].exe, "/usr/lib/postgresql/15/bin/postgres") &&
	   log.procs[0].pid == 400, "exec: the filename");

	is_int(0, sc_attribute(&log, 60, f, 2, &a), "trace B: attributed");
	ok(a.set_fault[0] == 0 && a.set_fault[1] == 1, "each set to the fault that fired last before it");
	is_int(SC_SEEN, a.fates[0].verdict, "fault 11: seen");
	c = call_of(&log, 401, SC_FSYNC);
	s = seer_of(&a.fates[0], idx_of(&log, c));
	ok(s && s->match == 1 && !strcmp(log.curs[s->cursor].file, "00000000eeee0001"),
	   "fault 11: by the checkpointer's fsync, a file opened after the writer's");
	s = seer_of(&a.fates[0], idx_of(&log, call_of(&log, 402, SC_SYNCFS)));
	ok(s && s->cursor == -1 && s->set == -1, "fault 11: syncfs without a cursor event, through the super block");
	is_int(SC_LOST, a.fates[1].verdict, "fault 12: lost");
	is_int(0, a.nunexplained, "no unexplained errors");
	out = render(sc_render_json, &r);
	ok(out && json_valid(out), "JSON of trace B: valid");
	free(out);
	out = render(sc_render_text, &r);
	ok(out && strstr(out, "EIO (decoded) by kworker/u8:1[40]  <- fault #11") &&
	   strstr(out, "errno unknown by kworker/u8:1[40]  <- fault #12"), "timeline: decoded and unknown errnos");
	free(out);
	sc_attr_free(&a);
	sc_log_free(&log);
	free(text);
}

/* two io_uring fsyncs of one process in flight at once: the claim is flagged */
static void test_uring_overlap(void)
{
	struct sc_log log = { 0 };
	struct tb t;
	char *text;
	const struct sc_call *c;

	tb_open(&t, 1);
	ev(&t, "app", 500, 500, 0, 1000, "io_uring_submit_req: ring r, req a, user_data 0x1, opcode FSYNC, flags 0x0, sq_thread 0");
	ev(&t, "app", 500, 500, 0, 1001, "io_uring_submit_req: ring r, req b, user_data 0x2, opcode SYNC_FILE_RANGE, flags 0x0, sq_thread 0");
	ev(&t, "iou-wrk-500", 502, 500, 1, 1100, "file_check_and_advance_wb_err: file=f1 dev=253:0 ino=0x5 old=0x0 new=0x1005 errno=5 seq=0");
	ev(&t, "iou-wrk-500", 502, 500, 1, 1200, "io_uring_complete: ring r, req b, user_data 0x2, result -5, cflags 0x0 extra1 0 extra2 0 ");
	ev(&t, "other", 900, 900, 0, 1250, "file_check_and_advance_wb_err: file=f9 dev=253:0 ino=0x9 old=0x0 new=0x1005 errno=5 seq=0");
	ev(&t, "iou-wrk-500", 501, 500, 1, 1300, "io_uring_complete: ring r, req a, user_data 0x1, result 0, cflags 0x0 extra1 0 extra2 0 ");
	text = tb_close(&t);
	is_int(0, sc_parse(text, &log), "io_uring overlap: parsed");
	c = call_of(&log, 500, SC_URING_SYNC_FILE_RANGE);
	ok(c && c->ncur == 1 && (c->state & SC_AMBIGUOUS) && c->ret == -EIO,
	   "the first to complete claims the move, flagged ambiguous (the other window held it)");
	c = call_of(&log, 500, SC_URING_FSYNC);
	ok(c && c->ncur == 0 && c->ret == 0, "another tgid's move is not claimed");
	ok(log.ncurs == 2 && log.curs[1].call == -1, "and stays without a call");
	sc_log_free(&log);
	free(text);
}

/* 6.1 names the submit event io_uring_submit_sqe, with a "non block" field */
static void test_uring_61(void)
{
	struct sc_log log = { 0 };
	struct tb t;
	char *text;
	const struct sc_call *c;

	tb_open(&t, 1);
	ev(&t, "fio", 600, 600, 0, 1000, "io_uring_submit_sqe: ring 00000000eeee0000, req 00000000eeee0001, user_data 0x7, opcode FSYNC, flags 0x0, non block 1, sq_thread 0");
	ev(&t, "iou-wrk-600", 601, 600, 1, 1100, "file_check_and_advance_wb_err: file=f1 dev=253:0 ino=0xc old=0x0 new=0x1005");
	ev(&t, "iou-wrk-600", 601, 600, 1, 1200, "io_uring_complete: ring 00000000eeee0000, req 00000000eeee0001, user_data 0x7, result -5, cflags 0x0 extra1 0 extra2 0 ");
	text = tb_close(&t);
	is_int(0, sc_parse(text, &log), "6.1's io_uring_submit_sqe: parsed");
	c = call_of(&log, 600, SC_URING_FSYNC);
	ok(c && c->ncur == 1 && c->ret == -EIO && !strcmp(c->sys, "FSYNC"),
	   "6.1: the io_uring fsync submitted as io_uring_submit_sqe is the call, its move and -EIO");
	sc_log_free(&log);
	free(text);
}

int main(void)
{
	struct sc_log log = { 0 };
	char *text = trace_a();

	is_int(0, sc_parse(text, &log), "trace A: parsed");
	test_parse_a(&log);
	test_attr_a(&log);
	sc_log_free(&log);
	free(text);
	test_b();
	test_uring_overlap();
	test_uring_61();
	is_str("uring_sync_file_range", sc_kind_name(SC_URING_SYNC_FILE_RANGE), "kind names");
	is_str("not-fired", sc_verdict_name(SC_NOT_FIRED), "verdict names");
	return tap_done();
}
