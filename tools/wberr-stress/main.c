// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-stress: see README.md.
 *
 *   wberr-stress run --dir DIR --dev NAME --out OUT [options]
 *   wberr-stress check OUT [--max-print N] [--mutate KIND]
 *   wberr-stress --check OUT           (same as check)
 */
#include "oracle.h"
#include "runner.h"
#include "util.h"
#include "wb_sys.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: wberr-stress run --dir DIR --dev NAME --out OUT [--seed N]\n"
	      "         [--duration S] [--procs N] [--fds M] [--shared K]\n"
	      "         [--file-kib K] [--prob PPM] [--period-ms MS]\n"
	      "         [--max-delay-ms MS] [--buffer-kb KB] [--robust]\n"
	      "         [--fio JOBFILE]... [--tracefs DIR]\n"
	      "       wberr-stress check OUT [--max-print N]\n"
	      "         [--mutate returned-0|lost|double|syncfs-lost]\n", f);
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "dev", required_argument, NULL, 'D' },
		{ "out", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 't' },
		{ "procs", required_argument, NULL, 'p' },
		{ "fds", required_argument, NULL, 'f' },
		{ "shared", required_argument, NULL, 'S' },
		{ "file-kib", required_argument, NULL, 'k' },
		{ "prob", required_argument, NULL, 'P' },
		{ "period-ms", required_argument, NULL, 'm' },
		{ "max-delay-ms", required_argument, NULL, 'M' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "robust", no_argument, NULL, 'r' },
		{ "fio", required_argument, NULL, 'F' },
		{ "tracefs", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct wbs_run_cfg cfg;
	int c;

	wbs_run_defaults(&cfg);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': cfg.dir = optarg; break;
		case 'D': cfg.dev = optarg; break;
		case 'o': cfg.out = optarg; break;
		case 's': cfg.seed = strtoull(optarg, NULL, 0); break;
		case 't': cfg.duration_s = atof(optarg); break;
		case 'p': cfg.procs = (unsigned int)atoi(optarg); break;
		case 'f': cfg.fds = (unsigned int)atoi(optarg); break;
		case 'S': cfg.shared = (unsigned int)atoi(optarg); break;
		case 'k': cfg.file_kib = (unsigned int)atoi(optarg); break;
		case 'P': cfg.prob_ppm = (unsigned int)atoi(optarg); break;
		case 'm': cfg.period_ms = (unsigned int)atoi(optarg); break;
		case 'M': cfg.max_delay_ms = (unsigned int)atoi(optarg); break;
		case 'b': cfg.buffer_kb = (unsigned int)atoi(optarg); break;
		case 'r': cfg.robust = 1; break;
		case 'F':
			if (cfg.nfio == WBS_MAX_FIO) {
				wbs_warn(0, "at most %d --fio", WBS_MAX_FIO);
				return 2;
			}
			cfg.fio[cfg.nfio++] = optarg;
			break;
		case 'T': cfg.tracefs = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!cfg.dir || !cfg.dev || !cfg.out || !cfg.period_ms) {
		usage(stderr);
		return 2;
	}
	return wbs_run(&cfg);
}

/* ---- mutations: prove on real data that the oracle catches each kind */

static struct wb_rec *first_error(struct wbs_oracle_in *in)
{
	size_t i;

	for (i = 0; i < in->recs.n; i++)
		if (wb_rec_op_is_fsync(in->recs.v[i].op) &&
		    in->recs.v[i].ret < 0)
			return &in->recs.v[i];
	return NULL;
}

/* The kernel "forgets" to report: the first failing fsync returns 0 and
 * none of the advances of that fd from then on happened (they leave the
 * trace). */
static int mutate_lost(struct wbs_oracle_in *in)
{
	struct wb_rec *r = first_error(in);
	struct wb_trace *t = &in->trace;
	size_t i, n = 0;

	if (!r)
		return -1;
	r->ret = 0;
	r->err = 0;
	for (i = 0; i < t->n; i++)
		if (t->v[i].kind != WB_EV_ADVANCE || t->v[i].pid != r->pid ||
		    t->v[i].es.ino != r->ino ||
		    t->v[i].us * 1000 + in->meta.clock_step_ns + 1000 < r->t0)
			t->v[n++] = t->v[i];
	t->n = n;
	return 0;
}

/* The kernel reports one error twice: the fsync after a failing one, on
 * the same fd, that returned 0 fails too. */
static int mutate_double(struct wbs_oracle_in *in)
{
	size_t i, k;

	for (i = 0; i < in->recs.n; i++) {
		struct wb_rec *r = &in->recs.v[i];

		if (!wb_rec_op_is_fsync(r->op) || r->ret >= 0)
			continue;
		for (k = i + 1; k < in->recs.n; k++) {
			struct wb_rec *n = &in->recs.v[k];

			if (n->proc != r->proc || n->fdi != r->fdi ||
			    !wb_rec_op_is_fsync(n->op))
				continue;
			if (n->ret < 0)
				break;
			n->ret = -1;
			n->err = r->err;
			return 0;
		}
	}
	return -1;
}

static int mutate(struct wbs_oracle_in *in, const char *kind,
		  enum wbs_vkind *expect)
{
	struct wb_rec *r;

	if (!strcmp(kind, "returned-0")) {
		*expect = WBS_V_ADVANCED_NO_ERROR;
		r = first_error(in);
		if (!r)
			return -1;
		r->ret = 0;
		r->err = 0;
		return 0;
	}
	if (!strcmp(kind, "lost")) {
		*expect = WBS_V_LOST;
		return mutate_lost(in);
	}
	if (!strcmp(kind, "double")) {
		*expect = WBS_V_NO_CAUSE;
		return mutate_double(in);
	}
	if (!strcmp(kind, "syncfs-lost")) {
		size_t i, n = 0;

		/* syncfs never reports anything */
		*expect = WBS_V_LOST;
		for (i = 0; i < in->recs.n; i++)
			if (in->recs.v[i].op == WB_REC_SYNCFS && in->recs.v[i].ret < 0) {
				in->recs.v[i].ret = 0;
				in->recs.v[i].err = 0;
				n++;
			}
		return n ? 0 : -1;
	}
	wbs_warn(0, "unknown mutation '%s'", kind);
	return -1;
}

static int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "max-print", required_argument, NULL, 'n' },
		{ "mutate", required_argument, NULL, 'm' },
		{ 0 }
	};
	const char *dir, *mut = NULL;
	unsigned int max_print = 20;
	struct wbs_oracle_in in;
	struct wbs_oracle_out out;
	enum wbs_vkind expect = WBS_V_NR;
	unsigned long v;
	FILE *sf;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n': max_print = (unsigned int)atoi(optarg); break;
		case 'm': mut = optarg; break;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	dir = argv[optind];
	if (wbs_oracle_load(&in, dir))
		return 2;
	if (mut && mutate(&in, mut, &expect)) {
		wbs_warn(0, "mutation %s: nothing to mutate in this run", mut);
		wbs_oracle_free(&in);
		return 2;
	}
	v = wbs_oracle_check(&in, &out, stdout, max_print);
	wbs_oracle_summary(&out, stdout, "");
	if (!mut) {
		size_t i;

		sf = wb_fopen_in(dir, "records.txt", "we");
		if (sf) {
			for (i = 0; i < in.recs.n; i++)
				wb_rec_print(sf, &in.recs.v[i]);
			fclose(sf);
		}
		sf = wb_fopen_in(dir, "summary.txt", "we");
		if (sf) {
			wbs_oracle_summary(&out, sf, "");
			fclose(sf);
		}
	}
	wbs_oracle_free(&in);
	if (mut) {
		printf("mutation %s: %lu %s violation(s) detected\n", mut,
		       out.violations[expect], wbs_vkind_name(expect));
		return out.violations[expect] ? 0 : 1;
	}
	return v ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check") || !strcmp(argv[1], "--check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}
