/* SPDX-License-Identifier: GPL-2.0 */
/* What running an instance produced; read by the reports. */
#ifndef WBERR_RESULT_H
#define WBERR_RESULT_H

#include <stdint.h>
#include "scenario.h"

struct step_result {
	int ran;
	long long ret;
	int err;		/* errno the call returned, 0 on success */
	int pass;
	int checked;		/* a sync-type result judged against the model */
	int explicit_;		/* judged against the scenario's 'expect' */
	int expected;
	int content;		/* pread with content: CONTENT_* it found */
	double secs;		/* the call's wall time */
	char what[96];		/* program mode: what this check judged */
	char msg[2048];
};

enum { R_PASS, R_FAIL, R_SKIP, R__N };
/* their names in results.json: "pass", "fail", "skip" */
extern const char *const verdict_names[R__N];

struct inst_result {
	const struct instance *inst;
	int verdict;		/* R_* */
	char reason[1024];	/* setup error, skip reason, or first failing step */
	int nsteps;
	struct step_result *steps;
	int nchecked;		/* sync-type results checked */
	int nreported;		/* of which returned an error */
	int nfaults;		/* fault-log entries */
	/* program mode: the statuses its armed faults told the device to
	 * return, a bit per index in wb_statuses[] (a scenario's come from
	 * its fault steps that ran) */
	uint64_t statuses_told;
	/* a real driver (backend.h): the commands its injector failed (read
	 * back when disarmed; a retried request counts each try), and the
	 * status the kernel completed the first failed data write with */
	uint64_t fired;
	char observed[24];
	double secs;
	/* where secs went (issue 18): see phase_names */
	double phase[8];
};

/* the phases of an instance, in order; "other" is what none of them covers
 * (starting the processes, tracefs set-up, evidence).  In program mode
 * "steps" is the program's run and "check" the recovery, the checker and
 * the judging of the trace. */
enum { PH_DEVICE, PH_MKFS, PH_MOUNT, PH_STEPS, PH_CHECK, PH_TEARDOWN, PH_OTHER, PH__N };
extern const char *const phase_names[PH__N];

#endif
