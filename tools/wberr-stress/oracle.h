/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The no-lost-error oracle.  From the workers' records, the dm-wberr fault
 * log and the errseq tracepoints, parsed and attributed by lib/c's one
 * parser and attributor (wb_trace, wb_attr: calls by the markers each
 * worker writes around its own calls), it checks, for every fd:
 *   lost     an error recorded on the fd's mapping (filemap_set_wb_err)
 *            before one of its syncs started is reported by that sync or
 *            an earlier one (errseq instance arithmetic, exact); for
 *            syncfs, one recorded on the fs between two syncfs calls is
 *            reported by the later one;
 *   advance  a sync that advanced the fd's cursor to an error
 *            (file_check_and_advance_wb_err) returned that errno;
 *   cause    a sync error comes from the fd's errseq cursor (fsync) or the
 *            superblock's (syncfs), never from nowhere and never twice;
 *            every errseq error traces back to a dm-wberr fault on that
 *            file's sectors, and every such fault left an errseq error.
 * README.md explains each rule and why the kernel satisfies it.
 */
#ifndef WBS_ORACLE_H
#define WBS_ORACLE_H

#include <stdint.h>
#include <stdio.h>

#include "wb_faultlog.h"
#include "wb_files.h"
#include "wb_rec.h"
#include "wb_trace.h"

struct wbs_meta {
	uint32_t dev_major, dev_minor;	/* st_dev of the fs under test */
	uint64_t go_ns, stop_ns;	/* the fault-injection window */
	int sweep_done;			/* every fd synced after the clear */
	uint64_t sb_margin_ns;		/* see README: syncfs lost check */
	uint64_t clock_step_ns;		/* CLOCK_MONOTONIC granularity */
	unsigned int cpus;
};

int wbs_meta_load(struct wbs_meta *m, const char *dir);

enum wbs_vkind {
	WBS_V_LOST,		/* an error was never reported to an fd */
	WBS_V_ADVANCED_NO_ERROR,/* cursor advanced to an error, call returned 0 */
	WBS_V_WRONG_ERRNO,	/* returned errno is not the advanced one */
	WBS_V_NO_CAUSE,		/* error returned with no errseq change */
	WBS_V_CURSOR,		/* cursor moved other than by this fd's syncs */
	WBS_V_UNATTRIBUTED,	/* advance event outside any sync of its pid */
	WBS_V_SET_NO_FAULT,	/* errseq error on a file with no fault before */
	WBS_V_FAULT_NO_SET,	/* fault on a file's data, no errseq error */
	WBS_V_FOREIGN,		/* errseq error on an inode that is no test file */
	WBS_V_STRAY_FAULT,	/* fault outside every test file */
	WBS_V_WRITE,		/* a buffered write failed */
	WBS_V_INCOMPLETE,	/* trace entries or fault log entries lost */
	WBS_V_NR
};

const char *wbs_vkind_name(unsigned int k);

struct wbs_oracle_in {
	struct wbs_meta meta;
	struct wb_files files;
	struct wb_recs recs;
	struct wb_trace trace;		/* sorted by time stamp (wb_trace_sort) */
	struct wb_faultlog faults;
};

struct wbs_oracle_out {
	unsigned long violations[WBS_V_NR];
	unsigned long nviolations;
	/* what the run did */
	unsigned long fds, syncs, syncs_by_op[WB_REC_NR];
	unsigned long errors, errors_by_op[WB_REC_NR], sweep_errors;
	unsigned long writes, write_errors;
	unsigned long faults, faults_on_files, fault_status[32];
	unsigned long sets, advances, checked_pairs, syncfs_checked, syncfs_armed;
	double loop_s;
};

/* Loads everything from a run directory; 0 or -1 (message printed). */
int wbs_oracle_load(struct wbs_oracle_in *in, const char *dir);
void wbs_oracle_free(struct wbs_oracle_in *in);

/* Runs every check, printing violations (at most @max_print in full) to
 * @f; returns the number of violations. */
unsigned long wbs_oracle_check(const struct wbs_oracle_in *in,
			       struct wbs_oracle_out *out, FILE *f,
			       unsigned int max_print);
void wbs_oracle_summary(const struct wbs_oracle_out *out, FILE *f,
			const char *prefix);

#endif
