// SPDX-License-Identifier: GPL-2.0
/*
 * Program mode's judge (synctrace.h): each fault of the plan against the
 * attributed trace (lib/c wb_attr), with a verdict; synctrace_render.c
 * draws the result.
 */
#include "synctrace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wb_invariants.h"
#include "wb_names.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const verdict_names[] = {
	[SC_NOT_FIRED] = "not-fired", [SC_SILENT] = "silent", [SC_LOST] = "lost", [SC_SEEN] = "seen",
};

const char *sc_verdict_name(int verdict)
{
	return verdict >= 0 && verdict < (int)ARRAY_SIZE(verdict_names) ? verdict_names[verdict] : "?";
}

int sc_is_self(const struct sc_judge *j, uint32_t tid, uint32_t tgid)
{
	return j->self && (tgid ? tgid == j->self : tid == j->self);
}

int sc_program_call(const struct sc_judge *j, size_t k)
{
	const struct wb_call *c = &j->a->calls[k];

	return !sc_is_self(j, c->tid, c->tgid) && j->phase[k] == SC_PHASE_PROGRAM;
}

/* the set and cursor-move events, in trace order, and where each one is */
static int index_events(struct sc_judge *j)
{
	const struct wb_trace *t = j->t;

	j->sets = malloc((t->n + 1) * sizeof(*j->sets));
	j->curs = malloc((t->n + 1) * sizeof(*j->curs));
	j->pos = malloc((t->n + 1) * sizeof(*j->pos));
	if (!j->sets || !j->curs || !j->pos)
		return -1;
	for (size_t k = 0; k < t->n; k++) {
		j->pos[k] = -1;
		if (t->v[k].kind == WB_EV_SET)
			j->pos[k] = (long)j->nsets, j->sets[j->nsets++] = k;
		else if (wb_ev_is_advance(&t->v[k]))
			j->pos[k] = (long)j->ncurs, j->curs[j->ncurs++] = k;
	}
	return 0;
}

/* the checker's calls: those entered between the "check start" and "check end" marks */
static int phases(struct sc_judge *j)
{
	const struct wb_trace *t = j->t;
	long from = -1, to = -1;

	j->phase = calloc(j->a->ncalls + 1, 1);
	if (!j->phase)
		return -1;
	for (size_t k = 0; k < t->n; k++) {
		if (t->v[k].kind != WB_EV_MARK || strncmp(t->v[k].mark.text, WB_APP_MARK, strlen(WB_APP_MARK)))
			continue;
		if (!strcmp(t->v[k].mark.text + strlen(WB_APP_MARK), "check start"))
			from = (long)k;
		else if (!strcmp(t->v[k].mark.text + strlen(WB_APP_MARK), "check end"))
			to = (long)k;
	}
	for (size_t i = 0; i < j->a->ncalls && from >= 0; i++) {
		const struct wb_call *c = &j->a->calls[i];
		long at = c->enter >= 0 ? c->enter : c->exit;

		if (at > from && (to < 0 || at < to))
			j->phase[i] = SC_PHASE_CHECK;
	}
	return 0;
}

static int add_seer(struct sc_fate *fate, const struct sc_seer *seer)
{
	if (fate->nseers == fate->cap) {
		size_t cap = fate->cap ? 2 * fate->cap : 8;
		struct sc_seer *v = realloc(fate->seers, cap * sizeof(*v));

		if (!v)
			return -1;
		fate->seers = v;
		fate->cap = cap;
	}
	fate->seers[fate->nseers++] = *seer;
	return 0;
}

/* did the call return the error the set recorded (@consumed when unknown) */
static int ret_matches(const struct sc_judge *j, long call, size_t set, int consumed)
{
	const struct wb_call *c;
	int err = j->a->set_err[set];

	if (call < 0)
		return -1;
	c = &j->a->calls[call];
	if (c->state & WB_CALL_NO_EXIT)
		return -1;
	return c->ret == -(long long)(err >= 0 ? err : consumed);
}

/* every error-consuming cursor move against the sets before it on its inode */
static int seen_by_cursors(struct sc_judge *j)
{
	const struct wb_ev *c;
	struct sc_fate *fate;
	struct sc_seer seer;
	size_t k, i, s;
	long f;

	for (k = 0; k < j->ncurs; k++) {
		c = &j->t->v[j->curs[k]];
		if (c->kind != WB_EV_ADVANCE || !c->es.err || sc_is_self(j, c->pid, c->tgid))
			continue;
		/* latest set first: a fault's seer names the newest set it consumed */
		for (i = j->nsets; i-- > 0;) {
			s = j->sets[i];
			f = j->set_fate[s];
			if (f < 0 || !wb_attr_consumed(j->a, j->curs[k], s))
				continue;
			fate = &j->fates[f];
			if (fate->nseers && fate->seers[fate->nseers - 1].cursor == (long)j->curs[k])
				continue;
			seer = (struct sc_seer){ j->a->call_of[j->curs[k]], (long)j->curs[k], (long)s,
						 ret_matches(j, j->a->call_of[j->curs[k]], s, c->es.err) };
			if (add_seer(fate, &seer))
				return -1;
		}
	}
	return 0;
}

/* the super-block cursor move of call @c, -1 */
static long sb_cursor(const struct sc_judge *j, const struct wb_call *c)
{
	for (size_t i = 0; i < c->nadv; i++)
		if (j->t->v[j->a->adv[c->adv + i]].kind == WB_EV_SB_ADVANCE)
			return (long)j->a->adv[c->adv + i];
	return -1;
}

/* whether failing syncfs @c returned the errno of a set of fault @i recorded before it returned */
static int syncfs_saw(const struct sc_judge *j, const struct wb_call *c, long sbc, size_t i)
{
	const struct sc_fault *f = &j->faults[i];
	const struct sc_fate *fate = &j->fates[i];
	const struct wb_ev *e = sbc >= 0 ? &j->t->v[sbc] : NULL;

	if (e && (e->es.major != f->major || e->es.minor != f->minor))
		return 0;
	for (size_t s = 0; s < fate->nsets; s++) {
		int err = j->a->set_err[fate->sets[s]];

		if (err < 0)
			err = f->err;
		if (j->t->v[fate->sets[s]].us <= c->exit_us && c->ret == -(long long)err)
			return 1;
	}
	return 0;
}

/* failing syncfs (and sync) calls, through the super block's s_wb_err */
static int seen_by_syncfs(struct sc_judge *j)
{
	struct sc_seer seer;

	for (size_t k = 0; k < j->a->ncalls; k++) {
		const struct wb_call *c = &j->a->calls[k];
		long sbc;

		if ((c->kind != WB_CALL_SYNCFS && c->kind != WB_CALL_SYNC) || c->ret >= 0 ||
		    (c->state & WB_CALL_NO_EXIT) || sc_is_self(j, c->tid, c->tgid))
			continue;
		sbc = sb_cursor(j, c);
		for (size_t i = 0; i < j->nfaults; i++) {
			if (!syncfs_saw(j, c, sbc, i))
				continue;
			seer = (struct sc_seer){ (long)k, sbc, -1, 1 };
			if (add_seer(&j->fates[i], &seer))
				return -1;
		}
	}
	return 0;
}

/*
 * A write-family call is kept when it moved a cursor (an O_SYNC write) or
 * failed.  One that failed without a cursor move failed in the write
 * itself: on a file of the file system under test with an errno of the
 * device or of the file system (space, quota, size, read-only); a pipe's
 * or a socket's EPIPE or ECONNRESET is no such file's, and no sync-family
 * result.
 */
static int file_write(const struct wb_call *c)
{
	int err = c->ret < 0 ? (int)-c->ret : 0;

	if (c->kind != WB_CALL_O_SYNC_WRITE || c->nadv)
		return 1;
	if (err == ENOSPC || err == EDQUOT || err == EFBIG || err == EROFS)
		return 1;
	for (size_t i = 0; i < wb_nr_statuses; i++)
		if (wb_statuses[i].err == err)
			return 1;
	return 0;
}

int sc_sync_result(const struct sc_judge *j, size_t k)
{
	return sc_program_call(j, k) && file_write(&j->a->calls[k]);
}

/* the cause rule (wb_invariants): a failed call of the program that saw no fault */
static int unexplained(struct sc_judge *j)
{
	char *seen = calloc(j->a->ncalls + 1, 1);

	j->unexplained = malloc((j->a->ncalls + 1) * sizeof(*j->unexplained));
	if (!seen || !j->unexplained) {
		free(seen);
		return -1;
	}
	for (size_t i = 0; i < j->nfaults; i++)
		for (size_t s = 0; s < j->fates[i].nseers; s++)
			if (j->fates[i].seers[s].call >= 0)
				seen[j->fates[i].seers[s].call] = 1;
	for (size_t k = 0; k < j->a->ncalls; k++) {
		const struct wb_call *c = &j->a->calls[k];
		int err = c->ret < 0 && !(c->state & WB_CALL_NO_EXIT) ? (int)-c->ret : 0;

		if (sc_sync_result(j, k) && wb_inv_cause(err, seen[k]) == WB_INV_NO_CAUSE)
			j->unexplained[j->nunexplained++] = k;
	}
	free(seen);
	return 0;
}

/* whether fault-log entry @e's sectors hold data of a file in @fs */
static int on_data(const struct wb_fault *e, const struct wb_files *fs)
{
	unsigned char hit[fs && fs->nfiles ? fs->nfiles : 1];

	return fs && fs->nfiles && wb_files_hit(fs, e->sector, e->sector + (e->nr ? e->nr - 1 : 0), hit);
}

/* what each fault's entries did: fired, on whose data, and the sets they led to */
static int fates(struct sc_judge *j, const struct wb_files *after)
{
	const struct wb_attr *a = j->a;
	long *fate_of = malloc((a->nfaults + 1) * sizeof(*fate_of));

	j->fates = calloc(j->nfaults + 1, sizeof(*j->fates));
	j->set_fate = malloc((j->t->n + 1) * sizeof(*j->set_fate));
	if (!fate_of || !j->fates || !j->set_fate) {
		free(fate_of);
		return -1;
	}
	for (size_t e = 0; e < a->nfaults; e++)
		fate_of[e] = -1;
	for (size_t i = 0; i < j->nfaults; i++) {
		struct sc_fate *fate = &j->fates[i];

		fate->sets = malloc((j->nsets + 1) * sizeof(*fate->sets));
		if (!fate->sets) {
			free(fate_of);
			return -1;
		}
		fate->nfired = j->faults[i].nlog;
		for (size_t n = 0; n < j->faults[i].nlog; n++) {
			size_t e = j->faults[i].log[n];
			uint64_t us = a->faults[e].ns / 1000;

			fate_of[e] = (long)i;
			fate->nhit += on_data(&a->faults[e], after);
			if (!n || us < fate->fired_us)
				fate->fired_us = us;
			if (!n || us > fate->last_us)
				fate->last_us = us;
		}
	}
	for (size_t k = 0; k < j->t->n; k++) {
		long f = a->set_fault[k] >= 0 ? fate_of[a->set_fault[k]] : -1;

		j->set_fate[k] = f;
		if (f >= 0)
			j->fates[f].sets[j->fates[f].nsets++] = k;
	}
	free(fate_of);
	return 0;
}

int sc_judge(struct sc_judge *j, const struct wb_attr *a, uint32_t self, const struct sc_fault *faults,
	     size_t nfaults, const struct wb_files *after)
{
	memset(j, 0, sizeof(*j));
	j->t = a->trace;
	j->a = a;
	j->self = self;
	j->faults = faults;
	j->nfaults = nfaults;
	if (index_events(j) || phases(j) || fates(j, after) || seen_by_cursors(j) || seen_by_syncfs(j) ||
	    unexplained(j)) {
		sc_judge_free(j);
		return -1;
	}
	for (size_t i = 0; i < nfaults; i++) {
		struct sc_fate *fate = &j->fates[i];

		fate->verdict = fate->nseers ? SC_SEEN : !fate->nfired ? SC_NOT_FIRED :
				fate->nsets ? SC_LOST : SC_SILENT;
	}
	return 0;
}

void sc_judge_free(struct sc_judge *j)
{
	for (size_t i = 0; j->fates && i < j->nfaults; i++) {
		free(j->fates[i].sets);
		free(j->fates[i].seers);
	}
	free(j->fates);
	free(j->set_fate);
	free(j->sets);
	free(j->curs);
	free(j->pos);
	free(j->phase);
	free(j->unexplained);
	memset(j, 0, sizeof(*j));
}

/* each fault of the plan with the log entries its rules produced */
static int plan_faults(struct sc_run *r, const struct wb_fault *log, size_t nlog, uint32_t major,
		       uint32_t minor, const struct sc_plan *plan, size_t n)
{
	size_t at = 0;

	r->faults = calloc(n + 1, sizeof(*r->faults));
	r->logidx = calloc(nlog * (n ? n : 1) + 1, sizeof(*r->logidx));
	if (!r->faults || !r->logidx)
		return -1;
	for (size_t i = 0; i < n; i++) {
		r->faults[i] = (struct sc_fault){ .id = plan[i].id, .err = plan[i].err, .major = major,
						  .minor = minor, .log = r->logidx + at };
		for (size_t k = 0; k < nlog; k++)
			for (size_t q = 0; q < plan[i].nrules; q++)
				if (log[k].rule == plan[i].rules[q]) {
					r->logidx[at++] = k;
					r->faults[i].nlog++;
					break;
				}
	}
	return 0;
}

int sc_run_judge(struct sc_run *r, const struct wb_fault *log, size_t nlog, const struct wb_files *aimed,
		 const struct wb_files *after, uint32_t major, uint32_t minor, uint32_t self,
		 const struct sc_plan *plan, size_t n)
{
	const struct wb_attr_cfg cfg = { .windows = WB_WIN_SYSCALLS };

	if (wb_attr_calls(&r->a, &r->t, &cfg) || wb_attr_faults(&r->a, log, nlog, aimed, major, minor) ||
	    plan_faults(r, log, nlog, major, minor, plan, n))
		return -1;
	return sc_judge(&r->j, &r->a, self, r->faults, n, after);
}

void sc_run_free(struct sc_run *r)
{
	sc_judge_free(&r->j);
	wb_attr_free(&r->a);
	wb_trace_free(&r->t);
	free(r->faults);
	free(r->logidx);
	memset(r, 0, sizeof(*r));
}
