// SPDX-License-Identifier: GPL-2.0
/* wb_rand: a seed gives the same stream again; streams of two seeds differ. */
#include "wb_rand.h"
#include "wb_test.h"

int main(void)
{
	struct wb_rand a, b;
	uint64_t first;
	int same = 1, below = 1;

	wb_rand_seed(&a, 20261205);
	wb_rand_seed(&b, 20261205);
	first = wb_rand_next(&a);
	same &= first == wb_rand_next(&b);
	for (int i = 0; i < 1000; i++) {
		unsigned int x = wb_rand_below(&a, 7);

		same &= x == wb_rand_below(&b, 7);
		below &= x < 7;
	}
	ok(same, "one seed, one stream (1001 draws)");
	ok(below, "wb_rand_below(7) stays below 7");
	wb_rand_seed(&b, 20261206);
	ok(wb_rand_next(&b) != first, "the next seed starts elsewhere");
	wb_rand_seed(&a, 0);
	ok(wb_rand_next(&a) != 0, "seed 0 is a valid seed");
	return tap_done();
}
