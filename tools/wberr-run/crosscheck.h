/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wberr-run's cross-checks of a step against the kernel's own evidence:
 * the fault log's lines and the errseq trace's events, as recorded during
 * the step and attributed by lib/c's one attributor (wb_attr).  The rules
 * are lib/c's wb_invariants (every judge's); this module applies them to
 * one step of the model and words the "CROSS-CHECK:" messages.  It needs no device, so
 * tests/test_crosscheck.c replays recorded evidence through it on the
 * host.
 */
#ifndef WBERR_CROSSCHECK_H
#define WBERR_CROSSCHECK_H

#include <stddef.h>

#include "oracle.h"
#include "wb_attr.h"
#include "wb_faultlog.h"
#include "wb_invariants.h"

/*
 * The step's trace, parsed and attributed with the windows the runner's
 * markers make (lib/c wb_attr, WB_WIN_MARKS_ALL): the runner writes
 * "wb B|E <proc> 0 <step>" around each call an agent makes.  Into zeroed
 * @t and @a; @text may be NULL (not traced).  0, or -1 when out of memory.
 */
int xc_attribute(struct wb_trace *t, struct wb_attr *a, const char *text);

/* the call of step @step in @a: both its markers traced, else -1 */
long xc_call(const struct wb_attr *a, int step);

/*
 * fault-set: the data fault @f was attributed to @path, inode number @ino;
 * the step's trace @t must hold a filemap_set_wb_err on it.  Returns 1
 * when it does, else 0 and adds a CROSS-CHECK message to @msg.
 */
int xc_fault_set(const struct wb_fault *f, const char *path, unsigned long ino,
		 const struct wb_trace *t, char *msg, size_t len);

/*
 * cursor: the model's prediction @p for a sync call against the cursor
 * advances the attributor gave the step's call @call on inode @ino:
 * file_check_and_advance_wb_err, or for syncfs (p->sb)
 * file_check_and_advance_sb_err (kernel/patches/0005; stock 6.12 has no
 * event for f_sb_err, so the caller skips it there).  Returns 1 when
 * consistent (adding a "trace: ..." note when there was a move), else 0
 * and a CROSS-CHECK message.
 */
int xc_cursor(const struct or_pred *p, unsigned long ino, const struct wb_attr *a, long call,
	      char *msg, size_t len);

/*
 * cause: a step returned @err; unless the scenario names that error
 * (@explicit_) or the step programs faults itself (@fault_op), some fault
 * must have been logged in the run (@nfaults).  Returns 1 or 0 with a
 * CROSS-CHECK message.
 */
int xc_cause(int err, int explicit_, int fault_op, unsigned long nfaults, char *msg, size_t len);

/* a data fault of the step, attributed to a tracked file whose inode
 * number is known */
struct xc_attr {
	const struct wb_fault *f;
	const char *path;
	unsigned long ino;
};

/*
 * One step as the cross-checks see it, besides its trace: what exec.c
 * knows live, and what an evidence directory records (evidence.h), so that
 * the live run and --replay judge through the same call.
 */
struct xc_step {
	int step;		/* 0-based: the seq its call markers carry */
	int err;		/* the call's errno, 0 on success */
	int explicit_;		/* the scenario names that error */
	int fault_op;		/* the step programs faults itself */
	unsigned long nlog;	/* fault-log entries in the run by the end of the step */
	int traced;		/* the trace was recorded */
	int sb_traced;		/* the kernel traces f_sb_err moves (patch 0005) */
	const struct xc_attr *attr;
	size_t nattr;
	int cursor;		/* pred is a valid prediction on a known inode ... */
	unsigned long pred_ino;	/* ... this one */
	struct or_pred pred;
};

/*
 * The three rules on step @s against the trace taken after it, as @a
 * attributed it (xc_attribute()): fault-set for each attributed fault,
 * cursor in the call's window (when both markers are there, and for
 * syncfs only when @s->sb_traced), cause.  Returns 1 when all pass, else
 * 0; the messages go to @msg.
 */
int xc_step(const struct xc_step *s, const struct wb_attr *a, char *msg, size_t len);

/* appends "; "-separated text to @msg (what every step message is built with) */
void add_msg(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
