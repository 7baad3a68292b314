// SPDX-License-Identifier: GPL-2.0
/* lib/errseq.c semantics the oracle is built on (6.12). */
#include <errno.h>
#include "errseq.h"
#include "tap.h"

static void test_sample_of_unseen_error_is_zero(void)
{
	errseq_t e = 0;

	errseq_set(&e, -EIO);
	is_int(0, errseq_sample(&e), "errseq_sample() returns 0 while the error is unseen (b4678df184b3)");
}

static void test_check_and_advance_reports_once(void)
{
	errseq_t e = 0, since = 0;

	errseq_set(&e, -EIO);
	is_int(-EIO, errseq_check_and_advance(&e, &since), "first check reports -EIO");
	ok(e & ERRSEQ_SEEN, "the check marks the value SEEN");
	is_int(0, errseq_check_and_advance(&e, &since), "second check reports nothing");
}

static void test_sample_of_seen_error_is_current(void)
{
	errseq_t e = 0, a = 0;

	errseq_set(&e, -EIO);
	errseq_check_and_advance(&e, &a);
	is_int(e, errseq_sample(&e), "after SEEN, a new opener samples the current value");
	is_int(0, errseq_check(&e, errseq_sample(&e)), "so it is not replayed to it");
}

static void test_counter_bumps_only_after_seen(void)
{
	errseq_t e = 0, a = 0;
	errseq_t v1, v2;

	errseq_set(&e, -EIO);
	v1 = e;
	errseq_set(&e, -EIO);
	is_int(v1, e, "setting the same unseen error again changes nothing");
	errseq_check_and_advance(&e, &a);
	errseq_set(&e, -EIO);
	v2 = e;
	is_int((v1 & ~ERRSEQ_SEEN) + ERRSEQ_CTR_INC, v2, "after SEEN the counter advances");
	is_int(-EIO, errseq_check_and_advance(&e, &a), "and the error is reported again");
}

static void test_latest_errno_wins(void)
{
	errseq_t e = 0, a = 0;

	errseq_set(&e, -ETIMEDOUT);
	errseq_set(&e, -ENOSPC);
	is_int(-ENOSPC, errseq_check_and_advance(&e, &a), "two failures between checks: one report, the latest errno");
	is_int(0, errseq_check_and_advance(&e, &a), "and only one");
}

static void test_set_returns_previous_value(void)
{
	errseq_t e = 0;

	is_int(0, errseq_set(&e, -EIO), "errseq_set returns the previous value (what filemap_set_wb_err traces)");
	is_int(EIO, errseq_set(&e, -EIO), "the second set returns the first error");
	is_int(e, errseq_set(&e, 0), "err == 0 is refused and changes nothing");
}

int main(void)
{
	test_sample_of_unseen_error_is_zero();
	test_check_and_advance_reports_once();
	test_sample_of_seen_error_is_current();
	test_counter_bumps_only_after_seen();
	test_latest_errno_wins();
	test_set_returns_previous_value();
	return tap_done();
}
