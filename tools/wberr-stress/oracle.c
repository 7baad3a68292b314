// SPDX-License-Identifier: GPL-2.0
#include "oracle.h"
#include "wb_attr.h"
#include "wb_errseq.h"
#include "wb_invariants.h"
#include "wb_meta.h"
#include "wb_names.h"
#include "util.h"
#include "wb_sys.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ADV_PER_SYNC 4
#define CONTEXT_US 5000
#define CROSS_CPU_US 50

static const char *const vkind_names[WBS_V_NR] = {
	[WBS_V_LOST] = "lost-error",
	[WBS_V_ADVANCED_NO_ERROR] = "advanced-but-returned-0",
	[WBS_V_WRONG_ERRNO] = "wrong-errno",
	[WBS_V_NO_CAUSE] = "error-without-cause",
	[WBS_V_CURSOR] = "cursor-discontinuity",
	[WBS_V_UNATTRIBUTED] = "unattributed-advance",
	[WBS_V_SET_NO_FAULT] = "errseq-error-without-fault",
	[WBS_V_FAULT_NO_SET] = "fault-without-errseq-error",
	[WBS_V_FOREIGN] = "error-on-foreign-inode",
	[WBS_V_STRAY_FAULT] = "fault-outside-test-files",
	[WBS_V_WRITE] = "buffered-write-failed",
	[WBS_V_INCOMPLETE] = "evidence-incomplete",
};

const char *wbs_vkind_name(unsigned int k)
{
	return k < WBS_V_NR ? vkind_names[k] : "?";
}

/* ------------------------------------------------------------ loading */

int wbs_meta_load(struct wbs_meta *m, const char *dir)
{
	struct wb_meta kv;
	unsigned int a = 0, b = 0;

	memset(m, 0, sizeof(*m));
	if (wb_meta_load(&kv, dir))
		return -1;
	sscanf(wb_meta_get(&kv, "dev", ""), "%u:%u", &a, &b);
	m->dev_major = a;
	m->dev_minor = b;
	m->go_ns = wb_meta_u64(&kv, "go_ns", 0);
	m->stop_ns = wb_meta_u64(&kv, "stop_ns", 0);
	m->sweep_done = (int)wb_meta_u64(&kv, "sweep_done", 0);
	m->sb_margin_ns = wb_meta_u64(&kv, "sb_margin_ns", 2000000);
	m->clock_step_ns = wb_meta_u64(&kv, "clock_step_ns", 0);
	m->cpus = (unsigned int)wb_meta_u64(&kv, "cpus", 0);
	wb_meta_free(&kv);
	return 0;
}

int wbs_oracle_load(struct wbs_oracle_in *in, const char *dir)
{
	char path[4096];

	memset(in, 0, sizeof(*in));
	if (wbs_meta_load(&in->meta, dir)) {
		wbs_warn(1, "%s/meta.txt", dir);
		return -1;
	}
	if (wb_files_load(&in->files, dir, "files.txt")) {
		wbs_warn(1, "%s/files.txt", dir);
		return -1;
	}
	if (wb_recs_load(&in->recs, dir)) {
		wbs_warn(1, "%s/recs.*.bin", dir);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/trace.txt", dir);
	if (wb_trace_load(&in->trace, path)) {
		wbs_warn(1, "%s/trace.txt", dir);
		return -1;
	}
	wb_trace_sort(&in->trace);
	snprintf(path, sizeof(path), "%s/faults.txt", dir);
	if (wb_faultlog_load(&in->faults, path)) {
		wbs_warn(1, "%s/faults.txt", dir);
		return -1;
	}
	return 0;
}

void wbs_oracle_free(struct wbs_oracle_in *in)
{
	wb_files_free(&in->files);
	wb_recs_free(&in->recs);
	wb_trace_free(&in->trace);
	wb_faultlog_free(&in->faults);
}

/* ------------------------------------------------------------ state */

struct fdst {
	uint16_t proc;
	uint8_t fdi;
	uint32_t pid;
	int file;
	uint64_t ino;
	size_t *fs, nfs;	/* fsync/fdatasync record indices, in order */
	size_t *sf, nsf;	/* syncfs record indices, in order */
	uint32_t *lvl;		/* [nfs] cursor level after each fs sync */
	size_t *fsj, nfsj;	/* the fs indices whose B marker is known, */
	size_t *fsb;		/* [nfsj] and that marker's event index */
	int fsb_sorted;		/* fsb ascending: it can be searched */
	size_t lost_at;		/* 1 + fs index of the last lost report */
	char hash[24];
};

struct ctx {
	const struct wbs_oracle_in *in;
	struct wbs_oracle_out *out;
	FILE *f;
	unsigned int max_print;
	uint64_t gran;		/* trace timestamp granularity, ns */
	struct fdst *fds;
	size_t nfds;
	size_t *adv;		/* [recs.n * MAX_ADV_PER_SYNC] event indices */
	uint8_t *nadv;		/* [recs.n] */
	long *bm, *em;		/* [recs.n] B / E marker event, -1 if none */
	long *recidx;		/* [nproc * nseq] record index of (proc, seq) */
	uint32_t nproc, nseq;
	int has_sb;		/* the kernel traces syncfs cursor moves */
	long *next_on_cpu;	/* [trace.n] next event of the same CPU, -1 */
	size_t nsets;
	size_t *setk;		/* [nsets] the set events on the device, ascending */
	struct wb_attr attr;	/* calls by each worker's markers; faults on the files */
};

static uint64_t ev_lo(const struct ctx *c, const struct wb_ev *e)
{
	(void)c;
	return e->us * 1000;
}

static uint64_t ev_hi(const struct ctx *c, const struct wb_ev *e)
{
	return wb_attr_hi_ns(&c->attr, e);
}

/* the raw line of event @e, for a violation's text */
static const char *line_of(const struct ctx *c, const struct wb_ev *e, char *buf, size_t len)
{
	return wb_trace_line(&c->in->trace, e, buf, len);
}

/*
 * Trace event @a certainly happened before @b: same CPU and earlier in that
 * CPU's buffer (program order, exact whatever the clock), or an earlier
 * clock reading (the mono trace clock is one clock for all CPUs).
 */
static int before(const struct ctx *c, size_t a, size_t b)
{
	const struct wb_ev *x = &c->in->trace.v[a], *y = &c->in->trace.v[b];

	if (x->cpu == y->cpu)
		return a < b;
	/* across CPUs: readings at least a clock step apart, and 50 us, as
	 * an event that interrupts another one's write in the ring buffer
	 * may carry that one's (earlier) time stamp */
	return x->us < y->us && y->us * 1000 - x->us * 1000 >= c->gran &&
	       y->us - x->us >= CROSS_CPU_US;
}

static int on_dev(const struct ctx *c, const struct wb_ev *e)
{
	return wb_ev_is_errseq(e) && e->es.major == c->in->meta.dev_major &&
	       e->es.minor == c->in->meta.dev_minor;
}

static struct fdst *fd_of(struct ctx *c, unsigned int proc, unsigned int fdi)
{
	size_t i;

	for (i = 0; i < c->nfds; i++)
		if (c->fds[i].proc == proc && c->fds[i].fdi == fdi)
			return &c->fds[i];
	return NULL;
}

static void push(size_t **v, size_t *n, size_t x)
{
	*v = wbs_xrealloc(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = x;
}

/* ------------------------------------------------------------ printing */

static void print_fault(struct ctx *c, const struct wb_fault *ft)
{
	fprintf(c->f, "    fault: epoch=%u seq=%" PRIu64 " t=%" PRIu64 ".%06" PRIu64
		" rule=%u %s [%s] sectors %" PRIu64 "+%" PRIu64 " status=%s (%s)\n",
		ft->epoch, ft->seq, ft->ns / UINT64_C(1000000000),
		(ft->ns / 1000) % UINT64_C(1000000), ft->rule, ft->opclass, ft->flags,
		ft->sector, ft->nr, ft->status, wb_errno_name(ft->err));
}

/* The latest fault on @file's data (any file if < 0) at or before @ns. */
static const struct wb_fault *fault_before(struct ctx *c, int file,
					    uint64_t ns)
{
	long i = wb_attr_fault_before(&c->attr, file, ns);

	return i < 0 ? NULL : &c->in->faults.v[i];
}

/* Trace lines around @center_ns: the last errseq events of this inode
 * before it and the first ones after it (whatever their distance), and the
 * markers of @pid within a few ms. */
static void print_context(struct ctx *c, uint64_t ino, uint32_t pid,
			  uint64_t center_ns)
{
	const struct wb_trace *t = &c->in->trace;
	uint64_t cu = center_ns / 1000, win = CONTEXT_US + c->gran / 1000;
	size_t i, first = t->n, after = 0, shown = 0;
	size_t before_n = 0;
	char buf[512];

	/* where the errseq history of this inode starts being interesting */
	for (i = t->n; i-- > 0;) {
		const struct wb_ev *e = &t->v[i];

		if (!on_dev(c, e) || e->es.ino != ino || e->us > cu + win)
			continue;
		first = i;
		if (++before_n == 6)
			break;
	}
	fprintf(c->f, "    trace (ino %" PRIu64 " errseq events, pid %u markers within %" PRIu64 " ms):\n",
		ino, pid, win / 1000);
	for (i = first < t->n ? first : 0; i < t->n && shown < 28; i++) {
		const struct wb_ev *e = &t->v[i];
		int near = e->us + win >= cu && e->us <= cu + win;

		if (e->kind == WB_EV_MARK) {
			if (!e->mark.is_call || e->pid != pid || !near)
				continue;
		} else {
			if (!on_dev(c, e) || e->es.ino != ino)
				continue;
			if (e->us > cu + win && after++ >= 3)
				continue;
		}
		if (e->us > cu + win && e->kind == WB_EV_MARK)
			continue;
		fprintf(c->f, "      %s\n", line_of(c, e, buf, sizeof(buf)));
		shown++;
	}
	if (!shown)
		fprintf(c->f, "      (none)\n");
}

/*
 * Records one violation.  @d and @r (the fd and the call) may be NULL;
 * @ino/@center_ns pick the trace context, @file the fault to show.
 */
static void violate(struct ctx *c, enum wbs_vkind kind, const struct fdst *d,
		    const struct wb_rec *r, int file, uint64_t ino,
		    uint64_t center_ns, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

static void violate(struct ctx *c, enum wbs_vkind kind, const struct fdst *d,
		    const struct wb_rec *r, int file, uint64_t ino,
		    uint64_t center_ns, const char *fmt, ...)
{
	const struct wb_fault *ft;
	va_list ap;

	c->out->violations[kind]++;
	if (c->out->nviolations++ >= c->max_print)
		return;
	fprintf(c->f, "VIOLATION %s: ", wbs_vkind_name(kind));
	va_start(ap, fmt);
	vfprintf(c->f, fmt, ap);
	va_end(ap);
	fputc('\n', c->f);
	if (d)
		fprintf(c->f, "    fd: proc=%u pid=%u fd#%u file=%d (%s) ino=%" PRIu64 "\n",
			d->proc, d->pid, d->fdi, d->file,
			d->file >= 0 && (unsigned int)d->file < c->in->files.nfiles ?
			c->in->files.path[d->file] : "?", d->ino);
	if (r) {
		fputs("    call: ", c->f);
		wb_rec_print(c->f, r);
	}
	ft = fault_before(c, file, center_ns + c->gran);
	if (ft)
		print_fault(c, ft);
	else
		fprintf(c->f, "    fault: none logged on this file before\n");
	if (ino || d)
		print_context(c, ino ? ino : d->ino, d ? d->pid : 0, center_ns);
}

/* ------------------------------------------------------------ building */

static void build_fds(struct ctx *c)
{
	const struct wb_recs *rs = &c->in->recs;
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct wb_rec *r = &rs->v[i];
		struct fdst *d;

		if (r->op == WB_REC_SUMMARY) {
			c->out->writes += r->ino;
			c->out->write_errors += (unsigned long)r->err;
			continue;
		}
		d = fd_of(c, r->proc, r->fdi);
		if (!d) {
			c->fds = wbs_xrealloc(c->fds, c->nfds + 1, sizeof(*c->fds));
			d = &c->fds[c->nfds++];
			memset(d, 0, sizeof(*d));
			d->proc = r->proc;
			d->fdi = r->fdi;
			d->pid = r->pid;
			d->file = r->file;
			d->ino = r->ino;
		}
		switch (r->op) {
		case WB_REC_FSYNC:
		case WB_REC_FDATASYNC:
			push(&d->fs, &d->nfs, i);
			break;
		case WB_REC_SYNCFS:
			push(&d->sf, &d->nsf, i);
			break;
		case WB_REC_WRITE_ERR:
			violate(c, WBS_V_WRITE, d, r, d->file, d->ino, r->t0,
				"a buffered pwrite() failed (no fault can make it fail)");
			break;
		}
		if (r->op == WB_REC_FSYNC || r->op == WB_REC_FDATASYNC ||
		    r->op == WB_REC_SYNCFS) {
			c->out->syncs++;
			c->out->syncs_by_op[r->op]++;
			if (r->ret < 0) {
				c->out->errors++;
				c->out->errors_by_op[r->op]++;
				if (r->phase == WB_REC_PHASE_SWEEP)
					c->out->sweep_errors++;
			}
		}
	}
	c->out->fds = c->nfds;
}

/* Record index of (proc, seq), or -1, through a (proc, seq) table. */
static long rec_of(const struct ctx *c, uint32_t proc, uint32_t seq)
{
	if (proc >= c->nproc || seq >= c->nseq)
		return -1;
	return c->recidx[(size_t)proc * c->nseq + seq];
}

static void index_recs(struct ctx *c)
{
	const struct wb_recs *rs = &c->in->recs;
	size_t i;

	c->nproc = c->nseq = 0;
	for (i = 0; i < rs->n; i++) {
		if (rs->v[i].proc >= c->nproc)
			c->nproc = rs->v[i].proc + 1u;
		if (rs->v[i].seq >= c->nseq)
			c->nseq = rs->v[i].seq + 1u;
	}
	c->recidx = wbs_xcalloc((size_t)c->nproc * c->nseq + 1, sizeof(*c->recidx));
	for (i = 0; i < (size_t)c->nproc * c->nseq; i++)
		c->recidx[i] = -1;
	for (i = 0; i < rs->n; i++)
		c->recidx[(size_t)rs->v[i].proc * c->nseq + rs->v[i].seq] = (long)i;
}

/* Each call the attributor found (a worker's B..E markers) tied to its record. */
static void map_markers(struct ctx *c)
{
	const struct wb_trace *t = &c->in->trace;
	const struct wb_recs *rs = &c->in->recs;
	size_t i, nmark = 0, syncs = 0;

	for (i = 0; i < rs->n; i++) {
		c->bm[i] = c->em[i] = -1;
		if (rs->v[i].op == WB_REC_FSYNC || rs->v[i].op == WB_REC_FDATASYNC ||
		    rs->v[i].op == WB_REC_SYNCFS)
			syncs++;
	}
	for (i = 0; i < c->attr.ncalls; i++) {
		const struct wb_call *k = &c->attr.calls[i];
		long r = rec_of(c, k->proc, k->seq);

		if (r >= 0) {
			c->bm[r] = k->enter;
			c->em[r] = k->exit;
		}
	}
	for (i = 0; i < t->n; i++)
		nmark += t->v[i].kind == WB_EV_MARK && t->v[i].mark.is_call &&
			 rec_of(c, t->v[i].mark.call.proc, t->v[i].mark.call.seq) >= 0;
	if (nmark != 2 * syncs)
		violate(c, WBS_V_INCOMPLETE, NULL, NULL, -1, 0, 0,
			"trace: %zu sync markers for %zu sync calls (want 2 each)",
			nmark, syncs);
}

/* The record of the call the attributor gave cursor move @i, -1 */
static long rec_of_move(const struct ctx *c, size_t i)
{
	long k = c->attr.call_of[i];

	return k < 0 ? -1 : rec_of(c, c->attr.calls[k].proc, c->attr.calls[k].seq);
}

/* One cursor move against the call the attributor gave it: the call must
 * be a sync of this fd's file through one struct file; 0 or -1. */
static int check_move(struct ctx *c, size_t i, long ri)
{
	const struct wb_ev *e = &c->in->trace.v[i];
	const struct wb_rec *r = ri >= 0 ? &c->in->recs.v[ri] : NULL;
	struct fdst *d = r ? fd_of(c, r->proc, r->fdi) : NULL;
	char buf[512];

	if (!d || (e->kind == WB_EV_ADVANCE ? !wb_rec_op_is_fsync(r->op) : r->op != WB_REC_SYNCFS)) {
		violate(c, WBS_V_UNATTRIBUTED, NULL, NULL, wb_files_by_ino(&c->in->files, e->es.ino),
			e->es.ino, ev_lo(c, e), "pid %u advanced a cursor on ino %" PRIu64
			" outside any recorded %s: %s", e->pid, e->es.ino,
			e->kind == WB_EV_ADVANCE ? "fsync/fdatasync" : "syncfs", line_of(c, e, buf, sizeof(buf)));
		return -1;
	}
	if (e->es.ino != d->ino) {
		violate(c, WBS_V_UNATTRIBUTED, d, r, d->file, e->es.ino, ev_lo(c, e),
			"advance on ino %" PRIu64 " during a sync of ino %" PRIu64, e->es.ino, d->ino);
		return -1;
	}
	if (!d->hash[0])
		memcpy(d->hash, e->es.file, sizeof(d->hash));
	else if (strcmp(d->hash, e->es.file))
		violate(c, WBS_V_UNATTRIBUTED, d, r, d->file, e->es.ino, ev_lo(c, e),
			"struct file %s, earlier %s: two files for one fd", e->es.file, d->hash);
	return 0;
}

/* Each advance event on the device, as the attributor tied it to a call:
 * the worker's latest marker before it was that call's B. */
static void attribute_advances(struct ctx *c)
{
	const struct wb_trace *t = &c->in->trace;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct wb_ev *e = &t->v[i];
		long ri;

		if (!wb_ev_is_advance(e) || !on_dev(c, e))
			continue;
		if (e->kind == WB_EV_SB_ADVANCE)
			c->has_sb = 1;
		else
			c->out->advances++;
		ri = rec_of_move(c, i);
		if (check_move(c, i, ri))
			continue;
		if (c->nadv[ri] < MAX_ADV_PER_SYNC)
			c->adv[(size_t)ri * MAX_ADV_PER_SYNC + c->nadv[ri]++] = i;
	}
}

/* ------------------------------------------------------------ checks */

/*
 * Per fd and cursor (f_wb_err for fsync/fdatasync, f_sb_err for syncfs
 * when the kernel traces it): continuity, advance -> error with that
 * errno, error -> advance.  @lvl (may be NULL) gets the level after each.
 */
static void check_results(struct ctx *c, struct fdst *d, const size_t *calls,
			  size_t ncalls, uint32_t *lvl, const char *cursor,
			  int start_known)
{
	const struct wb_recs *rs = &c->in->recs;
	const struct wb_trace *t = &c->in->trace;
	uint32_t cur = 0;	/* opened before any fault: sampled 0 */
	size_t j;

	for (j = 0; j < ncalls; j++) {
		size_t ri = calls[j];
		const struct wb_rec *r = &rs->v[ri];
		unsigned int a, n = c->nadv[ri];
		const struct wb_ev *adv[MAX_ADV_PER_SYNC];

		for (a = 0; a < n; a++) {
			const struct wb_ev *e = &t->v[c->adv[ri * MAX_ADV_PER_SYNC + a]];
			uint32_t was = cur;

			/* f_sb_err samples the fs's errors from earlier
			 * rounds at open: its first value is the kernel's */
			if (!start_known) {
				cur = e->es.old;
				was = cur;
				start_known = 1;
			}
			if (wb_inv_cursor_step(&cur, e->es.old, e->es.new) != WB_INV_OK)
				violate(c, WBS_V_CURSOR, d, r, d->file, d->ino,
					ev_lo(c, e),
					"%s was 0x%x after this fd's last call, the kernel advanced it from 0x%x",
					cursor, was, e->es.old);
			adv[a] = e;
		}
		if (lvl)
			lvl[j] = wb_errseq_level(cur);
		/* a returned error's cause is its cursor's move (NO_ADVANCE) */
		switch (wb_inv_advance(r->ret < 0, r->err, adv, n, WB_INV_ANY)) {
		case WB_INV_ADVANCE_NO_ERROR: {
			const struct wb_ev *e = adv[0];

			violate(c, WBS_V_ADVANCED_NO_ERROR, d, r, d->file, d->ino,
				ev_lo(c, e),
				"%s advanced the fd's %s 0x%x -> 0x%x (%s) but returned 0",
				wb_rec_op_name(r->op), cursor, e->es.old, e->es.new,
				wb_errno_name((int)(e->es.new & WB_ERRSEQ_MAX_ERRNO)));
			break;
		}
		case WB_INV_WRONG_ERRNO: {
			const struct wb_ev *e = adv[0];

			violate(c, WBS_V_WRONG_ERRNO, d, r, d->file, d->ino,
				ev_lo(c, e), "%s returned %s, the %s advanced to 0x%x (%s)",
				wb_rec_op_name(r->op), wb_errno_name(r->err), cursor, e->es.new,
				wb_errno_name((int)(e->es.new & WB_ERRSEQ_MAX_ERRNO)));
			break;
		}
		case WB_INV_NO_ADVANCE:
			violate(c, WBS_V_NO_CAUSE, d, r, d->file, d->ino, r->t0,
				"%s returned %s but did not advance the fd's %s (already reported, or not an errseq error)",
				wb_rec_op_name(r->op), wb_errno_name(r->err), cursor);
			break;
		default:
			break;
		}
	}
}

static void check_fsync_results(struct ctx *c, struct fdst *d)
{
	d->lvl = wbs_xcalloc(d->nfs ? d->nfs : 1, sizeof(*d->lvl));
	check_results(c, d, d->fs, d->nfs, d->lvl, "f_wb_err cursor", 1);
}

/* Position of the first element > @k in @v[0..@n), ascending. */
static size_t first_above(const size_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Lost errors, fsync family.  filemap_set_wb_err is traced after
 * errseq_set() in __filemap_set_wb_err(), and the worker writes its 'B'
 * marker before calling fsync: a set event certainly before the marker
 * means the call's file_check_and_advance_wb_err() saw the new value, so
 * the fd's cursor must be at or past that error instance afterwards.
 */
static void check_fsync_lost(struct ctx *c, size_t si, uint32_t level)
{
	const struct wb_ev *e = &c->in->trace.v[si];
	const struct wb_recs *rs = &c->in->recs;
	char buf[512];
	size_t k, j;

	for (k = 0; k < c->nfds; k++) {
		struct fdst *d = &c->fds[k];
		size_t p = 0;

		if (d->ino != e->es.ino)
			continue;
		/* the first sync whose B is certainly after the set; a B at
		 * or before the set's index cannot be, so a sorted fsb lets
		 * the scan start past them */
		if (d->fsb_sorted)
			p = first_above(d->fsb, d->nfsj, si);
		for (; p < d->nfsj; p++)
			if (before(c, si, d->fsb[p]))
				break;
		j = p < d->nfsj ? d->fsj[p] : d->nfs;
		if (j == d->nfs) {
			if (c->in->meta.sweep_done)
				violate(c, WBS_V_LOST, d, NULL, d->file, d->ino,
					ev_lo(c, e),
					"error instance %u on ino %" PRIu64
					" recorded after this fd's last fsync (%s)",
					level, e->es.ino, line_of(c, e, buf, sizeof(buf)));
			continue;
		}
		c->out->checked_pairs++;
		if (d->lvl[j] < level && d->lost_at != j + 1) {
			d->lost_at = j + 1;	/* one report per call */
			violate(c, WBS_V_LOST, d, &rs->v[d->fs[j]], d->file, d->ino,
				rs->v[d->fs[j]].t0,
				"error instance %u was recorded on the mapping before this %s started (%s), the fd's cursor stayed at instance %u",
				level, wb_rec_op_name(rs->v[d->fs[j]].op),
				line_of(c, e, buf, sizeof(buf)), d->lvl[j]);
		}
	}
}

/* Each fd's fs syncs with a known B marker, for check_fsync_lost(). */
static void index_fd_syncs(struct ctx *c, struct fdst *d)
{
	size_t j;

	d->fsj = wbs_xcalloc(d->nfs + 1, sizeof(*d->fsj));
	d->fsb = wbs_xcalloc(d->nfs + 1, sizeof(*d->fsb));
	d->fsb_sorted = 1;
	for (j = 0; j < d->nfs; j++) {
		long b = c->bm[d->fs[j]];

		if (b < 0)
			continue;
		if (d->nfsj && (size_t)b <= d->fsb[d->nfsj - 1])
			d->fsb_sorted = 0;
		d->fsj[d->nfsj] = j;
		d->fsb[d->nfsj++] = (size_t)b;
	}
}

static void check_sets(struct ctx *c)
{
	const struct wb_trace *t = &c->in->trace;
	char buf[512];
	size_t p;

	for (p = 0; p < c->nsets; p++) {
		size_t i = c->setk[p];
		const struct wb_ev *e = &t->v[i];
		long file = c->attr.file_of[i];

		c->out->sets++;
		if (file < 0) {
			violate(c, WBS_V_FOREIGN, NULL, NULL, -1, e->es.ino, ev_lo(c, e),
				"writeback error on ino %" PRIu64
				", which is not a test file: %s", e->es.ino, line_of(c, e, buf, sizeof(buf)));
			continue;
		}
		/* a set is an error: its cause is a fault on the file before it */
		if (wb_inv_cause(1, fault_before(c, (int)file, ev_hi(c, e)) != NULL) != WB_INV_OK)
			violate(c, WBS_V_SET_NO_FAULT, NULL, NULL, (int)file, e->es.ino,
				ev_lo(c, e), "writeback error on %s with no dm-wberr fault on its sectors before it: %s",
				c->in->files.path[file], line_of(c, e, buf, sizeof(buf)));
		check_fsync_lost(c, i, wb_errseq_level_after_set(e->es.old));
	}
}

/* Each fault on a file's data must leave an errseq error on that file. */
static void check_faults(struct ctx *c)
{
	const struct wb_faultlog *fl = &c->in->faults;
	const struct wb_trace *t = &c->in->trace;
	const struct wbs_meta *m = &c->in->meta;
	unsigned int f;
	size_t i, k;

	for (i = 0; i < fl->n; i++) {
		const struct wb_fault *ft = &fl->v[i];

		c->out->faults++;
		for (k = 0; k < wb_nr_statuses; k++)
			if (wb_statuses[k].err == ft->err)
				c->out->fault_status[k]++;
		if (!c->attr.known[i]) {
			violate(c, WBS_V_STRAY_FAULT, NULL, NULL, -1, 0, ft->ns,
				"fault at sectors %" PRIu64 "+%" PRIu64 " (%s, rule %u) is outside every test file",
				ft->sector, ft->nr, ft->opclass, ft->rule);
			continue;
		}
		c->out->faults_on_files++;
		if (!ft->err)
			continue;	/* action=drop: silent by design */
		for (f = 0; f < c->in->files.nfiles; f++) {
			if (!wb_attr_hit(&c->attr, i, f))
				continue;
			if (wb_inv_fault_set(t->v, t->n, m->dev_major, m->dev_minor, c->in->files.ino[f],
					     ft->ns, c->gran) != WB_INV_OK)
				violate(c, WBS_V_FAULT_NO_SET, NULL, NULL, (int)f,
					c->in->files.ino[f], ft->ns,
					"dm-wberr failed a write of %s (sectors %" PRIu64 "+%" PRIu64 ", %s) and no writeback error was recorded on its mapping afterwards",
					c->in->files.path[f], ft->sector, ft->nr, ft->status);
		}
	}
}

/* Position in c->setk of the first set event with ev_lo() >= @ns (the
 * trace is sorted by time stamp, so ev_lo() grows along c->setk). */
static size_t set_from_ns(const struct ctx *c, uint64_t ns)
{
	size_t lo = 0, hi = c->nsets;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ev_lo(c, &c->in->trace.v[c->setk[mid]]) < ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * syncfs: mapping_set_error() sets sb->s_wb_err just after the traced
 * mapping set (untraced), and syncfs advances f_sb_err at every call.  So
 * an error traced after an fd's previous syncfs returned, more than
 * sb_margin (plus the clock step) before its next one starts, and followed
 * on its CPU by an event certainly before that start, must fail that one;
 * and a failing syncfs needs an error traced on the fs that is not
 * certainly older than its previous syncfs.
 *
 * Both searches look only at the window the time stamps allow (the trace
 * is sorted by time stamp): the whole trace per syncfs was 70% of a
 * check and 35 s of the guest's 40 s per check under TCG.
 */
static void check_syncfs(struct ctx *c, struct fdst *d)
{
	const struct wb_recs *rs = &c->in->recs;
	const struct wb_trace *t = &c->in->trace;
	uint64_t slack = c->in->meta.sb_margin_ns + c->gran;
	long prev_b = -1, prev_e = -1;
	char buf[512];
	size_t j, p;

	for (j = 0; j < d->nsf; j++) {
		size_t ri = d->sf[j];
		const struct wb_rec *r = &rs->v[ri];
		long b = c->bm[ri], e = c->em[ri];
		long must = -1, cause = -1;

		if (b < 0 || e < 0) {
			prev_b = prev_e = -1;
			continue;
		}
		/* the untraced s_wb_err update follows the event on its CPU:
		 * a later event of that CPU before B shows it is done (and
		 * the time margin must hold as well).  before(prev_e, k)
		 * needs k after prev_e in the sorted trace; the margin ends
		 * the window. */
		if (j == 0 || prev_e >= 0) {
			for (p = j == 0 ? 0 : first_above(c->setk, c->nsets, (size_t)prev_e);
			     p < c->nsets; p++) {
				size_t k = c->setk[p];
				long nx = c->next_on_cpu[k];

				if (ev_lo(c, &t->v[k]) + slack >= ev_lo(c, &t->v[b]))
					break;
				if ((j == 0 || before(c, (size_t)prev_e, k)) &&
				    nx >= 0 && before(c, (size_t)nx, (size_t)b)) {
					must = (long)k;
					break;
				}
			}
		}
		/* a cause is not certainly after E and not certainly older
		 * than the previous B; past the first event certainly after
		 * E on every CPU, none can be */
		p = 0;
		if (j > 0 && prev_b >= 0) {
			uint64_t pb = ev_lo(c, &t->v[prev_b]);

			p = set_from_ns(c, pb > slack ? pb - slack : 0);
		}
		for (; p < c->nsets; p++) {
			size_t k = c->setk[p];
			uint64_t ku = t->v[k].us, eu = t->v[e].us;

			if (!before(c, (size_t)e, k)) {
				cause = (long)k;
				break;
			}
			if (ku > eu && (ku - eu) * 1000 >= c->gran &&
			    ku - eu >= CROSS_CPU_US)
				break;
		}
		c->out->syncfs_checked++;
		if (must >= 0)
			c->out->syncfs_armed++;
		if (must >= 0 && r->ret >= 0)
			violate(c, WBS_V_LOST, d, r, -1, t->v[must].es.ino,
				ev_lo(c, &t->v[must]),
				"a writeback error was recorded on the fs after this fd's previous syncfs and before this one, and syncfs returned 0: %s",
				line_of(c, &t->v[must], buf, sizeof(buf)));
		if (r->ret < 0 && cause < 0 && !c->has_sb)
			violate(c, WBS_V_NO_CAUSE, d, r, -1, d->ino, r->t0,
				"syncfs returned %s with no writeback error recorded on the fs since the fd's previous syncfs",
				wb_errno_name(r->err));
		prev_b = b;
		prev_e = e;
	}
}

/* each event's next event on its CPU (within 4096), -1 */
static void index_cpus(struct ctx *c)
{
	const struct wb_trace *t = &c->in->trace;

	c->next_on_cpu = wbs_xcalloc(t->n + 1, sizeof(*c->next_on_cpu));
	for (size_t i = t->n; i-- > 0;) {
		c->next_on_cpu[i] = -1;
		for (size_t k = i + 1; k < t->n && k < i + 4096; k++)
			if (t->v[k].cpu == t->v[i].cpu) {
				c->next_on_cpu[i] = (long)k;
				break;
			}
	}
}

/* the attributor's answer (calls by each worker's markers, the faults on
 * the test files) and the judge's own indices */
static void ctx_init(struct ctx *c)
{
	const struct wbs_oracle_in *in = c->in;
	const struct wb_attr_cfg cfg = { .windows = WB_WIN_MARKS_TASK, .gran_ns = c->gran };

	c->bm = wbs_xcalloc(in->recs.n + 1, sizeof(*c->bm));
	c->em = wbs_xcalloc(in->recs.n + 1, sizeof(*c->em));
	c->adv = wbs_xcalloc(in->recs.n * MAX_ADV_PER_SYNC + 1, sizeof(*c->adv));
	c->nadv = wbs_xcalloc(in->recs.n + 1, 1);
	if (wb_attr_calls(&c->attr, &in->trace, &cfg) ||
	    wb_attr_faults(&c->attr, in->faults.v, in->faults.n, &in->files, in->meta.dev_major,
			   in->meta.dev_minor)) {
		fputs("wberr-stress: out of memory attributing the trace\n", stderr);
		abort();
	}
	index_cpus(c);
	c->setk = wbs_xcalloc(in->trace.n + 1, sizeof(*c->setk));
	for (size_t i = 0; i < in->trace.n; i++)
		if (in->trace.v[i].kind == WB_EV_SET && on_dev(c, &in->trace.v[i]))
			c->setk[c->nsets++] = i;
}

static void ctx_free(struct ctx *c)
{
	for (size_t i = 0; i < c->nfds; i++) {
		free(c->fds[i].fs);
		free(c->fds[i].fsj);
		free(c->fds[i].fsb);
		free(c->fds[i].sf);
		free(c->fds[i].lvl);
	}
	free(c->fds);
	free(c->adv);
	free(c->bm);
	free(c->em);
	free(c->recidx);
	free(c->next_on_cpu);
	free(c->nadv);
	free(c->setk);
	wb_attr_free(&c->attr);
}

/* what the evidence itself says it lost */
static void check_complete(struct ctx *c)
{
	const struct wbs_oracle_in *in = c->in;

	if (in->trace.lost || !in->trace.header_seen)
		violate(c, WBS_V_INCOMPLETE, NULL, NULL, -1, 0, 0,
			"trace: %" PRIu64 " events lost%s (raise buffer_size_kb)",
			in->trace.lost, in->trace.header_seen ? "" : ", no header");
	if (in->faults.gaps)
		violate(c, WBS_V_INCOMPLETE, NULL, NULL, -1, 0, 0,
			"fault log: %zu entries lost (raise log_size or drain more often)",
			in->faults.gaps);
}

unsigned long wbs_oracle_check(const struct wbs_oracle_in *in,
			       struct wbs_oracle_out *out, FILE *f,
			       unsigned int max_print)
{
	struct ctx c = { .in = in, .out = out, .f = f, .max_print = max_print };
	size_t i;

	memset(out, 0, sizeof(*out));
	c.gran = in->meta.clock_step_ns > 1000 ? in->meta.clock_step_ns : 1000;
	if (in->meta.stop_ns > in->meta.go_ns)
		out->loop_s = (double)(in->meta.stop_ns - in->meta.go_ns) / 1e9;
	ctx_init(&c);
	check_complete(&c);
	build_fds(&c);
	index_recs(&c);
	map_markers(&c);
	attribute_advances(&c);
	for (i = 0; i < c.nfds; i++) {
		check_fsync_results(&c, &c.fds[i]);
		index_fd_syncs(&c, &c.fds[i]);
	}
	check_sets(&c);
	check_faults(&c);
	for (i = 0; i < c.nfds; i++) {
		check_syncfs(&c, &c.fds[i]);
		if (c.has_sb)
			check_results(&c, &c.fds[i], c.fds[i].sf, c.fds[i].nsf,
				      NULL, "f_sb_err cursor", 0);
	}
	ctx_free(&c);
	return out->nviolations;
}

void wbs_oracle_summary(const struct wbs_oracle_out *o, FILE *f,
			const char *prefix)
{
	unsigned long ops = o->writes + o->syncs;
	unsigned int k;

	fprintf(f, "%sfds=%lu writes=%lu syncs=%lu (fsync=%lu fdatasync=%lu syncfs=%lu) loop_s=%.1f ops=%lu ops_per_s=%.1f\n",
		prefix, o->fds, o->writes, o->syncs, o->syncs_by_op[WB_REC_FSYNC],
		o->syncs_by_op[WB_REC_FDATASYNC], o->syncs_by_op[WB_REC_SYNCFS],
		o->loop_s, ops, o->loop_s > 0 ? (double)ops / o->loop_s : 0.0);
	fprintf(f, "%sfaults_injected=%lu faults_on_test_files=%lu by status:",
		prefix, o->faults, o->faults_on_files);
	for (k = 0; k < wb_nr_statuses; k++)
		if (o->fault_status[k])
			fprintf(f, " %s:%lu", wb_statuses[k].name, o->fault_status[k]);
	fputc('\n', f);
	fprintf(f, "%serrors_reported=%lu (fsync=%lu fdatasync=%lu syncfs=%lu, in final sweep %lu) errseq_sets=%lu cursor_advances=%lu set_fd_pairs_checked=%lu syncfs_checked=%lu syncfs_must_fail=%lu\n",
		prefix, o->errors, o->errors_by_op[WB_REC_FSYNC],
		o->errors_by_op[WB_REC_FDATASYNC], o->errors_by_op[WB_REC_SYNCFS],
		o->sweep_errors, o->sets, o->advances, o->checked_pairs,
		o->syncfs_checked, o->syncfs_armed);
	fprintf(f, "%sviolations=%lu", prefix, o->nviolations);
	for (k = 0; k < WBS_V_NR; k++)
		if (o->violations[k])
			fprintf(f, " %s:%lu", wbs_vkind_name(k), o->violations[k]);
	fputc('\n', f);
}
