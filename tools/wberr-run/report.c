// SPDX-License-Identifier: GPL-2.0
#include "report.h"
#include "wb_json.h"
#include "wb_names.h"
#include "wb_sys.h"
#include "wb_tap.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void yaml_quote(const char *in, char *out, size_t len)
{
	size_t o = 0;

	if (len < 3)
		return;
	out[o++] = '"';
	for (; *in && o + 3 < len; in++) {
		if (*in == '"' || *in == '\\')
			out[o++] = '\\';
		out[o++] = (*in == '\n' || *in == '\t') ? ' ' : *in;
	}
	out[o++] = '"';
	out[o] = 0;
}

void result_set_secs(struct inst_result *r, double secs)
{
	r->secs = secs;
	r->phase[PH_OTHER] = secs;
	for (int p = 0; p < PH_OTHER; p++)
		r->phase[PH_OTHER] -= r->phase[p];
	if (r->phase[PH_OTHER] < 0)
		r->phase[PH_OTHER] = 0;
}

void result_told_status(struct inst_result *r, const char *name, const char *matrix)
{
	const struct wb_status *bs;
	size_t k;

	if (name && !strcmp(name, "$status"))
		name = matrix;
	bs = name ? wb_status_by_name(name) : NULL;
	k = bs ? (size_t)(bs - wb_statuses) : 64;
	if (k < 64)
		r->statuses_told |= UINT64_C(1) << k;
}

void report_tap_begin(FILE *out, int n)
{
	struct wb_tap t;

	wb_tap_init(&t, out);
	wb_tap_header(&t, n);
}

void report_tap_result(FILE *out, int idx, const struct inst_result *r)
{
	const struct scenario *sc = r->inst->sc;
	char q[2400], dir[sizeof(r->reason) + 16];
	struct wb_tap t;

	wb_tap_init(&t, out);
	if (r->verdict == R_SKIP) {
		snprintf(dir, sizeof(dir), "SKIP %s", r->reason);
		wb_tap_point(&t, 1, idx, dir, "%s", r->inst->id);
		fflush(out);
		return;
	}
	snprintf(dir, sizeof(dir), "%d sync results checked, %d errors reported, %d faults injected, %.1fs",
		 r->nchecked, r->nreported, r->nfaults, r->secs);
	wb_tap_point(&t, r->verdict == R_PASS, idx, dir, "%s", r->inst->id);
	if (r->verdict != R_PASS) {
		yaml_quote(r->reason, q, sizeof(q));
		wb_tap_yaml_begin(&t);
		fprintf(out, "  message: %s\n", q);
		yaml_quote(sc->file, q, sizeof(q));
		fprintf(out, "  at:\n    file: %s\n    line: %d\n", q, sc->line);
		fprintf(out, "  steps:\n");
		for (int i = 0; i < r->nsteps; i++) {
			const struct step_result *s = &r->steps[i];
			char line[2300];

			if (!s->ran)
				continue;
			if (sc->prog) {
				snprintf(line, sizeof(line), "%s %d %s%s%s", s->pass ? "ok" : "FAIL", i + 1,
					 s->what, s->msg[0] ? ": " : "", s->msg);
				yaml_quote(line, q, sizeof(q));
				fprintf(out, "    - %s\n", q);
				continue;
			}
			snprintf(line, sizeof(line), "%s %d %s%s%s -> %s%s%s", s->pass ? "ok" : "FAIL",
				 i + 1, op_names[sc->steps[i].op], sc->steps[i].fd[0] ? " " : "",
				 sc->steps[i].fd, wb_errno_name(s->err), s->msg[0] ? ": " : "", s->msg);
			yaml_quote(line, q, sizeof(q));
			fprintf(out, "    - %s\n", q);
		}
		wb_tap_yaml_end(&t);
	}
	fflush(out);
}

struct gline {
	int fs;
	int dax;		/* the guarantee on DAX (a dax: true scenario) */
	char guarantee[128];
	int pass, fail, skip;
};

/* The header stays one screen however many instances fail. */
#define HEADER_FAILS	10
#define HEADER_REASON	200

/* what the header counts over the instances that ran */
struct tally {
	int pass, fail, skip, checked, reported, faults;
	int per_fs[FS__N];
	unsigned char tried[64];	/* by index in wb_statuses[] */
};

/* the statuses the device was told to return, not those a scenario
 * names in a step that never ran */
static void tally_statuses(struct tally *t, const struct inst_result *r)
{
	const struct scenario *sc = r->inst->sc;

	for (size_t k = 0; k < wb_nr_statuses && k < 64 && k < sizeof(t->tried); k++)
		if (r->statuses_told & (UINT64_C(1) << k))
			t->tried[k] = 1;

	for (int s = 0; s < r->nsteps && s < sc->nsteps; s++) {
		const char *name = sc->steps[s].fault.rule.status;
		const struct wb_status *bs;

		if (!r->steps[s].ran || sc->steps[s].op != OP_FAULT)
			continue;
		if (!strcmp(name, "$status"))
			name = r->inst->status;
		bs = name ? wb_status_by_name(name) : NULL;
		if (bs && (size_t)(bs - wb_statuses) < sizeof(t->tried))
			t->tried[bs - wb_statuses] = 1;
	}
}

static void tally(struct tally *t, const struct inst_result *rs, int n)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < n; i++) {
		const struct inst_result *r = &rs[i];

		t->pass += r->verdict == R_PASS;
		t->fail += r->verdict == R_FAIL;
		if (r->verdict == R_SKIP) {
			t->skip++;
			continue;	/* nothing of it ran */
		}
		t->per_fs[r->inst->fs]++;
		t->checked += r->nchecked;
		t->reported += r->nreported;
		t->faults += r->nfaults;
		tally_statuses(t, r);
	}
}

/* "Scenarios:" the paths, filters and shard of the run */
static void header_scenarios(FILE *out, const char *prefix, const struct run_info *ri)
{
	fprintf(out, "%sScenarios:     ", prefix);
	for (int i = 0; ri && i < ri->npaths; i++)
		fprintf(out, "%s%s", i ? " " : "", ri->paths[i]);
	if (ri && ri->nfilters) {
		fprintf(out, " (filter");
		for (int i = 0; i < ri->nfilters; i++)
			fprintf(out, " %s", ri->filters[i]);
		fprintf(out, ")");
	}
	if (ri && ri->shard)
		fprintf(out, " (shard %s)", ri->shard);
}

/* "File systems:" and "blk_status_t:" */
static void header_coverage(FILE *out, const char *prefix, const struct tally *t)
{
	int nfs = 0, ntried = 0;
	const char *sep = "";

	fprintf(out, "%sFile systems:  ", prefix);
	for (int fs = 0; fs < FS__N; fs++) {
		if (!t->per_fs[fs])
			continue;
		fprintf(out, "%s%s (%d)", nfs ? ", " : "", fs_names[fs], t->per_fs[fs]);
		nfs++;
	}
	fprintf(out, "%s\n%sblk_status_t:  ", nfs ? "" : "none ran", prefix);
	for (size_t k = 0; k < wb_nr_statuses && k < sizeof(t->tried); k++)
		ntried += t->tried[k];
	if (!ntried) {
		fprintf(out, "none injected\n");
		return;
	}
	if ((size_t)ntried == wb_nr_statuses) {
		/* the whole library tries every status: one word, not a screen */
		fprintf(out, "all %d that dm-wberr can return\n", ntried);
		return;
	}
	for (size_t k = 0; k < wb_nr_statuses && k < sizeof(t->tried); k++) {
		if (!t->tried[k])
			continue;
		fprintf(out, "%s%s", sep, wb_statuses[k].name);
		sep = ", ";
	}
	fprintf(out, " (%d of %zu)\n", ntried, wb_nr_statuses);
}

/* "Time:" where the time went, over every instance (skipped ones cost 0) */
static void header_time(FILE *out, const char *prefix, const struct inst_result *rs, int n)
{
	double ph[PH__N] = { 0 }, total = 0;

	for (int i = 0; i < n; i++)
		for (int p = 0; p < PH__N; p++)
			ph[p] += rs[i].phase[p];
	for (int p = 0; p < PH__N; p++)
		total += ph[p];
	fprintf(out, "%sTime:          %.1f s in instances:", prefix, total);
	for (int p = 0; p < PH__N; p++)
		fprintf(out, "%s %s %.1f", p ? "," : "", phase_names[p], ph[p]);
	fputc('\n', out);
}

/* "Violations:" each failed instance on one line, the first HEADER_FAILS */
static void header_violations(FILE *out, const char *prefix, const struct inst_result *rs, int n, int fail)
{
	int shown = 0;

	if (!fail) {
		fprintf(out, "%sViolations:    none\n", prefix);
		return;
	}
	fprintf(out, "%sViolations:    %d failed instance%s\n", prefix, fail, fail == 1 ? "" : "s");
	for (int i = 0; i < n; i++) {
		char why[HEADER_REASON + 1];
		size_t len;

		if (rs[i].verdict != R_FAIL)
			continue;
		if (shown == HEADER_FAILS) {
			fprintf(out, "%s  ... and %d more (the TAP file has each one's steps)\n", prefix,
				fail - shown);
			break;
		}
		/* one line each: the TAP file has the full reason and steps */
		snprintf(why, sizeof(why), "%s", rs[i].reason);
		for (char *p = why; *p; p++)
			if (*p == '\n' || *p == '\t')
				*p = ' ';
		len = strlen(rs[i].reason);
		fprintf(out, "%s  %s: %s%s\n", prefix, rs[i].inst->id, why[0] ? why : "failed",
			len > HEADER_REASON ? "..." : "");
		shown++;
	}
}

static void report_header(FILE *out, const char *prefix, const struct run_info *ri,
			  const struct inst_result *rs, int n)
{
	struct tally t;

	tally(&t, rs, n);
	fprintf(out, "%sKernel:        %s\n", prefix, ri && ri->kernel ? ri->kernel : "unknown");
	header_scenarios(out, prefix, ri);
	fprintf(out, "\n%sInstances:     %d: %d passed, %d failed, %d skipped\n", prefix, n, t.pass, t.fail, t.skip);
	header_coverage(out, prefix, &t);
	fprintf(out, "%sSync results:  %d fd results checked against the model, %d of them returned an error\n",
		prefix, t.checked, t.reported);
	fprintf(out, "%sFaults:        %d injected (dm-wberr fault log entries)\n", prefix, t.faults);
	header_time(out, prefix, rs, n);
	header_violations(out, prefix, rs, n, t.fail);
}

const char *const verdict_names[R__N] = { "pass", "fail", "skip" };

const char *const phase_names[PH__N] = {
	"device", "mkfs", "mount", "steps", "check", "teardown", "other"
};

/* "[holds] (2/2)": one cell of the summary */
static void guarantee_cell(char *buf, size_t len, const struct gline *g)
{
	if (!g)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%s] (%d/%d)", g->fail ? "FAILS" : g->pass ? "holds" : "skipped",
			 g->pass, g->pass + g->fail);
}

/*
 * Per filesystem, one line per guarantee.  When the run has DAX instances
 * (scenarios with dax: true), each line has two columns, the page cache
 * and DAX, since the same guarantee can hold on one and not the other.
 */
void report_summary(FILE *out, const char *prefix, const struct run_info *ri,
		    const struct inst_result *rs, int n)
{
	struct gline *g = calloc((size_t)n + 1, sizeof(*g));
	int ng = 0, pass = 0, fail = 0, skip = 0, anydax = 0, width = 0;

	report_header(out, prefix, ri, rs, n);
	fprintf(out, "%s\n", prefix);

	for (int i = 0; i < n; i++) {
		const struct scenario *sc = rs[i].inst->sc;
		const char *gu = sc->guarantee[0] ? sc->guarantee : sc->name;
		int k;

		for (k = 0; k < ng; k++)
			if (g[k].fs == rs[i].inst->fs && g[k].dax == sc->dax && !strcmp(g[k].guarantee, gu))
				break;
		if (k == ng) {
			g[ng].fs = rs[i].inst->fs;
			g[ng].dax = sc->dax;
			snprintf(g[ng].guarantee, sizeof(g[ng].guarantee), "%s", gu);
			if ((int)strlen(g[ng].guarantee) > width)
				width = (int)strlen(g[ng].guarantee);
			ng++;
		}
		anydax |= sc->dax;
		switch (rs[i].verdict) {
		case R_PASS: g[k].pass++; pass++; break;
		case R_FAIL: g[k].fail++; fail++; break;
		default: g[k].skip++; skip++; break;
		}
	}
	fprintf(out, "%sSummary: which guarantees hold on this kernel, per filesystem%s\n", prefix,
		anydax ? " (page cache | DAX)" : "");
	for (int fs = 0; fs < FS__N; fs++) {
		int any = 0;

		for (int k = 0; k < ng; k++) {
			char cell[2][48];
			const struct gline *col[2] = { NULL, NULL };
			int seen = 0;

			if (g[k].fs != fs)
				continue;
			if (!any && anydax) {
				char title[16];

				snprintf(title, sizeof(title), "%s:", fs_names[fs]);
				fprintf(out, "%s\n%s%-*s  %-18s %s\n", prefix, prefix, width + 2,
					title, "page cache", "DAX");
			}
			else if (!any)
				fprintf(out, "%s\n%s%s:\n", prefix, prefix, fs_names[fs]);
			any = 1;
			if (!anydax) {
				fprintf(out, "%s  [%s] %s (%d/%d)\n", prefix,
					g[k].fail ? "FAILS" : g[k].pass ? "holds" : "skipped", g[k].guarantee,
					g[k].pass, g[k].pass + g[k].fail);
				continue;
			}
			/* one line per guarantee, at its first group */
			for (int j = 0; j < k; j++)
				seen |= g[j].fs == fs && !strcmp(g[j].guarantee, g[k].guarantee);
			if (seen)
				continue;
			for (int j = k; j < ng; j++)
				if (g[j].fs == fs && !strcmp(g[j].guarantee, g[k].guarantee))
					col[g[j].dax] = &g[j];
			guarantee_cell(cell[0], sizeof(cell[0]), col[0]);
			guarantee_cell(cell[1], sizeof(cell[1]), col[1]);
			fprintf(out, "%s  %-*s  %-18s %s\n", prefix, width, g[k].guarantee, cell[0], cell[1]);
		}
	}
	fprintf(out, "%s\n%s%d passed, %d failed, %d skipped\n", prefix, prefix, pass, fail, skip);
	free(g);
}

/* @dir/@base.md and @dir/@base.csv, both or neither */
static int open_table(const char *dir, const char *base, FILE **md, FILE **csv)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s.md", dir, base);
	*md = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/%s.csv", dir, base);
	*csv = fopen(path, "w");
	if (*md && *csv)
		return 0;
	if (*md)
		fclose(*md);
	if (*csv)
		fclose(*csv);
	return -1;
}

/* the header rows of both files: the @nfixed first columns (@md_fixed
 * "| a | b |", @csv_fixed "a,b"), then @ncols names @stride bytes apart */
static void table_header(FILE *md, FILE *csv, const char *md_fixed, const char *csv_fixed, int nfixed,
			 const char *cols, size_t stride, int ncols)
{
	fprintf(md, "%s", md_fixed);
	fprintf(csv, "%s", csv_fixed);
	for (int k = 0; k < ncols; k++) {
		fprintf(md, " %s |", cols + (size_t)k * stride);
		fprintf(csv, ",%s", cols + (size_t)k * stride);
	}
	fprintf(md, "\n|");
	for (int k = 0; k < nfixed + ncols; k++)
		fprintf(md, "---|");
	fprintf(md, "\n");
	fprintf(csv, "\n");
}

/* the rest of a row after its fixed columns: @ncols cells @stride bytes
 * apart, "-" in the markdown for an empty one */
static void table_cells(FILE *md, FILE *csv, const char *cells, size_t stride, int ncols)
{
	for (int k = 0; k < ncols; k++) {
		const char *c = cells + (size_t)k * stride;

		fprintf(md, " %s |", c[0] ? c : "-");
		fprintf(csv, ",%s", c);
	}
	fprintf(md, "\n");
	fprintf(csv, "\n");
}

#define FID_COLS 64

/* the fidelity columns, "<fs> <label>" in first-seen order; their number */
static int fidelity_columns(const struct inst_result *rs, int n, char (*cols)[96])
{
	int ncols = 0;

	for (int i = 0; i < n; i++) {
		const struct scenario *sc = rs[i].inst->sc;

		if (!sc->fidelity || !rs[i].inst->status || rs[i].inst->backend != WB_BK_DM_WBERR)
			continue;
		for (int s = 0; s < sc->nsteps; s++) {
			char c[96];
			int k;

			if (!sc->steps[s].label[0])
				continue;
			snprintf(c, sizeof(c), "%s %s", fs_names[rs[i].inst->fs], sc->steps[s].label);
			for (k = 0; k < ncols; k++)
				if (!strcmp(cols[k], c))
					break;
			if (k == ncols && ncols < FID_COLS)
				strcpy(cols[ncols++], c);
		}
	}
	return ncols;
}

/*
 * Status @bs's cells: the errno each labelled step returned; 1 when one
 * ran, and *@named when any instance injected the status (ran or not).
 */
static int fidelity_cells(const struct inst_result *rs, int n, const struct wb_status *bs,
			  char (*cols)[96], int ncols, char (*cells)[48], int *named)
{
	int row = 0;

	*named = 0;
	for (int k = 0; k < ncols; k++)
		strcpy(cells[k], "");
	for (int i = 0; i < n; i++) {
		const struct scenario *sc = rs[i].inst->sc;

		if (!sc->fidelity || !rs[i].inst->status || strcmp(rs[i].inst->status, bs->name) ||
		    rs[i].inst->backend != WB_BK_DM_WBERR)
			continue;
		*named = 1;
		/* a skipped instance ran no step and has no results */
		for (int s = 0; s < sc->nsteps && s < rs[i].nsteps; s++) {
			char c[96];

			if (!sc->steps[s].label[0] || !rs[i].steps[s].ran)
				continue;
			snprintf(c, sizeof(c), "%s %s", fs_names[rs[i].inst->fs], sc->steps[s].label);
			for (int k = 0; k < ncols; k++)
				if (!strcmp(cols[k], c)) {
					snprintf(cells[k], 48, "%s%s%s", wb_errno_name(rs[i].steps[s].err),
						 rs[i].steps[s].err == bs->err ? " =" : "",
						 rs[i].steps[s].pass ? "" : " (x)");
					row = 1;
				}
		}
	}
	return row;
}

/* columns: "<fs> <label>" in first-seen order; rows: statuses */
int report_fidelity(const char *dir, const struct wb_kernel *k, const struct inst_result *rs, int n)
{
	char cols[FID_COLS][96], cells[FID_COLS][48];
	int ncols = fidelity_columns(rs, n, cols), named;
	FILE *md, *csv;

	if (!ncols)
		return 0;
	if (open_table(dir, "errno-fidelity", &md, &csv))
		return -1;
	fprintf(md, "# Errno fidelity: what each call returned for each injected BLK_STS_*\n\n");
	fprintf(md, "A cell is the errno the call returned; `=` marks it equal to blk_status_to_errno(), "
		"`(x)` marks a failed check (see the TAP output).\n\n");
	table_header(md, csv, "| status | BLK_STS | blk_status_to_errno |", "status,blk_sts,blk_errno", 3, cols[0], sizeof(cols[0]), ncols);
	for (size_t st = 0; st < wb_nr_statuses; st++) {
		const struct wb_status *bs = &wb_statuses[st];
		int absent = k && k->statuses_read && !k->has[st];
		int blk_sts = k && k->statuses_read && k->has[st] ? k->value[st] : bs->blk_sts;
		int row = fidelity_cells(rs, n, bs, cols, ncols, cells, &named);

		if (absent && named) {
			/* its instances were skipped: say so where the row would be */
			for (int c = 0; c < ncols; c++)
				snprintf(cells[c], sizeof(cells[c]), "absent");
			fprintf(md, "| %s | - | %s |", bs->name, wb_errno_name(bs->err));
			fprintf(csv, "%s,,%s", bs->name, wb_errno_name(bs->err));
			table_cells(md, csv, cells[0], sizeof(cells[0]), ncols);
			continue;
		}
		if (!row)
			continue;
		fprintf(md, "| %s | %d | %s |", bs->name, blk_sts, wb_errno_name(bs->err));
		fprintf(csv, "%s,%d,%s", bs->name, blk_sts, wb_errno_name(bs->err));
		table_cells(md, csv, cells[0], sizeof(cells[0]), ncols);
	}
	fclose(md);
	return fclose(csv) ? -1 : 1;
}

/* backend @bk's columns, "<fs> <label>" in first-seen order; their number */
static int backend_columns(const struct inst_result *rs, int n, int bk, char (*cols)[96])
{
	int ncols = 0;

	for (int i = 0; i < n; i++) {
		const struct instance *in = rs[i].inst;

		for (int s = 0; in->sc->fidelity && in->backend == bk && in->status && s < in->sc->nsteps; s++) {
			char c[96];
			int k = 0;

			if (!in->sc->steps[s].label[0])
				continue;
			snprintf(c, sizeof(c), "%s %s", fs_names[in->fs], in->sc->steps[s].label);
			while (k < ncols && strcmp(cols[k], c))
				k++;
			if (k == ncols && ncols < FID_COLS)
				strcpy(cols[ncols++], c);
		}
	}
	return ncols;
}

/*
 * Status @nat's row: in @cells each labelled call's errno (and its time
 * in ms), in @chosen the statuses the kernel completed the failed data
 * writes with, in @tries the commands the injector failed per failed
 * request; 1 when an instance ran
 */
static int backend_cells(const struct inst_result *rs, int n, const struct wb_native *nat, char (*cols)[96],
			 int ncols, char (*cells)[48], char *chosen, size_t clen, char *tries, size_t tlen)
{
	int row = 0;

	chosen[0] = tries[0] = 0;
	for (int k = 0; k < ncols; k++)
		cells[k][0] = 0;
	for (int i = 0; i < n; i++) {
		const struct instance *in = rs[i].inst;
		char t[32];

		if (!in->sc->fidelity || in->backend != nat->backend || !in->status || strcmp(in->status, nat->name) ||
		    rs[i].verdict == R_SKIP)
			continue;
		row = 1;
		if (rs[i].observed[0] && !strstr(chosen, rs[i].observed))
			snprintf(chosen + strlen(chosen), clen - strlen(chosen), "%s%s", chosen[0] ? " " : "",
				 rs[i].observed);
		snprintf(t, sizeof(t), "%" PRIu64 "/%d", rs[i].fired, rs[i].nfaults);
		if (!strstr(tries, t))
			snprintf(tries + strlen(tries), tlen - strlen(tries), "%s%s", tries[0] ? " " : "", t);
		for (int s = 0; s < in->sc->nsteps && s < rs[i].nsteps; s++) {
			char c[96];

			if (!in->sc->steps[s].label[0] || !rs[i].steps[s].ran)
				continue;
			snprintf(c, sizeof(c), "%s %s", fs_names[in->fs], in->sc->steps[s].label);
			for (int k = 0; k < ncols; k++)
				if (!strcmp(cols[k], c))
					snprintf(cells[k], 48, "%s (%.0f ms)%s", wb_errno_name(rs[i].steps[s].err),
						 rs[i].steps[s].secs * 1000, rs[i].steps[s].pass ? "" : " (x)");
		}
	}
	return row;
}

/* one backend's table: its statuses as rows */
static void backend_table(FILE *md, FILE *csv, const struct inst_result *rs, int n, int bk)
{
	char cols[FID_COLS][96], cells[FID_COLS][48], chosen[96], tries[96];
	int ncols = backend_columns(rs, n, bk, cols);

	if (!ncols)
		return;
	fprintf(md, "## %s\n\n%s; fault log: %s.\n\n", wb_backends[bk].name, wb_backends[bk].injector,
		wb_backends[bk].fault_log);
	table_header(md, csv, "| status | the device says | by the source | chosen | tries by the source | commands failed / requests |",
		     "backend,status,source_blk,chosen,source_tries,failed_per_requests", 6, cols[0], sizeof(cols[0]),
		     ncols);
	for (size_t i = 0; i < wb_nr_natives; i++) {
		const struct wb_native *nat = &wb_natives[i];

		if (nat->backend != bk ||
		    !backend_cells(rs, n, nat, cols, ncols, cells, chosen, sizeof(chosen), tries, sizeof(tries)))
			continue;
		fprintf(md, "| `%s` | %s | BLK_STS_%s | %s | %d | %s |", nat->name, nat->what,
			wb_status_by_name(nat->blk)->sfx, chosen[0] ? chosen : "-", nat->attempts, tries);
		fprintf(csv, "%s,%s,%s,%s,%d,%s", wb_backends[bk].name, nat->name, nat->blk, chosen, nat->attempts, tries);
		table_cells(md, csv, cells[0], sizeof(cells[0]), ncols);
	}
	fprintf(md, "\n");
}

int report_backends(const char *dir, const struct inst_result *rs, int n)
{
	FILE *md, *csv;
	int any = 0;

	for (int i = 0; i < n && !any; i++)
		any = rs[i].inst->sc->fidelity && rs[i].inst->backend != WB_BK_DM_WBERR && rs[i].inst->status;
	if (!any)
		return 0;
	if (open_table(dir, "errno-fidelity-backends", &md, &csv))
		return -1;
	fprintf(md, "# Errno fidelity over real drivers: each driver's own statuses\n\n"
		"Per status: what the device says, the blk_status_t the 6.12 source says the kernel "
		"chooses (docs/real-drivers.md has the lines), the one it chose (the failed completions "
		"traced), the tries the source says the driver makes and the commands the injector failed "
		"per failed request (measured), then each labelled call's errno and wall time; `(x)` marks a "
		"failed check.\n\n");
	for (int bk = 0; bk < WB_BK__N; bk++)
		if (wb_backends[bk].natives)
			backend_table(md, csv, rs, n, bk);
	fclose(md);
	return fclose(csv) ? -1 : 1;
}

static void json_kernel(FILE *f, const struct wb_kernel *k)
{
	fputs("{\"release\": ", f);
	wb_json_str(f, k && k->release[0] ? k->release : NULL);
	fprintf(f, ", \"series\": %s, \"statuses\": ",
		!k || k->series < 0 ? "null" : k->series ? "true" : "false");
	if (!k || !k->statuses_read) {
		fputs("null}", f);
		return;
	}
	fputc('{', f);
	for (size_t i = 0, first = 1; i < wb_nr_statuses; i++) {
		if (!k->has[i])
			continue;
		fprintf(f, "%s", first ? "" : ", ");
		wb_json_str(f, wb_statuses[i].name);
		fprintf(f, ": %d", k->value[i]);
		first = 0;
	}
	fputs("}}", f);
}

static void json_steps(FILE *f, const struct inst_result *r)
{
	const struct scenario *sc = r->inst->sc;

	fputs("[", f);
	for (int s = 0; s < r->nsteps && s < sc->nsteps; s++) {
		const struct step *st = &sc->steps[s];
		const struct step_result *sr = &r->steps[s];

		fprintf(f, "%s\n      {\"n\": %d, \"line\": %d, \"op\": ", s ? "," : "", s + 1, st->line);
		wb_json_str(f, op_names[st->op]);
		fputs(", \"label\": ", f);
		wb_json_str(f, st->label[0] ? st->label : NULL);
		fprintf(f, ", \"ran\": %s", sr->ran ? "true" : "false");
		if (sr->ran) {
			fputs(", \"errno\": ", f);
			wb_json_errno(f, sr->err);
			fprintf(f, ", \"checked\": %s, \"expected\": ",
				sr->checked || sr->explicit_ ? "true" : "false");
			if (sr->checked || sr->explicit_)
				wb_json_errno(f, sr->expected);
			else
				fputs("null", f);
			fprintf(f, ", \"pass\": %s", sr->pass ? "true" : "false");
			if (sr->content)
				fprintf(f, ", \"content\": \"%s\"", content_names[sr->content]);
			/* the backends table shows it in ms */
			fprintf(f, ", \"secs\": %.4f", sr->secs);
		}
		fputs(", \"msg\": ", f);
		wb_json_str(f, sr->msg[0] ? sr->msg : NULL);
		fputc('}', f);
	}
	fputs(r->nsteps ? "\n    ]" : "]", f);
}

/* the counts the summary totals, and the statuses the instance told the device */
static void json_counts(FILE *f, const struct inst_result *r)
{
	struct tally t;
	const char *sep = "";

	tally(&t, r, 1);
	fprintf(f, ",\n    \"sync_results\": %d, \"errors_reported\": %d, \"faults_injected\": %d, \"statuses\": [",
		r->nchecked, r->nreported, r->nfaults);
	for (size_t k = 0; k < wb_nr_statuses && k < sizeof(t.tried); k++) {
		if (!t.tried[k])
			continue;
		fputs(sep, f);
		wb_json_str(f, wb_statuses[k].name);
		sep = ", ";
	}
	fputc(']', f);
}

/* program mode: its promise and findings, and each check it was judged by, in order */
static void json_checks(FILE *f, const struct inst_result *r)
{
	const struct program *pg = r->inst->sc->prog;

	fputs(",\n    \"promise\": ", f);
	wb_json_str(f, pg->promise[0] ? pg->promise : NULL);
	fputs(", \"why\": ", f);
	wb_json_str(f, pg->why[0] ? pg->why : NULL);
	fprintf(f, ", \"expect\": {\"program\": \"%s\", \"check\": \"%s\", \"errors\": \"%s\"}",
		(const char *[]){ "any", "zero", "nonzero" }[pg->expect_program],
		pg->expect_check == EXIT_NONZERO ? "fail" : "pass", errors_expect_names[pg->expect_errors]);
	fputs(",\n    \"checks\": [", f);
	for (int i = 0; i < r->nsteps; i++) {
		fprintf(f, "%s\n      {\"what\": ", i ? "," : "");
		wb_json_str(f, r->steps[i].what);
		fprintf(f, ", \"pass\": %s, \"msg\": ", r->steps[i].pass ? "true" : "false");
		wb_json_str(f, r->steps[i].msg[0] ? r->steps[i].msg : NULL);
		fputc('}', f);
	}
	fputs(r->nsteps ? "\n    ]" : "]", f);
}

/* what the run was asked for: the header's "Scenarios:" line */
static void json_run(FILE *f, const struct run_info *ri)
{
	if (!ri) {
		fputs("null", f);
		return;
	}
	fputs("{\"scenarios\": [", f);
	for (int i = 0; i < ri->npaths; i++) {
		fputs(i ? ", " : "", f);
		wb_json_str(f, ri->paths[i]);
	}
	fputs("], \"filters\": [", f);
	for (int i = 0; i < ri->nfilters; i++) {
		fputs(i ? ", " : "", f);
		wb_json_str(f, ri->filters[i]);
	}
	fputs("], \"shard\": ", f);
	wb_json_str(f, ri->shard);
	fputc('}', f);
}

/* a real driver's: the commands its injector failed, the status the kernel chose */
static void json_backend(FILE *f, const struct inst_result *r)
{
	if (r->inst->backend == WB_BK_DM_WBERR)
		return;
	fprintf(f, ", \"fired\": %" PRIu64 ", \"observed\": ", r->fired);
	wb_json_str(f, r->observed[0] ? r->observed : NULL);
}

int report_json(const char *dir, const struct run_info *ri, const struct wb_kernel *k,
		const struct inst_result *rs, int n)
{
	FILE *f = wb_fopen_in(dir, "results.json", "we");

	if (!f)
		return -1;
	fputs("{\n  \"kernel\": ", f);
	json_kernel(f, k);
	fputs(",\n  \"run\": ", f);
	json_run(f, ri);
	fputs(",\n  \"instances\": [", f);
	for (int i = 0; i < n; i++) {
		const struct inst_result *r = &rs[i];
		const struct instance *in = r->inst;

		fprintf(f, "%s\n   {\"id\": ", i ? "," : "");
		wb_json_str(f, in->id);
		fputs(", \"scenario\": ", f);
		wb_json_str(f, in->sc->name);
		fputs(", \"file\": ", f);
		wb_json_str(f, in->sc->file);
		fputs(", \"guarantee\": ", f);
		wb_json_str(f, in->sc->guarantee[0] ? in->sc->guarantee : NULL);
		fputs(", \"fs\": ", f);
		wb_json_str(f, fs_names[in->fs]);
		fputs(", \"status\": ", f);
		wb_json_str(f, in->status);
		fprintf(f, ", \"dax\": %s, \"fidelity\": %s, \"verdict\": \"%s\", \"secs\": %.1f, \"reason\": ",
			in->sc->dax ? "true" : "false", in->sc->fidelity ? "true" : "false", verdict_names[r->verdict],
			r->secs);
		wb_json_str(f, r->reason[0] ? r->reason : NULL);
		fputs(",\n    \"phases\": {", f);
		for (int p = 0; p < PH__N; p++)
			fprintf(f, "%s\"%s\": %.3f", p ? ", " : "", phase_names[p], r->phase[p]);
		fputc('}', f);
		json_counts(f, r);
		json_backend(f, r);
		if (in->sc->prog)
			json_checks(f, r);
		fputs(",\n    \"steps\": ", f);
		json_steps(f, r);
		fputc('}', f);
	}
	fputs("\n  ]\n}\n", f);
	return fclose(f) ? -1 : 0;
}

/* columns: the labels of pread steps with content:, first-seen order */
int report_content(const char *dir, const struct inst_result *rs, int n)
{
	char cols[32][NAME_LEN];
	int ncols = 0;
	FILE *md, *csv;

	for (int i = 0; i < n; i++) {
		const struct scenario *sc = rs[i].inst->sc;

		for (int s = 0; s < sc->nsteps; s++) {
			int k;

			if (!sc->steps[s].has_content || !sc->steps[s].label[0])
				continue;
			for (k = 0; k < ncols; k++)
				if (!strcmp(cols[k], sc->steps[s].label))
					break;
			if (k == ncols && ncols < 32)
				strcpy(cols[ncols++], sc->steps[s].label);
		}
	}
	if (!ncols)
		return 0;
	if (open_table(dir, "content-after-failure", &md, &csv))
		return -1;
	fprintf(md, "# What a file holds after its write-back failed\n\n");
	fprintf(md, "A cell is what the read found: `new` (the data whose write-back failed), `old` "
		"(what the disk held before), `zero`, `mixed`, or the errno the read returned; "
		"`(x)` marks a failed expect_content (see the TAP output).\n\n");
	table_header(md, csv, "| scenario | fs |", "scenario,fs", 2, cols[0], sizeof(cols[0]), ncols);
	for (int i = 0; i < n; i++) {
		const struct instance *in = rs[i].inst;
		const struct scenario *sc = in->sc;
		char cells[32][48], fs[64];
		int row = 0;

		for (int k = 0; k < ncols; k++)
			strcpy(cells[k], "");
		for (int s = 0; s < sc->nsteps && s < rs[i].nsteps; s++) {
			const struct step_result *sr = &rs[i].steps[s];

			if (!sc->steps[s].has_content || !sc->steps[s].label[0] || !sr->ran)
				continue;
			for (int k = 0; k < ncols; k++)
				if (!strcmp(cols[k], sc->steps[s].label)) {
					snprintf(cells[k], sizeof(cells[k]), "%s%s",
						 sr->err ? wb_errno_name(sr->err) : content_names[sr->content],
						 sr->pass ? "" : " (x)");
					row = 1;
				}
		}
		if (!row)
			continue;
		snprintf(fs, sizeof(fs), "%s%s%s%s%s", fs_names[in->fs],
			 in->data_mode != DM_DEFAULT ? " data=" : "",
			 in->data_mode != DM_DEFAULT ? data_mode_names[in->data_mode] : "",
			 in->status ? " " : "", in->status ? in->status : "");
		/* the scenario on a real driver: its instances' @<backend> */
		fprintf(md, "| %s%s%s | %s |", sc->name, in->backend ? "@" : "",
			in->backend ? wb_backends[in->backend].name : "", fs);
		fprintf(csv, "%s%s%s,%s", sc->name, in->backend ? "@" : "",
			in->backend ? wb_backends[in->backend].name : "", fs);
		table_cells(md, csv, cells[0], sizeof(cells[0]), ncols);
	}
	fclose(md);
	return fclose(csv) ? -1 : 1;
}

void report_write(const char *dir, const struct run_info *ri, const struct wb_kernel *k,
		  const struct inst_result *rs, int n)
{
	FILE *f;

	mkdir(dir, 0755);
	f = wb_fopen_in(dir, "summary.txt", "we");
	if (f) {
		report_summary(f, "", ri, rs, n);
		fclose(f);
	}
	if (report_fidelity(dir, k, rs, n) < 0)
		fprintf(stderr, "wberr-run: cannot write the errno-fidelity table in %s\n", dir);
	if (report_backends(dir, rs, n) < 0)
		fprintf(stderr, "wberr-run: cannot write the backends' errno-fidelity tables in %s\n", dir);
	if (report_json(dir, ri, k, rs, n) < 0)
		fprintf(stderr, "wberr-run: cannot write results.json in %s\n", dir);
	if (report_content(dir, rs, n) < 0)
		fprintf(stderr, "wberr-run: cannot write the content table in %s\n", dir);
}
