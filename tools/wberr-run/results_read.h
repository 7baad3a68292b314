/* SPDX-License-Identifier: GPL-2.0 */
/*
 * results.json (report_json()) read back into inst_results, so that the
 * runs of several boots, each a shard of one selection, make one run's
 * summary and tables (wberr-run --merge).
 */
#ifndef WBERR_RESULTS_READ_H
#define WBERR_RESULTS_READ_H

#include <stddef.h>

#include "report.h"
#include "result.h"
#include "wb_kernel.h"

#define RUN_RECORD_MAX 64

/* what a run was asked for (results.json's "run"), its strings owned */
struct run_record {
	char *paths[RUN_RECORD_MAX];
	int npaths;
	char *filters[RUN_RECORD_MAX];
	int nfilters;
};

/*
 * @path's records into @res: each instance's result into the slot of
 * @sel[0..@nsel) with its id, whose steps it allocates; @kernel and @run
 * are what @path says.  0, or -1 with the reason in @err: the file cannot
 * be read, an instance is not in @sel or has a result already (@res's
 * zero verdict is R_PASS, so @filled[] says which slots are taken).
 */
int results_read(const char *path, struct instance *const *sel, int nsel, struct inst_result *res,
		 unsigned char *filled, struct wb_kernel *kernel, struct run_record *run, char *err,
		 size_t elen);
/*
 * What each instance of @sel took in @path's run, in hundredths of a
 * second (its phases' sum, at least 1), into @cost_cs[i]: the weights of
 * wberr-run --shard --costs.  An instance @path lacks or skipped keeps
 * its @cost_cs.  The number found, or -1 with the reason in @err.
 */
int results_costs(const char *path, struct instance *const *sel, int nsel, unsigned *cost_cs, char *err,
		  size_t elen);
void run_record_free(struct run_record *run);
/* 1 when @a and @b asked for the same (scenario paths and filters) */
int run_record_same(const struct run_record *a, const struct run_record *b);

#endif
