/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seeded generator of the guest fuzzers (wberr-msgfuzz, wberr-rulemodel):
 * xorshift64*, so that a seed printed by a failing run gives the same
 * messages again.  Not for anything secret.
 */
#ifndef WB_RAND_H
#define WB_RAND_H

#include <stdint.h>

struct wb_rand {
	uint64_t s;
};

/* any seed, 0 included (the state is never 0) */
void wb_rand_seed(struct wb_rand *r, uint64_t seed);
uint64_t wb_rand_next(struct wb_rand *r);
/* uniform enough in [0, n), n > 0 */
unsigned int wb_rand_below(struct wb_rand *r, unsigned int n);

#endif
