// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-run: run YAML writeback-error scenarios against dm-wberr and judge
 * every sync result against the errseq model.  See scenarios/README.md.
 */
#include "evidence.h"
#include "exec.h"
#include "wb_names.h"
#include "parse.h"
#include "replay.h"
#include "stack.h"
#include "report.h"
#include "sys.h"
#include "wb_sys.h"

#include <fnmatch.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * make test SHARD=I/N: the selection in template-kind order
 * (stack_kind_cmp()) cut into N runs of equal length, so that a shard
 * pays the first mkfs of few kinds, not of all; shard I takes run I, in
 * --list order.
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

/* Keeps shard @i of @n of @sel[0..@nsel) in @sel; returns its length. */
static int shard_select(struct instance **sel, int nsel, int i, int n)
{
	int lo = (int)((long)nsel * (i - 1) / n), hi = (int)((long)nsel * i / n);

	qsort(sel, (size_t)nsel, sizeof(*sel), cmp_kind);
	memmove(sel, sel + lo, (size_t)(hi - lo) * sizeof(*sel));
	qsort(sel, (size_t)(hi - lo), sizeof(*sel), cmp_list_order);
	return hi - lo;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wberr-run [options] SCENARIO_FILE_OR_DIR...\n"
		"       wberr-run --replay EVIDENCE_DIR   (on the host: no device needed)\n"
		"  --list            print the instances (fs/name[status]) and exit\n"
		"  --check           parse and validate only\n"
		"  --filter GLOB     run only instances whose id matches GLOB or equals it;\n"
		"                    repeatable, and one GLOB may hold several separated by\n"
		"                    commas or spaces (ids contain neither)\n"
		"  --seed N          PRNG seed for the wberr table (default 1)\n"
		"  --shard I/N       only the I-th of N equal runs of the selection ordered by\n"
		"                    file-system kind (fs, dax, size, mkfs options, LVM), in\n"
		"                    --list order: N shards make the whole selection, each\n"
		"                    instance in exactly one, each shard few kinds to mkfs\n"
		"                    (make test SHARD=)\n"
		"  --results DIR     write summary.txt, results.json, errno-fidelity.{md,csv},\n"
		"                    programs/<id>/ and content-after-failure.{md,csv} there\n"
		"  --disk DEV        scratch disk (default: first of $WBERR_DISKS)\n"
		"  --pmem DEV        fsdax persistent memory for 'dax: true' scenarios\n"
		"                    (default $WBERR_PMEM; without one they are skipped)\n"
		"  --mnt DIR         mount point (default /mnt/wberr)\n"
		"  --tracefs DIR     tracefs root (default /sys/kernel/tracing; 'none' disables)\n"
		"  --evidence DIR    record what each instance's cross-checks judged in\n"
		"                    DIR/<instance id, [/] as _>/ (docs/architecture.md, Evidence)\n"
		"  --evidence-failed DIR  the same, keeping only the instances that failed\n"
		"  --replay DIR      judge recorded evidence again (one instance's directory or\n"
		"                    an --evidence DIR): TAP, exit 1 on a cross-check failure,\n"
		"                    2 on unreadable evidence\n"
		"  --verbose         log every step and command on stderr\n"
		"Exit status: 0 when every instance passed, 1 when one failed, 2 on usage or scenario errors.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' }, { "check", no_argument, NULL, 'c' },
		{ "filter", required_argument, NULL, 'f' }, { "seed", required_argument, NULL, 's' },
		{ "results", required_argument, NULL, 'r' },
		{ "disk", required_argument, NULL, 'd' }, { "mnt", required_argument, NULL, 'm' },
		{ "pmem", required_argument, NULL, 'p' },
		{ "tracefs", required_argument, NULL, 't' }, { "verbose", no_argument, NULL, 'v' },
		{ "evidence", required_argument, NULL, 'e' },
		{ "evidence-failed", required_argument, NULL, 'E' },
		{ "replay", required_argument, NULL, 'R' },
		{ "shard", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' }, { 0 }
	};
	struct exec_cfg cfg = { .mnt = "/mnt/wberr", .tracefs = "/sys/kernel/tracing",
				.dmname = "wberr-run", .seed = 1 };
	const char *filters[64], *results = NULL, *replay = NULL;
	int evidence_failed = 0, shard_i = 1, shard_n = 1;
	int nfilters = 0, list = 0, check = 0, c, ninst, nsel = 0, failed = 0;
	struct scenario_set set = { 0 };
	struct run_info ri = { 0 };
	struct wb_kernel kernel;
	char kerr[512], kdesc[160];
	struct instance *inst = NULL, **sel;
	struct inst_result *res;
	char err[2048], diskbuf[256];

	while ((c = getopt_long(argc, argv, "lcf:s:r:d:p:m:t:vhS:", opts, NULL)) != -1) {
		switch (c) {
		case 'l': list = 1; break;
		case 'c': check = 1; break;
		case 'f':
			/*
			 * make run FILTER=... hands the guest its globs as one
			 * string: split it here, so the host's --list and the
			 * guest select the same instances.  An empty one is
			 * refused: no glob would mean every instance.
			 */
			if (!optarg[strspn(optarg, ", \t\n")]) {
				fprintf(stderr, "wberr-run: --filter without a glob\n");
				return 2;
			}
			for (char *g = strtok(optarg, ", \t\n"); g; g = strtok(NULL, ", \t\n")) {
				if (nfilters == (int)(sizeof(filters) / sizeof(filters[0]))) {
					/* dropping one would select more, not less */
					fprintf(stderr, "wberr-run: more than %d filters\n", nfilters);
					return 2;
				}
				filters[nfilters++] = g;
			}
			break;
		case 's': cfg.seed = strtoull(optarg, NULL, 0); break;
		case 'r': results = optarg; cfg.results = optarg; break;
		case 'd': cfg.disk = optarg; break;
		case 'p': cfg.pmem = optarg; break;
		case 'm': cfg.mnt = optarg; break;
		case 't': cfg.tracefs = strcmp(optarg, "none") ? optarg : NULL; break;
		case 'v': cfg.verbose = sys_verbose = 1; break;
		case 'e': cfg.evidence = optarg; evidence_failed = 0; break;
		case 'E': cfg.evidence = optarg; evidence_failed = 1; break;
		case 'R': replay = optarg; break;
		case 'S': {
			char tail;

			if (sscanf(optarg, "%d/%d%c", &shard_i, &shard_n, &tail) != 2 || shard_n < 1 ||
			    shard_i < 1 || shard_i > shard_n) {
				fprintf(stderr, "wberr-run: --shard takes I/N with 1 <= I <= N, not '%s'\n", optarg);
				return 2;
			}
			ri.shard = optarg;
			break;
		}
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (replay)
		return replay_path(replay, stdout, cfg.verbose);
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
	for (int i = 0; i < ninst; i++) {
		int ok = !nfilters;

		/* an id is also its own filter: its "[status]" is a bracket
		 * expression to fnmatch() */
		for (int k = 0; k < nfilters; k++)
			ok |= !strcmp(filters[k], inst[i].id) || !fnmatch(filters[k], inst[i].id, 0);
		if (ok)
			sel[nsel++] = &inst[i];
	}
	if (shard_n > 1)
		nsel = shard_select(sel, nsel, shard_i, shard_n);
	if (check) {
		printf("%d scenarios, %d instances, %d selected: OK\n", set.n, ninst, nsel);
		return 0;
	}
	if (list) {
		for (int i = 0; i < nsel; i++)
			printf("%s\n", sel[i]->id);
		return 0;
	}
	if (!cfg.disk) {
		const char *d = getenv("WBERR_DISKS");

		if (!d || !*d) {
			fprintf(stderr, "wberr-run: no --disk and WBERR_DISKS is empty\n");
			return 2;
		}
		snprintf(diskbuf, sizeof(diskbuf), "%s", d);
		diskbuf[strcspn(diskbuf, " ")] = 0;
		cfg.disk = diskbuf;
	}
	if (!cfg.pmem && getenv("WBERR_PMEM") && *getenv("WBERR_PMEM"))
		cfg.pmem = getenv("WBERR_PMEM");
	signal(SIGPIPE, SIG_IGN);
	/* only the scenario's own writeback (lib/c/wb_sys.h says why) */
	if (wb_flusher_hold())
		fprintf(stderr, "wberr-run: warning: cannot hold the flusher off (/proc/sys/vm)\n");
	/* what this kernel is and which statuses it has, before any instance */
	wb_kernel_init(&kernel);
	if (wb_kernel_read(&kernel, cfg.tracefs))
		fprintf(stderr, "wberr-run: warning: cannot read the kernel release\n");
	if (stack_read_statuses(cfg.dmname, cfg.disk, &kernel, kerr, sizeof(kerr)))
		fprintf(stderr, "wberr-run: warning: %s; assuming every status exists\n", kerr);
	cfg.kernel = &kernel;
	res = calloc((size_t)nsel + 1, sizeof(*res));
	report_tap_begin(stdout, nsel);
	for (int i = 0; i < nsel; i++) {
		if (cfg.verbose)
			fprintf(stderr, "== %s\n", sel[i]->id);
		exec_instance(&cfg, sel[i], &res[i]);
		failed += res[i].verdict == R_FAIL;
		if (evidence_failed && res[i].verdict != R_FAIL)
			evidence_remove(cfg.evidence, sel[i]->id);
		report_tap_result(stdout, i + 1, &res[i]);
	}
	wb_flusher_restore();
	ri.kernel = wb_kernel_describe(&kernel, kdesc, sizeof(kdesc));
	ri.paths = (const char *const *)argv + optind;
	ri.npaths = argc - optind;
	ri.filters = filters;
	ri.nfilters = nfilters;
	report_summary(stdout, "# ", &ri, res, nsel);
	if (results) {
		char path[1024];
		FILE *f;

		mkdir(results, 0755);
		snprintf(path, sizeof(path), "%s/summary.txt", results);
		f = fopen(path, "w");
		if (f) {
			report_summary(f, "", &ri, res, nsel);
			fclose(f);
		}
		if (report_fidelity(results, &kernel, res, nsel) < 0)
			fprintf(stderr, "wberr-run: cannot write the errno-fidelity table in %s\n", results);
		if (report_json(results, &kernel, res, nsel) < 0)
			fprintf(stderr, "wberr-run: cannot write results.json in %s\n", results);
		if (report_content(results, res, nsel) < 0)
			fprintf(stderr, "wberr-run: cannot write the content table in %s\n", results);
	}
	for (int i = 0; i < nsel; i++)
		free(res[i].steps);
	free(res);
	free(sel);
	free(inst);
	scenario_set_free(&set);
	return failed ? 1 : 0;
}
