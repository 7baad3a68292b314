// SPDX-License-Identifier: GPL-2.0
/* wberr-run --shard's cut: contiguous runs of about equal cost (shard.h). */
#include "shard.h"

/* the boundary (0..@count) nearest to @target in summed cost, the lower on a tie */
static int nearest_boundary(const unsigned *cost, int count, unsigned long long target)
{
	unsigned long long sum = 0;
	int k = 0;

	/* the sums rise: step on while the next boundary is strictly nearer */
	while (k < count && sum < target) {
		unsigned long long next = sum + cost[k];

		if (next > target && next - target >= target - sum)
			break;
		sum = next;
		k++;
	}
	return k;
}

void shard_run(const unsigned *cost, int count, int i, int n, int *lo, int *hi)
{
	unsigned long long total = 0;

	for (int k = 0; k < count; k++)
		total += cost[k];
	*lo = nearest_boundary(cost, count, total * (unsigned)(i - 1) / (unsigned)n);
	/* the last run to the end, whatever the sums */
	*hi = i == n ? count : nearest_boundary(cost, count, total * (unsigned)i / (unsigned)n);
}
