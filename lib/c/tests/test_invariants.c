// SPDX-License-Identifier: GPL-2.0
/* wb_invariants: each rule passes clean evidence and names each violation. */
#include <errno.h>

#include "wb_errseq.h"
#include "wb_invariants.h"
#include "wb_test.h"
#include "wb_trace.h"

/* an errseq event on 253:0 */
static struct wb_ev ev(int kind, uint64_t ino, uint64_t us, uint32_t old, uint32_t new)
{
	struct wb_ev e = { .kind = (uint8_t)kind, .us = us };

	e.es = (struct wb_ev_errseq){ .major = 253, .minor = 0, .ino = ino, .old = old, .new = new };
	return e;
}

int main(void)
{
	/* ino 0xc: fault at 1000 ns, set traced at 1 us (may be up to 1999 ns);
	 * ino 0xd: set at 0 us (up to 999 ns) */
	const struct wb_ev evs[] = {
		ev(WB_EV_SET, 0xd, 0, 0, 0x2005),
		ev(WB_EV_ADVANCE, 0xc, 1, 0, 0x3005),
		ev(WB_EV_SET, 0xc, 1, 0, 0x2005),
	};
	const struct wb_ev eio = ev(WB_EV_ADVANCE, 0xc, 0, 0x0, 0x3005);
	const struct wb_ev enospc = ev(WB_EV_ADVANCE, 0xc, 0, 0x0, 0x301c);
	const struct wb_ev then_eio = ev(WB_EV_ADVANCE, 0xc, 0, 0x301c, 0x5005);
	const struct wb_ev *adv_eio[] = { &eio };
	const struct wb_ev *adv_two[] = { &enospc, &then_eio };
	uint32_t cur;

	/* cause */
	is_int(WB_INV_OK, wb_inv_cause(0, 0), "cause: success needs none");
	is_int(WB_INV_OK, wb_inv_cause(EIO, 1), "cause: an error with a fault");
	is_int(WB_INV_NO_CAUSE, wb_inv_cause(EIO, 0), "cause: an error from nowhere is caught");

	/* fault-set */
	is_int(2, wb_inv_set_after(evs, 3, 253, 0, 0xc, 1000, 1000), "fault-set: the set after the fault is found");
	is_int(WB_INV_OK, wb_inv_fault_set(evs, 3, 253, 0, 0xc, 0, 1000), "fault-set: clean");
	is_int(WB_INV_FAULT_NO_SET, wb_inv_fault_set(evs, 3, 253, 0, 0xd, 1000, 1000),
	       "fault-set: a set only before the fault does not count");
	is_int(WB_INV_OK, wb_inv_fault_set(evs, 3, 253, 0, 0xd, 1000, 2000),
	       "fault-set: within a coarser clock's step it may be after");
	is_int(WB_INV_FAULT_NO_SET, wb_inv_fault_set(evs, 3, 253, 0, 0xe, 0, 1000),
	       "fault-set: no set on the inode is caught");
	is_int(WB_INV_FAULT_NO_SET, wb_inv_fault_set(evs, 3, 253, 1, 0xc, 0, 1000),
	       "fault-set: a set on another device does not count");
	is_int(WB_INV_FAULT_NO_SET, wb_inv_fault_set(evs, 2, 253, 0, 0xc, 0, 1000),
	       "fault-set: an advance is not a set");

	/* cursor continuity */
	cur = 0;
	is_int(WB_INV_OK, wb_inv_cursor_step(&cur, 0, 0x3005), "cursor: starts at the cursor");
	is_int(0x3005, cur, "cursor: moves to the new value");
	is_int(WB_INV_OK, wb_inv_cursor_step(&cur, 0x2005, 0x5005), "cursor: the SEEN flag aside");
	is_int(WB_INV_CURSOR_JUMP, wb_inv_cursor_step(&cur, 0x7005, 0x9005), "cursor: a jump is caught");
	is_int(0x9005, cur, "cursor: follows the kernel after a jump");

	/* a call's advances against the error due */
	is_int(WB_INV_OK, wb_inv_advance(0, 0, NULL, 0, WB_INV_LAST), "advance: none, none due");
	is_int(WB_INV_OK, wb_inv_advance(1, EIO, adv_eio, 1, WB_INV_LAST), "advance: to the errno due");
	is_int(WB_INV_ADVANCE_NO_ERROR, wb_inv_advance(0, 0, adv_eio, 1, WB_INV_LAST),
	       "advance: one with no error due is caught");
	is_int(WB_INV_NO_ADVANCE, wb_inv_advance(1, EIO, NULL, 0, WB_INV_ANY),
	       "advance: an error due without an advance is caught");
	is_int(WB_INV_WRONG_ERRNO, wb_inv_advance(1, ENOSPC, adv_eio, 1, WB_INV_ANY),
	       "advance: another errno is caught");
	is_int(WB_INV_OK, wb_inv_advance(1, ENOSPC, adv_two, 2, WB_INV_ANY),
	       "advance: ANY accepts an earlier advance");
	is_int(WB_INV_WRONG_ERRNO, wb_inv_advance(1, ENOSPC, adv_two, 2, WB_INV_LAST),
	       "advance: LAST wants the last one");
	is_int(WB_INV_OK, wb_inv_advance(1, EIO, adv_two, 2, WB_INV_LAST), "advance: LAST, clean");

	is_str("error-without-cause", wb_inv_name(WB_INV_NO_CAUSE), "names");
	is_str("?", wb_inv_name(WB_INV_NR), "out of range");
	return tap_done();
}
