// SPDX-License-Identifier: GPL-2.0
/* wberr-run's evidence directory, written and read; see evidence.h. */
#include "evidence.h"
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
			fprintf(m, "tool=wberr-run\nid=%s\nfs=%s\nstatus=%s\nseed=%" PRIu64
				"\ntraced=%d\nsb_traced=%d\nsteps=%d\nlive_crosscheck=%s\n",
				id, fs, status ? status : "-", seed, traced, sb_traced, e->nsteps,
				e->failed ? "fail" : "ok");
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
	char *text = read_in(dir, "meta.txt"), *line, *save = NULL, tool[32] = "";
	char live[8] = "";

	if (!text)
		return fail(err, len, "%s/meta.txt: %s", dir, strerror(errno));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		sscanf(line, "tool=%31s", tool);
		sscanf(line, "id=%255s", in->id);
		sscanf(line, "fs=%15s", in->fs);
		sscanf(line, "status=%31s", in->status);
		sscanf(line, "seed=%" SCNu64, &in->seed);
		sscanf(line, "traced=%d", &in->traced);
		sscanf(line, "sb_traced=%d", &in->sb_traced);
		sscanf(line, "steps=%d", &in->nsteps);
		sscanf(line, "live_crosscheck=%7s", live);
	}
	free(text);
	if (strcmp(tool, "wberr-run"))
		return fail(err, len, "%s/meta.txt: not wberr-run's evidence (tool=%s)", dir, tool);
	if (in->nsteps < 0 || in->nsteps > 100000)
		return fail(err, len, "%s/meta.txt: steps=%d", dir, in->nsteps);
	in->live_ok = !strcmp(live, "ok");
	return 0;
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
