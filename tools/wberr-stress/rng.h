/* SPDX-License-Identifier: GPL-2.0 */
/* A seeded PRNG (xoshiro256**, seeded with splitmix64): a run's op
 * sequences and fault schedule follow from --seed alone. */
#ifndef WBS_RNG_H
#define WBS_RNG_H

#include <stdint.h>

struct wbs_rng {
	uint64_t s[4];
};

/* @stream separates independent sequences drawn from one seed. */
void wbs_rng_seed(struct wbs_rng *r, uint64_t seed, uint64_t stream);
uint64_t wbs_rng_next(struct wbs_rng *r);
/* Uniform in [0, n); n > 0. */
uint64_t wbs_rng_below(struct wbs_rng *r, uint64_t n);
/* Uniform in [lo, hi]. */
uint64_t wbs_rng_range(struct wbs_rng *r, uint64_t lo, uint64_t hi);

#endif
