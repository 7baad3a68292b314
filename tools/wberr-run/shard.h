/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make test SHARD=I/N (wberr-run --shard): where a selection, in
 * file-system kind order (stack_kind_cmp()), is cut into N contiguous
 * runs of about equal cost.  Contiguous, so that a shard pays the first
 * mkfs of few kinds; by cost, because a program instance takes from 1 s
 * (LMDB) to 15 s (PostgreSQL) under TCG, a library instance from 0.1 s
 * to 9 s: in hundredths of a second, what the instance took in an
 * earlier run (--costs), else its scenario's `cost:`, SHARD_UNSAID_CS
 * without one (docs/measurements.md, "wberr-run --shard by cost", "make
 * run on several boots").
 */
#ifndef WBERR_SHARD_H
#define WBERR_SHARD_H

/* an instance whose scenario gives no cost: about what the library's take */
#define SHARD_UNSAID_CS 20

/*
 * The run of shard @i (1-based) of @n over @cost[0..@count), each cost at
 * least 1, into [*@lo, *@hi).  Its end is the boundary between two items
 * nearest to i/n of the summed cost, i * sum / n in whole units (the lower
 * boundary on a tie): with equal costs of 1 these are the old runs of
 * equal count, [count * (i-1) / n, count * i / n).  The N runs hold every
 * item exactly once, in order; a shard is empty only when one item alone
 * costs more than a share.
 */
void shard_run(const unsigned *cost, int count, int i, int n, int *lo, int *hi);

#endif
