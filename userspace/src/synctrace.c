// SPDX-License-Identifier: GPL-2.0
/*
 * Program mode's trace (synctrace.h): parse, attribute, render, one
 * section each.  The formats, from the 6.12 sources:
 *   head      kernel/trace/trace_output.c trace_print_context(): lib/c wb_trace_head()
 *   syscalls  kernel/trace/trace_syscalls.c: "sys_fsync(fd: 3)", every
 *             argument "%s: %lx" (hex, no 0x); "sys_fsync -> 0x%lx" (a
 *             negative return is 0xfffffffffffffffb)
 *   io_uring  include/trace/events/io_uring.h:
 *             "io_uring_submit_req: ring %p, req %p, user_data 0x%llx, opcode %s, flags 0x%llx, sq_thread %d"
 *             "io_uring_file_get: ring %p, req %p, user_data 0x%llx, fd %d"
 *             "io_uring_complete: ring %p, req %p, user_data 0x%llx, result %d, cflags 0x%x extra1 %llu extra2 %llu "
 *   sched     "sched_process_fork: comm=%s pid=%d child_comm=%s child_pid=%d"
 *             "sched_process_exec: filename=%s pid=%d old_pid=%d"
 *   filemap   lib/c wb_tev_parse() (stock and patch 0004 forms)
 */
#include "synctrace.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wb_errseq.h"
#include "wb_names.h"
#include "wb_trace.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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
static void *grow(void *v, size_t *cap, size_t n, size_t size)
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

#define PUSH(vec, n, cap) ({							\
	__typeof__(vec) _v = grow((vec), &(cap), (n), sizeof(*(vec)));		\
	_v ? ((vec) = _v, &_v[(n)++]) : NULL;					\
})

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

	if ((s = after(h->body, "io_uring_submit_req: "))) {
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

/* ---- 2. attribute ------------------------------------------------------ */

static int is_self(uint32_t self, uint32_t tid, uint32_t tgid)
{
	return self && (tgid ? tgid == self : tid == self);
}

int sc_excluded(const struct sc_attr *attr, const struct sc_call *call)
{
	return is_self(attr->self, call->tid, call->tgid);
}

/*
 * Whether @f's writes can have left an error in (dev, ino); *named when it
 * names the inode.  A sector-range fault reaches any inode of its device,
 * and the block device's own inode, whose mapping takes metadata buffer
 * errors: bdev inodes have i_ino = the dev_t in the kernel's encoding
 * (major << 20 | minor) on a super block of major 0.
 */
static int targets(const struct sc_fault *f, uint32_t major, uint32_t minor, uint64_t ino, int *named)
{
	size_t i;

	*named = 0;
	if (f->ninos) {
		for (i = 0; i < f->ninos; i++)
			if (major == f->major && minor == f->minor && f->inos[i] == ino)
				return *named = 1;
		return 0;
	}
	return (major == f->major && minor == f->minor) ||
	       (major == 0 && ino == ((uint64_t)f->major << 20 | f->minor));
}

/* 1 + the latest of @f's fires not after @us (in us); 0 when none was */
static uint64_t fired_by(const struct sc_fault *f, uint64_t us)
{
	uint64_t best = 0, t;
	size_t i;

	for (i = 0; i < f->nlog; i++) {
		t = f->log[i].ns / 1000;
		if (t <= us && t + 1 > best)
			best = t + 1;
	}
	return best;
}

/* how well a fault fits a set, compared field by field in this order */
struct fit {
	int errmatch;		/* expects the errno recorded */
	int failing;		/* fails bios, not a drop */
	uint64_t when;		/* its latest fire before the set */
	int named;		/* names the inode */
};

static int fits_better(const struct fit *a, const struct fit *b)
{
	if (a->errmatch != b->errmatch)
		return a->errmatch > b->errmatch;
	if (a->failing != b->failing)
		return a->failing > b->failing;
	if (a->when != b->when)
		return a->when > b->when;
	return a->named > b->named;
}

/* the fault a set is given to (synctrace.h's order), -1 */
static long set_owner(const struct sc_set *s, const struct sc_fault *faults, size_t n)
{
	struct fit fit, best_fit = { 0 };
	long best = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!targets(&faults[i], s->major, s->minor, s->ino, &fit.named) ||
		    !(fit.when = fired_by(&faults[i], s->us)))
			continue;
		fit.errmatch = s->err >= 0 && faults[i].err == s->err;
		fit.failing = faults[i].err != 0;
		if (best < 0 || fits_better(&fit, &best_fit)) {
			best = (long)i;
			best_fit = fit;
		}
	}
	return best;
}

static int add_seer(struct sc_fate *fate, size_t *cap, const struct sc_seer *seer)
{
	struct sc_seer *slot = PUSH(fate->seers, fate->nseers, *cap);

	if (!slot)
		return -1;
	*slot = *seer;
	return 0;
}

/* did the call return the error the set recorded (@consumed when unknown) */
static int ret_matches(const struct sc_log *log, long call, const struct sc_set *s, int consumed)
{
	const struct sc_call *c;

	if (call < 0)
		return -1;
	c = &log->calls[call];
	if (c->state & SC_NO_EXIT)
		return -1;
	return c->ret == -(long long)(s->err >= 0 ? s->err : consumed);
}

/* every error-consuming cursor move against the sets before it on its inode */
static int seen_by_cursors(const struct sc_log *log, struct sc_attr *a, size_t *caps)
{
	const struct sc_cursor *c;
	const struct sc_set *s;
	struct sc_fate *fate;
	struct sc_seer seer;
	size_t k, i;
	long f;
	uint32_t lvl;

	for (k = 0; k < log->ncurs; k++) {
		c = &log->curs[k];
		if (c->sb || !c->err || is_self(a->self, c->tid, c->tgid))
			continue;
		/* latest set first: a fault's seer names the newest set it consumed */
		for (i = log->nsets; i-- > 0;) {
			s = &log->sets[i];
			f = a->set_fault[i];
			if (f < 0 || s->line > c->line || s->major != c->major || s->minor != c->minor ||
			    s->ino != c->ino)
				continue;
			lvl = wb_errseq_level_after_set(s->errseq);
			if (wb_errseq_level(c->old) >= lvl || lvl > wb_errseq_level(c->new))
				continue;
			fate = &a->fates[f];
			if (fate->nseers && fate->seers[fate->nseers - 1].cursor == (long)k)
				continue;
			seer = (struct sc_seer){ c->call, (long)k, (long)i,
						 ret_matches(log, c->call, s, c->err) };
			if (add_seer(fate, &caps[f], &seer))
				return -1;
		}
	}
	return 0;
}

/* failing syncfs (and sync) calls, through the super block's s_wb_err */
static int seen_by_syncfs(const struct sc_log *log, const struct sc_fault *faults, struct sc_attr *a,
			  size_t *caps)
{
	const struct sc_cursor *sbc;
	const struct sc_call *c;
	const struct sc_set *s;
	struct sc_seer seer;
	size_t k, i, j;
	long cur;
	int err;

	for (k = 0; k < log->ncalls; k++) {
		c = &log->calls[k];
		if ((c->kind != SC_SYNCFS && c->kind != SC_SYNC) || c->ret >= 0 ||
		    (c->state & SC_NO_EXIT) || is_self(a->self, c->tid, c->tgid))
			continue;
		for (cur = -1, i = 0; i < c->ncur && cur < 0; i++)
			if (log->curs[log->cidx[c->cur + i]].sb)
				cur = (long)log->cidx[c->cur + i];
		sbc = cur >= 0 ? &log->curs[cur] : NULL;
		for (i = 0; i < a->nfates; i++) {
			if (sbc && (sbc->major != faults[i].major || sbc->minor != faults[i].minor))
				continue;
			for (j = 0; j < a->fates[i].nsets; j++) {
				s = &log->sets[a->fates[i].sets[j]];
				err = s->err >= 0 ? s->err : faults[i].err;
				if (s->us <= c->exit_us && c->ret == -(long long)err)
					break;
			}
			if (j == a->fates[i].nsets)
				continue;
			seer = (struct sc_seer){ (long)k, cur, -1, 1 };
			if (add_seer(&a->fates[i], &caps[i], &seer))
				return -1;
		}
	}
	return 0;
}

static int unexplained(const struct sc_log *log, struct sc_attr *a)
{
	char *seen = calloc(log->ncalls + 1, 1);
	const struct sc_call *c;
	size_t i, j;

	a->unexplained = malloc((log->ncalls + 1) * sizeof(*a->unexplained));
	if (!seen || !a->unexplained) {
		free(seen);
		return -1;
	}
	for (i = 0; i < a->nfates; i++)
		for (j = 0; j < a->fates[i].nseers; j++)
			if (a->fates[i].seers[j].call >= 0)
				seen[a->fates[i].seers[j].call] = 1;
	for (i = 0; i < log->ncalls; i++) {
		c = &log->calls[i];
		if (c->ret < 0 && !(c->state & SC_NO_EXIT) && !seen[i] && !sc_excluded(a, c))
			a->unexplained[a->nunexplained++] = i;
	}
	free(seen);
	return 0;
}

int sc_attribute(const struct sc_log *log, uint32_t self, const struct sc_fault *faults,
		 size_t nfaults, struct sc_attr *a)
{
	struct sc_fate *fate;
	size_t i, j, *caps;
	long f;

	memset(a, 0, sizeof(*a));
	a->self = self;
	a->nfates = nfaults;
	a->fates = calloc(nfaults + 1, sizeof(*a->fates));
	a->set_fault = malloc((log->nsets + 1) * sizeof(*a->set_fault));
	caps = calloc(nfaults + 1, sizeof(*caps));
	if (!a->fates || !a->set_fault || !caps)
		goto oom;
	for (i = 0; i < nfaults; i++) {
		fate = &a->fates[i];
		fate->nfired = faults[i].nlog;
		for (j = 0; j < faults[i].nlog; j++) {
			uint64_t us = faults[i].log[j].ns / 1000;

			if (!j || us < fate->fired_us)
				fate->fired_us = us;
			if (!j || us > fate->last_us)
				fate->last_us = us;
		}
		fate->sets = malloc((log->nsets + 1) * sizeof(*fate->sets));
		if (!fate->sets)
			goto oom;
	}
	for (i = 0; i < log->nsets; i++) {
		f = a->set_fault[i] = set_owner(&log->sets[i], faults, nfaults);
		if (f >= 0)
			a->fates[f].sets[a->fates[f].nsets++] = i;
	}
	if (seen_by_cursors(log, a, caps) || seen_by_syncfs(log, faults, a, caps) || unexplained(log, a))
		goto oom;
	for (i = 0; i < nfaults; i++) {
		fate = &a->fates[i];
		fate->verdict = fate->nseers ? SC_SEEN : !fate->nfired ? SC_NOT_FIRED :
				fate->nsets ? SC_LOST : SC_SILENT;
	}
	free(caps);
	return 0;
oom:
	free(caps);
	sc_attr_free(a);
	return -1;
}

void sc_attr_free(struct sc_attr *a)
{
	size_t i;

	for (i = 0; a->fates && i < a->nfates; i++) {
		free(a->fates[i].sets);
		free(a->fates[i].seers);
	}
	free(a->fates);
	free(a->set_fault);
	free(a->unexplained);
	memset(a, 0, sizeof(*a));
}

/* ---- 3. render --------------------------------------------------------- */

const char *sc_path_of(const struct sc_path *paths, size_t n, uint32_t major, uint32_t minor,
		       uint64_t ino)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (paths[i].ino == ino && paths[i].major == major && paths[i].minor == minor)
			return paths[i].path;
	return NULL;
}

/* the time every line is relative to: the first mark, else the first event */
static uint64_t time_base(const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	uint64_t base = UINT64_MAX;
	size_t i;

	if (log->nmarks)
		return log->marks[0].us;
	for (i = 0; i < log->ncalls; i++)
		if (log->calls[i].enter_us && log->calls[i].enter_us < base)
			base = log->calls[i].enter_us;
	if (log->nsets && log->sets[0].us < base)
		base = log->sets[0].us;
	if (log->ncurs && log->curs[0].us < base)
		base = log->curs[0].us;
	for (i = 0; i < r->nfaults; i++)
		if (r->attr->fates[i].nfired && r->attr->fates[i].fired_us < base)
			base = r->attr->fates[i].fired_us;
	return base == UINT64_MAX ? 0 : base;
}

/* @s for a line of text: control bytes (a comm or path may hold any) as '?' */
static const char *plain(char *buf, size_t len, const char *s)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = 0;
	return buf;
}

static double ms(uint64_t base, uint64_t us)
{
	return ((double)us - (double)base) / 1000.0;
}

/* "comm[tgid/tid]", "comm[tid]" when they agree or the tgid was not recorded */
static const char *who(char *buf, size_t len, const char *comm, uint32_t tid, uint32_t tgid)
{
	char c[16];

	comm = plain(c, sizeof(c), comm);
	if (tgid && tgid != tid)
		snprintf(buf, len, "%s[%u/%u]", comm, tgid, tid);
	else
		snprintf(buf, len, "%s[%u]", comm, tid);
	return buf;
}

/* the file a call worked on, from its first cursor move: path, else ino */
static const char *call_path(const struct sc_report *r, const struct sc_call *c, char *buf, size_t len)
{
	const struct sc_cursor *cur;
	const char *path;
	char p[256];

	if (!c->ncur)
		return "";
	cur = &r->log->curs[r->log->cidx[c->cur]];
	if (cur->sb)
		snprintf(buf, len, " dev %u:%u", cur->major, cur->minor);
	else if ((path = sc_path_of(r->paths, r->npaths, cur->major, cur->minor, cur->ino)))
		snprintf(buf, len, " %s", plain(p, sizeof(p), path));
	else
		snprintf(buf, len, " ino %" PRIu64, cur->ino);
	return buf;
}

static void flag_names(const struct wb_name_val *tab, unsigned int v, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (; tab->name && at < len; tab++)
		if (tab->val && (v & (unsigned int)tab->val) == (unsigned int)tab->val)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "|" : "", tab->name);
	if (!buf[0])
		snprintf(buf, len, "0x%x", v);
}

/* what the call was given: "fd 3", msync's range, sync_file_range's flags */
static const char *call_args(const struct sc_call *c, char *buf, size_t len)
{
	char fl[64];

	switch (c->kind) {
	case SC_MSYNC:
		flag_names(wb_msync_flag_names, c->flags, fl, sizeof(fl));
		snprintf(buf, len, "addr 0x%" PRIx64 " len %" PRIu64 " %s", c->off, c->len, fl);
		break;
	case SC_SYNC_FILE_RANGE:
		flag_names(wb_sfr_flag_names, c->flags, fl, sizeof(fl));
		snprintf(buf, len, "fd %d off %" PRIu64 " len %" PRIu64 " %s", c->fd, c->off, c->len, fl);
		break;
	case SC_SYNC:
		snprintf(buf, len, "-");
		break;
	default:
		if (c->fd >= 0)
			snprintf(buf, len, "fd %d", c->fd);
		else
			snprintf(buf, len, "fd ?");
	}
	return buf;
}

static const char *call_ret(const struct sc_call *c, char *buf, size_t len)
{
	if (c->state & SC_NO_EXIT)
		snprintf(buf, len, "?");
	else if (c->ret < 0)
		snprintf(buf, len, "%lld %s", c->ret, wb_errno_name((int)-c->ret));
	else
		snprintf(buf, len, "%lld", c->ret);
	return buf;
}

static const char *match_word(int match)
{
	return match < 0 ? "return not known" : match ? "errno as recorded" : "errno differs from recorded";
}

enum { IT_MARK, IT_FAULT, IT_PROC, IT_SET, IT_CURSOR, IT_CALL };

struct item {
	uint64_t us;
	int type;
	size_t line, idx;
};

static int by_time(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->us != y->us)
		return x->us < y->us ? -1 : 1;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* a process line is worth showing when the task made a call shown */
static int proc_shown(const struct sc_report *r, uint32_t pid)
{
	size_t i;

	for (i = 0; i < r->log->ncalls; i++)
		if (!sc_excluded(r->attr, &r->log->calls[i]) &&
		    (r->log->calls[i].tid == pid || r->log->calls[i].tgid == pid))
			return 1;
	return 0;
}

static void text_call(FILE *out, const struct sc_report *r, uint64_t base, size_t k)
{
	const struct sc_call *c = &r->log->calls[k];
	const struct sc_seer *s;
	char w[48], args[128], path[300], ret[48];
	size_t i, j;
	int any = 0;

	fprintf(out, "%+11.3f  %-21s %s %s%s -> %s", ms(base, c->enter_us ? c->enter_us : c->exit_us),
		sc_kind_name(c->kind), who(w, sizeof(w), c->comm, c->tid, c->tgid),
		call_args(c, args, sizeof(args)), call_path(r, c, path, sizeof(path)),
		call_ret(c, ret, sizeof(ret)));
	if (c->exit_us && c->enter_us)
		fprintf(out, " (%.3f ms)", (double)(c->exit_us - c->enter_us) / 1000.0);
	for (i = 0; i < r->nfaults; i++)
		for (j = 0; j < r->attr->fates[i].nseers; j++) {
			s = &r->attr->fates[i].seers[j];
			if (s->call != (long)k)
				continue;
			if (s->set < 0)
				fprintf(out, "%s fault #%u via the super block", any++ ? ";" : "  saw",
					r->faults[i].id);
			else
				fprintf(out, "%s fault #%u via file %s, %s", any++ ? ";" : "  saw",
					r->faults[i].id, r->log->curs[s->cursor].file, match_word(s->match));
		}
	if (c->state & SC_NO_ENTER)
		fputs("  [no entry traced]", out);
	if (c->state & SC_NO_EXIT)
		fputs("  [no exit traced]", out);
	if (c->state & SC_AMBIGUOUS)
		fputs("  [io_uring window shared with another request]", out);
	fputc('\n', out);
}

static void text_item(FILE *out, const struct sc_report *r, uint64_t base, const struct item *it)
{
	const struct sc_log *log = r->log;
	char w[48], pb[256];
	const char *path;

	switch (it->type) {
	case IT_MARK:
		fprintf(out, "%+11.3f  mark                  %s\n", ms(base, it->us),
			plain(pb, sizeof(pb), log->marks[it->idx].text));
		break;
	case IT_FAULT: {
		const struct sc_fault *f = &r->faults[it->idx];
		const struct sc_fate *fate = &r->attr->fates[it->idx];

		fprintf(out, "%+11.3f  fault #%-14u fired: %zu bio%s %s (%s %s)", ms(base, it->us), f->id,
			fate->nfired, fate->nfired == 1 ? "" : "s", f->err ? "failed" : "dropped",
			f->log[0].opclass, f->log[0].status);
		if (f->err)
			fprintf(out, ", expects %s", wb_errno_name(f->err));
		if (fate->last_us != fate->fired_us)
			fprintf(out, ", last %+.3f", ms(base, fate->last_us));
		fputc('\n', out);
		break;
	}
	case IT_PROC: {
		const struct sc_proc *p = &log->procs[it->idx];

		if (p->exe[0])
			fprintf(out, "%+11.3f  exec                  %s %s\n", ms(base, it->us),
				who(w, sizeof(w), p->comm, p->pid, 0), plain(pb, sizeof(pb), p->exe));
		else
			fprintf(out, "%+11.3f  fork                  %s from %u\n", ms(base, it->us),
				who(w, sizeof(w), p->comm, p->pid, 0), p->parent);
		break;
	}
	case IT_SET: {
		const struct sc_set *s = &log->sets[it->idx];
		long f = r->attr->set_fault[it->idx];

		path = sc_path_of(r->paths, r->npaths, s->major, s->minor, s->ino);
		path = path ? plain(pb, sizeof(pb), path) : NULL;
		fprintf(out, "%+11.3f  set                   dev %u:%u ino %" PRIu64 "%s%s %s%s by %s",
			ms(base, it->us), s->major, s->minor, s->ino, path ? " " : "", path ? path : "",
			s->err >= 0 ? wb_errno_name(s->err) : "errno unknown",
			s->err_from == SC_ERR_DECODED ? " (decoded)" : "",
			who(w, sizeof(w), s->comm, s->tid, s->tgid));
		if (f >= 0)
			fprintf(out, "  <- fault #%u", r->faults[f].id);
		fputc('\n', out);
		break;
	}
	case IT_CURSOR: {
		const struct sc_cursor *c = &log->curs[it->idx];

		path = sc_path_of(r->paths, r->npaths, c->major, c->minor, c->ino);
		path = path ? plain(pb, sizeof(pb), path) : NULL;
		fprintf(out, "%+11.3f  cursor                %s ino %" PRIu64 "%s%s consumed %s via file %s"
			" outside any traced call\n", ms(base, it->us), who(w, sizeof(w), "", c->tid, c->tgid),
			c->ino, path ? " " : "", path ? path : "", wb_errno_name(c->err), c->file);
		break;
	}
	default:
		text_call(out, r, base, it->idx);
	}
}

static void text_verdicts(FILE *out, const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	char w[48], args[128], path[300];
	size_t i, j;

	fputs("# verdicts\n", out);
	for (i = 0; i < r->nfaults; i++) {
		const struct sc_fate *fate = &r->attr->fates[i];

		fprintf(out, "fault #%u %s", r->faults[i].id, sc_verdict_name(fate->verdict));
		switch (fate->verdict) {
		case SC_SEEN:
			fprintf(out, " by %zu:", fate->nseers);
			for (j = 0; j < fate->nseers; j++) {
				const struct sc_seer *s = &fate->seers[j];
				const struct sc_cursor *c = s->cursor >= 0 ? &log->curs[s->cursor] : NULL;
				const struct sc_call *k = s->call >= 0 ? &log->calls[s->call] : NULL;

				fputs(j ? ";" : "", out);
				if (k)
					fprintf(out, " %s %s %s%s", sc_kind_name(k->kind),
						who(w, sizeof(w), k->comm, k->tid, k->tgid),
						call_args(k, args, sizeof(args)), call_path(r, k, path, sizeof(path)));
				else
					fprintf(out, " an untraced path in %s", who(w, sizeof(w), "", c->tid, c->tgid));
				if (s->set < 0)
					fputs(" (super block)", out);
				else
					fprintf(out, " (file %s, %s)", c->file, match_word(s->match));
			}
			break;
		case SC_LOST:
			fprintf(out, ": recorded in %zu mapping set%s, consumed by no call", fate->nsets,
				fate->nsets == 1 ? "" : "s");
			break;
		case SC_SILENT:
			fprintf(out, ": %zu bio%s, no error recorded in any mapping", fate->nfired,
				fate->nfired == 1 ? "" : "s");
			break;
		}
		fputc('\n', out);
	}
}

void sc_render_text(FILE *out, const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	uint64_t base = time_base(r);
	struct item *it;
	size_t n = 0, i;

	fprintf(out, "# synctrace: %zu lines, %zu malformed skipped, %" PRIu64 " events lost%s%s\n",
		log->lines, log->skipped, log->lost, log->tgids ? "" : ", no tgids recorded",
		log->lost ? " (attribution may miss calls)" : "");
	fprintf(out, "# ms from %s\n", log->nmarks ? "the first mark" : "the first event");
	it = malloc((log->nmarks + r->nfaults + log->nprocs + log->nsets + log->ncurs + log->ncalls + 1) *
		    sizeof(*it));
	if (!it) {
		fputs("# out of memory\n", out);
		return;
	}
	for (i = 0; i < log->nmarks; i++)
		it[n++] = (struct item){ log->marks[i].us, IT_MARK, 0, i };
	for (i = 0; i < r->nfaults; i++)
		if (r->attr->fates[i].nfired)
			it[n++] = (struct item){ r->attr->fates[i].fired_us, IT_FAULT, 0, i };
	for (i = 0; i < log->nprocs; i++)
		if (proc_shown(r, log->procs[i].pid))
			it[n++] = (struct item){ log->procs[i].us, IT_PROC, 0, i };
	for (i = 0; i < log->nsets; i++)
		it[n++] = (struct item){ log->sets[i].us, IT_SET, log->sets[i].line, i };
	for (i = 0; i < log->ncurs; i++)
		if (log->curs[i].call < 0 && log->curs[i].err &&
		    !is_self(r->attr->self, log->curs[i].tid, log->curs[i].tgid))
			it[n++] = (struct item){ log->curs[i].us, IT_CURSOR, log->curs[i].line, i };
	for (i = 0; i < log->ncalls; i++)
		if (!sc_excluded(r->attr, &log->calls[i]))
			it[n++] = (struct item){ log->calls[i].enter_us ? log->calls[i].enter_us
									 : log->calls[i].exit_us,
						 IT_CALL, log->calls[i].line, i };
	qsort(it, n, sizeof(*it), by_time);
	for (i = 0; i < n; i++)
		text_item(out, r, base, &it[i]);
	free(it);
	text_verdicts(out, r);
	fprintf(out, "# unexplained errors: %zu\n", r->attr->nunexplained);
	for (i = 0; i < r->attr->nunexplained; i++)
		text_call(out, r, base, r->attr->unexplained[i]);
}

/* the length of the valid UTF-8 sequence at @p, 0 when it is not one */
static size_t utf8_len(const unsigned char *p)
{
	size_t n, i;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	/* no overlong forms, surrogates or code points past U+10FFFF */
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

/* a JSON string: quotes, backslashes and controls escaped, bad UTF-8 as U+FFFD */
static void json_str(FILE *out, const char *str)
{
	const unsigned char *p = (const unsigned char *)(str ? str : "");
	size_t n;

	if (!str) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p++);
		} else if (*p < 0x20) {
			fprintf(out, "\\u%04x", *p++);
		} else if (*p < 0x80) {
			fputc(*p++, out);
		} else if ((n = utf8_len(p))) {
			fwrite(p, 1, n, out);
			p += n;
		} else {
			fputs("\\ufffd", out);
			p++;
		}
	}
	fputc('"', out);
}

static void json_errno(FILE *out, int err)
{
	if (err < 0)
		fputs("null", out);
	else
		json_str(out, wb_errno_name(err));
}

static void json_calls(FILE *out, const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	const struct sc_call *c;
	size_t i, j;

	fputs(",\n\"calls\":[", out);
	for (i = 0; i < log->ncalls; i++) {
		c = &log->calls[i];
		fprintf(out, "%s\n{\"i\":%zu,\"kind\":\"%s\",\"sys\":", i ? "," : "", i, sc_kind_name(c->kind));
		json_str(out, c->sys);
		fprintf(out, ",\"tid\":%u,\"tgid\":%u,\"comm\":", c->tid, c->tgid);
		json_str(out, c->comm);
		fprintf(out, ",\"fd\":%d,\"off\":%" PRIu64 ",\"len\":%" PRIu64 ",\"flags\":%u", c->fd, c->off,
			c->len, c->flags);
		fprintf(out, ",\"enter_us\":%" PRIu64 ",\"exit_us\":%" PRIu64, c->enter_us, c->exit_us);
		if (c->state & SC_NO_EXIT)
			fputs(",\"ret\":null,\"errno\":null", out);
		else
			fprintf(out, ",\"ret\":%lld,\"errno\":", c->ret), json_errno(out, c->ret < 0 ? (int)-c->ret : 0);
		fprintf(out, ",\"no_entry\":%s,\"no_exit\":%s,\"ambiguous\":%s,\"excluded\":%s,\"cursors\":[",
			c->state & SC_NO_ENTER ? "true" : "false", c->state & SC_NO_EXIT ? "true" : "false",
			c->state & SC_AMBIGUOUS ? "true" : "false", sc_excluded(r->attr, c) ? "true" : "false");
		for (j = 0; j < c->ncur; j++)
			fprintf(out, "%s%zu", j ? "," : "", log->cidx[c->cur + j]);
		fputs("]}", out);
	}
	fputs("]", out);
}

static void json_cursors_sets(FILE *out, const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	size_t i;

	fputs(",\n\"cursors\":[", out);
	for (i = 0; i < log->ncurs; i++) {
		const struct sc_cursor *c = &log->curs[i];

		fprintf(out, "%s\n{\"i\":%zu,\"us\":%" PRIu64 ",\"tid\":%u,\"tgid\":%u,\"dev\":\"%u:%u\",\"ino\":%"
			PRIu64 ",\"path\":", i ? "," : "", i, c->us, c->tid, c->tgid, c->major, c->minor, c->ino);
		json_str(out, sc_path_of(r->paths, r->npaths, c->major, c->minor, c->ino));
		fputs(",\"file\":", out);
		json_str(out, c->file);
		fprintf(out, ",\"old\":\"0x%x\",\"new\":\"0x%x\",\"consumed\":", c->old, c->new);
		json_errno(out, c->err);
		fprintf(out, ",\"sb\":%s,\"call\":", c->sb ? "true" : "false");
		if (c->call >= 0)
			fprintf(out, "%ld}", c->call);
		else
			fputs("null}", out);
	}
	fputs("],\n\"sets\":[", out);
	for (i = 0; i < log->nsets; i++) {
		const struct sc_set *s = &log->sets[i];
		long f = r->attr->set_fault[i];

		fprintf(out, "%s\n{\"i\":%zu,\"us\":%" PRIu64 ",\"tid\":%u,\"tgid\":%u,\"comm\":", i ? "," : "", i,
			s->us, s->tid, s->tgid);
		json_str(out, s->comm);
		fprintf(out, ",\"dev\":\"%u:%u\",\"ino\":%" PRIu64 ",\"path\":", s->major, s->minor, s->ino);
		json_str(out, sc_path_of(r->paths, r->npaths, s->major, s->minor, s->ino));
		fprintf(out, ",\"errseq\":\"0x%x\",\"errno\":", s->errseq);
		json_errno(out, s->err);
		fprintf(out, ",\"errno_from\":\"%s\",\"fault\":",
			s->err_from == SC_ERR_TRACED ? "traced" : s->err_from == SC_ERR_DECODED ? "decoded" : "unknown");
		if (f >= 0)
			fprintf(out, "%u}", r->faults[f].id);
		else
			fputs("null}", out);
	}
	fputs("]", out);
}

static void json_long(FILE *out, const char *key, long v)
{
	if (v >= 0)
		fprintf(out, ",\"%s\":%ld", key, v);
	else
		fprintf(out, ",\"%s\":null", key);
}

static void json_faults(FILE *out, const struct sc_report *r)
{
	size_t i, j;

	fputs(",\n\"faults\":[", out);
	for (i = 0; i < r->nfaults; i++) {
		const struct sc_fate *fate = &r->attr->fates[i];

		fprintf(out, "%s\n{\"id\":%u,\"expected\":", i ? "," : "", r->faults[i].id);
		json_errno(out, r->faults[i].err);
		fprintf(out, ",\"dev\":\"%u:%u\",\"verdict\":\"%s\",\"bios\":%zu", r->faults[i].major,
			r->faults[i].minor, sc_verdict_name(fate->verdict), fate->nfired);
		if (fate->nfired)
			fprintf(out, ",\"fired_us\":%" PRIu64 ",\"last_us\":%" PRIu64, fate->fired_us, fate->last_us);
		else
			fputs(",\"fired_us\":null,\"last_us\":null", out);
		fputs(",\"sets\":[", out);
		for (j = 0; j < fate->nsets; j++)
			fprintf(out, "%s%zu", j ? "," : "", fate->sets[j]);
		fputs("],\"seen_by\":[", out);
		for (j = 0; j < fate->nseers; j++) {
			const struct sc_seer *s = &fate->seers[j];

			fprintf(out, "%s{\"via\":\"%s\"", j ? "," : "", s->set < 0 ? "super block" : "file");
			json_long(out, "call", s->call);
			json_long(out, "cursor", s->cursor);
			json_long(out, "set", s->set);
			fputs(",\"file\":", out);
			json_str(out, s->cursor >= 0 && s->set >= 0 ? r->log->curs[s->cursor].file : NULL);
			fprintf(out, ",\"match\":%s}", s->match < 0 ? "null" : s->match ? "true" : "false");
		}
		fputs("]}", out);
	}
	fputs("]", out);
}

void sc_render_json(FILE *out, const struct sc_report *r)
{
	const struct sc_log *log = r->log;
	size_t i;

	fprintf(out, "{\"lines\":%zu,\"skipped\":%zu,\"lost_events\":%" PRIu64 ",\"tgids\":%s,\"base_us\":%" PRIu64
		",\"self\":%u", log->lines, log->skipped, log->lost, log->tgids ? "true" : "false", time_base(r),
		r->attr->self);
	fputs(",\n\"marks\":[", out);
	for (i = 0; i < log->nmarks; i++) {
		fprintf(out, "%s{\"us\":%" PRIu64 ",\"text\":", i ? "," : "", log->marks[i].us);
		json_str(out, log->marks[i].text);
		fputs("}", out);
	}
	fputs("]", out);
	json_calls(out, r);
	json_cursors_sets(out, r);
	json_faults(out, r);
	fputs(",\n\"unexplained\":[", out);
	for (i = 0; i < r->attr->nunexplained; i++)
		fprintf(out, "%s%zu", i ? "," : "", r->attr->unexplained[i]);
	fputs("]}\n", out);
}
