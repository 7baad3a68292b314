/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One stress run, start to end: creates and preallocates the test files,
 * maps their extents, arms tracing, forks the workers and the fio jobs,
 * programs dm-wberr until the deadline, clears the faults, lets every fd
 * sync once more, and leaves in the output directory everything the
 * oracle needs (meta.txt, files.txt, recs.*.bin, trace.txt, faults.txt).
 */
#ifndef WBS_RUNNER_H
#define WBS_RUNNER_H

#include <stdint.h>

#define WBS_MAX_FIO 8

struct wbs_run_cfg {
	const char *dir;	/* directory on the mounted fs under test */
	const char *out;	/* output directory (not on that fs) */
	const char *dev;	/* dm-wberr device name */
	const char *tracefs;
	uint64_t seed;
	unsigned int procs, fds, shared, file_kib;
	double duration_s;
	unsigned int prob_ppm, period_ms, max_delay_ms, buffer_kb;
	int robust;
	const char *fio[WBS_MAX_FIO];
	unsigned int nfio;
};

void wbs_run_defaults(struct wbs_run_cfg *cfg);
int wbs_run(const struct wbs_run_cfg *cfg);

#endif
