// SPDX-License-Identifier: GPL-2.0
#include "oracle.h"
#include "util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ADV_PER_SYNC 4
#define CONTEXT_US 5000

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
	char path[4096], *text, *line, *save = NULL;

	memset(m, 0, sizeof(*m));
	m->sb_margin_ns = 2000000;
	snprintf(path, sizeof(path), "%s/meta.txt", dir);
	text = wbs_read_file(path, NULL);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long v;
		unsigned int a, b;

		if (sscanf(line, "dev=%u:%u", &a, &b) == 2) {
			m->dev_major = a;
			m->dev_minor = b;
		} else if (sscanf(line, "go_ns=%llu", &v) == 1) {
			m->go_ns = v;
		} else if (sscanf(line, "stop_ns=%llu", &v) == 1) {
			m->stop_ns = v;
		} else if (sscanf(line, "sweep_done=%llu", &v) == 1) {
			m->sweep_done = (int)v;
		} else if (sscanf(line, "sb_margin_ns=%llu", &v) == 1) {
			m->sb_margin_ns = v;
		}
	}
	free(text);
	return 0;
}

int wbs_oracle_load(struct wbs_oracle_in *in, const char *dir)
{
	memset(in, 0, sizeof(*in));
	if (wbs_meta_load(&in->meta, dir)) {
		wbs_warn(1, "%s/meta.txt", dir);
		return -1;
	}
	if (wbs_files_load(&in->files, dir)) {
		wbs_warn(1, "%s/files.txt", dir);
		return -1;
	}
	if (wbs_recs_load(&in->recs, dir)) {
		wbs_warn(1, "%s/recs.*.bin", dir);
		return -1;
	}
	if (wbs_trace_load(&in->trace, dir)) {
		wbs_warn(1, "%s/trace.txt", dir);
		return -1;
	}
	if (wbs_faultlog_load(&in->faults, dir)) {
		wbs_warn(1, "%s/faults.txt", dir);
		return -1;
	}
	return 0;
}

void wbs_oracle_free(struct wbs_oracle_in *in)
{
	wbs_files_free(&in->files);
	wbs_recs_free(&in->recs);
	wbs_trace_free(&in->trace);
	wbs_faultlog_free(&in->faults);
}

/* ------------------------------------------------------------ state */

struct fdst {
	uint16_t proc;
	uint8_t fdi;
	uint32_t pid;
	int file;
	uint64_t ino;
	uint64_t open_t1;
	size_t *fs, nfs;	/* fsync/fdatasync record indices, in order */
	size_t *sf, nsf;	/* syncfs record indices, in order */
	uint32_t *lvl;		/* [nfs] cursor level after each fs sync */
	char hash[24];
};

struct ctx {
	const struct wbs_oracle_in *in;
	struct wbs_oracle_out *out;
	FILE *f;
	unsigned int max_print;
	struct fdst *fds;
	size_t nfds;
	size_t *adv;		/* [recs.n * MAX_ADV_PER_SYNC] event indices */
	uint8_t *nadv;		/* [recs.n] */
	unsigned char *hit;	/* [nfiles] scratch */
};

static uint64_t ev_lo(const struct wbs_tev *e)
{
	return e->us * 1000;
}

static uint64_t ev_hi(const struct wbs_tev *e)
{
	return e->us * 1000 + 999;
}

static int on_dev(const struct ctx *c, const struct wbs_tev *e)
{
	return e->major == c->in->meta.dev_major &&
	       e->minor == c->in->meta.dev_minor;
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

static void print_fault(struct ctx *c, const struct wbs_fault *ft)
{
	fprintf(c->f, "    fault: epoch=%u seq=%" PRIu64 " t=%" PRIu64 ".%06" PRIu64
		" rule=%u %s [%s] sectors %" PRIu64 "+%u status=%s (%s)\n",
		ft->epoch, ft->seq, ft->ns / UINT64_C(1000000000),
		(ft->ns / 1000) % UINT64_C(1000000), ft->rule, ft->opclass, ft->flags,
		ft->sector, ft->nr, ft->status, wbs_errname(ft->err));
}

/* The latest fault on @file's data at or before @ns (UINT64_MAX: any). */
static const struct wbs_fault *fault_before(struct ctx *c, int file,
					    uint64_t ns)
{
	const struct wbs_faultlog *fl = &c->in->faults;
	const struct wbs_fault *best = NULL;
	size_t i;

	for (i = 0; i < fl->n; i++) {
		const struct wbs_fault *ft = &fl->v[i];

		if (ft->ns > ns || !ft->err)
			continue;
		if (file >= 0) {
			wbs_files_hit(&c->in->files, ft->sector,
				      ft->sector + (ft->nr ? ft->nr - 1 : 0), c->hit);
			if (!c->hit[file])
				continue;
		}
		if (!best || ft->ns >= best->ns)
			best = ft;
	}
	return best;
}

static void print_context(struct ctx *c, uint64_t ino, uint64_t center_ns)
{
	const struct wbs_trace *t = &c->in->trace;
	uint64_t cu = center_ns / 1000;
	unsigned int shown = 0;
	size_t i;

	fprintf(c->f, "    errseq trace events on ino %" PRIu64 " within %d ms:\n",
		ino, CONTEXT_US / 1000);
	for (i = 0; i < t->n && shown < 16; i++) {
		const struct wbs_tev *e = &t->v[i];

		if (e->ino != ino || !on_dev(c, e))
			continue;
		if (e->us + CONTEXT_US < cu || e->us > cu + CONTEXT_US)
			continue;
		fprintf(c->f, "      %s\n", e->line);
		shown++;
	}
	if (!shown)
		fprintf(c->f, "      (none)\n");
}

static void print_fd_syncs(struct ctx *c, const struct fdst *d,
			   uint64_t center_ns)
{
	const struct wbs_recs *rs = &c->in->recs;
	unsigned int shown = 0;
	size_t i;

	fprintf(c->f, "    this fd's syncs within %d ms:\n", CONTEXT_US / 1000);
	for (i = 0; i < rs->n && shown < 12; i++) {
		const struct wbs_rec *r = &rs->v[i];

		if (r->proc != d->proc || r->fdi != d->fdi ||
		    r->op == WBS_OP_SUMMARY)
			continue;
		if (r->t1 + CONTEXT_US * UINT64_C(1000) < center_ns ||
		    r->t0 > center_ns + CONTEXT_US * UINT64_C(1000))
			continue;
		fputs("      ", c->f);
		wbs_rec_print(c->f, r);
		shown++;
	}
}

/*
 * Records one violation.  @d and @r (the fd and the call) may be NULL;
 * @ino/@center_ns pick the trace context, @file the fault to show.
 */
static void violate(struct ctx *c, enum wbs_vkind kind, const struct fdst *d,
		    const struct wbs_rec *r, int file, uint64_t ino,
		    uint64_t center_ns, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

static void violate(struct ctx *c, enum wbs_vkind kind, const struct fdst *d,
		    const struct wbs_rec *r, int file, uint64_t ino,
		    uint64_t center_ns, const char *fmt, ...)
{
	const struct wbs_fault *ft;
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
		wbs_rec_print(c->f, r);
	}
	ft = fault_before(c, file, center_ns + 999);
	if (ft)
		print_fault(c, ft);
	else
		fprintf(c->f, "    fault: none logged on this file before\n");
	if (ino)
		print_context(c, ino, center_ns);
	if (d)
		print_fd_syncs(c, d, center_ns);
}

/* ------------------------------------------------------------ building */

static void build_fds(struct ctx *c)
{
	const struct wbs_recs *rs = &c->in->recs;
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct wbs_rec *r = &rs->v[i];
		struct fdst *d;

		if (r->op == WBS_OP_SUMMARY) {
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
		case WBS_OP_OPEN:
			d->open_t1 = r->t1;
			break;
		case WBS_OP_FSYNC:
		case WBS_OP_FDATASYNC:
			push(&d->fs, &d->nfs, i);
			break;
		case WBS_OP_SYNCFS:
			push(&d->sf, &d->nsf, i);
			break;
		case WBS_OP_WRITE_ERR:
			violate(c, WBS_V_WRITE, d, r, d->file, d->ino, r->t0,
				"a buffered pwrite() failed (no fault can make it fail)");
			break;
		}
		if (r->op == WBS_OP_FSYNC || r->op == WBS_OP_FDATASYNC ||
		    r->op == WBS_OP_SYNCFS) {
			c->out->syncs++;
			c->out->syncs_by_op[r->op]++;
			if (r->ret < 0) {
				c->out->errors++;
				c->out->errors_by_op[r->op]++;
				if (r->phase == WBS_PHASE_SWEEP)
					c->out->sweep_errors++;
			}
		}
	}
	c->out->fds = c->nfds;
}

/* Attributes each advance event to the sync call of its pid that was in
 * flight when it fired (workers are single-threaded). */
static void attribute_advances(struct ctx *c)
{
	const struct wbs_trace *t = &c->in->trace;
	const struct wbs_recs *rs = &c->in->recs;
	size_t i, k;

	for (i = 0; i < t->n; i++) {
		const struct wbs_tev *e = &t->v[i];
		const struct wbs_rec *hit = NULL;
		size_t hit_idx = 0;
		struct fdst *d = NULL;

		if (e->type != WBS_TEV_ADVANCE || !on_dev(c, e))
			continue;
		c->out->advances++;
		for (k = 0; k < c->nfds && !hit; k++) {
			size_t j;

			if (c->fds[k].pid != e->pid)
				continue;
			for (j = 0; j < c->fds[k].nfs; j++) {
				const struct wbs_rec *r = &rs->v[c->fds[k].fs[j]];

				if (r->t0 <= ev_hi(e) && ev_lo(e) <= r->t1) {
					hit = r;
					hit_idx = c->fds[k].fs[j];
					d = &c->fds[k];
					break;
				}
			}
		}
		if (!hit) {
			violate(c, WBS_V_UNATTRIBUTED, NULL, NULL,
				wbs_files_by_ino(&c->in->files, e->ino), e->ino,
				ev_lo(e),
				"pid %u advanced a cursor on ino %" PRIu64
				" outside any recorded fsync/fdatasync: %s",
				e->pid, e->ino, e->line);
			continue;
		}
		if (e->ino != d->ino) {
			violate(c, WBS_V_UNATTRIBUTED, d, hit, d->file, e->ino,
				ev_lo(e), "advance on ino %" PRIu64
				" during a sync of ino %" PRIu64, e->ino, d->ino);
			continue;
		}
		if (!d->hash[0])
			memcpy(d->hash, e->file, sizeof(d->hash));
		else if (strcmp(d->hash, e->file))
			violate(c, WBS_V_UNATTRIBUTED, d, hit, d->file, e->ino,
				ev_lo(e), "struct file %s, earlier %s: two files for one fd",
				e->file, d->hash);
		if (c->nadv[hit_idx] < MAX_ADV_PER_SYNC)
			c->adv[hit_idx * MAX_ADV_PER_SYNC + c->nadv[hit_idx]++] = i;
	}
}

/* ------------------------------------------------------------ checks */

/* Per fd: cursor continuity, advance -> error with that errno, and
 * error -> advance.  Fills d->lvl. */
static void check_fsync_results(struct ctx *c, struct fdst *d)
{
	const struct wbs_recs *rs = &c->in->recs;
	const struct wbs_trace *t = &c->in->trace;
	uint32_t cur = 0;	/* opened before any fault: sampled 0 */
	size_t j;

	d->lvl = wbs_xcalloc(d->nfs ? d->nfs : 1, sizeof(*d->lvl));
	for (j = 0; j < d->nfs; j++) {
		size_t ri = d->fs[j];
		const struct wbs_rec *r = &rs->v[ri];
		unsigned int a, n = c->nadv[ri];
		int errno_ok = 0;

		for (a = 0; a < n; a++) {
			const struct wbs_tev *e = &t->v[c->adv[ri * MAX_ADV_PER_SYNC + a]];

			if ((e->old | WBS_ERRSEQ_SEEN) != (cur | WBS_ERRSEQ_SEEN) &&
			    !(cur == 0 && e->old == 0))
				violate(c, WBS_V_CURSOR, d, r, d->file, d->ino, ev_lo(e),
					"cursor was 0x%x after this fd's last sync, the kernel advanced it from 0x%x",
					cur, e->old);
			cur = e->new;
			if (r->ret < 0 && r->err == (int)(e->new & WBS_ERRSEQ_ERRMASK))
				errno_ok = 1;
		}
		d->lvl[j] = wbs_errseq_level(cur);
		if (n && r->ret >= 0) {
			const struct wbs_tev *e = &t->v[c->adv[ri * MAX_ADV_PER_SYNC]];

			violate(c, WBS_V_ADVANCED_NO_ERROR, d, r, d->file, d->ino,
				ev_lo(e),
				"%s advanced the fd's cursor 0x%x -> 0x%x (%s) but returned 0",
				wbs_op_name(r->op), e->old, e->new,
				wbs_errname((int)(e->new & WBS_ERRSEQ_ERRMASK)));
		} else if (n && !errno_ok) {
			const struct wbs_tev *e = &t->v[c->adv[ri * MAX_ADV_PER_SYNC]];

			violate(c, WBS_V_WRONG_ERRNO, d, r, d->file, d->ino, ev_lo(e),
				"%s returned %s, the cursor advanced to 0x%x (%s)",
				wbs_op_name(r->op), wbs_errname(r->err), e->new,
				wbs_errname((int)(e->new & WBS_ERRSEQ_ERRMASK)));
		} else if (!n && r->ret < 0) {
			violate(c, WBS_V_NO_CAUSE, d, r, d->file, d->ino, r->t0,
				"%s returned %s but did not advance the fd's errseq cursor (already reported, or not an errseq error)",
				wbs_op_name(r->op), wbs_errname(r->err));
		}
	}
}

/*
 * Lost errors, fsync family.  A filemap_set_wb_err event is traced after
 * errseq_set() in __filemap_set_wb_err(), so the set happened no later than
 * the event's timestamp: a sync that started after it must leave the fd's
 * cursor at or past the instance that set created.
 */
static void check_fsync_lost(struct ctx *c, const struct wbs_tev *e,
			     uint32_t level)
{
	const struct wbs_recs *rs = &c->in->recs;
	size_t k, j;

	for (k = 0; k < c->nfds; k++) {
		struct fdst *d = &c->fds[k];

		if (d->ino != e->ino)
			continue;
		for (j = 0; j < d->nfs; j++)
			if (rs->v[d->fs[j]].t0 > ev_hi(e))
				break;
		if (j == d->nfs) {
			if (c->in->meta.sweep_done)
				violate(c, WBS_V_LOST, d, NULL, d->file, d->ino,
					ev_lo(e),
					"error instance %u on ino %" PRIu64
					" recorded after this fd's last fsync (%s)",
					level, e->ino, e->line);
			continue;
		}
		c->out->checked_pairs++;
		if (d->lvl[j] < level)
			violate(c, WBS_V_LOST, d, &rs->v[d->fs[j]], d->file, d->ino,
				ev_lo(e),
				"error instance %u was recorded on the mapping before this %s started (%s), the fd's cursor stayed at instance %u",
				level, wbs_op_name(rs->v[d->fs[j]].op), e->line,
				d->lvl[j]);
	}
}

static void check_sets(struct ctx *c)
{
	const struct wbs_trace *t = &c->in->trace;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct wbs_tev *e = &t->v[i];
		int file;

		if (e->type != WBS_TEV_SET || !on_dev(c, e))
			continue;
		c->out->sets++;
		file = wbs_files_by_ino(&c->in->files, e->ino);
		if (file < 0) {
			violate(c, WBS_V_FOREIGN, NULL, NULL, -1, e->ino, ev_lo(e),
				"writeback error on ino %" PRIu64
				", which is not a test file: %s", e->ino, e->line);
			continue;
		}
		if (!fault_before(c, file, ev_hi(e)))
			violate(c, WBS_V_SET_NO_FAULT, NULL, NULL, file, e->ino,
				ev_lo(e), "writeback error on %s with no dm-wberr fault on its sectors before it: %s",
				c->in->files.path[file], e->line);
		check_fsync_lost(c, e, wbs_errseq_level_after_set(e->old));
	}
}

/* Each fault on a file's data must leave an errseq error on that file. */
static void check_faults(struct ctx *c)
{
	const struct wbs_faultlog *fl = &c->in->faults;
	const struct wbs_trace *t = &c->in->trace;
	unsigned int f;
	size_t i, k;

	for (i = 0; i < fl->n; i++) {
		const struct wbs_fault *ft = &fl->v[i];
		unsigned int nhit;

		c->out->faults++;
		for (k = 0; k < wbs_nr_statuses; k++)
			if (wbs_status_errno(wbs_statuses[k]) == ft->err)
				c->out->fault_status[k]++;
		nhit = wbs_files_hit(&c->in->files, ft->sector,
				     ft->sector + (ft->nr ? ft->nr - 1 : 0), c->hit);
		if (!nhit) {
			violate(c, WBS_V_STRAY_FAULT, NULL, NULL, -1, 0, ft->ns,
				"fault at sectors %" PRIu64 "+%u (%s, rule %u) is outside every test file",
				ft->sector, ft->nr, ft->opclass, ft->rule);
			continue;
		}
		c->out->faults_on_files++;
		if (!ft->err)
			continue;	/* action=drop: silent by design */
		for (f = 0; f < c->in->files.nfiles; f++) {
			int found = 0;

			if (!c->hit[f])
				continue;
			for (k = 0; k < t->n && !found; k++)
				found = t->v[k].type == WBS_TEV_SET &&
					on_dev(c, &t->v[k]) &&
					t->v[k].ino == c->in->files.ino[f] &&
					ev_hi(&t->v[k]) >= ft->ns;
			if (!found) {
				violate(c, WBS_V_FAULT_NO_SET, NULL, NULL, (int)f,
					c->in->files.ino[f], ft->ns,
					"dm-wberr failed a write of %s (sectors %" PRIu64 "+%u, %s) and no writeback error was recorded on its mapping afterwards",
					c->in->files.path[f], ft->sector, ft->nr, ft->status);
				/* every hit file was recomputed by violate() */
				wbs_files_hit(&c->in->files, ft->sector,
					      ft->sector + (ft->nr ? ft->nr - 1 : 0), c->hit);
			}
		}
	}
}

/*
 * syncfs: mapping_set_error() sets sb->s_wb_err right after the traced
 * mapping set, and syncfs advances f_sb_err at every call.  So an error
 * traced strictly between two syncfs calls of an fd (with a margin for
 * the untraced sb update) must fail the later one, and a failing syncfs
 * needs an error traced on the fs since the fd's previous syncfs.
 */
static void check_syncfs(struct ctx *c, struct fdst *d)
{
	const struct wbs_recs *rs = &c->in->recs;
	const struct wbs_trace *t = &c->in->trace;
	uint64_t margin = c->in->meta.sb_margin_ns;
	uint64_t prev_t0 = d->open_t1, prev_t1 = d->open_t1;
	size_t j, k;

	for (j = 0; j < d->nsf; j++) {
		const struct wbs_rec *r = &rs->v[d->sf[j]];
		const struct wbs_tev *must = NULL, *cause = NULL;

		for (k = 0; k < t->n; k++) {
			const struct wbs_tev *e = &t->v[k];

			if (e->type != WBS_TEV_SET || !on_dev(c, e))
				continue;
			if (!must && ev_lo(e) > prev_t1 && ev_hi(e) + margin < r->t0)
				must = e;
			if (!cause && ev_hi(e) + margin >= prev_t0 &&
			    ev_lo(e) <= r->t1)
				cause = e;
		}
		c->out->syncfs_checked++;
		if (must && r->ret >= 0)
			violate(c, WBS_V_LOST, d, r, -1, must->ino, ev_lo(must),
				"a writeback error was recorded on the fs after this fd's previous syncfs ended and before this one started, and syncfs returned 0: %s",
				must->line);
		if (r->ret < 0 && !cause)
			violate(c, WBS_V_NO_CAUSE, d, r, -1, d->ino, r->t0,
				"syncfs returned %s with no writeback error recorded on the fs since the fd's previous syncfs",
				wbs_errname(r->err));
		prev_t0 = r->t0;
		prev_t1 = r->t1;
	}
}

unsigned long wbs_oracle_check(const struct wbs_oracle_in *in,
			       struct wbs_oracle_out *out, FILE *f,
			       unsigned int max_print)
{
	struct ctx c = { .in = in, .out = out, .f = f, .max_print = max_print };
	size_t i;

	memset(out, 0, sizeof(*out));
	c.adv = wbs_xcalloc(in->recs.n * MAX_ADV_PER_SYNC + 1, sizeof(*c.adv));
	c.nadv = wbs_xcalloc(in->recs.n + 1, 1);
	c.hit = wbs_xcalloc(in->files.nfiles + 1, 1);
	if (in->meta.stop_ns > in->meta.go_ns)
		out->loop_s = (double)(in->meta.stop_ns - in->meta.go_ns) / 1e9;

	if (in->trace.lost || !in->trace.header_seen)
		violate(&c, WBS_V_INCOMPLETE, NULL, NULL, -1, 0, 0,
			"trace: %" PRIu64 " events lost%s (raise buffer_size_kb)",
			in->trace.lost, in->trace.header_seen ? "" : ", no header");
	if (in->faults.gaps)
		violate(&c, WBS_V_INCOMPLETE, NULL, NULL, -1, 0, 0,
			"fault log: %zu entries lost (raise log_size or drain more often)",
			in->faults.gaps);

	build_fds(&c);
	attribute_advances(&c);
	for (i = 0; i < c.nfds; i++)
		check_fsync_results(&c, &c.fds[i]);
	check_sets(&c);
	check_faults(&c);
	for (i = 0; i < c.nfds; i++)
		check_syncfs(&c, &c.fds[i]);

	for (i = 0; i < c.nfds; i++) {
		free(c.fds[i].fs);
		free(c.fds[i].sf);
		free(c.fds[i].lvl);
	}
	free(c.fds);
	free(c.adv);
	free(c.nadv);
	free(c.hit);
	return out->nviolations;
}

void wbs_oracle_summary(const struct wbs_oracle_out *o, FILE *f,
			const char *prefix)
{
	unsigned long ops = o->writes + o->syncs;
	unsigned int k;

	fprintf(f, "%sfds=%lu writes=%lu syncs=%lu (fsync=%lu fdatasync=%lu syncfs=%lu) loop_s=%.1f ops=%lu ops_per_s=%.1f\n",
		prefix, o->fds, o->writes, o->syncs, o->syncs_by_op[WBS_OP_FSYNC],
		o->syncs_by_op[WBS_OP_FDATASYNC], o->syncs_by_op[WBS_OP_SYNCFS],
		o->loop_s, ops, o->loop_s > 0 ? (double)ops / o->loop_s : 0.0);
	fprintf(f, "%sfaults_injected=%lu faults_on_test_files=%lu by status:",
		prefix, o->faults, o->faults_on_files);
	for (k = 0; k < wbs_nr_statuses; k++)
		if (o->fault_status[k])
			fprintf(f, " %s:%lu", wbs_statuses[k], o->fault_status[k]);
	fputc('\n', f);
	fprintf(f, "%serrors_reported=%lu (fsync=%lu fdatasync=%lu syncfs=%lu, in final sweep %lu) errseq_sets=%lu cursor_advances=%lu set_fd_pairs_checked=%lu syncfs_checked=%lu\n",
		prefix, o->errors, o->errors_by_op[WBS_OP_FSYNC],
		o->errors_by_op[WBS_OP_FDATASYNC], o->errors_by_op[WBS_OP_SYNCFS],
		o->sweep_errors, o->sets, o->advances, o->checked_pairs,
		o->syncfs_checked);
	fprintf(f, "%sviolations=%lu", prefix, o->nviolations);
	for (k = 0; k < WBS_V_NR; k++)
		if (o->violations[k])
			fprintf(f, " %s:%lu", wbs_vkind_name(k), o->violations[k]);
	fputc('\n', f);
}
