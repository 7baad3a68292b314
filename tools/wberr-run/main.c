// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-run: run YAML writeback-error scenarios against dm-wberr and judge
 * every sync result against the errseq model.  See scenarios/README.md.
 */
#include "evidence.h"
#include "backend.h"
#include "exec.h"
#include "wb_names.h"
#include "parse.h"
#include "replay.h"
#include "results_read.h"
#include "shard.h"
#include "stack.h"
#include "report.h"
#include "sys.h"
#include "wb_sys.h"
#include "wb_tap.h"

#include <fnmatch.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * make test SHARD=I/N: the selection in template-kind order
 * (stack_kind_cmp()) cut into N contiguous runs of about equal cost
 * (shard.h: each instance what it took in --costs's run, else its
 * scenario's `cost:`), so that a shard pays
 * the first mkfs of few kinds, not of all, and no shard gets all of
 * PostgreSQL's 15 s instances; shard I takes run I, in --list order.
 */
static int cmp_kind(const void *pa, const void *pb)
{
	const struct instance *a = *(const struct instance *const *)pa;
	const struct instance *b = *(const struct instance *const *)pb;
	int c = stack_kind_cmp(a, b);

	if (c)
		return c;
	return a < b ? -1 : a > b;	/* --list order: sel points into one array */
}

static int cmp_list_order(const void *pa, const void *pb)
{
	const struct instance *a = *(const struct instance *const *)pa;
	const struct instance *b = *(const struct instance *const *)pb;

	return a < b ? -1 : a > b;
}

#define COSTS_MAX 3

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/*
 * Each instance's weight: the median of what it took in the --costs runs
 * that have it (one slow run, a device that stalled, does not skew the
 * next cut), else its scenario's cost:.  A file that cannot be read is
 * said and left out.
 */
static void shard_costs(struct instance **sel, int nsel, const char *const *costs, int ncosts, unsigned *cost)
{
	unsigned *took = calloc((size_t)nsel * COSTS_MAX + 1, sizeof(*took)), v[COSTS_MAX];
	char err[1024];

	for (int f = 0; took && f < ncosts; f++)
		if (results_costs(costs[f], sel, nsel, took + (size_t)f * nsel, err, sizeof(err)) < 0)
			fprintf(stderr, "wberr-run: --costs: %s; left out\n", err);
	for (int k = 0; k < nsel; k++) {
		int n = 0;

		for (int f = 0; took && f < ncosts; f++)
			if (took[(size_t)f * nsel + k])
				v[n++] = took[(size_t)f * nsel + k];
		qsort(v, (size_t)n, sizeof(v[0]), cmp_unsigned);
		cost[k] = n ? v[n / 2] : sel[k]->sc->cost_s ? 100 * sel[k]->sc->cost_s : SHARD_UNSAID_CS;
	}
	free(took);
}

/* Keeps shard @i of @n of @sel[0..@nsel) in @sel; returns its length. */
static int shard_select(struct instance **sel, int nsel, int i, int n, const char *const *costs, int ncosts)
{
	unsigned *cost = calloc((size_t)nsel + 1, sizeof(*cost));
	int lo, hi;

	if (!cost) {
		fprintf(stderr, "wberr-run: out of memory\n");
		exit(2);
	}
	qsort(sel, (size_t)nsel, sizeof(*sel), cmp_kind);
	shard_costs(sel, nsel, costs, ncosts, cost);
	shard_run(cost, nsel, i, n, &lo, &hi);
	free(cost);
	memmove(sel, sel + lo, (size_t)(hi - lo) * sizeof(*sel));
	qsort(sel, (size_t)(hi - lo), sizeof(*sel), cmp_list_order);
	return hi - lo;
}

/* the options, each with its help text (continuation lines after '\n') */
static const struct opt {
	const char *name;
	const char *arg;	/* NULL: takes none */
	int key;		/* the short option too, unless @long_only */
	int long_only;
	const char *help;	/* NULL: not in the usage */
} opt_table[] = {
	{ "list", NULL, 'l', 0, "print the instances (fs/name[status]) and exit" },
	{ "check", NULL, 'c', 0, "parse and validate only" },
	{ "filter", "GLOB", 'f', 0, "run only instances whose id matches GLOB or equals it;\n"
	  "repeatable, and one GLOB may hold several separated by\ncommas or spaces (ids contain neither)" },
	{ "seed", "N", 's', 0, "PRNG seed for the wberr table (default 1)" },
	{ "shard", "I/N", 'S', 0, "only the I-th of N runs of about equal cost (each\n"
	  "instance its scenario's cost:, without one 0.2 s) of the\n"
	  "selection ordered by file-system kind (fs, dax, size,\n"
	  "mkfs options, LVM), in --list order: N shards make the\n"
	  "whole selection, each instance in exactly one, each shard\n"
	  "few kinds to mkfs (make test SHARD=)" },
	{ "costs", "FILE", 'C', 1, "--shard weighs each instance by what it took in the run\n"
	  "whose results.json FILE is (an earlier run on this kind\n"
	  "of machine: make run keeps the last three); given up to\n"
	  "3 times, the median; the scenario's cost: for those none has" },
	{ "results", "DIR", 'r', 0, "write summary.txt, results.json, errno-fidelity.{md,csv},\n"
	  "programs/<id>/ and content-after-failure.{md,csv} there" },
	{ "disk", "DEV", 'd', 0, "scratch disk (default: first of $WBERR_DISKS)" },
	{ "pmem", "DEV", 'p', 0, "fsdax persistent memory for 'dax: true' scenarios\n"
	  "(default $WBERR_PMEM; without one they are skipped)" },
	{ "nvme", "DEV", 'n', 0, "the NVMe namespace for 'backend: nvme' scenarios\n"
	  "(default $WBERR_NVME; without one they are skipped)" },
	{ "mnt", "DIR", 'm', 0, "mount point (default /mnt/wberr)" },
	{ "tracefs", "DIR", 't', 0, "tracefs root (default /sys/kernel/tracing; 'none' disables)" },
	{ "evidence", "DIR", 'e', 1, "record what each instance's cross-checks judged in\n"
	  "DIR/<instance id, [/] as _>/ (docs/architecture.md, Evidence)" },
	{ "evidence-failed", "DIR", 'E', 1, "the same, keeping only the instances that failed" },
	{ "replay", "DIR", 'R', 1, "judge recorded evidence again (one instance's directory or\n"
	  "an --evidence DIR): TAP, exit 1 on a cross-check failure,\n2 on unreadable evidence" },
	{ "merge", "DIR", 'M', 1, "no run: the summary and tables (--results) of the\n"
	  "selection from the results.json that runs of its shards\n"
	  "wrote in each DIR (repeatable); every selected instance\n"
	  "must be in exactly one (make run's boots)" },
	{ "verbose", NULL, 'v', 0, "log every step and command on stderr" },
	{ "help", NULL, 'h', 0, NULL },
};
#define NOPTS (int)(sizeof(opt_table) / sizeof(opt_table[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: wberr-run [options] SCENARIO_FILE_OR_DIR...\n"
		"       wberr-run --replay EVIDENCE_DIR   (on the host: no device needed)\n");
	for (int i = 0; i < NOPTS; i++) {
		const struct opt *o = &opt_table[i];
		char head[48];

		if (!o->help)
			continue;
		snprintf(head, sizeof(head), "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-16s  ", head);
		for (const char *h = o->help; *h; h++)
			if (*h == '\n')
				fprintf(f, "\n%20s", "");
			else
				fputc(*h, f);
		fputc('\n', f);
	}
	fprintf(f, "Exit status: 0 when every instance passed, 1 when one failed, 2 on usage or scenario errors.\n");
}

/* what the command line asked for */
struct args {
	struct exec_cfg cfg;
	const char *filters[64];
	int nfilters;
	const char *results, *replay;
	const char *costs[COSTS_MAX];
	int ncosts;
	const char *merge[16];
	int nmerge;
	int evidence_failed, shard_i, shard_n, list, check;
	struct run_info ri;
};

/*
 * make run FILTER=... hands the guest its globs as one string: split it
 * here, so the host's --list and the guest select the same instances.  An
 * empty one is refused: no glob would mean every instance.
 */
static int add_filters(struct args *a, char *arg)
{
	if (!arg[strspn(arg, ", \t\n")]) {
		fprintf(stderr, "wberr-run: --filter without a glob\n");
		return -1;
	}
	for (char *g = strtok(arg, ", \t\n"); g; g = strtok(NULL, ", \t\n")) {
		if (a->nfilters == (int)(sizeof(a->filters) / sizeof(a->filters[0]))) {
			/* dropping one would select more, not less */
			fprintf(stderr, "wberr-run: more than %d filters\n", a->nfilters);
			return -1;
		}
		a->filters[a->nfilters++] = g;
	}
	return 0;
}

/* one option: 0, 1 to stop with status 0 (--help), -1 with status 2 */
static int apply_option(struct args *a, int c, char *arg)
{
	char tail;

	switch (c) {
	case 'l': a->list = 1; return 0;
	case 'c': a->check = 1; return 0;
	case 'f': return add_filters(a, arg);
	case 's': a->cfg.seed = strtoull(arg, NULL, 0); return 0;
	case 'r': a->results = a->cfg.results = arg; return 0;
	case 'd': a->cfg.disk = arg; return 0;
	case 'p': a->cfg.pmem = arg; return 0;
	case 'n': a->cfg.nvme = arg; return 0;
	case 'm': a->cfg.mnt = arg; return 0;
	case 't': a->cfg.tracefs = strcmp(arg, "none") ? arg : NULL; return 0;
	case 'v': a->cfg.verbose = sys_verbose = 1; return 0;
	case 'e': a->cfg.evidence = arg; a->evidence_failed = 0; return 0;
	case 'E': a->cfg.evidence = arg; a->evidence_failed = 1; return 0;
	case 'R': a->replay = arg; return 0;
	case 'C':
		if (a->ncosts == COSTS_MAX) {
			fprintf(stderr, "wberr-run: more than %d --costs\n", COSTS_MAX);
			return -1;
		}
		a->costs[a->ncosts++] = arg;
		return 0;
	case 'M':
		if (a->nmerge == (int)(sizeof(a->merge) / sizeof(a->merge[0]))) {
			fprintf(stderr, "wberr-run: more than %d --merge directories\n", a->nmerge);
			return -1;
		}
		a->merge[a->nmerge++] = arg;
		return 0;
	case 'S':
		if (sscanf(arg, "%d/%d%c", &a->shard_i, &a->shard_n, &tail) != 2 || a->shard_n < 1 ||
		    a->shard_i < 1 || a->shard_i > a->shard_n) {
			fprintf(stderr, "wberr-run: --shard takes I/N with 1 <= I <= N, not '%s'\n", arg);
			return -1;
		}
		a->ri.shard = arg;
		return 0;
	case 'h': usage(stdout); return 1;
	default: usage(stderr); return -1;
	}
}

/* the command line into @a: 0, or 1 + the exit status to stop with */
static int parse_args(int argc, char **argv, struct args *a)
{
	struct option longopts[NOPTS + 1];
	char shorts[2 * NOPTS + 1];
	size_t ns = 0;
	int c, rc;

	memset(longopts, 0, sizeof(longopts));
	for (int i = 0; i < NOPTS; i++) {
		longopts[i] = (struct option){ opt_table[i].name, opt_table[i].arg ? required_argument : no_argument,
					       NULL, opt_table[i].key };
		if (opt_table[i].long_only)
			continue;
		shorts[ns++] = (char)opt_table[i].key;
		if (opt_table[i].arg)
			shorts[ns++] = ':';
	}
	shorts[ns] = 0;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1)
		if ((rc = apply_option(a, c, optarg)))
			return rc > 0 ? 1 : 3;
	return 0;
}

/* the instances the filters and the shard select, in --list order */
static int select_instances(const struct args *a, struct instance *inst, int ninst, struct instance **sel)
{
	int nsel = 0;

	for (int i = 0; i < ninst; i++) {
		int ok = !a->nfilters;

		/* an id is also its own filter: its "[status]" is a bracket
		 * expression to fnmatch() */
		for (int k = 0; k < a->nfilters; k++)
			ok |= !strcmp(a->filters[k], inst[i].id) || !fnmatch(a->filters[k], inst[i].id, 0);
		if (ok)
			sel[nsel++] = &inst[i];
	}
	return a->shard_n > 1 ? shard_select(sel, nsel, a->shard_i, a->shard_n, a->costs, a->ncosts) : nsel;
}

/* the disk and the pmem from the environment, the flusher held, the
 * kernel read: what every instance needs; -1 without a disk */
static int prepare(struct args *a, char *diskbuf, size_t len, struct wb_kernel *kernel)
{
	char kerr[512];

	if (!a->cfg.disk) {
		const char *d = getenv("WBERR_DISKS");

		if (!d || !*d) {
			fprintf(stderr, "wberr-run: no --disk and WBERR_DISKS is empty\n");
			return -1;
		}
		snprintf(diskbuf, len, "%s", d);
		diskbuf[strcspn(diskbuf, " ")] = 0;
		a->cfg.disk = diskbuf;
	}
	if (!a->cfg.pmem && getenv("WBERR_PMEM") && *getenv("WBERR_PMEM"))
		a->cfg.pmem = getenv("WBERR_PMEM");
	if (!a->cfg.nvme && getenv("WBERR_NVME") && *getenv("WBERR_NVME"))
		a->cfg.nvme = getenv("WBERR_NVME");
	signal(SIGPIPE, SIG_IGN);
	/* only the scenario's own writeback (lib/c/wb_sys.h says why) */
	if (wb_flusher_hold())
		fprintf(stderr, "wberr-run: warning: cannot hold the flusher off (/proc/sys/vm)\n");
	/* what this kernel is and which statuses it has, before any instance */
	wb_kernel_init(kernel);
	if (wb_kernel_read(kernel, a->cfg.tracefs))
		fprintf(stderr, "wberr-run: warning: cannot read the kernel release\n");
	if (stack_read_statuses(a->cfg.dmname, a->cfg.disk, kernel, kerr, sizeof(kerr)))
		fprintf(stderr, "wberr-run: warning: %s; assuming every status exists\n", kerr);
	a->cfg.kernel = kernel;
	return 0;
}

/*
 * --shard I/N of a selection of fewer than N instances leaves some shard
 * none: one skipped point, as run-suites says of a boot with none of its
 * tests, for a TAP file without a result fails the run (make run
 * FILTER= over several boots)
 */
static void tap_empty_shard(const struct args *a)
{
	struct wb_tap t;

	wb_tap_init(&t, stdout);
	wb_tap_header(&t, 1);
	wb_tap_point(&t, 1, 1, "SKIP in the other shards", "shard %s: none of the selected instances",
		     a->ri.shard);
	fflush(stdout);
}

/* every selected instance, its TAP point as it ends; the number failed */
static int run_all(const struct args *a, struct instance **sel, int nsel, struct inst_result *res)
{
	int failed = 0;

	if (!nsel && a->shard_n > 1) {
		tap_empty_shard(a);
		return 0;
	}
	report_tap_begin(stdout, nsel);
	for (int i = 0; i < nsel; i++) {
		if (a->cfg.verbose)
			fprintf(stderr, "== %s\n", sel[i]->id);
		exec_instance(&a->cfg, sel[i], &res[i]);
		failed += res[i].verdict == R_FAIL;
		if (a->evidence_failed && res[i].verdict != R_FAIL)
			evidence_remove(a->cfg.evidence, sel[i]->id);
		report_tap_result(stdout, i + 1, &res[i]);
	}
	return failed;
}

/* the results.json in each --merge DIR into @res: 0, or -1 said on stderr */
static int merge_read(const struct args *a, struct instance **sel, int nsel, struct inst_result *res,
		      struct wb_kernel *kernel, struct run_record *run)
{
	unsigned char *filled = calloc((size_t)nsel + 1, 1);
	char path[1024], err[1280];
	struct run_record r = { 0 };
	struct wb_kernel k;
	int rc = -1;

	for (int m = 0; filled && m < a->nmerge; m++) {
		snprintf(path, sizeof(path), "%s/results.json", a->merge[m]);
		if (results_read(path, sel, nsel, res, filled, m ? &k : kernel, m ? &r : run, err, sizeof(err))) {
			fprintf(stderr, "wberr-run: %s\n", err);
			goto out;
		}
		if (m && (!run_record_same(run, &r) || strcmp(k.release, kernel->release) || k.series != kernel->series)) {
			fprintf(stderr, "wberr-run: %s ran other scenarios or another kernel than %s/results.json\n",
				path, a->merge[0]);
			goto out;
		}
		if (m)
			run_record_free(&r);
	}
	for (int i = 0; filled && i < nsel; i++)
		if (!filled[i]) {
			fprintf(stderr, "wberr-run: %s is in no --merge directory's results.json\n", sel[i]->id);
			goto out;
		}
	rc = filled ? 0 : -1;
out:
	run_record_free(&r);
	free(filled);
	return rc;
}

/* --merge: the summary and the tables of the shards' runs as of one; exit status */
static int merge(struct args *a, struct instance **sel, int nsel)
{
	struct inst_result *res = calloc((size_t)nsel + 1, sizeof(*res));
	struct run_record run = { 0 };
	struct wb_kernel kernel;
	char kdesc[160];
	int failed = 0, rc = 2;

	if (!a->results || a->shard_n > 1 || a->list || a->check) {
		fprintf(stderr, "wberr-run: --merge takes --results, and neither --shard, --list nor --check\n");
		free(res);
		return 2;
	}
	if (res && !merge_read(a, sel, nsel, res, &kernel, &run)) {
		for (int i = 0; i < nsel; i++)
			failed += res[i].verdict == R_FAIL;
		a->ri = (struct run_info){ .kernel = wb_kernel_describe(&kernel, kdesc, sizeof(kdesc)),
					   .paths = (const char *const *)run.paths, .npaths = run.npaths,
					   .filters = (const char *const *)run.filters, .nfilters = run.nfilters };
		report_write(a->results, &a->ri, &kernel, res, nsel);
		rc = failed ? 1 : 0;
	}
	for (int i = 0; res && i < nsel; i++)
		free(res[i].steps);
	free(res);
	run_record_free(&run);
	return rc;
}

/* --check, --list, or the run: its exit status */
static int run(struct args *a, struct instance **sel, int nsel, int nscen, int ninst, char **paths, int npaths)
{
	struct wb_kernel kernel;
	struct inst_result *res;
	char kdesc[160], diskbuf[256];
	int failed;

	if (a->nmerge)
		return merge(a, sel, nsel);
	if (a->check) {
		printf("%d scenarios, %d instances, %d selected: OK\n", nscen, ninst, nsel);
		return 0;
	}
	if (a->list) {
		for (int i = 0; i < nsel; i++)
			printf("%s\n", sel[i]->id);
		return 0;
	}
	if (prepare(a, diskbuf, sizeof(diskbuf), &kernel))
		return 2;
	res = calloc((size_t)nsel + 1, sizeof(*res));
	failed = run_all(a, sel, nsel, res);
	backend_shutdown();
	wb_flusher_restore();
	a->ri.kernel = wb_kernel_describe(&kernel, kdesc, sizeof(kdesc));
	a->ri.paths = (const char *const *)paths;
	a->ri.npaths = npaths;
	a->ri.filters = a->filters;
	a->ri.nfilters = a->nfilters;
	report_summary(stdout, "# ", &a->ri, res, nsel);
	if (a->results)
		report_write(a->results, &a->ri, &kernel, res, nsel);
	for (int i = 0; i < nsel; i++)
		free(res[i].steps);
	free(res);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct args a = { .cfg = { .mnt = "/mnt/wberr", .tracefs = "/sys/kernel/tracing", .dmname = "wberr-run",
				   .seed = 1 },
			  .shard_i = 1, .shard_n = 1 };
	struct scenario_set set = { 0 };
	struct instance *inst = NULL, **sel;
	char err[2048];
	int ninst, nsel, rc = parse_args(argc, argv, &a);

	if (rc)
		return rc - 1;
	if (a.replay)
		return replay_path(a.replay, stdout, a.cfg.verbose);
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	for (int i = optind; i < argc; i++)
		if (parse_path(argv[i], &set, err, sizeof(err))) {
			fprintf(stderr, "wberr-run: %s\n", err);
			scenario_set_free(&set);
			return 2;
		}
	ninst = expand_instances(&set, &inst);
	sel = calloc((size_t)ninst + 1, sizeof(*sel));
	nsel = select_instances(&a, inst, ninst, sel);
	rc = run(&a, sel, nsel, set.n, ninst, argv + optind, argc - optind);
	free(sel);
	free(inst);
	scenario_set_free(&set);
	return rc;
}
