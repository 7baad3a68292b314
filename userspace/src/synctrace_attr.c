// SPDX-License-Identifier: GPL-2.0
/*
 * Program mode's trace (synctrace.h), part 2: each injected fault tied to
 * the mapping sets it led to and to the calls and open file descriptions
 * that saw them.
 */
#include "synctrace.h"
#include "synctrace_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wb_errseq.h"
#include "wb_names.h"

int sc_is_self(uint32_t self, uint32_t tid, uint32_t tgid)
{
	return self && (tgid ? tgid == self : tid == self);
}

int sc_excluded(const struct sc_attr *attr, const struct sc_call *call)
{
	return sc_is_self(attr->self, call->tid, call->tgid);
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
		if (c->sb || !c->err || sc_is_self(a->self, c->tid, c->tgid))
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
		    (c->state & SC_NO_EXIT) || sc_is_self(a->self, c->tid, c->tgid))
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
