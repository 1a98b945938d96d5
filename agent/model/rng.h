/*
 * rng.h - the model's random numbers: xoshiro256** seeded through
 * splitmix64 (Blackman and Vigna), shared by the engine (WRED draws,
 * sampling skips) and the traffic generators, so a scenario is
 * deterministic for a given seed.  Internal to agent/model/; all inline,
 * since the engine draws on its per-packet path.
 */
#ifndef BSFLOWD_MODEL_RNG_H
#define BSFLOWD_MODEL_RNG_H

#include <stdint.h>

struct model_rng {
	uint64_t s[4];
};

static inline uint64_t model_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void model_rng_seed(struct model_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = model_splitmix64(&seed);
}

static inline uint64_t model_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t model_rng_next(struct model_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = model_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = model_rotl(s[3], 45);
	return out;
}

/* Uniform in [0, 1). */
static inline double model_rng_unit(struct model_rng *r)
{
	return (double)(model_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform integer in [0, n), n <= 2^32 (multiply-shift, bias < 2^-32). */
static inline uint32_t model_rng_below(struct model_rng *r, uint64_t n)
{
	return (uint32_t)(((model_rng_next(r) >> 32) * n) >> 32);
}

#endif
