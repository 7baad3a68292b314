// SPDX-License-Identifier: GPL-2.0
/*
 * results_read(): the whole scenario library with made-up results, its
 * results.json written as two shards and read back, must make every file
 * of --results byte for byte as the results in memory did (wberr-run
 * --merge, make run's two boots); and what it refuses.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "parse.h"
#include "report.h"
#include "results_read.h"
#include "wb_names.h"
#include "wb_test.h"

static unsigned long long seed = 42;

static unsigned rnd(unsigned n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(seed >> 33) % n;
}

/*
 * what a message may hold: quotes, a backslash, controls, UTF-8, DEL, C1,
 * U+2028 (bytes that are not UTF-8 come back as the U+FFFD wb_json wrote)
 */
static const char *const msgs[] = {
	"", "returned \"EIO\" \\ expected ENOSPC", "line\nbreak\ttab", "caf\xc3\xa9 \xe2\x80\xa8 \x7f \xc2\x85 end",
	"seen: 1 bio(s) failed", "a disk \xf0\x9f\x92\xbe, U+FFFE \xef\xbf\xbe",
};
static const int errnos[] = { 0, EIO, ENOSPC, ETIMEDOUT, EBADE, ENOLINK, EOPNOTSUPP, EILSEQ };

static void fake_step(struct step_result *sr, int prog)
{
	sr->ran = prog || rnd(4) != 0;
	sr->pass = rnd(5) != 0;
	snprintf(sr->msg, sizeof(sr->msg), "%s", msgs[rnd(6)]);
	if (prog) {
		snprintf(sr->what, sizeof(sr->what), "fault f%u", rnd(3));
		return;
	}
	sr->err = errnos[rnd(8)];
	sr->checked = rnd(2);
	sr->expected = sr->checked ? errnos[rnd(8)] : 0;
	sr->content = (int)rnd(CONTENT__N);
	sr->secs = rnd(5000) / 1000.0;
}

/* made-up results for @in: each field the reports print, phases in 1/8 s (exact in %.3f) */
static void fake_result(struct inst_result *r, const struct instance *in)
{
	int prog = in->sc->prog != NULL;

	r->inst = in;
	r->verdict = (int)rnd(3);
	snprintf(r->reason, sizeof(r->reason), "%s", r->verdict == R_PASS ? "" : msgs[rnd(6)]);
	r->nsteps = r->verdict == R_SKIP ? 0 : prog ? 1 + (int)rnd(3) : in->sc->nsteps;
	r->steps = calloc((size_t)r->nsteps + 1, sizeof(*r->steps));
	for (int s = 0; s < r->nsteps; s++)
		fake_step(&r->steps[s], prog);
	r->nchecked = (int)rnd(9);
	r->nreported = (int)rnd(5);
	r->nfaults = (int)rnd(40);
	for (int k = 0; k < 2; k++)
		result_told_status(r, wb_statuses[rnd((unsigned)wb_nr_statuses)].name, NULL);
	if (in->backend != WB_BK_DM_WBERR) {
		r->fired = rnd(7);
		snprintf(r->observed, sizeof(r->observed), "%s", rnd(2) ? "medium" : "");
	}
	for (int p = 0; p < PH_OTHER; p++)
		r->phase[p] = rnd(80) / 8.0;
	result_set_secs(r, r->phase[PH_DEVICE] + rnd(800) / 8.0);
}

static char *slurp(const char *dir, const char *name)
{
	char path[600];
	FILE *f;
	char *b = NULL;
	size_t len = 0, cap = 0, got;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	do {
		if (len + 4096 > cap)
			b = realloc(b, cap = 2 * cap + 8192);
		got = fread(b + len, 1, 4096, f);
		len += got;
	} while (got);
	fclose(f);
	b[len] = 0;
	return b;
}

static const char *const files[] = {
	"summary.txt", "results.json", "errno-fidelity.md", "errno-fidelity.csv", "errno-fidelity-backends.md",
	"errno-fidelity-backends.csv", "content-after-failure.md", "content-after-failure.csv",
};

/* @a's and @b's copies of each file the same, and none missing */
static void same_files(const char *a, const char *b)
{
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *x = slurp(a, files[i]), *y = slurp(b, files[i]);

		ok(x && y && !strcmp(x, y), "merged %s is the one-run %s byte for byte (%zu, %zu bytes)", files[i],
		   files[i], x ? strlen(x) : 0, y ? strlen(y) : 0);
		free(x);
		free(y);
	}
}

struct lib {
	struct scenario_set set;
	struct instance *inst, **sel;
	int n;
	struct wb_kernel k;
	char dir[32];
};

static void lib_load(struct lib *l)
{
	static const char *const groups[] = { "core", "dax", "ext4", "fidelity", "fio", "metadata",
					       "realdev", "stack", "programs" };
	char path[512], err[2048], reply[1024] = "";
	const char *top = getenv("WBERR_TOP");

	memset(l, 0, sizeof(*l));
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		snprintf(path, sizeof(path), "%s/scenarios/%s", top ? top : TOP_DIR, groups[g]);
		if (parse_path(path, &l->set, err, sizeof(err)))
			printf("# %s\n", err);
	}
	l->n = expand_instances(&l->set, &l->inst);
	l->sel = calloc((size_t)l->n + 1, sizeof(*l->sel));
	for (int i = 0; i < l->n; i++)
		l->sel[i] = &l->inst[i];
	wb_kernel_init(&l->k);
	wb_kernel_set_release(&l->k, "6.12.118");
	l->k.series = 1;
	for (size_t i = 0; i < wb_nr_statuses; i++)
		snprintf(reply + strlen(reply), sizeof(reply) - strlen(reply), "%s%s=%d", i ? " " : "",
			 wb_statuses[i].name, wb_statuses[i].blk_sts);
	is_int(0, wb_kernel_parse_statuses(&l->k, reply, err, sizeof(err)), "the kernel's statuses %s", err);
	snprintf(l->dir, sizeof(l->dir), "/tmp/wberr-merge-XXXXXX");
}

static void free_results(struct inst_result *r, int n)
{
	for (int i = 0; i < n; i++)
		free(r[i].steps);
	free(r);
}

/* one run's files in @l->dir/one, its two shards' results.json in s1/ and s2/ */
static void write_runs(struct lib *l, const struct run_info *ri, struct inst_result *res)
{
	struct run_info r1 = *ri, r2 = *ri;
	int half = l->n / 2;
	char d[64];

	r1.shard = "1/2";
	r2.shard = "2/2";
	snprintf(d, sizeof(d), "%s/one", l->dir);
	report_write(d, ri, &l->k, res, l->n);
	snprintf(d, sizeof(d), "%s/s1", l->dir);
	report_write(d, &r1, &l->k, res, half);
	snprintf(d, sizeof(d), "%s/s2", l->dir);
	report_write(d, &r2, &l->k, res + half, l->n - half);
}

/* s1's and s2's results.json read back and written as one run into merged/ */
static void merge_back(struct lib *l)
{
	struct inst_result *res = calloc((size_t)l->n + 1, sizeof(*res));
	unsigned char *filled = calloc((size_t)l->n + 1, 1);
	struct run_record run[2];
	struct wb_kernel k[2];
	struct run_info ri;
	char path[128], err[1024] = "", kdesc[160];
	int rc = 0, all = 1;

	for (int s = 0; s < 2; s++) {
		snprintf(path, sizeof(path), "%s/s%d/results.json", l->dir, s + 1);
		rc |= results_read(path, l->sel, l->n, res, filled, &k[s], &run[s], err, sizeof(err));
	}
	is_int(0, rc, "both shards read back %s", err);
	for (int i = 0; i < l->n; i++)
		all &= filled[i];
	ok(all, "every instance read from one shard or the other");
	ok(run_record_same(&run[0], &run[1]) && !strcmp(k[0].release, "6.12.118") && k[0].series == 1,
	   "the run and the kernel read back");
	ri = (struct run_info){ .kernel = wb_kernel_describe(&k[0], kdesc, sizeof(kdesc)),
				.paths = (const char *const *)run[0].paths, .npaths = run[0].npaths,
				.filters = (const char *const *)run[0].filters, .nfilters = run[0].nfilters };
	snprintf(path, sizeof(path), "%s/merged", l->dir);
	report_write(path, &ri, &k[0], res, l->n);
	run_record_free(&run[0]);
	run_record_free(&run[1]);
	free_results(res, l->n);
	free(filled);
}

/* --costs: what each instance of s1's run took, the others keep theirs */
static void test_costs(struct lib *l, const struct inst_result *res)
{
	unsigned *cost = calloc((size_t)l->n + 1, sizeof(*cost));
	char path[128], err[256] = "";
	int ran = -1, skipped = -1, other = l->n - 1, found, want = 0;

	for (int i = 0; i < l->n / 2; i++) {
		cost[i] = 7;
		want += res[i].verdict != R_SKIP;
		if (res[i].verdict != R_SKIP && ran < 0)
			ran = i;
		if (res[i].verdict == R_SKIP && skipped < 0)
			skipped = i;
	}
	cost[other] = 7;
	snprintf(path, sizeof(path), "%s/s1/results.json", l->dir);
	found = results_costs(path, l->sel, l->n, cost, err, sizeof(err));
	is_int(want, found, "costs: every instance of s1 that ran %s", err);
	ok(ran >= 0 && cost[ran] == (unsigned)(res[ran].secs * 100 + 0.5) && cost[ran] > 0,
	   "costs: one that ran weighs its phases' sum in hundredths (%u for %.2f s)", ran >= 0 ? cost[ran] : 0,
	   ran >= 0 ? res[ran].secs : 0);
	ok(skipped >= 0 && cost[skipped] == 7, "costs: a skipped one keeps its weight");
	ok(cost[other] == 7, "costs: one s1 lacks keeps its weight");
	snprintf(path, sizeof(path), "%s/none.json", l->dir);
	ok(results_costs(path, l->sel, l->n, cost, err, sizeof(err)) < 0 && strstr(err, "cannot read"),
	   "costs: no file, said (%s)", err);
	free(cost);
}

static int refused(struct lib *l, const char *file, const char *text, char *err, size_t elen)
{
	struct inst_result *res = calloc((size_t)l->n + 1, sizeof(*res));
	unsigned char *filled = calloc((size_t)l->n + 1, 1);
	struct run_record run;
	struct wb_kernel k;
	char path[128];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", l->dir, file);
	if (text) {
		FILE *f = fopen(path, "w");

		fputs(text, f);
		fclose(f);
	}
	rc = results_read(path, l->sel, l->n, res, filled, &k, &run, err, elen);
	if (!rc && !strcmp(file, "s1/results.json"))
		rc = results_read(path, l->sel, l->n, res, filled, &k, &run, err, elen);
	run_record_free(&run);
	free_results(res, l->n);
	free(filled);
	return rc;
}

static void test_refusals(struct lib *l)
{
	char err[1024];

	ok(refused(l, "s1/results.json", NULL, err, sizeof(err)) && strstr(err, "a result again for"),
	   "a shard read twice: an instance's result again (%s)", err);
	ok(refused(l, "old.json", "{\"kernel\": null, \"instances\": []}", err, sizeof(err)) &&
	   strstr(err, "no \"run\""), "a results.json from before --merge (%s)", err);
	ok(refused(l, "alien.json", "{\"kernel\": null, \"run\": {}, \"instances\": [{\"id\": \"ext4/nope\", "
		   "\"verdict\": \"pass\"}]}", err, sizeof(err)) && strstr(err, "not in this selection: ext4/nope"),
	   "an instance the selection lacks (%s)", err);
	ok(refused(l, "cut.json", "{\"kernel\": {\"release\": \"6.12\",\n \"instances\": [", err, sizeof(err)) &&
	   strstr(err, "cut.json:"), "a cut-off file, with where (%s)", err);
	ok(refused(l, "none.json", NULL, err, sizeof(err)) && strstr(err, "cannot read"), "no file (%s)", err);
}

int main(void)
{
	static const char *const paths[] = { "/opt/wberr/share/scenarios/core", "/opt/wberr/share/scenarios/dax" };
	static const char *const filters[] = { "*" };
	struct run_info ri = { .kernel = "6.12.118, with kernel/patches", .paths = paths, .npaths = 2,
			       .filters = filters, .nfilters = 1 };
	struct inst_result *res;
	struct lib l;
	char a[64], b[64];

	lib_load(&l);
	ok(l.n > 200, "the library's instances (%d)", l.n);
	if (!mkdtemp(l.dir))
		return 1;
	res = calloc((size_t)l.n + 1, sizeof(*res));
	for (int i = 0; i < l.n; i++)
		fake_result(&res[i], &l.inst[i]);
	write_runs(&l, &ri, res);
	merge_back(&l);
	snprintf(a, sizeof(a), "%s/one", l.dir);
	snprintf(b, sizeof(b), "%s/merged", l.dir);
	same_files(a, b);
	test_costs(&l, res);
	test_refusals(&l);
	free_results(res, l.n);
	free(l.sel);
	free(l.inst);
	scenario_set_free(&l.set);
	if (!getenv("WBERR_KEEP") && system("rm -rf /tmp/wberr-merge-??????"))
		printf("# cannot remove the test's directories\n");
	return tap_done();
}
