// SPDX-License-Identifier: GPL-2.0
/*
 * wberr-run --shard's cut (shard.h): N contiguous runs that hold every
 * item once; with equal costs of 1 (every scenario without `cost:`) the
 * old runs of equal count; with PostgreSQL's 15 s among 1 s instances, runs
 * of about equal cost where equal counts gave one shard all four.
 */
#include <stdlib.h>

#include "shard.h"
#include "wb_test.h"

#define MAXN 300

/* the runs of @n shards over @cost: contiguous, every item once; the
 * largest run's summed cost */
static unsigned long long cut(const unsigned *cost, int count, int n, int *ok_runs)
{
	unsigned long long most = 0;
	int end = 0;

	*ok_runs = 1;
	for (int i = 1; i <= n; i++) {
		unsigned long long sum = 0;
		int lo, hi;

		shard_run(cost, count, i, n, &lo, &hi);
		*ok_runs &= lo == end && hi >= lo && hi <= count;
		end = hi;
		for (int k = lo; k < hi && k < count; k++)
			sum += cost[k];
		most = sum > most ? sum : most;
	}
	*ok_runs &= end == count;
	return most;
}

static void equal_costs_cut_by_count(void)
{
	static unsigned ones[MAXN];
	int same = 1;

	for (int k = 0; k < MAXN; k++)
		ones[k] = 1;
	for (int count = 0; count <= MAXN; count++)
		for (int n = 1; n <= 8; n++)
			for (int i = 1; i <= n; i++) {
				int lo, hi;

				shard_run(ones, count, i, n, &lo, &hi);
				same &= lo == count * (i - 1) / n && hi == count * i / n;
			}
	ok(same, "costs all 1 (no cost: given): shard I of N is [count(I-1)/N, count*I/N), the cut by count, "
	   "for 0..%d items over 1..8 shards", MAXN);
}

static void postgres_first(void)
{
	/* four PostgreSQL instances of 15 s, then twenty of 1 s: 80 s */
	unsigned cost[24];
	int runs, lo, hi;

	for (int k = 0; k < 24; k++)
		cost[k] = k < 4 ? 15 : 1;
	is_int(30, (long long)cut(cost, 24, 3, &runs), "costs [15,15,15,15,1 x 20] over 3 shards: the largest "
	       "shard costs 30 (equal counts of 8 gave shard 1 all four PostgreSQL's, 64)");
	ok(runs, "  and the runs hold every instance once, in order");
	shard_run(cost, 24, 1, 3, &lo, &hi);
	ok(lo == 0 && hi == 2, "  shard 1/3: two PostgreSQL's (the boundary nearest 26 s is at 30, not 15)");
	shard_run(cost, 24, 3, 3, &lo, &hi);
	ok(lo == 4 && hi == 24, "  shard 3/3: the twenty 1 s instances (%d..%d)", lo, hi);
}

/* each boundary within half the dearest item of its share: no run over
 * a share plus the dearest item (and the shares' rounding) */
static void random_costs(void)
{
	unsigned cost[64];
	int all_runs = 1, all_balanced = 1;

	srand(36);
	for (int round = 0; round < 2000; round++) {
		int count = rand() % 64, n = 1 + rand() % 6, runs;
		unsigned long long total = 0, dearest = 0, most;

		for (int k = 0; k < count; k++) {
			cost[k] = 1 + (unsigned)(rand() % (rand() % 2 ? 3 : 20));
			total += cost[k];
			dearest = cost[k] > dearest ? cost[k] : dearest;
		}
		most = cut(cost, count, n, &runs);
		all_runs &= runs;
		all_balanced &= most <= total / (unsigned)n + 1 + dearest;
	}
	ok(all_runs, "2000 random cost lists (1..20) over 1..6 shards: contiguous runs, every item once");
	ok(all_balanced, "  and no shard costs more than its share plus the dearest item");
}

int main(void)
{
	equal_costs_cut_by_count();
	postgres_first();
	random_costs();
	return tap_done();
}
