// SPDX-License-Identifier: GPL-2.0
/*
 * Program mode's trace (synctrace.h), part 1: the trace text parsed
 * (synctrace_attr.c attributes, synctrace_render.c renders).  The formats,
 * from the 6.12 sources:
 *   head      kernel/trace/trace_output.c trace_print_context(): lib/c wb_trace_head()
 *   syscalls  kernel/trace/trace_syscalls.c: "sys_fsync(fd: 3)", every
 *             argument "%s: %lx" (hex, no 0x); "sys_fsync -> 0x%lx" (a
 *             negative return is 0xfffffffffffffffb)
 *   io_uring  include/trace/events/io_uring.h:
 *             "io_uring_submit_req: ring %p, req %p, user_data 0x%llx, opcode %s, flags 0x%llx, sq_thread %d"
 *             (6.1: "io_uring_submit_sqe: ring %p, req %p, user_data 0x%llx, opcode %s, flags 0x%x, non block %d, sq_thread %d")
 *             "io_uring_file_get: ring %p, req %p, user_data 0x%llx, fd %d"
 *             "io_uring_complete: ring %p, req %p, user_data 0x%llx, result %d, cflags 0x%x extra1 %llu extra2 %llu "
 *   sched     "sched_process_fork: comm=%s pid=%d child_comm=%s child_pid=%d"
 *             "sched_process_exec: filename=%s pid=%d old_pid=%d"
 *   filemap   lib/c wb_tev_parse() (stock and patch 0005 forms)
 */
#include "synctrace.h"
#include "synctrace_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wb_errseq.h"
#include "wb_names.h"
#include "wb_trace.h"

static const char *const kind_names[SC_NR_KINDS] = {
	[SC_FSYNC] = "fsync",
	[SC_FDATASYNC] = "fdatasync",
	[SC_MSYNC] = "msync",
	[SC_SYNC_FILE_RANGE] = "sync_file_range",
	[SC_SYNCFS] = "syncfs",
	[SC_SYNC] = "sync",
	[SC_O_SYNC_WRITE] = "o_sync_write",
	[SC_URING_FSYNC] = "uring_fsync",
	[SC_URING_SYNC_FILE_RANGE] = "uring_sync_file_range",
};

const char *sc_kind_name(int kind)
{
	return kind >= 0 && kind < SC_NR_KINDS ? kind_names[kind] : "?";
}

static const char *const verdict_names[] = {
	[SC_NOT_FIRED] = "not-fired", [SC_SILENT] = "silent", [SC_LOST] = "lost", [SC_SEEN] = "seen",
};

const char *sc_verdict_name(int verdict)
{
	return verdict >= 0 && verdict < (int)ARRAY_SIZE(verdict_names) ? verdict_names[verdict] : "?";
}

/* room for one more element of @size in @v (n used, *cap allocated): @v or its move, NULL */
void *sc_grow(void *v, size_t *cap, size_t n, size_t size)
{
	size_t ncap;

	if (n < *cap)
		return v;
	ncap = *cap ? *cap * 2 : 16;
	v = realloc(v, ncap * size);
	if (v)
		*cap = ncap;
	return v;
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* the rest of @body after the prefix @ev, NULL when it does not start so */
static const char *after(const char *body, const char *ev)
{
	size_t n = strlen(ev);

	return strncmp(body, ev, n) ? NULL : body + n;
}

/* ---- 1. parse ---------------------------------------------------------- */

static const struct {
	const char *name;
	int kind;
	int write;		/* write family: kept only when it synced or failed */
} syscalls[] = {
	{ "fsync", SC_FSYNC, 0 },
	{ "fdatasync", SC_FDATASYNC, 0 },
	{ "msync", SC_MSYNC, 0 },
	{ "sync_file_range", SC_SYNC_FILE_RANGE, 0 },
	{ "syncfs", SC_SYNCFS, 0 },
	{ "sync", SC_SYNC, 0 },
	{ "write", SC_O_SYNC_WRITE, 1 },
	{ "pwrite64", SC_O_SYNC_WRITE, 1 },
	{ "writev", SC_O_SYNC_WRITE, 1 },
	{ "pwritev", SC_O_SYNC_WRITE, 1 },
	{ "pwritev2", SC_O_SYNC_WRITE, 1 },
};

/* a thread inside a traced syscall */
struct open_call {
	uint32_t tid;
	int busy, write;
	struct sc_call call;
	size_t cur_first;	/* log->ncurs at its entry */
};

/* an io_uring sync request between submit and complete */
struct uring_req {
	char ring[24], req[24];
	unsigned long long user_data;
	int live;
	struct sc_call call;
	size_t cur_first;
};

struct parser {
	struct sc_log *log;
	struct open_call *open;
	size_t nopen, cap_open;
	struct uring_req *ur;
	size_t nur, cap_ur;
};

#define CUR_PENDING (-2L)	/* inside its thread's open syscall, not finished */

static void fill_head(struct sc_call *c, const struct wb_thead *h, size_t line)
{
	c->tid = h->pid;
	c->tgid = h->tgid;
	copy(c->comm, sizeof(c->comm), h->comm);
	c->line = line;
	c->fd = -1;
}

/* "key: hex" among a syscall's printed arguments */
static int sys_arg(const char *args, const char *key, uint64_t *v)
{
	size_t n = strlen(key);
	const char *p;

	for (p = strstr(args, key); p; p = strstr(p + 1, key))
		if ((p[-1] == '(' || p[-1] == ' ') && p[n] == ':' && p[n + 1] == ' ')
			return sscanf(p + n + 2, "%" SCNx64, v) == 1 ? 0 : -1;
	return -1;
}

static int append_call(struct parser *p, const struct sc_call *c, long *idx)
{
	struct sc_log *log = p->log;
	struct sc_call *slot = PUSH(log->calls, log->ncalls, log->cap_calls);

	if (!slot)
		return -1;
	*slot = *c;
	*idx = (long)(log->ncalls - 1);
	return 0;
}

/* the thread's call ends (@state: what was not traced); its pending cursors become its own */
static int finish(struct parser *p, struct open_call *o, unsigned int state)
{
	struct sc_log *log = p->log;
	size_t i, n = 0;
	long idx;

	o->busy = 0;
	o->call.state |= state;
	if (state & SC_NO_EXIT)
		o->call.ret = 0;
	for (i = o->cur_first; i < log->ncurs; i++)
		n += log->curs[i].tid == o->tid && log->curs[i].call == CUR_PENDING;
	if (o->write && !n && (o->call.ret >= 0 || (state & SC_NO_EXIT)))
		return 0;	/* a plain write */
	if (append_call(p, &o->call, &idx))
		return -1;
	for (i = o->cur_first; i < log->ncurs; i++)
		if (log->curs[i].tid == o->tid && log->curs[i].call == CUR_PENDING)
			log->curs[i].call = idx;
	return 0;
}

static struct open_call *find_open(struct parser *p, uint32_t tid)
{
	size_t i;

	for (i = 0; i < p->nopen; i++)
		if (p->open[i].tid == tid)
			return &p->open[i];
	return NULL;
}

static int on_sys_enter(struct parser *p, const struct wb_thead *h, size_t line, size_t sys,
		    const char *args)
{
	struct open_call *o = find_open(p, h->pid);
	struct sc_call *c;
	uint64_t v;

	if (!o) {
		if (!(o = PUSH(p->open, p->nopen, p->cap_open)))
			return -1;
		memset(o, 0, sizeof(*o));
		o->tid = h->pid;
	}
	if (o->busy && finish(p, o, SC_NO_EXIT))
		return -1;
	c = &o->call;
	memset(c, 0, sizeof(*c));
	fill_head(c, h, line);
	c->kind = syscalls[sys].kind;
	copy(c->sys, sizeof(c->sys), syscalls[sys].name);
	c->enter_us = h->us;
	if (c->kind != SC_SYNC && c->kind != SC_MSYNC && !sys_arg(args, "fd", &v))
		c->fd = (int)(int64_t)v;
	if (!sys_arg(args, "start", &v) || !sys_arg(args, "offset", &v) || !sys_arg(args, "pos", &v) ||
	    !sys_arg(args, "pos_l", &v))
		c->off = v;
	if (!sys_arg(args, "len", &v) || !sys_arg(args, "nbytes", &v) || !sys_arg(args, "count", &v))
		c->len = v;
	if (!sys_arg(args, "flags", &v))
		c->flags = (unsigned int)v;
	o->write = syscalls[sys].write;
	o->cur_first = p->log->ncurs;
	o->busy = 1;
	return 0;
}

static int on_sys_exit(struct parser *p, const struct wb_thead *h, size_t line, size_t sys, long long ret)
{
	struct open_call *o = find_open(p, h->pid), lone;

	if (o && o->busy && !strcmp(o->call.sys, syscalls[sys].name)) {
		o->call.exit_us = h->us;
		o->call.ret = ret;
		return finish(p, o, 0);
	}
	/* another call's entry is open: its exit was lost */
	if (o && o->busy && finish(p, o, SC_NO_EXIT))
		return -1;
	memset(&lone, 0, sizeof(lone));
	fill_head(&lone.call, h, line);
	lone.tid = h->pid;
	lone.write = syscalls[sys].write;
	lone.call.kind = syscalls[sys].kind;
	copy(lone.call.sys, sizeof(lone.call.sys), syscalls[sys].name);
	lone.call.exit_us = h->us;
	lone.call.ret = ret;
	lone.cur_first = p->log->ncurs;
	return finish(p, &lone, SC_NO_ENTER);
}

/* "sys_<name>(<args>)" or "sys_<name> -> 0x<ret>"; 1 when it is none of ours */
static int on_syscall(struct parser *p, const struct wb_thead *h, size_t line)
{
	const char *name = h->body + 4;
	size_t n = strcspn(name, "( "), i;
	uint64_t ret;

	for (i = 0; i < ARRAY_SIZE(syscalls); i++)
		if (strlen(syscalls[i].name) == n && !strncmp(name, syscalls[i].name, n))
			break;
	if (i == ARRAY_SIZE(syscalls))
		return 1;
	if (name[n] == '(')
		return on_sys_enter(p, h, line, i, name + n) ? -1 : 0;
	if (sscanf(name + n, " -> 0x%" SCNx64, &ret) != 1)
		return 2;
	return on_sys_exit(p, h, line, i, (long long)(int64_t)ret) ? -1 : 0;
}

/* "ring %p, req %p, user_data 0x%llx, " */
static int uring_key(const char *s, char *ring, char *req, unsigned long long *ud, int *end)
{
	*end = 0;
	return sscanf(s, "ring %23[^,], req %23[^,], user_data 0x%llx, %n", ring, req, ud, end) == 3 &&
	       *end ? 0 : -1;
}

static struct uring_req *find_req(struct parser *p, const char *ring, const char *req,
				  unsigned long long ud)
{
	size_t i;

	for (i = 0; i < p->nur; i++)
		if (p->ur[i].live && p->ur[i].user_data == ud && !strcmp(p->ur[i].ring, ring) &&
		    !strcmp(p->ur[i].req, req))
			return &p->ur[i];
	return NULL;
}

/*
 * The request claims the first cursor move since its submit that is on
 * no traced syscall, of its tgid when both are known (io-wq workers are
 * threads of the submitter), not a syncfs one and not claimed yet.
 */
static int uring_finish(struct parser *p, struct uring_req *u, unsigned int state)
{
	struct sc_log *log = p->log;
	struct sc_cursor *c;
	size_t i, j;
	long idx;

	u->live = 0;
	u->call.state |= state;
	if (append_call(p, &u->call, &idx))
		return -1;
	for (i = u->cur_first; i < log->ncurs; i++) {
		c = &log->curs[i];
		if (c->call != -1 || c->sb || (u->call.tgid && c->tgid && c->tgid != u->call.tgid))
			continue;
		c->call = idx;
		for (j = 0; j < p->nur; j++)
			if (p->ur[j].live && p->ur[j].cur_first <= i &&
			    (!p->ur[j].call.tgid || !c->tgid || p->ur[j].call.tgid == c->tgid))
				log->calls[idx].state |= SC_AMBIGUOUS;
		break;
	}
	return 0;
}

static int on_uring(struct parser *p, const struct wb_thead *h, size_t line)
{
	char ring[24], req[24], op[20];
	unsigned long long ud;
	struct uring_req *u;
	const char *s;
	int end, v;

	/* 6.1 names the event io_uring_submit_sqe; its fields match up to opcode */
	if ((s = after(h->body, "io_uring_submit_req: ")) || (s = after(h->body, "io_uring_submit_sqe: "))) {
		if (uring_key(s, ring, req, &ud, &end) || sscanf(s + end, "opcode %19[^,]", op) != 1)
			return 2;
		if (strcmp(op, "FSYNC") && strcmp(op, "SYNC_FILE_RANGE"))
			return 0;
		for (u = p->ur; u < p->ur + p->nur && u->live; u++)
			;
		if (u == p->ur + p->nur && !(u = PUSH(p->ur, p->nur, p->cap_ur)))
			return -1;
		memset(u, 0, sizeof(*u));
		copy(u->ring, sizeof(u->ring), ring);
		copy(u->req, sizeof(u->req), req);
		u->user_data = ud;
		u->live = 1;
		u->cur_first = p->log->ncurs;
		fill_head(&u->call, h, line);
		u->call.kind = strcmp(op, "FSYNC") ? SC_URING_SYNC_FILE_RANGE : SC_URING_FSYNC;
		copy(u->call.sys, sizeof(u->call.sys), op);
		u->call.enter_us = h->us;
		return 0;
	}
	if ((s = after(h->body, "io_uring_file_get: "))) {
		if (uring_key(s, ring, req, &ud, &end) || sscanf(s + end, "fd %d", &v) != 1)
			return 2;
		if ((u = find_req(p, ring, req, ud)))
			u->call.fd = v;
		return 0;
	}
	if ((s = after(h->body, "io_uring_complete: "))) {
		if (uring_key(s, ring, req, &ud, &end) || sscanf(s + end, "result %d", &v) != 1)
			return 2;
		if (!(u = find_req(p, ring, req, ud)))
			return 0;
		u->call.exit_us = h->us;
		u->call.ret = v;
		return uring_finish(p, u, 0) ? -1 : 0;
	}
	return 1;
}

/* the text from @from up to @to, cut to fit @dst */
static void between(char *dst, size_t len, const char *from, const char *to)
{
	size_t n = (size_t)(to - from);

	if (n >= len)
		n = len - 1;
	memcpy(dst, from, n);
	dst[n] = 0;
}

static int on_sched(struct parser *p, const struct wb_thead *h)
{
	struct sc_log *log = p->log;
	const char *s, *a, *b, *c;
	struct sc_proc *pr;
	unsigned int pid, parent;

	if ((s = after(h->body, "sched_process_fork: comm="))) {
		/* a comm may hold spaces: each field ends where the next key starts */
		if (!(c = strstr(s, " child_pid=")) || !(b = strstr(s, " child_comm=")) || b > c ||
		    !(a = strstr(s, " pid=")) || a > b || sscanf(a, " pid=%u", &parent) != 1 ||
		    sscanf(c, " child_pid=%u", &pid) != 1)
			return 2;
		if (!(pr = PUSH(log->procs, log->nprocs, log->cap_procs)))
			return -1;
		memset(pr, 0, sizeof(*pr));
		pr->us = h->us;
		pr->pid = pid;
		pr->parent = parent;
		between(pr->comm, sizeof(pr->comm), b + strlen(" child_comm="), c);
		return 0;
	}
	if ((s = after(h->body, "sched_process_exec: filename="))) {
		/* the filename may hold spaces: the last " old_pid=" and the " pid=" before it */
		for (b = NULL, a = strstr(s, " old_pid="); a; a = strstr(a + 1, " old_pid="))
			b = a;
		for (a = NULL, c = strstr(s, " pid="); c && c < b; c = strstr(c + 1, " pid="))
			a = c;
		if (!b || !a || sscanf(a, " pid=%u", &pid) != 1)
			return 2;
		if (!(pr = PUSH(log->procs, log->nprocs, log->cap_procs)))
			return -1;
		memset(pr, 0, sizeof(*pr));
		pr->us = h->us;
		pr->pid = pid;
		copy(pr->comm, sizeof(pr->comm), h->comm);
		between(pr->exe, sizeof(pr->exe), s, a);
		return 0;
	}
	return 1;
}

/* the two filemap cursor events, the set event and the runner's markers */
static int on_errseq(struct parser *p, const struct wb_thead *h, const char *line_text, size_t line)
{
	struct sc_log *log = p->log;
	struct open_call *o;
	struct sc_cursor *c;
	struct sc_set *s;
	struct sc_mark *m;
	struct wb_tev e;

	if (wb_tev_parse(line_text, &e))
		return 2;
	switch (e.kind) {
	case WB_TEV_MARK:
		if (strncmp(e.mark, "wb app ", 7))
			return 0;
		if (!(m = PUSH(log->marks, log->nmarks, log->cap_marks)))
			return -1;
		m->us = e.us;
		m->tid = e.pid;
		copy(m->text, sizeof(m->text), e.mark + 7);
		return 0;
	case WB_TEV_SET:
		if (!(s = PUSH(log->sets, log->nsets, log->cap_sets)))
			return -1;
		memset(s, 0, sizeof(*s));
		s->us = e.us;
		s->line = line;
		s->tid = e.pid;
		s->tgid = e.tgid;
		copy(s->comm, sizeof(s->comm), h->comm);
		s->major = e.major;
		s->minor = e.minor;
		s->ino = e.ino;
		s->errseq = e.old;
		s->err = e.err;
		s->err_from = e.err >= 0 ? SC_ERR_TRACED : SC_ERR_UNKNOWN;
		return 0;
	default:
		if (!(c = PUSH(log->curs, log->ncurs, log->cap_curs)))
			return -1;
		memset(c, 0, sizeof(*c));
		c->us = e.us;
		c->line = line;
		c->tid = e.pid;
		c->tgid = e.tgid;
		c->major = e.major;
		c->minor = e.minor;
		c->ino = e.ino;
		c->old = e.old;
		c->new = e.new;
		c->err = e.old != e.new ? wb_errseq_errno(e.new) : 0;
		c->sb = e.kind == WB_TEV_SB_ADVANCE;
		copy(c->file, sizeof(c->file), e.file);
		o = find_open(p, e.pid);
		c->call = o && o->busy ? CUR_PENDING : -1;
		return 0;
	}
}

/* 0 handled or not ours, 2 malformed, -1 out of memory */
static int parse_line(struct parser *p, const char *text, size_t line)
{
	struct wb_thead h;
	unsigned long long lost;
	const char *s;
	int r;

	if (!text[0] || text[0] == '#')
		return 0;
	if ((s = strstr(text, "[LOST ")) && sscanf(s, "[LOST %llu EVENTS]", &lost) == 1) {
		p->log->lost += lost;
		return 0;
	}
	if (wb_trace_head(text, &h))
		return 2;
	p->log->tgids |= h.tgid != 0;
	if (!strncmp(h.body, "sys_", 4))
		r = on_syscall(p, &h, line);
	else if (!strncmp(h.body, "io_uring_", 9))
		r = on_uring(p, &h, line);
	else if (!strncmp(h.body, "sched_process_", 14))
		r = on_sched(p, &h);
	else if (!strncmp(h.body, "filemap_set_wb_err: ", 20) ||
		 !strncmp(h.body, "file_check_and_advance_", 23) ||
		 !strncmp(h.body, "tracing_mark_write: ", 20))
		r = on_errseq(p, &h, text, line);
	else
		r = 1;
	return r == 1 ? 0 : r;
}

/*
 * Stock kernels trace a set's value before errseq_set(), not the errno
 * recorded.  The next value traced on the inode (a later set's errseq=, or
 * a cursor's new=) is the one this set left, SEEN or not: its errno bits.
 */
static void decode_sets(struct sc_log *log)
{
	struct sc_set *s;
	size_t i, j, k;
	uint32_t val;
	int got;

	for (i = 0; i < log->nsets; i++) {
		s = &log->sets[i];
		if (s->err >= 0)
			continue;
		got = 0;
		for (j = i + 1; j < log->nsets; j++)
			if (log->sets[j].major == s->major && log->sets[j].minor == s->minor &&
			    log->sets[j].ino == s->ino)
				break;
		for (k = 0; k < log->ncurs; k++)
			if (!log->curs[k].sb && log->curs[k].line > s->line &&
			    log->curs[k].major == s->major && log->curs[k].minor == s->minor &&
			    log->curs[k].ino == s->ino)
				break;
		if (j < log->nsets && (k == log->ncurs || log->sets[j].line < log->curs[k].line)) {
			val = log->sets[j].errseq;
			got = 1;
		} else if (k < log->ncurs) {
			val = log->curs[k].new;
			got = 1;
		}
		if (got && wb_errseq_errno(val)) {
			s->err = wb_errseq_errno(val);
			s->err_from = SC_ERR_DECODED;
		}
	}
}

struct order {
	size_t line, idx;
};

static int by_line(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	return x->line < y->line ? -1 : x->line > y->line;
}

/* calls in entry order, each one's cursor moves grouped in log->cidx */
static int index_calls(struct sc_log *log)
{
	struct order *ord = malloc((log->ncalls + 1) * sizeof(*ord));
	long *newidx = malloc((log->ncalls + 1) * sizeof(*newidx));
	struct sc_call *sorted = malloc((log->ncalls + 1) * sizeof(*sorted));
	size_t i, at;

	log->cidx = malloc((log->ncurs + 1) * sizeof(*log->cidx));
	if (!ord || !newidx || !sorted || !log->cidx) {
		free(ord);
		free(newidx);
		free(sorted);
		return -1;
	}
	for (i = 0; i < log->ncalls; i++)
		ord[i] = (struct order){ log->calls[i].line, i };
	qsort(ord, log->ncalls, sizeof(*ord), by_line);
	for (i = 0; i < log->ncalls; i++) {
		sorted[i] = log->calls[ord[i].idx];
		sorted[i].ncur = 0;
		newidx[ord[i].idx] = (long)i;
	}
	for (i = 0; i < log->ncurs; i++)
		if (log->curs[i].call >= 0) {
			log->curs[i].call = newidx[log->curs[i].call];
			sorted[log->curs[i].call].ncur++;
		}
	for (i = 0, at = 0; i < log->ncalls; i++) {
		sorted[i].cur = at;
		at += sorted[i].ncur;
		sorted[i].ncur = 0;
	}
	for (i = 0; i < log->ncurs; i++)
		if (log->curs[i].call >= 0) {
			struct sc_call *c = &sorted[log->curs[i].call];

			log->cidx[c->cur + c->ncur++] = i;
		}
	free(log->calls);
	log->calls = sorted;
	log->cap_calls = log->ncalls + 1;
	free(ord);
	free(newidx);
	return 0;
}

int sc_parse(const char *text, struct sc_log *log)
{
	struct parser p = { .log = log };
	const char *s = text, *nl;
	char buf[4096];
	size_t i, len;
	int r = 0;

	while (*s && r >= 0) {
		nl = strchr(s, '\n');
		len = nl ? (size_t)(nl - s) : strlen(s);
		log->lines++;
		if (len >= sizeof(buf)) {
			log->skipped++;
		} else {
			memcpy(buf, s, len);
			buf[len] = 0;
			r = parse_line(&p, buf, log->lines);
			log->skipped += r == 2;
		}
		s += len + (nl ? 1 : 0);
	}
	/* what the trace ended inside of */
	for (i = 0; i < p.nopen && r >= 0; i++)
		if (p.open[i].busy && finish(&p, &p.open[i], SC_NO_EXIT))
			r = -1;
	for (i = 0; i < p.nur && r >= 0; i++)
		if (p.ur[i].live && uring_finish(&p, &p.ur[i], SC_NO_EXIT))
			r = -1;
	free(p.open);
	free(p.ur);
	if (r < 0)
		return -1;
	decode_sets(log);
	return index_calls(log);
}

void sc_log_free(struct sc_log *log)
{
	free(log->calls);
	free(log->curs);
	free(log->sets);
	free(log->marks);
	free(log->procs);
	free(log->cidx);
	memset(log, 0, sizeof(*log));
}
