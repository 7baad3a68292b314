// SPDX-License-Identifier: GPL-2.0
#include "wb_rand.h"

void wb_rand_seed(struct wb_rand *r, uint64_t seed)
{
	r->s = seed * 2 + 0x9e3779b97f4a7c15ULL;	/* odd: never 0 */
}

uint64_t wb_rand_next(struct wb_rand *r)
{
	uint64_t x = r->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

unsigned int wb_rand_below(struct wb_rand *r, unsigned int n)
{
	return (unsigned int)(wb_rand_next(r) % n);
}
