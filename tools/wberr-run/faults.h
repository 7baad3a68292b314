/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault programming for one instance: a scenario's fault step becomes one
 * dm-wberr "add" rule per extent of its file (or one for its sectors),
 * remembered under the scenario's id for unfault; and the fault log read
 * back after each step.  dm-wberr is driven through lib/c's wb_wberr; on
 * a real driver (fl->bk) the step goes to its injector (backend.h) and
 * the fault log is made of the failed completions the trace holds.
 */
#ifndef WBERR_FAULTS_H
#define WBERR_FAULTS_H

#include <stddef.h>
#include <stdint.h>
#include "backend.h"
#include "scenario.h"
#include "stack.h"
#include "wb_faultlog.h"
#include "wb_wberr.h"

#define MAX_RULES 32

/* one scenario fault: the dm-wberr rules it became */
struct rule {
	char id[NAME_LEN];
	int nk;
	unsigned kid[MAX_EXT];
};

struct faults {
	const char *dmname;
	struct backend *bk;	/* a real driver's (backend.h), or NULL: dm-wberr */
	struct rule rules[MAX_RULES];
	int nrules;
	uint64_t next_seq;	/* the next fault log entry to read */
	struct wb_fault *log;	/* every entry read so far */
	int nlog, caplog;
	struct wb_wberr w;	/* the device's client */
};

int faults_init(struct faults *fl, const char *dmname);
void faults_free(struct faults *fl);
/* programs @f (a "$status" status is @matrix_status); 0 or -errno, the
 * rules made or the refusal added to @msg */
int faults_program(struct faults *fl, const struct stack *s, const struct fault_spec *f,
		   const char *matrix_status, char *msg, size_t len);
/* removes the rules of scenario fault @id */
int faults_remove(struct faults *fl, const char *id, char *msg, size_t len);
/* removes every rule; 0 or -1 when dm-wberr refused */
int faults_clear(struct faults *fl);
/* appends the log entries logged since the last call to fl->log
 * (dm-wberr's; a real driver's come with the trace, below) */
int faults_fetch_log(struct faults *fl);
/* a real driver's fault log: the failed completions of @t appended to
 * fl->log; the number of them no armed fault explains (the reasons in
 * @msg), -1 when out of memory; 0 on dm-wberr */
int faults_from_trace(struct faults *fl, const struct wb_trace *t, char *msg, size_t len);

#endif
