/* SPDX-License-Identifier: GPL-2.0 */
/* TAP 14, JUnit XML, the per-filesystem summary and the errno-fidelity table. */
#ifndef WBERR_REPORT_H
#define WBERR_REPORT_H

#include <stdio.h>
#include "result.h"
#include "wb_kernel.h"

/* @r took @secs: "other" becomes what its phases do not cover */
void result_set_secs(struct inst_result *r, double secs);
/* @r's plan told the device to return status @name ("$status": @matrix) */
void result_told_status(struct inst_result *r, const char *name, const char *matrix);

void report_tap_begin(FILE *out, int n);
void report_tap_result(FILE *out, int idx, const struct inst_result *r);
/* What the run was asked to do, for the summary's header. */
struct run_info {
	const char *kernel;		/* uname -r where the instances ran */
	const char *const *paths;	/* scenario files or directories given */
	int npaths;
	const char *const *filters;	/* --filter globs; none = every instance */
	int nfilters;
	const char *shard;		/* --shard I/N, or NULL */
};

/*
 * The header a person reads first (kernel, file systems, statuses, counts,
 * every failed instance by name), then per filesystem which guarantees hold;
 * every line starts with @prefix.
 */
void report_summary(FILE *out, const char *prefix, const struct run_info *ri,
		    const struct inst_result *rs, int n);
/* errno-fidelity.md and errno-fidelity.csv under @dir, the BLK_STS
 * column in @k's numbering (6.12's when @k is NULL or its statuses were
 * not read) and a row for each status @k lacks; 0 if nothing to write */
int report_fidelity(const char *dir, const struct wb_kernel *k, const struct inst_result *rs, int n);
/* errno-fidelity-backends.md and .csv under @dir: one table per real
 * driver (lib/c wb_backend.h), a row per status of its own; 0 if nothing
 * to write */
int report_backends(const char *dir, const struct inst_result *rs, int n);
/*
 * results.json under @dir: the kernel (release, series, its statuses and
 * their values), what the run was asked for (@ri, or null) and every
 * instance with its verdict, reason and steps (what each call returned,
 * what was expected, the check's message), for tools that compare runs
 * (harness/compare.py) and for results_read(), which merges shards' runs
 * (wberr-run --merge); -1 if it cannot be written
 */
int report_json(const char *dir, const struct run_info *ri, const struct wb_kernel *k,
		const struct inst_result *rs, int n);
/* content-after-failure.md and .csv under @dir: what each labelled pread
 * with content: found, a row per instance; 0 if nothing to write */
int report_content(const char *dir, const struct inst_result *rs, int n);
/* --results DIR: summary.txt and every table above under @dir */
void report_write(const char *dir, const struct run_info *ri, const struct wb_kernel *k,
		  const struct inst_result *rs, int n);
/* quote for a YAML double-quoted scalar */
void yaml_quote(const char *in, char *out, size_t len);

#endif
