// SPDX-License-Identifier: GPL-2.0
/* The rules every judge shares; wb_invariants.h says what each one means. */
#include "wb_invariants.h"
#include "wb_errseq.h"
#include "wb_trace.h"

static const char *const names[WB_INV_NR] = {
	[WB_INV_OK] = "ok",
	[WB_INV_NO_CAUSE] = "error-without-cause",
	[WB_INV_FAULT_NO_SET] = "fault-without-errseq-error",
	[WB_INV_CURSOR_JUMP] = "cursor-discontinuity",
	[WB_INV_ADVANCE_NO_ERROR] = "advance-without-error",
	[WB_INV_NO_ADVANCE] = "error-without-advance",
	[WB_INV_WRONG_ERRNO] = "advance-to-another-errno",
};

const char *wb_inv_name(enum wb_inv v)
{
	return (unsigned int)v < WB_INV_NR ? names[v] : "?";
}

enum wb_inv wb_inv_cause(int err, unsigned long ncauses)
{
	return err && !ncauses ? WB_INV_NO_CAUSE : WB_INV_OK;
}

long wb_inv_set_after(const struct wb_ev *ev, size_t n, uint32_t major, uint32_t minor,
		      uint64_t ino, uint64_t ns, uint64_t gran_ns)
{
	for (size_t i = 0; i < n; i++)
		if (ev[i].kind == WB_EV_SET && ev[i].es.ino == ino &&
		    (major == WB_INV_ANY_DEV || (ev[i].es.major == major && ev[i].es.minor == minor)) &&
		    ev[i].us * 1000 + gran_ns - 1 >= ns)
			return (long)i;
	return -1;
}

enum wb_inv wb_inv_fault_set(const struct wb_ev *ev, size_t n, uint32_t major, uint32_t minor,
			     uint64_t ino, uint64_t ns, uint64_t gran_ns)
{
	return wb_inv_set_after(ev, n, major, minor, ino, ns, gran_ns) < 0 ? WB_INV_FAULT_NO_SET
									    : WB_INV_OK;
}

enum wb_inv wb_inv_cursor_step(uint32_t *cur, uint32_t old, uint32_t new)
{
	int jump = (old | WB_ERRSEQ_SEEN) != (*cur | WB_ERRSEQ_SEEN);

	*cur = new;
	return jump ? WB_INV_CURSOR_JUMP : WB_INV_OK;
}

enum wb_inv wb_inv_advance(int failed, int err, const struct wb_ev *const *adv, size_t n,
			   enum wb_inv_match how)
{
	int reached = 0;

	for (size_t i = 0; i < n; i++)
		if (how == WB_INV_ANY || i == n - 1)
			reached |= wb_errseq_errno(adv[i]->es.new) == err;
	if (n && !failed)
		return WB_INV_ADVANCE_NO_ERROR;
	if (!n && failed)
		return WB_INV_NO_ADVANCE;
	if (n && !reached)
		return WB_INV_WRONG_ERRNO;
	return WB_INV_OK;
}
