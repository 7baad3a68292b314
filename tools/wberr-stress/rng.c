// SPDX-License-Identifier: GPL-2.0
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void wbs_rng_seed(struct wbs_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ull);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t wbs_rng_next(struct wbs_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t wbs_rng_below(struct wbs_rng *r, uint64_t n)
{
	/* Lemire-free simple rejection: unbiased and plenty fast here. */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n, v;

	do
		v = wbs_rng_next(r);
	while (v >= lim);
	return v % n;
}

uint64_t wbs_rng_range(struct wbs_rng *r, uint64_t lo, uint64_t hi)
{
	return lo + wbs_rng_below(r, hi - lo + 1);
}
