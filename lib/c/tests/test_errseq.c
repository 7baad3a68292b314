// SPDX-License-Identifier: GPL-2.0
/*
 * The errseq model against lib/errseq.c (6.12): one test per KUnit case of
 * kernel/patches/0002-lib-add-KUnit-tests-for-errseq_t.patch, named after
 * it, so a disagreement points at the same case on both sides.  Not
 * mirrored: errseq_test_concurrent (the model is single-threaded).
 */
#include <errno.h>

#include "wb_errseq.h"
#include "wb_test.h"

#define CTR_MASK (~0u << WB_ERRSEQ_CTR_SHIFT)

static void errseq_test_zero_is_no_error(void)
{
	wb_errseq_t eseq = 0, since = wb_errseq_sample(&eseq);

	is_int(0, since, "zero_is_no_error: sample of 0 is 0");
	is_int(0, wb_errseq_check(&eseq, since), "zero_is_no_error: check reports nothing");
	is_int(0, wb_errseq_check_and_advance(&eseq, &since), "zero_is_no_error: check_and_advance reports nothing");
	ok(since == 0 && eseq == 0, "zero_is_no_error: neither value moved");
}

static void errseq_test_set_records_errno(void)
{
	wb_errseq_t eseq = 0;

	wb_errseq_set(&eseq, -EIO);
	ok(wb_errseq_errno(eseq) == EIO && !wb_errseq_seen(eseq) && wb_errseq_counter(eseq) == 0,
	   "set_records_errno: EIO, unseen, counter 0");
}

static void errseq_test_set_returns_previous(void)
{
	wb_errseq_t eseq = 0;

	is_int(0, wb_errseq_set(&eseq, -EIO), "set_returns_previous: first set returns 0 (what filemap_set_wb_err traces)");
	is_int(EIO, wb_errseq_set(&eseq, -ENOSPC), "set_returns_previous: second set returns the first error");
	is_int(ENOSPC, wb_errseq_errno(eseq), "set_returns_previous: and records the second");
	is_int(eseq, wb_errseq_set(&eseq, 0), "set_returns_previous: err == 0 is refused and changes nothing");
}

static void errseq_test_check_and_advance_reports_once(void)
{
	wb_errseq_t eseq = 0, since = wb_errseq_sample(&eseq);

	wb_errseq_set(&eseq, -EIO);
	is_int(-EIO, wb_errseq_check_and_advance(&eseq, &since), "check_and_advance_reports_once: first check reports -EIO");
	is_int(0, wb_errseq_check_and_advance(&eseq, &since), "check_and_advance_reports_once: second reports nothing");
	is_int(0, wb_errseq_check(&eseq, since), "check_and_advance_reports_once: nor does check");
}

static void errseq_test_check_and_advance_sets_seen(void)
{
	wb_errseq_t eseq = 0, since = 0, before;

	wb_errseq_set(&eseq, -EIO);
	before = eseq;
	wb_errseq_check_and_advance(&eseq, &since);
	is_int(before | WB_ERRSEQ_SEEN, eseq, "check_and_advance_sets_seen: only SEEN changes");
	is_int(eseq, since, "check_and_advance_sets_seen: the cursor holds the new value");
}

static void errseq_test_check_does_not_advance(void)
{
	wb_errseq_t eseq = 0, since = wb_errseq_sample(&eseq), before;

	wb_errseq_set(&eseq, -EIO);
	before = eseq;
	is_int(-EIO, wb_errseq_check(&eseq, since), "check_does_not_advance: check reports -EIO");
	is_int(-EIO, wb_errseq_check(&eseq, since), "check_does_not_advance: and again");
	ok(eseq == before && !wb_errseq_seen(eseq) && since == 0,
	   "check_does_not_advance: neither the value nor the cursor moved");
	is_int(-EIO, wb_errseq_check_and_advance(&eseq, &since), "check_does_not_advance: the reporting call still sees it");
}

static void errseq_test_unseen_set_keeps_counter(void)
{
	wb_errseq_t eseq = 0, first;

	wb_errseq_set(&eseq, -EIO);
	first = eseq;
	wb_errseq_set(&eseq, -EIO);
	is_int(first, eseq, "unseen_set_keeps_counter: the same unseen error again changes nothing");
	wb_errseq_set(&eseq, -ENOSPC);
	ok(wb_errseq_errno(eseq) == ENOSPC && wb_errseq_counter(eseq) == wb_errseq_counter(first) &&
	   !wb_errseq_seen(eseq), "unseen_set_keeps_counter: another errno replaces the errno, not the counter");
}

static void errseq_test_seen_set_bumps_counter(void)
{
	wb_errseq_t eseq = 0, since = 0;
	uint32_t ctr;

	wb_errseq_set(&eseq, -EIO);
	wb_errseq_check_and_advance(&eseq, &since);
	ctr = wb_errseq_counter(eseq);
	wb_errseq_set(&eseq, -EIO);
	ok(wb_errseq_counter(eseq) == ctr + 1 && !wb_errseq_seen(eseq),
	   "seen_set_bumps_counter: after SEEN the counter advances and SEEN clears");
	is_int(-EIO, wb_errseq_check_and_advance(&eseq, &since), "seen_set_bumps_counter: the same errno is a new error");
}

static void errseq_test_counter_increments(void)
{
	wb_errseq_t eseq = 0, since = 0;
	int bad = 0;

	wb_errseq_set(&eseq, -EIO);
	for (uint32_t i = 1; i <= 100; i++) {
		bad |= wb_errseq_check_and_advance(&eseq, &since) != -EIO;
		wb_errseq_set(&eseq, -EIO);
		bad |= wb_errseq_counter(eseq) != i;
	}
	ok(!bad, "counter_increments: 100 report-then-fail rounds count 1..100");
}

static void errseq_test_latest_error_wins(void)
{
	wb_errseq_t eseq = 0, since = wb_errseq_sample(&eseq);

	wb_errseq_set(&eseq, -EIO);
	wb_errseq_set(&eseq, -ENOSPC);
	wb_errseq_set(&eseq, -ETIMEDOUT);
	is_int(-ETIMEDOUT, wb_errseq_check_and_advance(&eseq, &since), "latest_error_wins: three failures, one report, the last");
	is_int(0, wb_errseq_check_and_advance(&eseq, &since), "latest_error_wins: and only one");
}

static void errseq_test_latest_error_wins_after_seen(void)
{
	wb_errseq_t eseq = 0, a = 0, b = 0;

	wb_errseq_set(&eseq, -EIO);
	is_int(-EIO, wb_errseq_check_and_advance(&eseq, &a), "latest_error_wins_after_seen: a sees EIO");
	wb_errseq_set(&eseq, -EBADE);
	is_int(-EBADE, wb_errseq_check_and_advance(&eseq, &b), "latest_error_wins_after_seen: b is told the newest only");
	is_int(-EBADE, wb_errseq_check_and_advance(&eseq, &a), "latest_error_wins_after_seen: a too");
}

static void errseq_test_sample_before_unseen_error(void)
{
	wb_errseq_t eseq = 0, since = wb_errseq_sample(&eseq);

	wb_errseq_set(&eseq, -EIO);
	is_int(-EIO, wb_errseq_check(&eseq, since), "sample_before_unseen_error: check sees it");
	is_int(-EIO, wb_errseq_check_and_advance(&eseq, &since), "sample_before_unseen_error: and reports it");
}

static void errseq_test_sample_of_unseen_error_reports_it(void)
{
	wb_errseq_t eseq = 0, since;

	wb_errseq_set(&eseq, -EIO);
	since = wb_errseq_sample(&eseq);
	is_int(0, since, "sample_of_unseen_error_reports_it: sample is 0 while unseen (b4678df184b3)");
	is_int(-EIO, wb_errseq_check_and_advance(&eseq, &since), "sample_of_unseen_error_reports_it: so the new opener is told");
}

static void errseq_test_sample_of_seen_error_hides_it(void)
{
	wb_errseq_t eseq = 0, first = 0, since;

	wb_errseq_set(&eseq, -EIO);
	wb_errseq_check_and_advance(&eseq, &first);
	since = wb_errseq_sample(&eseq);
	is_int(eseq, since, "sample_of_seen_error_hides_it: a new opener samples the current value");
	is_int(0, wb_errseq_check_and_advance(&eseq, &since), "sample_of_seen_error_hides_it: and is not told");
}

static void errseq_test_every_cursor_reports(void)
{
	wb_errseq_t eseq = 0, c[3];
	int first = 1, second = 1;

	for (int i = 0; i < 3; i++)
		c[i] = wb_errseq_sample(&eseq);
	wb_errseq_set(&eseq, -EIO);
	for (int i = 0; i < 3; i++)
		first &= wb_errseq_check_and_advance(&eseq, &c[i]) == -EIO;
	for (int i = 0; i < 3; i++)
		second &= wb_errseq_check_and_advance(&eseq, &c[i]) == 0;
	ok(first && second, "every_cursor_reports: three cursors each told once");
}

static void errseq_test_counter_wraps(void)
{
	wb_errseq_t eseq = CTR_MASK | WB_ERRSEQ_SEEN | EIO, since = eseq;

	wb_errseq_set(&eseq, -ENOSPC);
	ok(wb_errseq_counter(eseq) == 0 && wb_errseq_errno(eseq) == ENOSPC && !wb_errseq_seen(eseq),
	   "counter_wraps: the maximal counter wraps to 0");
	is_int(-ENOSPC, wb_errseq_check_and_advance(&eseq, &since), "counter_wraps: and the error is still reported");
}

static void errseq_test_counter_period(void)
{
	const uint32_t period = 1u << (32 - WB_ERRSEQ_CTR_SHIFT);
	wb_errseq_t eseq = 0, stale = 0, since = 0;

	wb_errseq_set(&eseq, -EIO);
	wb_errseq_check_and_advance(&eseq, &stale);
	for (uint32_t i = 0; i < period - 1; i++) {
		wb_errseq_set(&eseq, -EIO);
		wb_errseq_check_and_advance(&eseq, &since);
	}
	is_int(-EIO, wb_errseq_check(&eseq, stale), "counter_period: one short of the period, a stale cursor still sees it");
	wb_errseq_set(&eseq, -EIO);
	wb_errseq_check_and_advance(&eseq, &since);
	ok(eseq == stale && wb_errseq_check(&eseq, stale) == 0,
	   "counter_period: after 2^19 errors the stale cursor misses one");
}

/* wberr-stress's instance arithmetic on traced values (no KUnit twin) */
static void errseq_level(void)
{
	ok(wb_errseq_level(0) == 0, "errseq level of 0 is 0");
	ok(wb_errseq_level(0x5) == 1 && wb_errseq_level(0x1005) == 1,
	   "counter 0 with an errno is instance 1, seen or not");
	ok(wb_errseq_level_after_set(0) == 1, "a set over 0 makes instance 1");
	ok(wb_errseq_level_after_set(0x5) == 1, "a set over an unseen error stays in its instance");
	ok(wb_errseq_level_after_set(0x1005) == 2, "a set over a seen error starts the next instance");
	ok(wb_errseq_level_after_set(0x3005) == 3, "counter 1 seen -> instance 3");
}

int main(void)
{
	errseq_test_zero_is_no_error();
	errseq_test_set_records_errno();
	errseq_test_set_returns_previous();
	errseq_test_check_and_advance_reports_once();
	errseq_test_check_and_advance_sets_seen();
	errseq_test_check_does_not_advance();
	errseq_test_unseen_set_keeps_counter();
	errseq_test_seen_set_bumps_counter();
	errseq_test_counter_increments();
	errseq_test_latest_error_wins();
	errseq_test_latest_error_wins_after_seen();
	errseq_test_sample_before_unseen_error();
	errseq_test_sample_of_unseen_error_reports_it();
	errseq_test_sample_of_seen_error_hides_it();
	errseq_test_every_cursor_reports();
	errseq_test_counter_wraps();
	errseq_test_counter_period();
	errseq_level();
	return tap_done();
}
