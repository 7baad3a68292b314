// SPDX-License-Identifier: GPL-2.0
/* The one attributor; wb_attr.h says what it decides and by which rules. */
#include "wb_attr.h"
#include "wb_errseq.h"

#include <stdlib.h>
#include <string.h>

#define CUR_PENDING (-2L)	/* inside its thread's open syscall, not finished */

/* a thread inside a traced syscall, or an io_uring request in flight */
struct open_call {
	uint32_t tid;
	int busy, write;
	struct wb_call call;
	size_t first;		/* the first event index its cursor moves can have */
	struct wb_ev_uring key;	/* io_uring: ring, req, user_data */
};

struct builder {
	struct wb_attr *a;
	size_t at;		/* the event being read: later ones are not attributed yet */
	struct open_call *open, *ur;
	size_t nopen, cap_open, nur, cap_ur;
};

/* room for one more element of @size in *@v (n used, *cap allocated): 0 or -1 */
static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	p = realloc(*v, ncap * size);
	if (!p)
		return -1;
	*v = p;
	*cap = ncap;
	return 0;
}

static long add_call(struct wb_attr *a, const struct wb_call *c)
{
	if (grow((void **)&a->calls, &a->cap_calls, a->ncalls, sizeof(*a->calls)))
		return -1;
	a->calls[a->ncalls] = *c;
	return (long)a->ncalls++;
}

static void call_head(struct wb_call *c, const struct wb_ev *e, long idx)
{
	memset(c, 0, sizeof(*c));
	c->tid = e->pid;
	c->tgid = e->tgid;
	memcpy(c->comm, e->comm, sizeof(c->comm));
	c->fd = -1;
	c->enter = c->exit = -1;
	if (idx >= 0)
		c->enter = idx;
}

/* ---- program mode: syscalls and io_uring ------------------------------- */

/* the thread's call ends (@state: what was not traced); its pending moves become its own */
static int finish(struct builder *b, struct open_call *o, unsigned int state)
{
	struct wb_attr *a = b->a;
	size_t i, n = 0;
	long idx;

	o->busy = 0;
	o->call.state |= state;
	if (state & WB_CALL_NO_EXIT)
		o->call.ret = 0;
	for (i = o->first; i <= b->at; i++)
		n += a->trace->v[i].pid == o->tid && a->call_of[i] == CUR_PENDING;
	if (o->write && !n && (o->call.ret >= 0 || (state & WB_CALL_NO_EXIT)))
		return 0;	/* a plain write */
	idx = add_call(a, &o->call);
	if (idx < 0)
		return -1;
	for (i = o->first; i <= b->at; i++)
		if (a->trace->v[i].pid == o->tid && a->call_of[i] == CUR_PENDING)
			a->call_of[i] = idx;
	return 0;
}

static struct open_call *thread(struct builder *b, uint32_t tid)
{
	struct open_call *o;

	for (size_t i = 0; i < b->nopen; i++)
		if (b->open[i].tid == tid)
			return &b->open[i];
	if (grow((void **)&b->open, &b->cap_open, b->nopen, sizeof(*b->open)))
		return NULL;
	o = &b->open[b->nopen++];
	memset(o, 0, sizeof(*o));
	o->tid = tid;
	return o;
}

static int on_sys_enter(struct builder *b, const struct wb_ev *e, size_t k)
{
	const struct wb_syscall *s = &wb_syscalls[e->sys.sys];
	struct open_call *o = thread(b, e->pid);
	struct wb_call *c;

	if (!o || (o->busy && finish(b, o, WB_CALL_NO_EXIT)))
		return -1;
	c = &o->call;
	call_head(c, e, (long)k);
	c->kind = s->kind;
	snprintf(c->sys, sizeof(c->sys), "%s", s->name);
	c->enter_us = e->us;
	c->fd = e->sys.fd;
	c->off = e->sys.off;
	c->len = e->sys.len;
	c->flags = e->sys.flags;
	o->write = s->write;
	o->first = k;
	o->busy = 1;
	return 0;
}

static int on_sys_exit(struct builder *b, const struct wb_ev *e, size_t k)
{
	const struct wb_syscall *s = &wb_syscalls[e->sys.sys];
	struct open_call *o = thread(b, e->pid), lone;

	if (!o)
		return -1;
	if (o->busy && !strcmp(o->call.sys, s->name)) {
		o->call.exit = (long)k;
		o->call.exit_us = e->us;
		o->call.ret = e->sys.ret;
		return finish(b, o, 0);
	}
	/* another call's entry is open: its exit was lost */
	if (o->busy && finish(b, o, WB_CALL_NO_EXIT))
		return -1;
	memset(&lone, 0, sizeof(lone));
	call_head(&lone.call, e, -1);
	lone.tid = e->pid;
	lone.write = s->write;
	lone.call.kind = s->kind;
	snprintf(lone.call.sys, sizeof(lone.call.sys), "%s", s->name);
	lone.call.exit = (long)k;
	lone.call.exit_us = e->us;
	lone.call.ret = e->sys.ret;
	lone.first = k;
	return finish(b, &lone, WB_CALL_NO_ENTER);
}

static struct open_call *find_req(struct builder *b, const struct wb_ev_uring *u)
{
	for (size_t i = 0; i < b->nur; i++)
		if (b->ur[i].busy && b->ur[i].key.user_data == u->user_data &&
		    !strcmp(b->ur[i].key.ring, u->ring) && !strcmp(b->ur[i].key.req, u->req))
			return &b->ur[i];
	return NULL;
}

/*
 * An io_uring request's fsync runs in an io-wq worker (a thread of the
 * submitter, so the same tgid) or inline: the request claims the first
 * cursor move since its submit that is on no traced syscall, of its tgid
 * when both are known, not a syncfs one and not claimed yet; when another
 * pending request's window holds it too, the call is AMBIGUOUS.
 */
static int uring_finish(struct builder *b, struct open_call *u, unsigned int state)
{
	struct wb_attr *a = b->a;
	const struct wb_ev *e;
	size_t i, j;
	long idx;

	u->busy = 0;
	u->call.state |= state;
	idx = add_call(a, &u->call);
	if (idx < 0)
		return -1;
	for (i = u->first; i <= b->at; i++) {
		e = &a->trace->v[i];
		if (e->kind != WB_EV_ADVANCE || a->call_of[i] != -1 ||
		    (u->call.tgid && e->tgid && e->tgid != u->call.tgid))
			continue;
		a->call_of[i] = idx;
		for (j = 0; j < b->nur; j++)
			if (b->ur[j].busy && b->ur[j].first <= i &&
			    (!b->ur[j].call.tgid || !e->tgid || b->ur[j].call.tgid == e->tgid))
				a->calls[idx].state |= WB_CALL_AMBIGUOUS;
		break;
	}
	return 0;
}

static int on_uring_submit(struct builder *b, const struct wb_ev *e, size_t k)
{
	struct open_call *u;
	size_t i;

	if (strcmp(e->ur.op, "FSYNC") && strcmp(e->ur.op, "SYNC_FILE_RANGE"))
		return 0;
	for (i = 0; i < b->nur && b->ur[i].busy; i++)
		;
	if (i == b->nur && grow((void **)&b->ur, &b->cap_ur, b->nur++, sizeof(*b->ur)))
		return -1;
	u = &b->ur[i];
	memset(u, 0, sizeof(*u));
	u->key = e->ur;
	u->busy = 1;
	u->first = k;
	call_head(&u->call, e, (long)k);
	u->call.kind = strcmp(e->ur.op, "FSYNC") ? WB_CALL_URING_SYNC_FILE_RANGE : WB_CALL_URING_FSYNC;
	snprintf(u->call.sys, sizeof(u->call.sys), "%s", e->ur.op);
	u->call.enter_us = e->us;
	return 0;
}

static int on_uring(struct builder *b, const struct wb_ev *e, size_t k)
{
	struct open_call *u;

	if (e->kind == WB_EV_URING_SUBMIT)
		return on_uring_submit(b, e, k);
	u = find_req(b, &e->ur);
	if (!u)
		return 0;
	if (e->kind == WB_EV_URING_FILE) {
		u->call.fd = e->ur.val;
		return 0;
	}
	u->call.exit = (long)k;
	u->call.exit_us = e->us;
	u->call.ret = e->ur.val;
	return uring_finish(b, u, 0);
}

static int syscall_event(struct builder *b, size_t k)
{
	const struct wb_ev *e = &b->a->trace->v[k];
	struct open_call *o;

	switch (e->kind) {
	case WB_EV_SYS_ENTER:
		return on_sys_enter(b, e, k);
	case WB_EV_SYS_EXIT:
		return on_sys_exit(b, e, k);
	case WB_EV_URING_SUBMIT:
	case WB_EV_URING_FILE:
	case WB_EV_URING_COMPLETE:
		return on_uring(b, e, k);
	case WB_EV_ADVANCE:
	case WB_EV_SB_ADVANCE:
		o = thread(b, e->pid);
		if (!o)
			return -1;
		b->a->call_of[k] = o->busy ? CUR_PENDING : -1;
		return 0;
	default:
		return 0;
	}
}

static int syscall_calls(struct builder *b)
{
	size_t k;
	int r = 0;

	for (k = 0; k < b->a->trace->n && !r; k++) {
		b->at = k;
		r = syscall_event(b, k);
	}
	/* what the trace ended inside of */
	for (k = 0; k < b->nopen && !r; k++)
		if (b->open[k].busy)
			r = finish(b, &b->open[k], WB_CALL_NO_EXIT);
	for (k = 0; k < b->nur && !r; k++)
		if (b->ur[k].busy)
			r = uring_finish(b, &b->ur[k], WB_CALL_NO_EXIT);
	return r;
}

/* ---- wberr-run and wberr-stress: call markers -------------------------- */

/* the call a B marker opens; its E closes it */
static long marked_call(struct wb_attr *a, const struct wb_ev *e, size_t k)
{
	struct wb_call c;

	call_head(&c, e, (long)k);
	c.kind = WB_CALL_OTHER;
	c.fd = (int)e->mark.call.fd;
	c.proc = e->mark.call.proc;
	c.seq = e->mark.call.seq;
	c.enter_us = e->us;
	return add_call(a, &c);
}

/* the latest marker of a task (MARKS_TASK) or of anyone (MARKS_ALL) */
struct open_mark {
	uint32_t pid;
	long call;		/* the call its B opened; -1 after an E */
};

static struct open_mark *mark_of(struct open_mark **v, size_t *n, size_t *cap, uint32_t pid)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].pid == pid)
			return &(*v)[i];
	if (grow((void **)v, cap, *n, sizeof(**v)))
		return NULL;
	(*v)[*n] = (struct open_mark){ pid, -1 };
	return &(*v)[(*n)++];
}

static int on_mark(struct wb_attr *a, struct open_mark *m, size_t k)
{
	const struct wb_ev *e = &a->trace->v[k];

	if (e->mark.call.what == 'B') {
		m->call = marked_call(a, e, k);
		return m->call < 0 ? -1 : 0;
	}
	if (m->call >= 0 && a->calls[m->call].proc == e->mark.call.proc &&
	    a->calls[m->call].seq == e->mark.call.seq) {
		a->calls[m->call].exit = (long)k;
		a->calls[m->call].exit_us = e->us;
	}
	m->call = -1;
	return 0;
}

static int marked_calls(struct wb_attr *a)
{
	struct open_mark *v = NULL, *m;
	size_t n = 0, cap = 0;
	int all = a->cfg.windows == WB_WIN_MARKS_ALL, r = 0;

	for (size_t k = 0; k < a->trace->n && !r; k++) {
		const struct wb_ev *e = &a->trace->v[k];

		if (e->kind != WB_EV_MARK && !wb_ev_is_advance(e))
			continue;
		if (e->kind == WB_EV_MARK && !e->mark.is_call)
			continue;
		m = mark_of(&v, &n, &cap, all ? 0 : e->pid);
		if (!m)
			r = -1;
		else if (e->kind == WB_EV_MARK)
			r = on_mark(a, m, k);
		else
			a->call_of[k] = m->call;
	}
	free(v);
	return r;
}

/* ---- calls: order and cursor moves ------------------------------------- */

struct order {
	long line;
	size_t idx;
};

static int by_line(const void *x, const void *y)
{
	const struct order *p = x, *q = y;

	return p->line < q->line ? -1 : p->line > q->line;
}

static long call_line(const struct wb_attr *a, const struct wb_call *c)
{
	long k = c->enter >= 0 ? c->enter : c->exit;

	return k >= 0 ? (long)a->trace->v[k].line : 0;
}

/* calls in entry order, each one's cursor moves grouped in a->adv */
static int index_calls(struct wb_attr *a)
{
	struct order *ord = malloc((a->ncalls + 1) * sizeof(*ord));
	long *newidx = malloc((a->ncalls + 1) * sizeof(*newidx));
	struct wb_call *sorted = malloc((a->ncalls + 1) * sizeof(*sorted));
	size_t i, at = 0;
	int rc = -1;

	a->adv = malloc((a->trace->n + 1) * sizeof(*a->adv));
	if (!ord || !newidx || !sorted || !a->adv)
		goto out;
	for (i = 0; i < a->ncalls; i++)
		ord[i] = (struct order){ call_line(a, &a->calls[i]), i };
	qsort(ord, a->ncalls, sizeof(*ord), by_line);
	for (i = 0; i < a->ncalls; i++) {
		sorted[i] = a->calls[ord[i].idx];
		sorted[i].nadv = 0;
		newidx[ord[i].idx] = (long)i;
	}
	for (i = 0; i < a->trace->n; i++)
		if (a->call_of[i] >= 0)
			sorted[a->call_of[i] = newidx[a->call_of[i]]].nadv++;
	for (i = 0; i < a->ncalls; i++) {
		sorted[i].adv = at;
		at += sorted[i].nadv;
		sorted[i].nadv = 0;
	}
	for (i = 0; i < a->trace->n; i++)
		if (a->call_of[i] >= 0) {
			struct wb_call *c = &sorted[a->call_of[i]];

			a->adv[c->adv + c->nadv++] = i;
		}
	free(a->calls);
	a->calls = sorted;
	a->cap_calls = a->ncalls;
	sorted = NULL;
	rc = 0;
out:
	free(ord);
	free(newidx);
	free(sorted);
	return rc;
}

int wb_attr_calls(struct wb_attr *a, const struct wb_trace *t, const struct wb_attr_cfg *cfg)
{
	struct builder b = { .a = a };
	int rc;

	memset(a, 0, sizeof(*a));
	a->trace = t;
	a->cfg = *cfg;
	a->call_of = malloc((t->n + 1) * sizeof(*a->call_of));
	if (!a->call_of)
		return -1;
	for (size_t i = 0; i < t->n; i++)
		a->call_of[i] = -1;
	rc = cfg->windows == WB_WIN_SYSCALLS ? syscall_calls(&b) : marked_calls(a);
	free(b.open);
	free(b.ur);
	if (!rc)
		rc = index_calls(a);
	if (rc)
		wb_attr_free(a);
	return rc;
}

/* ---- faults and sets --------------------------------------------------- */

int wb_attr_reaches(const struct wb_attr *a, size_t i, uint32_t major, uint32_t minor, uint64_t ino)
{
	long f = a->files ? wb_files_by_ino(a->files, ino) : -1;
	int on_dev = major == a->major && minor == a->minor;

	if (on_dev && f >= 0 && wb_attr_hit(a, i, (unsigned int)f))
		return 2;
	if (a->known[i])
		return 0;
	/* the block device's own inode takes metadata buffer errors: bdev
	 * inodes have i_ino = the dev_t in the kernel's encoding (major << 20 |
	 * minor) on a super block of major 0 */
	return on_dev || (major == 0 && ino == ((uint64_t)a->major << 20 | a->minor));
}

/* whether fault @i fits set @s better than fault @best (-1: none yet) */
static int fits_better(const struct wb_attr *a, size_t i, long best, const struct wb_ev *s)
{
	const struct wb_fault *f = &a->faults[i], *g;
	int fm, gm, fh, gh;

	if (best < 0)
		return 1;
	g = &a->faults[best];
	fm = a->set_err[s - a->trace->v] >= 0 && f->err == a->set_err[s - a->trace->v];
	gm = a->set_err[s - a->trace->v] >= 0 && g->err == a->set_err[s - a->trace->v];
	if (fm != gm)
		return fm > gm;
	if (f->ns != g->ns)
		return f->ns > g->ns;
	fh = wb_attr_reaches(a, i, s->es.major, s->es.minor, s->es.ino) == 2;
	gh = wb_attr_reaches(a, (size_t)best, s->es.major, s->es.minor, s->es.ino) == 2;
	return fh > gh;
}

static long set_owner(const struct wb_attr *a, const struct wb_ev *s)
{
	uint64_t hi = wb_attr_hi_ns(a, s);
	long best = -1;

	for (size_t i = 0; i < a->nfaults; i++) {
		if (!a->faults[i].err || a->faults[i].ns > hi ||
		    !wb_attr_reaches(a, i, s->es.major, s->es.minor, s->es.ino))
			continue;
		if (fits_better(a, i, best, s))
			best = (long)i;
	}
	return best;
}

long wb_attr_fault_before(const struct wb_attr *a, long f, uint64_t ns)
{
	long best = -1;

	for (size_t i = 0; i < a->nfaults; i++)
		if (a->faults[i].err && a->faults[i].ns <= ns &&
		    (f < 0 || wb_attr_hit(a, i, (unsigned int)f)) &&
		    (best < 0 || a->faults[i].ns >= a->faults[best].ns))
			best = (long)i;
	return best;
}

static int hit_files(struct wb_attr *a)
{
	size_t nf = a->files ? a->files->nfiles : 0;

	a->hit = calloc(a->nfaults * nf + 1, 1);
	a->known = calloc(a->nfaults + 1, 1);
	if (!a->hit || !a->known)
		return -1;
	for (size_t i = 0; i < a->nfaults && nf; i++) {
		const struct wb_fault *f = &a->faults[i];

		a->known[i] = wb_files_hit(a->files, f->sector, f->sector + (f->nr ? f->nr - 1 : 0),
					   &a->hit[i * nf]) > 0;
	}
	return 0;
}

/* the next value traced on set @k's inode after it, or -1 */
static int64_t next_value(const struct wb_trace *t, size_t k)
{
	const struct wb_ev *s = &t->v[k], *e;

	for (size_t i = k + 1; i < t->n; i++) {
		e = &t->v[i];
		if (e->kind == WB_EV_SB_ADVANCE || !wb_ev_is_errseq(e) || e->es.ino != s->es.ino ||
		    e->es.major != s->es.major || e->es.minor != s->es.minor)
			continue;
		return e->kind == WB_EV_SET ? e->es.errseq : e->es.new;
	}
	return -1;
}

static int decode_sets(struct wb_attr *a)
{
	const struct wb_trace *t = a->trace;
	int64_t v;

	a->set_err = malloc((t->n + 1) * sizeof(*a->set_err));
	a->set_decoded = calloc(t->n + 1, 1);
	if (!a->set_err || !a->set_decoded)
		return -1;
	for (size_t k = 0; k < t->n; k++) {
		a->set_err[k] = t->v[k].kind == WB_EV_SET ? t->v[k].es.err : -1;
		if (t->v[k].kind != WB_EV_SET || a->set_err[k] >= 0)
			continue;
		v = next_value(t, k);
		if (v >= 0 && wb_errseq_errno((uint32_t)v)) {
			a->set_err[k] = wb_errseq_errno((uint32_t)v);
			a->set_decoded[k] = 1;
		}
	}
	return 0;
}

int wb_attr_faults(struct wb_attr *a, const struct wb_fault *f, size_t n, const struct wb_files *files,
		   uint32_t major, uint32_t minor)
{
	const struct wb_trace *t = a->trace;

	a->faults = f;
	a->nfaults = n;
	a->files = files;
	a->major = major;
	a->minor = minor;
	a->file_of = malloc((t->n + 1) * sizeof(*a->file_of));
	a->set_fault = malloc((t->n + 1) * sizeof(*a->set_fault));
	if (!a->file_of || !a->set_fault || hit_files(a) || decode_sets(a))
		return -1;
	for (size_t k = 0; k < t->n; k++) {
		const struct wb_ev *e = &t->v[k];

		a->file_of[k] = wb_ev_is_errseq(e) && files ? wb_files_by_ino(files, e->es.ino) : -1;
		a->set_fault[k] = e->kind == WB_EV_SET ? set_owner(a, e) : -1;
	}
	return 0;
}

int wb_attr_consumed(const struct wb_attr *a, size_t adv, size_t set)
{
	const struct wb_ev *c = &a->trace->v[adv], *s = &a->trace->v[set];
	uint32_t lvl;

	if (c->kind != WB_EV_ADVANCE || s->kind != WB_EV_SET || !c->es.err || s->line > c->line ||
	    s->es.major != c->es.major || s->es.minor != c->es.minor || s->es.ino != c->es.ino)
		return 0;
	lvl = wb_errseq_level_after_set(s->es.old);
	return wb_errseq_level(c->es.old) < lvl && lvl <= wb_errseq_level(c->es.new);
}

void wb_attr_free(struct wb_attr *a)
{
	free(a->calls);
	free(a->call_of);
	free(a->adv);
	free(a->hit);
	free(a->known);
	free(a->file_of);
	free(a->set_fault);
	free(a->set_err);
	free(a->set_decoded);
	memset(a, 0, sizeof(*a));
}
