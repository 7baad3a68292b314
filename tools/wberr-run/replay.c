// SPDX-License-Identifier: GPL-2.0
/* Judging any evidence directory again; see replay.h. */
#include "replay.h"
#include "evidence.h"
#include "../wberr-stress/oracle.h"	/* wberr-stress's judge */
#include "synctrace.h"
#include "wb_meta.h"
#include "wb_tap.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* wberr-run's evidence: the step model's cross-checks, step by step; 0 clean,
 * 1 a cross-check failed, 2 unreadable */
static int replay_run(struct wb_tap *t, const char *dir, int verbose)
{
	struct evidence_in in;
	int failed = 0;
	char err[1024];

	if (evidence_load(&in, dir, err, sizeof(err))) {
		wb_tap_point(t, 0, 0, NULL, "%s: unreadable evidence", dir);
		wb_tap_diag(t, "%s", err);
		evidence_free(&in);
		return 2;
	}
	for (int i = 0; i < in.nsteps; i++) {
		const struct evidence_in_step *s = &in.steps[i];
		struct wb_trace tr = { 0 };
		struct wb_attr a = { 0 };
		char msg[4096] = "";
		int pass;

		if (xc_attribute(&tr, &a, s->trace))
			snprintf(msg, sizeof(msg), "out of memory for the trace");
		pass = a.trace && xc_step(&s->xs, &a, msg, sizeof(msg));
		wb_attr_free(&a);
		wb_trace_free(&tr);
		failed += !pass;
		if (!pass || (verbose && msg[0]))
			wb_tap_diag(t, "step %d %s: %s", i + 1, s->what, msg[0] ? msg : "ok");
	}
	wb_tap_point(t, !failed, 0, NULL, "%s: %d steps replayed, %d failed a cross-check (judge: wberr-run's step model)",
		     in.id, in.nsteps, failed);
	if ((failed == 0) != in.live_ok)
		wb_tap_diag(t, "the live run's cross-checks %s: the replay disagrees",
			    in.live_ok ? "passed" : "failed");
	evidence_free(&in);
	return failed ? 1 : 0;
}

/* program mode's evidence: each fault's verdict judged again against what
 * the plan expected and what the live run said */
static int replay_program(struct wb_tap *t, const char *dir, int verbose)
{
	struct program_evidence_in in;
	struct sc_run r = { 0 };
	const char *want, *live;
	char err[1024], got[512] = "";
	size_t o = 0;
	int bad = 0;

	if (program_evidence_load(&in, dir, err, sizeof(err)) || wb_trace_parse(&r.t, in.trace_text) ||
	    sc_run_judge(&r, in.faults.v, in.faults.n, &in.aimed, &in.after, in.major, in.minor, in.self,
			 in.plan, in.nplan)) {
		wb_tap_point(t, 0, 0, NULL, "%s: unreadable evidence", dir);
		wb_tap_diag(t, "%s", err[0] ? err : "out of memory");
		sc_run_free(&r);
		program_evidence_free(&in);
		return 2;
	}
	want = wb_meta_get(&in.meta, "expect", "seen");
	live = wb_meta_get(&in.meta, "live_verdicts", "");
	for (size_t i = 0; i < r.j.nfaults && o < sizeof(got); i++) {
		const char *v = sc_verdict_name(r.j.fates[i].verdict);

		bad += strcmp(v, want) != 0;
		o += (size_t)snprintf(got + o, sizeof(got) - o, "%s%s", i ? "," : "", v);
		if (verbose || strcmp(v, want))
			wb_tap_diag(t, "fault %u %s (expected %s), %zu set(s), %zu seer(s)", r.j.faults[i].id, v, want,
				    r.j.fates[i].nsets, r.j.fates[i].nseers);
	}
	wb_tap_point(t, !bad, 0, NULL, "%s: %zu fault(s) judged again: %s (judge: program mode's verdicts)",
		     wb_meta_get(&in.meta, "id", dir), r.j.nfaults, got);
	if (strcmp(got, live))
		wb_tap_diag(t, "the live run's verdicts were %s: the replay disagrees", live);
	sc_run_free(&r);
	program_evidence_free(&in);
	return bad ? 1 : 0;
}

/* wberr-stress's evidence: the no-lost-error oracle over the whole run */
static int replay_stress(struct wb_tap *t, const char *dir, int verbose)
{
	struct wbs_oracle_in in;
	struct wbs_oracle_out out;
	unsigned long v;

	if (wbs_oracle_load(&in, dir)) {
		wb_tap_point(t, 0, 0, NULL, "%s: unreadable evidence", dir);
		return 2;
	}
	v = wbs_oracle_check(&in, &out, verbose ? stderr : NULL, verbose ? 20 : 0);
	wb_tap_point(t, !v, 0, NULL, "%s: %lu syncs, %lu violation(s) (judge: wberr-stress's oracle)", dir,
		     out.syncs, v);
	wbs_oracle_free(&in);
	return v ? 1 : 0;
}

/* the judge meta.txt names */
static int replay_one(struct wb_tap *t, const char *dir, int verbose)
{
	struct wb_meta m;
	char tool[32] = "";

	if (!wb_meta_load(&m, dir)) {
		snprintf(tool, sizeof(tool), "%s", wb_meta_get(&m, "tool", ""));
		wb_meta_free(&m);
	}
	if (!strcmp(tool, "program"))
		return replay_program(t, dir, verbose);
	if (!strcmp(tool, "wberr-stress"))
		return replay_stress(t, dir, verbose);
	return replay_run(t, dir, verbose);
}

static int has_meta(const char *dir)
{
	char path[4096 + 16];

	snprintf(path, sizeof(path), "%s/meta.txt", dir);
	return !access(path, R_OK);
}

int replay_path(const char *path, FILE *out, int verbose)
{
	struct dirent **names = NULL;
	struct wb_tap t;
	int n = 0, worst = 0, rc;

	wb_tap_init(&t, out);
	wb_tap_header(&t, -1);
	if (has_meta(path)) {
		rc = replay_one(&t, path, verbose);
		wb_tap_done(&t);
		return rc;
	}
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		wb_tap_point(&t, 0, 0, NULL, "%s: no evidence directory", path);
		wb_tap_done(&t);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		char dir[4096];

		if (snprintf(dir, sizeof(dir), "%s/%s", path, names[i]->d_name) >= (int)sizeof(dir))
			dir[0] = 0;
		if (names[i]->d_name[0] != '.' && has_meta(dir)) {
			rc = replay_one(&t, dir, verbose);
			worst = rc > worst ? rc : worst;
		}
		free(names[i]);
	}
	free(names);
	if (!t.n) {
		wb_tap_point(&t, 0, 0, NULL, "%s: no instance evidence (meta.txt) in it", path);
		worst = 2;
	}
	wb_tap_done(&t);
	return worst;
}
