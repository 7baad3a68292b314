/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fault programmer: drives dm-wberr (lib/c wb_wberr, wb_dm) during a run.
 * Base rules give every test-file extent a seeded-probability rule (the
 * statuses rotate over the extents so every status the kernel has is used); each step
 * then adds bursts (skip/count), every-Kth and delayed faults, removes
 * rules, and with @robust suspends/resumes and reloads the table.  Every
 * rule is limited to the data sectors of the test files.  The fault log is
 * drained into faults.txt (its lines: wb_faultlog.h) after every step.
 */
#ifndef WBS_FAULTS_H
#define WBS_FAULTS_H

#include <stdint.h>
#include <stdio.h>

#include "extents.h"
#include "wb_wberr.h"
#include "wb_kernel.h"
#include "rng.h"

struct wbs_faults_cfg {
	const char *dev;	/* dm device name */
	uint64_t seed;
	unsigned int prob_ppm;	/* base rules; 0 = no base rules */
	unsigned int max_delay_ms;
	int robust;		/* suspend/resume and table reloads */
};

struct wbs_faults {
	struct wbs_faults_cfg cfg;
	const struct wb_files *files;
	struct wbs_rng rng;
	FILE *log;
	char *table;		/* the live table line, for reloads */
	struct wb_wberr w;	/* the device's client: its last message and response */
	uint32_t epoch;
	uint64_t next_seq;
	int *base;		/* per extent: id of its base rule, -1 none */
	/* the statuses this kernel has (dm-wberr's "statuses"), in
	 * wb_statuses[] order: the rotation and the random picks use these */
	const char *statuses[WB_KERNEL_MAX_STATUSES];
	size_t nstatuses;
	unsigned int *dyn;	/* ids of dynamic rules still listed */
	unsigned int ndyn;
	/* what was done */
	unsigned long rules_added, rules_removed, suspends, reloads, failures;
};

int wbs_faults_init(struct wbs_faults *fp, const struct wbs_faults_cfg *cfg,
		    const struct wb_files *files, const char *dir);
/* Adds the base rules. */
int wbs_faults_arm(struct wbs_faults *fp);
/* One seeded random action. */
void wbs_faults_step(struct wbs_faults *fp);
/* The robustness actions on their own: suspend + resume; reload the same
 * table (a new target instance: rules re-armed, log epoch + 1). */
void wbs_faults_suspend_resume(struct wbs_faults *fp);
void wbs_faults_reload(struct wbs_faults *fp);
/* Copies new fault log entries into faults.txt: all of them, or with
 * @bounded at most a few pages (so a busy log cannot stall the steps). */
int wbs_faults_drain(struct wbs_faults *fp, int bounded);
/* Removes every rule (then drains). */
int wbs_faults_clear(struct wbs_faults *fp);
void wbs_faults_event(struct wbs_faults *fp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void wbs_faults_close(struct wbs_faults *fp);

#endif
