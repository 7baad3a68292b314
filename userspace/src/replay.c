// SPDX-License-Identifier: GPL-2.0
/* Replaying recorded cross-checks; see replay.h. */
#include "replay.h"
#include "evidence.h"
#include "wb_tap.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 0 clean, 1 a cross-check failed, 2 unreadable */
static int replay_one(struct wb_tap *t, const char *dir, int verbose)
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
	wb_tap_point(t, !failed, 0, NULL, "%s: %d steps replayed, %d failed a cross-check", in.id,
		     in.nsteps, failed);
	if ((failed == 0) != in.live_ok)
		wb_tap_diag(t, "the live run's cross-checks %s: the replay disagrees",
			    in.live_ok ? "passed" : "failed");
	evidence_free(&in);
	return failed ? 1 : 0;
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
