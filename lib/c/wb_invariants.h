/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The three rules both oracles check, written once.  wberr-run judges one
 * step at a time against its model (userspace/src/crosscheck.c);
 * wberr-stress judges a whole concurrent run after the fact
 * (userspace/stress/oracle.c).  Each tool decides which evidence belongs
 * to a call or a fault (its attribution); the rules below only judge it:
 *
 *   cause      an error a call returns has a cause: a logged fault
 *              (wberr-run) or a move of the call's errseq cursor
 *              (wberr-stress);
 *   fault-set  a fault on a file's data leaves an errseq error on that
 *              file's mapping (filemap_set_wb_err) at or after the fault;
 *   cursor     a cursor advance (file_check_and_advance_{wb,sb}_err)
 *              starts where the cursor was, and a call's advances match
 *              the error it reports or the model expects.
 *
 * The evidence is a small record both tools fill from their own trace
 * types.  lib/c/tests/test_invariants.c has a clean and a violating case
 * for every verdict.
 */
#ifndef WB_INVARIANTS_H
#define WB_INVARIANTS_H

#include <stddef.h>
#include <stdint.h>

enum wb_inv {
	WB_INV_OK = 0,
	WB_INV_NO_CAUSE,	 /* an error with nothing that could cause it */
	WB_INV_FAULT_NO_SET,	 /* a fault on file data left no errseq error */
	WB_INV_CURSOR_JUMP,	 /* an advance did not start at the cursor */
	WB_INV_ADVANCE_NO_ERROR, /* the cursor advanced, no error was due */
	WB_INV_NO_ADVANCE,	 /* an error was due, the cursor did not move */
	WB_INV_WRONG_ERRNO,	 /* the cursor advanced to another errno */
	WB_INV_NR
};

const char *wb_inv_name(enum wb_inv v);

/* one traced errseq event; kind is WB_TEV_SET, WB_TEV_ADVANCE or
 * WB_TEV_SB_ADVANCE (wb_trace.h) */
struct wb_inv_ev {
	int kind;
	uint64_t ino;
	uint64_t hi_ns;		/* the latest time it may have happened */
	uint32_t old, new;	/* SET: before/after errseq_set; ADVANCE: cursor */
};

/* cause: @err (errno, 0 for success) given @ncauses pieces of evidence */
enum wb_inv wb_inv_cause(int err, unsigned long ncauses);

/* fault-set: the index of the first SET on @ino with hi_ns >= @ns in
 * @ev[n], or -1 */
long wb_inv_set_after(const struct wb_inv_ev *ev, size_t n, uint64_t ino, uint64_t ns);
/* fault-set: OK when wb_inv_set_after() finds one, else FAULT_NO_SET */
enum wb_inv wb_inv_fault_set(const struct wb_inv_ev *ev, size_t n, uint64_t ino, uint64_t ns);

/* cursor: an advance @old -> @new against the cursor's value *@cur (the
 * SEEN flag aside, as sampling clears it); *@cur becomes @new either way */
enum wb_inv wb_inv_cursor_step(uint32_t *cur, uint32_t old, uint32_t new);

/* which advance must reach the due errno */
enum wb_inv_match { WB_INV_ANY, WB_INV_LAST };

/*
 * cursor: the advances @adv[n] of one call on its cursor, against whether
 * an error was due (@failed) and its errno @err.  Checked in this order:
 * advanced although none was due (ADVANCE_NO_ERROR), due but no advance
 * (NO_ADVANCE), advanced but not to @err (WRONG_ERRNO; @how says whether
 * any advance or the last one must reach it).
 */
enum wb_inv wb_inv_advance(int failed, int err, const struct wb_inv_ev *adv, size_t n,
			   enum wb_inv_match how);

#endif
