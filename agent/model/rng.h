/*
 * rng.h - the model's random numbers: xoshiro256** seeded through
 * splitmix64 (Blackman and Vigna), shared by the engine (WRED draws,
 * sampling skips) and the traffic generators, so a scenario is
 * deterministic for a given seed.  Internal to agent/model/; inline,
 * since both draw on their per-packet paths.  Also: exactly uniform
 * integers, several independent uniform fields from one draw
 * (model_rng_split), and exponential variates without libm on the fast
 * path (model_rng_exp, a ziggurat whose tables are in rng.c).
 *
 * SPDX-License-Identifier: BSD-2-Clause
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

/* 64 x 64 -> 128-bit product: returns the high half, *lo the low half. */
static inline uint64_t model_mul64(uint64_t a, uint64_t b, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 m = (unsigned __int128)a * b;

	*lo = (uint64_t)m;
	return (uint64_t)(m >> 64);
#else
	uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);

	*lo = (mid << 32) | (ll & 0xffffffffu);
	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/*
 * Up to three independent, exactly uniform integers from one 64-bit draw
 * (usually).  With R = n[0] * n[1] * n[2] (below 2^64), x uniform on
 * [0, 2^64): x * R = v * 2^64 + l, and v = floor(x * R / 2^64) is uniform
 * on [0, R) exactly once the x whose l is below 2^64 mod R are rejected
 * (Lemire's method: every v then has floor(2^64 / R) accepted x).  The
 * fields are the mixed-radix digits of v, got without division by
 * multiplying the low half on: x * n0 = d0 * 2^64 + l0, l0 * n1 =
 * d1 * 2^64 + l1, l1 * n2 = d2 * 2^64 + l2, so v = (d0 * n1 + d1) * n2 +
 * d2 and l = l2; d0, d1, d2 are therefore independent and uniform on
 * [0, n0), [0, n1), [0, n2).
 */
struct model_rng_split {
	uint64_t n[3];
	uint64_t reject; /* 2^64 mod R: reject a draw whose low half is below */
};

/* Set up fields of n0, n1, n2 values (each >= 1, product below 2^64). */
static inline void model_rng_split_init(struct model_rng_split *s, uint64_t n0, uint64_t n1,
					uint64_t n2)
{
	uint64_t R = n0 * n1 * n2;

	s->n[0] = n0;
	s->n[1] = n1;
	s->n[2] = n2;
	s->reject = (0 - R) % R; /* (2^64 - R) mod R = 2^64 mod R */
}

/* The fields of one raw draw x; returns 0 if x must be rejected. */
static inline int model_rng_split_x(const struct model_rng_split *s, uint64_t x, uint32_t *d)
{
	uint64_t l;

	d[0] = (uint32_t)model_mul64(x, s->n[0], &l);
	d[1] = (uint32_t)model_mul64(l, s->n[1], &l);
	d[2] = (uint32_t)model_mul64(l, s->n[2], &l);
	return l >= s->reject;
}

/* Draw the fields d[0..2] (rejection costs a redraw with probability
 * below R / 2^64). */
static inline void model_rng_split(struct model_rng *r, const struct model_rng_split *s,
				   uint32_t *d)
{
	while (!model_rng_split_x(s, model_rng_next(r), d))
		;
}

/*
 * The same from 16 random bits u (0 <= u < 2^16) when R <= 2^16: the
 * digits of floor(u * R / 2^16), exact once the u whose low part l is
 * below 2^16 mod R are rejected (reject16).  For callers that spend the
 * other bits of a draw elsewhere (model_rng_exp40).
 */
static inline uint32_t model_rng_split16_reject(const struct model_rng_split *s)
{
	return (uint32_t)(65536u % (s->n[0] * s->n[1] * s->n[2]));
}

static inline int model_rng_split16_x(const struct model_rng_split *s, uint32_t reject16,
				      uint32_t u, uint32_t *d)
{
	uint32_t m = u * (uint32_t)s->n[0];

	d[0] = m >> 16;
	m = (m & 0xffff) * (uint32_t)s->n[1];
	d[1] = m >> 16;
	m = (m & 0xffff) * (uint32_t)s->n[2];
	d[2] = m >> 16;
	return (m & 0xffff) >= reject16;
}

/* Uniform integer in [0, n) exactly, n >= 1 (one field). */
static inline uint32_t model_rng_uniform(struct model_rng *r, uint32_t n)
{
	struct model_rng_split s;
	uint32_t d[3];

	model_rng_split_init(&s, n, 1, 1);
	model_rng_split(r, &s, d);
	return d[0];
}

/*
 * Exponential variates of mean 1 by a 256-layer ziggurat (Marsaglia and
 * Tsang) for f(x) = exp(-x); tables, their equations and the wedge test
 * in rng.c.  A draw's low 8 bits pick a layer i, its top 53 bits j a
 * point x = j * w[i] of the layer's width; x is returned at once when it
 * lies under the next layer's edge (j < k[i], about 98 % of draws).  Else
 * in layer 0 (the tail) the result is r plus a fresh variate, and in the
 * others one more draw decides whether the point is under f
 * (model_exp_wedge).  The generator's state never leaves the caller, so
 * a caller's loop can keep it in registers.
 */
#define MODEL_EXP_LAYERS 256

struct model_exp_layer {
	uint64_t k; /* accept j < k: x below the next layer's edge */
	double w;   /* layer width / 2^53 */
};

extern const struct model_exp_layer model_exp_layer[MODEL_EXP_LAYERS];
extern const double model_exp_f[MODEL_EXP_LAYERS + 1]; /* exp(-edge of layer i) */
extern const double model_exp_r;		       /* where the tail starts */

/* Is the point (j, uniform height from draw u) of layer i >= 1 under f? */
int model_exp_wedge(unsigned i, uint64_t j, uint64_t u);

static inline double model_rng_exp(struct model_rng *r)
{
	double add = 0;

	for (;;) {
		uint64_t x = model_rng_next(r), j = x >> 11;
		unsigned i = (unsigned)(x & (MODEL_EXP_LAYERS - 1));

		if (__builtin_expect(j < model_exp_layer[i].k, 1))
			return add + (double)(int64_t)j * model_exp_layer[i].w;
		if (i == 0)
			add += model_exp_r; /* the tail: r + Exp(1) */
		else if (model_exp_wedge(i, j, model_rng_next(r)))
			return add + (double)(int64_t)j * model_exp_layer[i].w;
	}
}

/*
 * The same from a draw x already made, whose bits 8..23 the caller uses
 * for something else: the first try takes its layer from bits 0..7 and
 * j from bits 24..63 (40 bits: j's low 13 bits are zero, which the
 * acceptance test j < k[i] handles exactly), so its resolution is 2^-40
 * of the layer's width instead of 2^-53; further tries draw afresh.
 */
static inline double model_rng_exp40(struct model_rng *r, uint64_t x)
{
	uint64_t j = (x >> 11) & ~(uint64_t)0x1fff;
	unsigned i = (unsigned)(x & (MODEL_EXP_LAYERS - 1));

	if (__builtin_expect(j < model_exp_layer[i].k, 1))
		return (double)(int64_t)j * model_exp_layer[i].w;
	if (i == 0)
		return model_exp_r + model_rng_exp(r); /* the tail */
	if (model_exp_wedge(i, j, model_rng_next(r)))
		return (double)(int64_t)j * model_exp_layer[i].w;
	return model_rng_exp(r); /* rejected: a fresh try */
}

#endif
