/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The three rules every judge checks, written once.  wberr-run judges one
 * step at a time against its model (tools/wberr-run/crosscheck.c);
 * wberr-stress judges a whole concurrent run after the fact
 * (tools/wberr-stress/oracle.c); program mode judges an unmodified program's
 * run (tools/wberr-run/synctrace.c).  The rules below only judge:
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
 * The evidence is the one event shape, struct wb_ev (wb_trace.h), as the
 * one attributor (wb_attr.h) tied it to calls and faults.
 * lib/c/tests/test_invariants.c has a clean and a violating case for every
 * verdict.
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

struct wb_ev;

/* cause: @err (errno, 0 for success) given @ncauses pieces of evidence */
enum wb_inv wb_inv_cause(int err, unsigned long ncauses);

/* a set on any device: wberr-run's one file system and its raw device's
 * bdev inode (whose super block is another) */
#define WB_INV_ANY_DEV UINT32_MAX

/*
 * fault-set: the index of the first set event in @ev[n] on (@major:@minor,
 * @ino) that may have happened at or after @ns (its time stamp plus the
 * trace clock's step @gran_ns), or -1
 */
long wb_inv_set_after(const struct wb_ev *ev, size_t n, uint32_t major, uint32_t minor,
		      uint64_t ino, uint64_t ns, uint64_t gran_ns);
/* fault-set: OK when wb_inv_set_after() finds one, else FAULT_NO_SET */
enum wb_inv wb_inv_fault_set(const struct wb_ev *ev, size_t n, uint32_t major, uint32_t minor,
			     uint64_t ino, uint64_t ns, uint64_t gran_ns);

/* cursor: an advance @old -> @new against the cursor's value *@cur (the
 * SEEN flag aside, as sampling clears it); *@cur becomes @new either way */
enum wb_inv wb_inv_cursor_step(uint32_t *cur, uint32_t old, uint32_t new);

/* which advance must reach the due errno */
enum wb_inv_match { WB_INV_ANY, WB_INV_LAST };

/*
 * cursor: the advances @adv[n] (cursor move events) of one call on its
 * cursor, against whether an error was due (@failed) and its errno @err.
 * Checked in this order: advanced although none was due
 * (ADVANCE_NO_ERROR), due but no advance (NO_ADVANCE), advanced but not to
 * @err (WRONG_ERRNO; @how says whether any advance or the last one must
 * reach it).
 */
enum wb_inv wb_inv_advance(int failed, int err, const struct wb_ev *const *adv, size_t n,
			   enum wb_inv_match how);

#endif
