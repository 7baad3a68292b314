// SPDX-License-Identifier: GPL-2.0
#include "faults.h"
#include "wb_dm.h"
#include "wb_faultlog.h"
#include "wb_names.h"
#include "util.h"
#include "wb_sys.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DYN_RULES 48
/* a "log" answer fits dm-ioctl's buffer, a "list" of 48+ rules is smaller */
#define RESP_LEN (1 << 20)

/* a refused message is a warning: what was sent, libdevmapper's reason
 * (an answer without a rule id is counted by the caller) */
static int sent(struct wbs_faults *fp, int rc)
{
	if (rc && rc != -EPROTO)
		wbs_warn(0, "message %s 0 %s: %s", fp->cfg.dev, fp->w.sent, wb_dm_error());
	return rc;
}

void wbs_faults_event(struct wbs_faults *fp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wb_faultlog_vput_event(fp->log, wbs_now_ns(), fmt, ap);
	va_end(ap);
}

int wbs_faults_init(struct wbs_faults *fp, const struct wbs_faults_cfg *cfg,
		    const struct wb_files *files, const char *dir)
{
	struct wb_kernel k;
	char err[256], *nl;

	memset(fp, 0, sizeof(*fp));
	fp->cfg = *cfg;
	fp->files = files;
	wbs_rng_seed(&fp->rng, cfg->seed, 0xfa017);
	fp->log = wb_fopen_in(dir, "faults.txt", "we");
	if (!fp->log)
		return -1;
	if (wb_wberr_open(&fp->w, cfg->dev, RESP_LEN))
		return -1;
	if (wb_dm_table(cfg->dev, fp->w.resp, RESP_LEN) || !fp->w.resp[0]) {
		wbs_warn(0, "table %s: %s", cfg->dev, wb_dm_error());
		return -1;
	}
	nl = strchr(fp->w.resp, '\n');
	if (nl)
		*nl = '\0';
	fp->table = wbs_xstrdup(fp->w.resp);
	wb_kernel_init(&k);
	if (wb_kernel_read_statuses(&k, cfg->dev, err, sizeof(err))) {
		wbs_warn(0, "%s", err);
		return -1;
	}
	for (size_t i = 0; i < wb_nr_statuses; i++)
		if (k.has[i])
			fp->statuses[fp->nstatuses++] = wb_statuses[i].name;
	wbs_faults_event(fp, "statuses %zu of %zu", fp->nstatuses, wb_nr_statuses);
	fp->dyn = wbs_xcalloc(MAX_DYN_RULES, sizeof(*fp->dyn));
	fp->base = wbs_xcalloc(files->next, sizeof(*fp->base));
	wbs_faults_event(fp, "table %s", fp->table);
	return 0;
}

/* A rule of @st's status over extent @e, with the rest of its keys at their
 * defaults, for the caller to set. */
static struct wb_rule rule_on(const struct wb_file_ext *e, unsigned int ops, const char *st)
{
	struct wb_rule r;

	wb_rule_init(&r);
	r.ops = ops;
	snprintf(r.status, sizeof(r.status), "%s", st);
	r.has_sectors = 1;
	r.first = e->first;
	r.last = e->last;
	return r;
}

/* "add ..." -> rule id, or -1 (logged). */
static int add_rule(struct wbs_faults *fp, const struct wb_rule *r)
{
	unsigned int id;
	int rc = sent(fp, wb_wberr_add(&fp->w, r, &id));

	/* the rule's text: what was sent after "add " */
	if (!rc) {
		fp->rules_added++;
		wbs_faults_event(fp, "rule epoch=%u id=%u %s", fp->epoch, id, fp->w.sent + 4);
		return (int)id;
	}
	fp->failures++;
	wbs_faults_event(fp, "rule-failed rc=%d %s", rc, fp->w.sent + 4);
	return -1;
}

static void remove_rule(struct wbs_faults *fp, unsigned int slot)
{
	unsigned int id = fp->dyn[slot];
	int rc = sent(fp, wb_wberr_remove(&fp->w, id));

	if (rc)
		fp->failures++;
	else
		fp->rules_removed++;
	wbs_faults_event(fp, "remove epoch=%u id=%u rc=%d", fp->epoch, id, rc);
	fp->dyn[slot] = fp->dyn[--fp->ndyn];
}

static int add_base(struct wbs_faults *fp, size_t i, const char *st)
{
	struct wb_rule r = rule_on(&fp->files->ext[i], WB_OP_WRITE | WB_OP_FUA, st);

	r.prob = fp->cfg.prob_ppm;
	fp->base[i] = add_rule(fp, &r);
	return fp->base[i];
}

/*
 * The k-th status of a rotation over every status this kernel has, from
 * ioerr (the first file of the first epoch gets the commonest error).
 */
static const char *status_at(const struct wbs_faults *fp, size_t k)
{
	size_t first = 0;

	while (first < fp->nstatuses && strcmp(fp->statuses[first], "ioerr"))
		first++;
	return fp->statuses[(first + k) % fp->nstatuses];
}

int wbs_faults_arm(struct wbs_faults *fp)
{
	size_t i;
	int bad = 0;

	if (!fp->cfg.prob_ppm)
		return 0;
	for (i = 0; i < fp->files->next; i++) {
		const char *st = status_at(fp, i + fp->epoch);

		/* the alias once in a while, so it is exercised too */
		if (!strcmp(st, "resv_conflict") && (fp->epoch & 1))
			st = "nexus";
		if (add_base(fp, i, st) < 0)
			bad = 1;
	}
	return bad ? -1 : 0;
}

/* Replaces one extent's base rule with one of another status. */
static void rebase(struct wbs_faults *fp)
{
	size_t i = (size_t)wbs_rng_below(&fp->rng, fp->files->next);
	const char *st = status_at(fp, wbs_rng_below(&fp->rng, fp->nstatuses));
	int rc;

	if (!fp->cfg.prob_ppm)
		return;
	if (fp->base[i] >= 0) {
		rc = sent(fp, wb_wberr_remove(&fp->w, (unsigned int)fp->base[i]));
		wbs_faults_event(fp, "remove epoch=%u id=%d rc=%d", fp->epoch,
				 fp->base[i], rc);
		if (rc)
			fp->failures++;
		else
			fp->rules_removed++;
	}
	add_base(fp, i, st);
}

static const struct wb_file_ext *pick_extent(struct wbs_faults *fp)
{
	return &fp->files->ext[wbs_rng_below(&fp->rng, fp->files->next)];
}

static const char *pick_status(struct wbs_faults *fp)
{
	return status_at(fp, wbs_rng_below(&fp->rng, fp->nstatuses));
}

static void add_dyn(struct wbs_faults *fp, int id)
{
	if (id < 0)
		return;
	if (fp->ndyn == MAX_DYN_RULES)
		remove_rule(fp, 0);
	fp->dyn[fp->ndyn++] = (unsigned int)id;
}

/* A table change, logged as "<verb> rc=<0 or -errno>". */
static int dm_done(struct wbs_faults *fp, const char *verb, int rc)
{
	wbs_faults_event(fp, "%s rc=%d", verb, rc);
	if (rc) {
		wbs_warn(0, "%s %s: %s", verb, fp->cfg.dev, wb_dm_error());
		fp->failures++;
	}
	return rc;
}

/* suspend is --nolockfs: dm quiesces and holds I/O but does not freeze
 * the fs (a freeze under this load took ~15 s in trials, a whole run). */
static int suspend(struct wbs_faults *fp)
{
	return dm_done(fp, "suspend", wb_dm_suspend(fp->cfg.dev, 1));
}

static int resume(struct wbs_faults *fp)
{
	return dm_done(fp, "resume", wb_dm_resume(fp->cfg.dev));
}

void wbs_faults_reload(struct wbs_faults *fp)
{
	int rc;

	if (suspend(fp))
		return;
	/* suspended: no bio is mapped, so the log is final; read all of it
	 * before the reload destroys this target instance */
	wbs_faults_drain(fp, 0);
	rc = wb_dm_reload(fp->cfg.dev, fp->table);
	wbs_faults_event(fp, "load rc=%d", rc);
	if (rc)
		wbs_warn(0, "load %s: %s", fp->cfg.dev, wb_dm_error());
	resume(fp);
	if (rc) {
		fp->failures++;
		return;
	}
	/* a new target instance: no rules, a fresh log */
	fp->reloads++;
	fp->epoch++;
	fp->next_seq = 0;
	fp->ndyn = 0;
	wbs_faults_event(fp, "epoch %u", fp->epoch);
	wbs_faults_arm(fp);
}

void wbs_faults_suspend_resume(struct wbs_faults *fp)
{
	fp->suspends++;
	if (!suspend(fp))
		resume(fp);
}

void wbs_faults_step(struct wbs_faults *fp)
{
	const struct wb_file_ext *e = pick_extent(fp);
	unsigned int r = (unsigned int)wbs_rng_below(&fp->rng, 100);
	unsigned int maxd = fp->cfg.max_delay_ms ? fp->cfg.max_delay_ms : 1;
	struct wb_rule rule;

	/* the draws in the order the seeded runs have always made them */
	if (r < 30) {
		uint64_t count = wbs_rng_range(&fp->rng, 1, 4), skip = wbs_rng_below(&fp->rng, 4);

		rule = rule_on(e, WB_OP_WRITE | WB_OP_FUA, pick_status(fp));
		rule.skip = skip;
		rule.count = count;
		add_dyn(fp, add_rule(fp, &rule));
	} else if (r < 42) {
		uint64_t count = wbs_rng_range(&fp->rng, 2, 6), every = wbs_rng_range(&fp->rng, 2, 4);

		rule = rule_on(e, WB_OP_WRITE | WB_OP_FUA, pick_status(fp));
		rule.every = every;
		rule.count = count;
		add_dyn(fp, add_rule(fp, &rule));
	} else if (r < 52) {
		unsigned int delay = (unsigned int)wbs_rng_range(&fp->rng, 1, maxd);
		uint64_t count = wbs_rng_range(&fp->rng, 1, 2);

		rule = rule_on(e, WB_OP_WRITE, pick_status(fp));
		rule.count = count;
		rule.delay_ms = delay;
		add_dyn(fp, add_rule(fp, &rule));
	} else if (r < 64) {
		if (fp->ndyn)
			remove_rule(fp, (unsigned int)wbs_rng_below(&fp->rng, fp->ndyn));
	} else if (r < 74) {
		rebase(fp);
	} else if (fp->cfg.robust && r < 84) {
		wbs_faults_suspend_resume(fp);
	} else if (fp->cfg.robust && r < 89) {
		wbs_faults_reload(fp);
	}
}

/* wb_wberr_log's callback: each entry into faults.txt, a gap before it
 * when the log lost entries, an event for a line that does not parse */
static int record_entry(void *arg, const char *line, const struct wb_fault *f)
{
	struct wbs_faults *fp = arg;

	if (!f) {
		wbs_faults_event(fp, "log-unparsed %s", line);
		return 0;
	}
	if (f->seq > fp->next_seq)
		wb_faultlog_put_gap(fp->log, fp->epoch, fp->next_seq, f->seq);
	wb_faultlog_put_fault(fp->log, fp->epoch, f);
	return 0;
}

int wbs_faults_drain(struct wbs_faults *fp, int bounded)
{
	int rc = sent(fp, wb_wberr_log(&fp->w, &fp->next_seq, bounded ? 4 : 0, record_entry, fp));

	fflush(fp->log);
	if (rc) {
		wbs_faults_event(fp, "log-failed rc=%d", rc);
		fp->failures++;
		return -1;
	}
	return 0;
}

int wbs_faults_clear(struct wbs_faults *fp)
{
	int rc = sent(fp, wb_wberr_clear(&fp->w));

	wbs_faults_event(fp, "clear rc=%d", rc);
	fp->ndyn = 0;
	return rc;
}

void wbs_faults_close(struct wbs_faults *fp)
{
	if (fp->log)
		fclose(fp->log);
	free(fp->table);
	wb_wberr_close(&fp->w);
	free(fp->base);
	free(fp->dyn);
	memset(fp, 0, sizeof(*fp));
}
