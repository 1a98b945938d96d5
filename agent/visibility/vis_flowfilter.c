/*
 * vis_flowfilter.c - the repeating-flow filter (doc/glossary.md): k banks
 * of one-bit entries, one hash function per bank.  A flow is new when any
 * of its k bits is still clear; sampling it sets all k.  The bits are
 * cleared periodically, after a number of checks, or on request (end of a
 * high-delay episode, end of a forensics snapshot).  A reset clears only
 * the words set since the previous one while they are few (up to an
 * eighth of the filter, at most 65536 words), so frequent resets of a
 * large, lightly used filter stay cheap.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "agent/visibility/vis_sampler.h"

int vis_flowfilter_init(struct vis_flowfilter *f, uint32_t k, uint32_t bits, uint64_t reset_ns,
			uint64_t reset_after)
{
	f->bank = NULL;
	f->dirty = NULL;
	if (k < 1 || k > 8 || bits < 64 || (bits & (bits - 1)) != 0 || bits > (1u << 24))
		return -1;
	f->k = k;
	f->bits = bits;
	f->reset_ns = reset_ns;
	f->next_reset = 0;
	f->reset_after = reset_after;
	f->checks = 0;
	f->resets = 0;
	f->n_dirty = 0;
	f->dirty_overflow = 0;
	f->cleared_words = 0;
	f->dirty_max = (uint32_t)((size_t)k * (bits / 64) / 8);
	if (f->dirty_max > 65536)
		f->dirty_max = 65536;
	f->dirty = f->dirty_max ? calloc(f->dirty_max, sizeof(*f->dirty)) : NULL;
	f->bank = calloc((size_t)k * (bits / 64), sizeof(uint64_t));
	if (!f->bank || (f->dirty_max && !f->dirty)) {
		vis_flowfilter_release(f);
		return -1;
	}
	return 0;
}

void vis_flowfilter_release(struct vis_flowfilter *f)
{
	free(f->bank);
	free(f->dirty);
	f->bank = NULL;
	f->dirty = NULL;
}

/* the bit of bank i for a flow: a different mix of the hash per bank */
static uint32_t bit_of(const struct vis_flowfilter *f, uint64_t h, uint32_t i)
{
	struct vis_rng r;

	vis_rng_seed(&r, h + 0x51ed27fULL * (i + 1));
	return (uint32_t)(vis_rng_next(&r) & (f->bits - 1));
}

void vis_flowfilter_reset(struct vis_flowfilter *f)
{
	size_t words = (size_t)f->k * (f->bits / 64);

	if (f->dirty_overflow || !f->dirty) {
		memset(f->bank, 0, words * sizeof(*f->bank));
		f->cleared_words += words;
	} else {
		for (uint32_t i = 0; i < f->n_dirty; i++)
			f->bank[f->dirty[i]] = 0;
		f->cleared_words += f->n_dirty;
	}
	f->n_dirty = 0;
	f->dirty_overflow = 0;
	f->checks = 0;
	f->resets++;
}

int vis_flowfilter_is_first(struct vis_flowfilter *f, uint64_t flow_hash, uint64_t now)
{
	size_t words = f->bits / 64;

	if (f->reset_ns) {
		if (f->next_reset == 0) {
			f->next_reset = now - now % f->reset_ns + f->reset_ns;
		} else if (now >= f->next_reset) {
			vis_flowfilter_reset(f);
			f->next_reset = now - now % f->reset_ns + f->reset_ns;
		}
	}
	if (f->reset_after && f->checks >= f->reset_after)
		vis_flowfilter_reset(f);
	f->checks++;
	for (uint32_t i = 0; i < f->k; i++) {
		uint32_t b = bit_of(f, flow_hash, i);
		if (!(f->bank[i * words + b / 64] & (1ULL << (b % 64))))
			return 1;
	}
	return 0;
}

void vis_flowfilter_mark(struct vis_flowfilter *f, uint64_t flow_hash)
{
	size_t words = f->bits / 64;

	for (uint32_t i = 0; i < f->k; i++) {
		uint32_t b = bit_of(f, flow_hash, i);
		size_t w = i * words + b / 64;
		if (!f->bank[w]) {
			/* a word set for the first time since the last reset */
			if (f->n_dirty < f->dirty_max)
				f->dirty[f->n_dirty++] = (uint32_t)w;
			else
				f->dirty_overflow = 1;
		}
		f->bank[w] |= 1ULL << (b % 64);
	}
}
