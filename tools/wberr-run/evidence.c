// SPDX-License-Identifier: GPL-2.0
/* wberr-run's evidence directory, written and read; see evidence.h. */
#include "evidence.h"
#include "wb_meta.h"
#include "wb_errseq.h"
#include "wb_names.h"
#include "wb_sys.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STEP_SEP "# wberr-run step "

/* ------------------------------------------------------------ writer */

void evidence_dirname(const char *id, char *buf, size_t len)
{
	size_t i;

	for (i = 0; id[i] && i + 1 < len; i++)
		buf[i] = (id[i] >= 'a' && id[i] <= 'z') || (id[i] >= 'A' && id[i] <= 'Z') ||
			 (id[i] >= '0' && id[i] <= '9') || strchr("._+-", id[i]) ? id[i] : '_';
	if (len)
		buf[i] = 0;
}

int evidence_open(struct evidence *e, const char *root, const char *id)
{
	char name[256];
	int n;

	memset(e, 0, sizeof(*e));
	evidence_dirname(id, name, sizeof(name));
	if (mkdir(root, 0755) && errno != EEXIST)
		return -1;
	n = snprintf(e->dir, sizeof(e->dir), "%s/%s", root, name);
	if (n < 0 || (size_t)n >= sizeof(e->dir) || (mkdir(e->dir, 0755) && errno != EEXIST))
		return -1;
	e->faults = wb_fopen_in(e->dir, "faults.txt", "we");
	e->trace = wb_fopen_in(e->dir, "trace.txt", "we");
	e->steps = wb_fopen_in(e->dir, "steps.txt", "we");
	if (e->faults && e->trace && e->steps)
		return 0;
	evidence_close(e, NULL, NULL, NULL, 0, 0, 0);
	return -1;
}

static enum wb_rec_op rec_op(const char *op)
{
	static const struct { const char *name; enum wb_rec_op op; } map[] = {
		{ "open", WB_REC_OPEN }, { "reopen", WB_REC_OPEN }, { "fsync", WB_REC_FSYNC },
		{ "fdatasync", WB_REC_FDATASYNC }, { "syncfs", WB_REC_SYNCFS },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(op, map[i].name))
			return map[i].op;
	return WB_REC_STEP;
}

void evidence_step(struct evidence *e, const struct evidence_step *s)
{
	const struct xc_step *xs = s->xs;
	unsigned int p = s->proc_index < EV_MAX_PROCS ? s->proc_index : EV_MAX_PROCS - 1;
	struct wb_rec r;

	if (!e->steps)
		return;
	memset(&r, 0, sizeof(r));	/* the tail padding too: the file is bytes */
	r.t0 = s->t0;
	r.t1 = s->t1;
	r.ino = xs->cursor ? xs->pred_ino : 0;
	r.ret = s->ret < 0 || xs->err ? -1 : s->ret;
	r.err = xs->err;
	r.proc = (uint16_t)p;
	r.op = (uint8_t)rec_op(s->op);
	r.phase = WB_REC_PHASE_LOOP;
	if (!e->rec[p].f && wb_rec_open(&e->rec[p], e->dir, p))
		e->rec[p].f = NULL;
	if (e->rec[p].f) {
		e->rec[p].seq = (uint32_t)xs->step;	/* the markers' seq */
		wb_rec_put(&e->rec[p], &r);
	}
	wb_faultlog_put_event(e->faults, s->t1, "step %d", xs->step);
	for (size_t k = 0; k < s->nfaults; k++)
		wb_faultlog_put_fault(e->faults, 0, &s->faults[k]);
	fflush(e->faults);
	fprintf(e->trace, STEP_SEP "%d\n%s", xs->step, s->trace ? s->trace : "");
	if (s->trace && *s->trace && s->trace[strlen(s->trace) - 1] != '\n')
		fputc('\n', e->trace);
	fprintf(e->steps, "step %d %s proc=%s explicit=%d fault_op=%d nlog=%lu %s\n", xs->step, s->op,
		s->proc, xs->explicit_, xs->fault_op, xs->nlog, s->what);
	for (size_t k = 0; k < xs->nattr; k++)
		fprintf(e->steps, "fault %d %" PRIu64 " ino=%#lx %s\n", xs->step, xs->attr[k].f->seq,
			xs->attr[k].ino, xs->attr[k].path);
	if (xs->cursor)
		fprintf(e->steps, "pred %d sb=%d consumed=%d err=%s before=%#x after=%#x ino=%#lx\n",
			xs->step, xs->pred.sb, xs->pred.consumed, wb_errno_name(xs->pred.err),
			xs->pred.cur_before, xs->pred.cur_after, xs->pred_ino);
	e->nsteps++;
	e->failed += !s->xc_ok;
}

int evidence_close(struct evidence *e, const char *id, const char *fs, const char *status,
		  uint64_t seed, int traced, int sb_traced)
{
	int rc = 0;
	FILE *m;

	if (id && e->steps) {
		m = wb_fopen_in(e->dir, "meta.txt", "we");
		if (!m)
			rc = -1;
		else {
			wb_meta_put(m, "tool", "wberr-run");
			wb_meta_put(m, "id", "%s", id);
			wb_meta_put(m, "fs", "%s", fs);
			wb_meta_put(m, "status", "%s", status ? status : "-");
			wb_meta_put(m, "seed", "%" PRIu64, seed);
			wb_meta_put(m, "traced", "%d", traced);
			wb_meta_put(m, "sb_traced", "%d", sb_traced);
			wb_meta_put(m, "steps", "%d", e->nsteps);
			wb_meta_put(m, "live_crosscheck", "%s", e->failed ? "fail" : "ok");
			rc |= fclose(m);
		}
	}
	for (int p = 0; p < EV_MAX_PROCS; p++)
		if (e->rec[p].f)
			rc |= wb_rec_close(&e->rec[p]);
	if (e->faults)
		rc |= fclose(e->faults);
	if (e->trace)
		rc |= fclose(e->trace);
	if (e->steps)
		rc |= fclose(e->steps);
	e->faults = e->trace = e->steps = NULL;
	return rc ? -1 : 0;
}

int evidence_remove(const char *root, const char *id)
{
	char name[256], dir[4096], path[8192];
	struct dirent *de;
	DIR *d;

	evidence_dirname(id, name, sizeof(name));
	snprintf(dir, sizeof(dir), "%s/%s", root, name);
	d = opendir(dir);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	closedir(d);
	return rmdir(dir);
}

/* ------------------------------------------------------------ reader */

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static char *read_in(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return wb_read_file(path, NULL);
}

static int load_meta(struct evidence_in *in, const char *dir, char *err, size_t len)
{
	struct wb_meta m;
	const char *tool;
	int rc = 0;

	if (wb_meta_load(&m, dir))
		return fail(err, len, "%s/meta.txt: %s", dir, strerror(errno));
	tool = wb_meta_get(&m, "tool", "");
	snprintf(in->id, sizeof(in->id), "%s", wb_meta_get(&m, "id", ""));
	snprintf(in->fs, sizeof(in->fs), "%s", wb_meta_get(&m, "fs", ""));
	snprintf(in->status, sizeof(in->status), "%s", wb_meta_get(&m, "status", ""));
	in->seed = wb_meta_u64(&m, "seed", 0);
	in->traced = (int)wb_meta_u64(&m, "traced", 0);
	in->sb_traced = (int)wb_meta_u64(&m, "sb_traced", 0);
	in->nsteps = (int)wb_meta_u64(&m, "steps", 0);
	in->live_ok = !strcmp(wb_meta_get(&m, "live_crosscheck", ""), "ok");
	if (strcmp(tool, "wberr-run"))
		rc = fail(err, len, "%s/meta.txt: not wberr-run's evidence (tool=%s)", dir, tool);
	else if (in->nsteps < 0 || in->nsteps > 100000)
		rc = fail(err, len, "%s/meta.txt: steps=%d", dir, in->nsteps);
	wb_meta_free(&m);
	return rc;
}

static struct evidence_in_step *step_at(struct evidence_in *in, int i)
{
	return i >= 0 && i < in->nsteps ? &in->steps[i] : NULL;
}

/* trace.txt: each step's part starts at its separator line */
static int load_trace(struct evidence_in *in, const char *dir, char *err, size_t len)
{
	char *p;

	in->trace_text = read_in(dir, "trace.txt");
	if (!in->trace_text)
		return fail(err, len, "%s/trace.txt: %s", dir, strerror(errno));
	for (p = in->trace_text; p && *p;) {
		char *nl = strchr(p, '\n');
		struct evidence_in_step *s;
		int i;

		if (!strncmp(p, STEP_SEP, strlen(STEP_SEP)) && sscanf(p + strlen(STEP_SEP), "%d", &i) == 1) {
			*p = 0;		/* ends the previous part (its number is read) */
			s = step_at(in, i);
			if (!s)
				return fail(err, len, "%s/trace.txt: step %d of %d", dir, i, in->nsteps);
			s->trace = nl ? nl + 1 : p;	/* p is "" now */
		}
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

static const struct wb_fault *fault_by_seq(const struct evidence_in *in, uint64_t seq)
{
	for (size_t k = 0; k < in->faults.n; k++)
		if (in->faults.v[k].seq == seq)
			return &in->faults.v[k];
	return NULL;
}

static int load_steps(struct evidence_in *in, const char *dir, char *err, size_t len)
{
	char *line, *save = NULL;

	in->steps_text = read_in(dir, "steps.txt");
	if (!in->steps_text)
		return fail(err, len, "%s/steps.txt: %s", dir, strerror(errno));
	for (line = strtok_r(in->steps_text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct evidence_in_step *s;
		unsigned long ino, nlog;
		char errname[32], op[32], proc[32];
		uint64_t seq;
		int i, a, b, c, off = 0;
		unsigned int before, after;

		if (sscanf(line, "step %d %31s proc=%31s explicit=%d fault_op=%d nlog=%lu %n", &i,
			   op, proc, &a, &b, &nlog, &off) == 6) {
			s = step_at(in, i);
			if (!s)
				return fail(err, len, "%s/steps.txt: step %d of %d", dir, i, in->nsteps);
			snprintf(s->op, sizeof(s->op), "%s", op);
			snprintf(s->proc, sizeof(s->proc), "%s", proc);
			snprintf(s->what, sizeof(s->what), "%s", off ? line + off : op);
			s->present = 1;
			s->xs.step = i;
			s->xs.explicit_ = a;
			s->xs.fault_op = b;
			s->xs.nlog = nlog;
		} else if (sscanf(line, "fault %d %" SCNu64 " ino=%lx %n", &i, &seq, &ino, &off) == 3 && off) {
			struct xc_attr *v;

			s = step_at(in, i);
			if (!s)
				return fail(err, len, "%s/steps.txt: fault of step %d of %d", dir, i, in->nsteps);
			v = realloc(s->attrs, (s->nattr + 1) * sizeof(*v));
			if (!v)
				return fail(err, len, "out of memory");
			s->attrs = v;
			v[s->nattr].f = fault_by_seq(in, seq);
			if (!v[s->nattr].f)
				return fail(err, len, "%s/steps.txt: step %d's fault #%" PRIu64 " is not in faults.txt",
					    dir, i, seq);
			v[s->nattr].ino = ino;
			v[s->nattr].path = line + off;
			s->nattr++;
		} else if (sscanf(line, "pred %d sb=%d consumed=%d err=%31s before=%x after=%x ino=%lx",
				  &i, &a, &c, errname, &before, &after, &ino) == 7) {
			s = step_at(in, i);
			if (!s)
				return fail(err, len, "%s/steps.txt: pred of step %d of %d", dir, i, in->nsteps);
			s->xs.cursor = 1;
			s->xs.pred_ino = ino;
			s->xs.pred = (struct or_pred){ .valid = 1, .sb = a, .consumed = c,
						       .cur_before = before, .cur_after = after };
			s->xs.pred.err = wb_errno_by_name(errname);
			if (s->xs.pred.err < 0)
				return fail(err, len, "%s/steps.txt: step %d: errno %s", dir, i, errname);
		} else {
			return fail(err, len, "%s/steps.txt: cannot read \"%.80s\"", dir, line);
		}
	}
	return 0;
}

int evidence_load(struct evidence_in *in, const char *dir, char *err, size_t len)
{
	char path[4096];

	memset(in, 0, sizeof(*in));
	if (load_meta(in, dir, err, len))
		return -1;
	in->steps = calloc((size_t)in->nsteps + 1, sizeof(*in->steps));
	if (!in->steps)
		return fail(err, len, "out of memory");
	snprintf(path, sizeof(path), "%s/faults.txt", dir);
	if (wb_faultlog_load(&in->faults, path))
		return fail(err, len, "%s: %s", path, strerror(errno));
	if (wb_recs_load(&in->recs, dir))
		return fail(err, len, "%s/recs.*.bin: %s", dir, strerror(errno));
	if (load_trace(in, dir, err, len) || load_steps(in, dir, err, len))
		return -1;
	for (int i = 0; i < in->nsteps; i++) {
		struct evidence_in_step *s = &in->steps[i];
		const struct wb_rec *r = NULL;

		if (!s->present)
			return fail(err, len, "%s/steps.txt: no line for step %d", dir, i);
		for (size_t k = 0; k < in->recs.n && !r; k++)
			if (in->recs.v[k].seq == (uint32_t)i)
				r = &in->recs.v[k];
		if (!r)
			return fail(err, len, "%s/recs.*.bin: no call record of step %d", dir, i);
		if (s->xs.nlog > in->faults.n)
			return fail(err, len, "%s/faults.txt: %zu faults, step %d counts %lu", dir,
				    in->faults.n, i, s->xs.nlog);
		s->xs.err = r->ret < 0 ? r->err : 0;
		s->xs.traced = in->traced;
		s->xs.sb_traced = in->sb_traced;
		s->xs.attr = s->attrs;
		s->xs.nattr = s->nattr;
	}
	return 0;
}

void evidence_free(struct evidence_in *in)
{
	for (int i = 0; in->steps && i < in->nsteps; i++)
		free(in->steps[i].attrs);
	free(in->steps);
	wb_faultlog_free(&in->faults);
	wb_recs_free(&in->recs);
	free(in->trace_text);
	free(in->steps_text);
	memset(in, 0, sizeof(*in));
}

/* ------------------------------------------------------------ program mode */

static int write_plan(const char *dir, const struct program_evidence *e)
{
	FILE *f = wb_fopen_in(dir, "plan.txt", "we");

	if (!f)
		return -1;
	for (size_t i = 0; i < e->nplan; i++) {
		fprintf(f, "fault %u %s", e->plan[i].id, e->plan[i].err ? wb_errno_name(e->plan[i].err) : "0");
		for (size_t k = 0; k < e->plan[i].nrules; k++)
			fprintf(f, " %u", e->plan[i].rules[k]);
		fputc('\n', f);
	}
	return fclose(f);
}

static int write_program_meta(const char *dir, const struct program_evidence *e)
{
	FILE *f = wb_fopen_in(dir, "meta.txt", "we");

	if (!f)
		return -1;
	wb_meta_put(f, "tool", "program");
	wb_meta_put(f, "id", "%s", e->id);
	wb_meta_put(f, "fs", "%s", e->fs);
	wb_meta_put(f, "status", "%s", e->status ? e->status : "-");
	wb_meta_put(f, "dev", "%u:%u", e->major, e->minor);
	wb_meta_put(f, "self", "%u", e->self);
	wb_meta_put(f, "expect", "%s", e->expect);
	fputs("live_verdicts=", f);
	for (size_t i = 0; i < e->j->nfaults; i++)
		fprintf(f, "%s%s", i ? "," : "", sc_verdict_name(e->j->fates[i].verdict));
	fputc('\n', f);
	return fclose(f);
}

int program_evidence_write(const char *dir, const struct program_evidence *e)
{
	FILE *f = wb_fopen_in(dir, "faults.txt", "we");
	int rc = 0;

	if (!f)
		return -1;
	for (size_t k = 0; k < e->nlog; k++)
		wb_faultlog_put_fault(f, 0, &e->log[k]);
	rc |= fclose(f);
	rc |= write_plan(dir, e);
	rc |= write_program_meta(dir, e);
	rc |= wb_files_save(e->aimed, dir, "files.txt");
	rc |= wb_files_save(e->after, dir, "files-after.txt");
	return rc ? -1 : 0;
}

/* one plan.txt line into in->plan[in->nplan] */
static int plan_line(struct program_evidence_in *in, char *line, size_t *nrules)
{
	struct sc_plan *pl = &in->plan[in->nplan];
	char errname[32], *tok, *save = NULL;
	unsigned int id;
	int off = 0;

	if (sscanf(line, "fault %u %31s %n", &id, errname, &off) < 2)
		return -1;
	pl->id = id;
	pl->err = strcmp(errname, "0") ? wb_errno_by_name(errname) : 0;
	pl->rules = in->rules + *nrules;
	for (tok = strtok_r(line + off, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		in->rules[(*nrules)++] = (unsigned int)strtoul(tok, NULL, 10);
	pl->nrules = (size_t)(in->rules + *nrules - pl->rules);
	in->nplan++;
	return pl->err < 0 ? -1 : 0;
}

static int load_plan(struct program_evidence_in *in, const char *dir, char *err, size_t len)
{
	char *text = read_in(dir, "plan.txt"), *line, *save = NULL;
	size_t n = 0, nrules = 0;

	if (!text)
		return fail(err, len, "%s/plan.txt: %s", dir, strerror(errno));
	for (char *p = text; *p; p++)
		n += *p == '\n' || *p == ' ';
	in->plan = calloc(n + 1, sizeof(*in->plan));
	in->rules = calloc(n + 1, sizeof(*in->rules));
	for (line = strtok_r(text, "\n", &save); line && in->plan && in->rules; line = strtok_r(NULL, "\n", &save))
		if (plan_line(in, line, &nrules)) {
			free(text);
			return fail(err, len, "%s/plan.txt: cannot read \"%.80s\"", dir, line);
		}
	free(text);
	return in->plan && in->rules ? 0 : fail(err, len, "out of memory");
}

int program_evidence_load(struct program_evidence_in *in, const char *dir, char *err, size_t len)
{
	char path[4096];

	memset(in, 0, sizeof(*in));
	if (wb_meta_load(&in->meta, dir))
		return fail(err, len, "%s/meta.txt: %s", dir, strerror(errno));
	if (strcmp(wb_meta_get(&in->meta, "tool", ""), "program"))
		return fail(err, len, "%s/meta.txt: not program mode's evidence", dir);
	sscanf(wb_meta_get(&in->meta, "dev", ""), "%u:%u", &in->major, &in->minor);
	in->self = (uint32_t)wb_meta_u64(&in->meta, "self", 0);
	snprintf(path, sizeof(path), "%s/faults.txt", dir);
	if (wb_faultlog_load(&in->faults, path))
		return fail(err, len, "%s: %s", path, strerror(errno));
	if (wb_files_load(&in->aimed, dir, "files.txt") || wb_files_load(&in->after, dir, "files-after.txt"))
		return fail(err, len, "%s/files.txt or files-after.txt: %s", dir, strerror(errno));
	in->trace_text = read_in(dir, "trace.txt");
	if (!in->trace_text)
		return fail(err, len, "%s/trace.txt: %s", dir, strerror(errno));
	return load_plan(in, dir, err, len);
}

void program_evidence_free(struct program_evidence_in *in)
{
	wb_meta_free(&in->meta);
	wb_faultlog_free(&in->faults);
	wb_files_free(&in->aimed);
	wb_files_free(&in->after);
	free(in->plan);
	free(in->rules);
	free(in->trace_text);
	memset(in, 0, sizeof(*in));
}
