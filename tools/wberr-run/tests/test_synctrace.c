// SPDX-License-Identifier: GPL-2.0
/*
 * Program mode's judge over the one parser and attributor (lib/c wb_trace,
 * wb_attr): traces in the exact 6.12 line formats (the head of
 * trace_print_context() with and without record-tgid, syscall events as
 * trace_syscalls.c prints them, io_uring, sched, the filemap events stock
 * and with patch 0005), parsed, attributed, judged and rendered.
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

/* ---- a judged trace ---- */

struct judged {
	char *text;
	struct wb_trace t;
	struct wb_attr a;
	struct sc_judge j;
	struct wb_files aimed, after;
};

/* @text (owned) parsed, attributed against @log[nlog] on 253:0 and @j's files, judged */
static int judge(struct judged *d, char *text, uint32_t self, const struct wb_fault *log, size_t nlog,
		 const struct sc_fault *f, size_t nf)
{
	const struct wb_attr_cfg cfg = { .windows = WB_WIN_SYSCALLS };

	d->text = text;
	if (wb_trace_parse(&d->t, text) || wb_attr_calls(&d->a, &d->t, &cfg) ||
	    wb_attr_faults(&d->a, log, nlog, &d->aimed, 253, 0))
		return -1;
	return sc_judge(&d->j, &d->a, self, f, nf, &d->after);
}

static void unjudge(struct judged *d)
{
	sc_judge_free(&d->j);
	wb_attr_free(&d->a);
	wb_trace_free(&d->t);
	wb_files_free(&d->aimed);
	wb_files_free(&d->after);
	free(d->text);
	memset(d, 0, sizeof(*d));
}

/* file @ino at sectors [@first, @first + 7] */
static void aim(struct wb_files *fs, uint64_t ino, uint64_t first)
{
	int i = wb_files_find_or_add(fs, ino, "f");

	wb_files_add_extent(fs, (unsigned int)i, first, first + 7);
}

/* ---- lookups ---- */

static const struct wb_call *call_of(const struct judged *d, uint32_t tid, int kind)
{
	for (size_t i = 0; i < d->a.ncalls; i++)
		if (d->a.calls[i].tid == tid && d->a.calls[i].kind == kind)
			return &d->a.calls[i];
	return NULL;
}

static long idx_of(const struct judged *d, const struct wb_call *c)
{
	return c ? (long)(c - d->a.calls) : -2;
}

/* the call's @i-th cursor move */
static const struct wb_ev *cursor_of(const struct judged *d, const struct wb_call *c, size_t i)
{
	return c && i < c->nadv ? &d->t.v[d->a.adv[c->adv + i]] : NULL;
}

/* the @i-th event of @kind */
static const struct wb_ev *nth(const struct judged *d, int kind, size_t i)
{
	for (size_t k = 0; k < d->t.n; k++)
		if (d->t.v[k].kind == kind && !i--)
			return &d->t.v[k];
	return NULL;
}

static size_t count(const struct judged *d, int kind)
{
	size_t n = 0;

	for (size_t k = 0; k < d->t.n; k++)
		n += d->t.v[k].kind == kind;
	return n;
}

/* the seer of @fate that is call @call, NULL */
static const struct sc_seer *seer_of(const struct sc_fate *fate, long call)
{
	for (size_t i = 0; i < fate->nseers; i++)
		if (fate->seers[i].call == call)
			return &fate->seers[i];
	return NULL;
}

static struct wb_fault entry(unsigned long long us, const char *status, int err, uint64_t sector)
{
	struct wb_fault f = { .ns = us * 1000, .rule = 1, .err = err, .sector = sector, .nr = 8 };

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

static void test_parse_a(const struct judged *d)
{
	const struct wb_call *c;
	const struct wb_ev *cur, *e;

	is_int(2, d->t.skipped, "trace A: the garbage line and the torn exit are skipped, not fatal");
	is_int(3, d->t.lost, "trace A: [LOST 3 EVENTS] is counted");
	ok(d->t.tgids, "trace A: tgids recorded");
	ok(nth(d, WB_EV_MARK, 0) && !strcmp(nth(d, WB_EV_MARK, 0)->mark.text, "wb app armed") &&
	   !strcmp(nth(d, WB_EV_MARK, 1)->mark.text, "wb app recovery") && nth(d, WB_EV_MARK, 2)->mark.is_call,
	   "marks: armed, recovery, and the call marker");
	is_int(10, d->a.ncalls, "trace A: ten sync calls (plain writes dropped)");
	ok(!call_of(d, 50, WB_CALL_O_SYNC_WRITE), "the runner's marker write is no sync call");

	c = call_of(d, 100, WB_CALL_FSYNC);
	ok(c && c->fd == 3 && c->ret == -EIO && c->tgid == 100 && c->enter_us == 100001000 &&
	   c->exit_us == 100001300 && !strcmp(c->comm, "sqlite3") && c->nadv == 1, "fsync: fd 3, -EIO, one cursor move");
	cur = cursor_of(d, c, 0);
	ok(cur && cur->es.err == EIO && cur->es.ino == 0xc && !strcmp(cur->es.file, "00000000aaaa0001") &&
	   cur->kind == WB_EV_ADVANCE && d->a.call_of[cur - d->t.v] == idx_of(d, c),
	   "its cursor: EIO consumed on ino 0xc through file aaaa0001");

	c = call_of(d, 100, WB_CALL_O_SYNC_WRITE);
	ok(c && !strcmp(c->sys, "pwrite64") && c->fd == 5 && c->off == 2000 && c->len == 1000 &&
	   c->ret == -ETIMEDOUT && c->nadv == 1, "O_DSYNC pwrite64: kept, its pos, count and -ETIMEDOUT");

	c = call_of(d, 500, WB_CALL_URING_FSYNC);
	ok(c && c->fd == 7 && c->ret == -EIO && c->enter_us == 100005200 && c->exit_us == 100005400 &&
	   !strcmp(c->sys, "FSYNC") && c->nadv == 1 && !(c->state & WB_CALL_AMBIGUOUS),
	   "io_uring fsync: the submitter, fd from io_uring_file_get, the cqe result");
	cur = cursor_of(d, c, 0);
	ok(cur && cur->pid == 501 && cur->tgid == 500, "its cursor move ran in the io-wq worker, tid 501");

	c = call_of(d, 700, WB_CALL_SYNCFS);
	cur = cursor_of(d, c, 0);
	ok(c && c->ret == -EIO && cur && cur->kind == WB_EV_SB_ADVANCE && cur->es.major == 253,
	   "syncfs: -EIO and its f_sb_err move");

	c = call_of(d, 200, WB_CALL_FSYNC);
	ok(c && c->ret == 0 && c->nadv == 0, "the fork parent's fsync: 0, no cursor move (the child was told)");

	c = call_of(d, 100, WB_CALL_FDATASYNC);
	ok(c && (c->state & WB_CALL_NO_EXIT) && c->ret == 0 && c->exit_us == 0, "the trace ended inside an fdatasync");

	e = nth(d, WB_EV_FORK, 0);
	ok(count(d, WB_EV_FORK) == 1 && e->proc.pid == 201 && e->proc.parent == 200 && !strcmp(e->proc.comm, "sqlite3"),
	   "the fork: child 201 of 200");
	e = nth(d, WB_EV_SET, 1);
	ok(count(d, WB_EV_SET) == 5 && e->tgid == 0 && e->es.err == EIO, "five sets; (-------) gives tgid 0; errno= traced");
	for (size_t i = 1; i < d->a.ncalls; i++)
		if (d->a.calls[i - 1].enter >= 0 && d->a.calls[i].enter >= 0 &&
		    d->a.calls[i].enter < d->a.calls[i - 1].enter)
			ok(0, "calls in entry order");
}

static void verdicts_a(const struct judged *d)
{
	const struct sc_judge *j = &d->j;
	const struct sc_seer *s;

	is_int(SC_SEEN, j->fates[0].verdict, "fault 1: seen");
	ok(j->fates[0].nfired == 2 && j->fates[0].fired_us == 100000500 && j->fates[0].last_us == 100000510 &&
	   j->fates[0].nsets == 1, "fault 1: two bios from 100000500 us, one set");
	s = seer_of(&j->fates[0], idx_of(d, call_of(d, 100, WB_CALL_FSYNC)));
	ok(s && s->set == (long)j->fates[0].sets[0] && s->match == 1, "fault 1: the fsync saw it, errno as recorded");
	s = seer_of(&j->fates[0], idx_of(d, call_of(d, 700, WB_CALL_SYNCFS)));
	ok(s && s->set == -1 && s->cursor >= 0 && d->t.v[s->cursor].kind == WB_EV_SB_ADVANCE,
	   "fault 1: syncfs saw it through the super block");
	is_int(2, j->fates[0].nseers, "fault 1: two seers");

	is_int(SC_SEEN, j->fates[1].verdict, "fault 2: seen");
	is_int(2, j->fates[1].nseers, "fault 2: by the fork child and the separate open, once each");
	s = seer_of(&j->fates[1], idx_of(d, call_of(d, 201, WB_CALL_FDATASYNC)));
	ok(s && !strcmp(d->t.v[s->cursor].es.file, "00000000bbbb0001"), "fault 2: the child through the shared file");
	s = seer_of(&j->fates[1], idx_of(d, call_of(d, 300, WB_CALL_FSYNC)));
	ok(s && !strcmp(d->t.v[s->cursor].es.file, "00000000cccc0001"), "fault 2: the other open through its own file");
	ok(!seer_of(&j->fates[1], idx_of(d, call_of(d, 200, WB_CALL_FSYNC))), "fault 2: not the parent: its file was told");

	is_int(SC_LOST, j->fates[2].verdict, "fault 4: lost (set, never consumed)");
	is_int(SC_SILENT, j->fates[3].verdict, "fault 5: silent (a drop, nothing recorded)");
	is_int(2, j->fates[3].nfired, "fault 5: two bios dropped");
	is_int(SC_SEEN, j->fates[4].verdict, "fault 6: seen");
	s = seer_of(&j->fates[4], idx_of(d, call_of(d, 100, WB_CALL_O_SYNC_WRITE)));
	ok(s && s->match == 1, "fault 6: by the O_DSYNC pwrite64, -ETIMEDOUT as recorded");
	is_int(SC_SEEN, j->fates[5].verdict, "fault 7: seen");
	ok(seer_of(&j->fates[5], idx_of(d, call_of(d, 500, WB_CALL_URING_FSYNC))), "fault 7: by the io_uring fsync");
	is_int(SC_NOT_FIRED, j->fates[6].verdict, "fault 8: not fired");
	is_int(0, j->fates[6].nsets, "fault 8: given no set (fault 1's is after fault 1's fire, and 8 never fired)");

	is_int(1, j->nunexplained, "one unexplained error");
	ok(j->nunexplained == 1 && j->unexplained[0] == (size_t)idx_of(d, call_of(d, 600, WB_CALL_FSYNC)),
	   "pid 600's fsync; not the runner's own, not the fdatasync without exit");
	ok(!sc_program_call(j, (size_t)idx_of(d, call_of(d, 50, WB_CALL_FSYNC))), "the runner's fsync is excluded");
}

/* the first call object of thread @tid in report.json holds @what */
static int json_call_has(const char *json, unsigned int tid, const char *what)
{
	char key[32];
	const char *at, *end;

	snprintf(key, sizeof(key), "\"tid\":%u,", tid);
	at = strstr(json, key);
	end = at ? strchr(at, '}') : NULL;
	at = at ? strstr(at, what) : NULL;
	return at && end && at < end;
}

static void render_a(const struct judged *d)
{
	struct sc_path paths[] = { { 253, 0, 0xc, "/db/main.db" }, { 253, 0, 0xd, "/db/\"odd\"\\name\x01\xff" } };
	struct sc_report r = { &d->j, paths, 2 };
	char *text, *json;

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
	ok(json && json_call_has(json, 100, "\"sync_result\":true") && json_call_has(json, 50, "\"sync_result\":false"),
	   "JSON: the judge's sync_result: the program's fsync is one, the runner's is not");
	if (json && getenv("SYNCTRACE_SHOW"))
		fputs(json, stderr);
	free(text);
	free(json);
}

/* the plan's faults aim at the files by their sectors, each its own extent */
static void test_a(void)
{
	static const struct wb_fault log[] = {
		{ .ns = 100000500000, .rule = 1, .err = EIO, .sector = 100, .nr = 8, .opclass = "write", .status = "ioerr" },
		{ .ns = 100000510000, .rule = 1, .err = EIO, .sector = 100, .nr = 8, .opclass = "write", .status = "ioerr" },
		{ .ns = 100002000000, .rule = 2, .err = EIO, .sector = 200, .nr = 8, .opclass = "write", .status = "ioerr" },
		{ .ns = 100003000000, .rule = 4, .err = EIO, .sector = 400, .nr = 8, .opclass = "write", .status = "ioerr" },
		{ .ns = 100003500000, .rule = 5, .err = 0, .sector = 500, .nr = 8, .opclass = "write", .status = "ok" },
		{ .ns = 100003510000, .rule = 5, .err = 0, .sector = 500, .nr = 8, .opclass = "write", .status = "ok" },
		{ .ns = 100004000000, .rule = 6, .err = ETIMEDOUT, .sector = 600, .nr = 8, .opclass = "write", .status = "timeout" },
		{ .ns = 100005000000, .rule = 7, .err = EIO, .sector = 700, .nr = 8, .opclass = "write", .status = "ioerr" },
	};
	static const size_t l1[] = { 0, 1 }, l2[] = { 2 }, l4[] = { 3 }, l5[] = { 4, 5 }, l6[] = { 6 }, l7[] = { 7 };
	static const struct sc_fault f[] = {
		{ 1, EIO, 253, 0, l1, 2 }, { 2, EIO, 253, 0, l2, 1 }, { 4, EIO, 253, 0, l4, 1 },
		{ 5, 0, 253, 0, l5, 2 }, { 6, ETIMEDOUT, 253, 0, l6, 1 }, { 7, EIO, 253, 0, l7, 1 },
		{ 8, EIO, 253, 0, NULL, 0 },
	};
	struct judged d = { 0 };

	aim(&d.aimed, 0xc, 100);
	aim(&d.aimed, 0xd, 200);
	aim(&d.aimed, 0xf, 400);
	aim(&d.aimed, 0x10, 500);
	aim(&d.aimed, 0x11, 600);
	aim(&d.aimed, 0x12, 700);
	is_int(0, judge(&d, trace_a(), 50, log, 8, f, 7), "trace A: parsed, attributed, judged");
	test_parse_a(&d);
	verdicts_a(&d);
	render_a(&d);
	unjudge(&d);
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
	struct wb_fault log[] = { entry(200000100, "ioerr", EIO, 100), entry(200001900, "ioerr", EIO, 100) };
	static const size_t l11[] = { 0 }, l12[] = { 1 };
	struct sc_fault f[] = { { 11, EIO, 253, 0, l11, 1 }, { 12, EIO, 253, 0, l12, 1 } };
	struct judged d = { 0 };
	struct sc_report r = { &d.j, NULL, 0 };
	const struct wb_call *c;
	const struct sc_seer *s;
	const struct wb_ev *e;
	char *out;

	aim(&d.aimed, 0x20, 100);
	is_int(0, judge(&d, trace_b(), 60, log, 2, f, 2), "trace B (stock, no tgid): parsed and judged");
	ok(!d.t.tgids && d.t.skipped == 0, "no tgids, nothing skipped");
	is_int(5, d.a.ncalls, "fsync, syncfs, msync, sync_file_range, sync; the buffered pwrite64 dropped");
	c = call_of(&d, 404, WB_CALL_SYNC);
	ok(c && c->fd == -1 && c->ret == 0 && c->exit_us == 200001850, "sync(): no arguments, no fd");
	ok(d.j.nsets == 2 && d.a.set_err[d.j.sets[0]] == EIO && d.a.set_decoded[d.j.sets[0]],
	   "stock set: errno decoded from the next value on the inode (the checkpointer's cursor)");
	ok(d.j.nsets == 2 && d.a.set_err[d.j.sets[1]] == -1 && !d.a.set_decoded[d.j.sets[1]],
	   "a stock set nothing traced after: errno unknown");
	c = call_of(&d, 403, WB_CALL_MSYNC);
	ok(c && c->fd == -1 && c->off == 0x7f0000000000ull && c->len == 0x2000 && c->flags == 4,
	   "msync: no fd, its start, len and flags");
	c = call_of(&d, 403, WB_CALL_SYNC_FILE_RANGE);
	ok(c && c->fd == 14 && c->len == 0x1000 && c->flags == 7, "sync_file_range: fd, nbytes, flags");
	e = nth(&d, WB_EV_EXEC, 0);
	ok(count(&d, WB_EV_EXEC) == 1 && !strcmp(e->proc.exe, "/usr/lib/postgresql/15/bin/postgres") &&
	   e->proc.pid == 400, "exec: the filename");

	ok(d.a.set_fault[d.j.sets[0]] == 0 && d.a.set_fault[d.j.sets[1]] == 1,
	   "each set to the fault that fired last before it");
	is_int(SC_SEEN, d.j.fates[0].verdict, "fault 11: seen");
	s = seer_of(&d.j.fates[0], idx_of(&d, call_of(&d, 401, WB_CALL_FSYNC)));
	ok(s && s->match == 1 && !strcmp(d.t.v[s->cursor].es.file, "00000000eeee0001"),
	   "fault 11: by the checkpointer's fsync, a file opened after the writer's");
	s = seer_of(&d.j.fates[0], idx_of(&d, call_of(&d, 402, WB_CALL_SYNCFS)));
	ok(s && s->cursor == -1 && s->set == -1, "fault 11: syncfs without a cursor event, through the super block");
	is_int(SC_LOST, d.j.fates[1].verdict, "fault 12: lost");
	is_int(0, d.j.nunexplained, "no unexplained errors");
	out = render(sc_render_json, &r);
	ok(out && json_valid(out), "JSON of trace B: valid");
	free(out);
	out = render(sc_render_text, &r);
	ok(out && strstr(out, "EIO (decoded) by kworker/u8:1[40]  <- fault #11") &&
	   strstr(out, "errno unknown by kworker/u8:1[40]  <- fault #12"), "timeline: decoded and unknown errnos");
	free(out);
	unjudge(&d);
}

/* two io_uring fsyncs of one process in flight at once: the claim is flagged */
static void test_uring_overlap(void)
{
	struct judged d = { 0 };
	struct tb t;
	const struct wb_call *c;

	tb_open(&t, 1);
	ev(&t, "app", 500, 500, 0, 1000, "io_uring_submit_req: ring r, req a, user_data 0x1, opcode FSYNC, flags 0x0, sq_thread 0");
	ev(&t, "app", 500, 500, 0, 1001, "io_uring_submit_req: ring r, req b, user_data 0x2, opcode SYNC_FILE_RANGE, flags 0x0, sq_thread 0");
	ev(&t, "iou-wrk-500", 502, 500, 1, 1100, "file_check_and_advance_wb_err: file=f1 dev=253:0 ino=0x5 old=0x0 new=0x1005 errno=5 seq=0");
	ev(&t, "iou-wrk-500", 502, 500, 1, 1200, "io_uring_complete: ring r, req b, user_data 0x2, result -5, cflags 0x0 extra1 0 extra2 0 ");
	ev(&t, "other", 900, 900, 0, 1250, "file_check_and_advance_wb_err: file=f9 dev=253:0 ino=0x9 old=0x0 new=0x1005 errno=5 seq=0");
	ev(&t, "iou-wrk-500", 501, 500, 1, 1300, "io_uring_complete: ring r, req a, user_data 0x1, result 0, cflags 0x0 extra1 0 extra2 0 ");
	is_int(0, judge(&d, tb_close(&t), 0, NULL, 0, NULL, 0), "io_uring overlap: parsed");
	c = call_of(&d, 500, WB_CALL_URING_SYNC_FILE_RANGE);
	ok(c && c->nadv == 1 && (c->state & WB_CALL_AMBIGUOUS) && c->ret == -EIO,
	   "the first to complete claims the move, flagged ambiguous (the other window held it)");
	c = call_of(&d, 500, WB_CALL_URING_FSYNC);
	ok(c && c->nadv == 0 && c->ret == 0, "another tgid's move is not claimed");
	ok(d.j.ncurs == 2 && d.a.call_of[d.j.curs[1]] == -1, "and stays without a call");
	unjudge(&d);
}

/* 6.1 names the submit event io_uring_submit_sqe, with a "non block" field */
static void test_uring_61(void)
{
	struct judged d = { 0 };
	struct tb t;
	const struct wb_call *c;

	tb_open(&t, 1);
	ev(&t, "fio", 600, 600, 0, 1000, "io_uring_submit_sqe: ring 00000000eeee0000, req 00000000eeee0001, user_data 0x7, opcode FSYNC, flags 0x0, non block 1, sq_thread 0");
	ev(&t, "iou-wrk-600", 601, 600, 1, 1100, "file_check_and_advance_wb_err: file=f1 dev=253:0 ino=0xc old=0x0 new=0x1005");
	ev(&t, "iou-wrk-600", 601, 600, 1, 1200, "io_uring_complete: ring 00000000eeee0000, req 00000000eeee0001, user_data 0x7, result -5, cflags 0x0 extra1 0 extra2 0 ");
	is_int(0, judge(&d, tb_close(&t), 0, NULL, 0, NULL, 0), "6.1's io_uring_submit_sqe: parsed");
	c = call_of(&d, 600, WB_CALL_URING_FSYNC);
	ok(c && c->nadv == 1 && c->ret == -EIO && !strcmp(c->sys, "FSYNC"),
	   "6.1: the io_uring fsync submitted as io_uring_submit_sqe is the call, its move and -EIO");
	unjudge(&d);
}

/*
 * Trace C (issue 37): a version-control tool writes a new object file and
 * fsyncs it, under a fault aimed by sectors (the file's blocks did not
 * exist when the plan was armed, so no file is known at its sectors).
 * Its stdout is a pipe the checker's pipeline closes: EPIPE writes, in
 * the program's phase and in the checker's.
 */
static char *trace_c(int with_set)
{
	struct tb t;

	tb_open(&t, 1);
	ev(&t, "wberr-run", 50, 50, 0, 300000000, "tracing_mark_write: wb app armed");
	ev(&t, "vcs", 800, 800, 0, 300000100, "sys_write(fd: 5, buf: 55d0c0de0000, count: 1000)");
	ev(&t, "vcs", 800, 800, 0, 300000200, "sys_write -> 0x1000");
	/* the fault fires at 300000500 on sectors no known file holds */
	if (with_set)
		ev(&t, "kworker/u8:2", 30, 30, 1, 300000600, "filemap_set_wb_err: dev=253:0 ino=0x40 errseq=0x0 errno=5");
	ev(&t, "vcs", 800, 800, 0, 300001000, "sys_fsync(fd: 5)");
	if (with_set)
		ev(&t, "vcs", 800, 800, 0, 300001100, "file_check_and_advance_wb_err: file=00000000ffff0005 dev=253:0 ino=0x40 old=0x0 new=0x1005 errno=5 seq=0");
	ev(&t, "vcs", 800, 800, 0, 300001200, with_set ? "sys_fsync -> 0xfffffffffffffffb" : "sys_fsync -> 0x0");
	ev(&t, "vcs", 800, 800, 0, 300001300, "sys_write(fd: 1, buf: 55d0c0de0000, count: 20)");
	ev(&t, "vcs", 800, 800, 0, 300001400, "sys_write -> 0xffffffffffffffe0");
	ev(&t, "vcs", 801, 801, 0, 300001500, "sys_pwrite64(fd: 6, buf: 55d0c0de0000, count: 1000, pos: 0)");
	ev(&t, "vcs", 801, 801, 0, 300001600, "sys_pwrite64 -> 0xffffffffffffffe4");
	ev(&t, "wberr-run", 50, 50, 0, 300002000, "tracing_mark_write: wb app check start");
	ev(&t, "vcs", 900, 900, 0, 300002100, "sys_write(fd: 1, buf: 55d0c0de0000, count: 20)");
	ev(&t, "vcs", 900, 900, 0, 300002200, "sys_write -> 0xffffffffffffffe0");
	ev(&t, "vcs", 900, 900, 0, 300002300, "sys_fsync(fd: 3)");
	ev(&t, "vcs", 900, 900, 0, 300002400, "sys_fsync -> 0xfffffffffffffffb");
	ev(&t, "wberr-run", 50, 50, 0, 300002500, "tracing_mark_write: wb app check end");
	return tb_close(&t);
}

static void test_sectors(void)
{
	struct wb_fault log[] = { entry(300000500, "ioerr", EIO, 9000) };
	static const size_t l[] = { 0 };
	struct sc_fault f[] = { { 0, EIO, 253, 0, l, 1 } };
	struct judged d = { 0 };
	struct sc_report r = { &d.j, NULL, 0 };
	const struct sc_seer *s;
	char *out;

	aim(&d.aimed, 0x33, 100);	/* another file, aimed at elsewhere */
	is_int(0, judge(&d, trace_c(1), 50, log, 1, f, 1), "trace C: judged");
	is_int(SC_SEEN, d.j.fates[0].verdict, "a fault aimed by sectors is seen like a file-aimed one");
	s = seer_of(&d.j.fates[0], idx_of(&d, call_of(&d, 800, WB_CALL_FSYNC)));
	ok(s && s->match == 1 && d.t.v[s->set].es.ino == 0x40,
	   "by the fsync of the new file, through the set on its inode, errno as recorded");
	is_int(1, d.j.nunexplained, "one unexplained error: the program's failed ENOSPC write");
	ok(d.j.nunexplained == 1 && d.a.calls[d.j.unexplained[0]].ret == -ENOSPC,
	   "not the program's EPIPE on a pipe, not the checker's calls");
	ok(d.j.phase[idx_of(&d, call_of(&d, 900, WB_CALL_FSYNC))] == SC_PHASE_CHECK &&
	   !sc_program_call(&d.j, (size_t)idx_of(&d, call_of(&d, 900, WB_CALL_FSYNC))),
	   "the checker's fsync is in the checker's phase");
	out = render(sc_render_text, &r);
	ok(out && strstr(out, "# the checker's errors (its own phase, not the program's): 2") &&
	   strstr(out, "[checker]"), "timeline: the checker's errors apart");
	free(out);
	unjudge(&d);

	/* planted: the kernel recorded nothing */
	is_int(0, judge(&d, trace_c(0), 50, log, 1, f, 1), "trace C without the set: judged");
	is_int(SC_SILENT, d.j.fates[0].verdict, "no set: silent");
	is_int(0, (int)d.j.fates[0].nhit, "its bio on no file's data after the run");
	out = render(sc_render_text, &r);
	ok(out && strstr(out, "1 of them on no file's data after the run"), "timeline: says where the bio was");
	free(out);
	unjudge(&d);

	/* the bio on a file that is still there after the run */
	aim(&d.after, 0x41, 9000);
	is_int(0, judge(&d, trace_c(0), 50, log, 1, f, 1), "trace C without the set, the file after: judged");
	ok(d.j.fates[0].verdict == SC_SILENT && d.j.fates[0].nhit == 1, "silent, its bio on a file's data");
	unjudge(&d);
}

int main(void)
{
	test_a();
	test_b();
	test_uring_overlap();
	test_uring_61();
	test_sectors();
	is_str("uring_sync_file_range", wb_call_kind_name(WB_CALL_URING_SYNC_FILE_RANGE), "kind names");
	is_str("not-fired", sc_verdict_name(SC_NOT_FIRED), "verdict names");
	return tap_done();
}
