/*
 * vis_ticket.c - the ticket box of a rate-aware ("burst") sampler: a batch of tickets per period, a
 * capacity cap, an optional negative floor for bursts, the "consumed all" state, and jitter of the
 * batch and the period.  A ticket is only spent by a commit, never by a
 * check (vis_sampler.c).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/visibility/vis_sampler.h"

void vis_ticket_init(struct vis_ticket *t, uint32_t batch, uint64_t period_ns, uint32_t cap,
		     int32_t floor, uint64_t seed)
{
	memset(t, 0, sizeof(*t));
	t->batch = batch;
	t->period_ns = period_ns ? period_ns : 1;
	t->cap = cap ? cap : batch;
	t->floor = floor > 0 ? 0 : floor;
	vis_rng_seed(&t->rng, seed ^ 0x7469636b6574ULL);
}

static uint32_t jittered_batch(struct vis_ticket *t)
{
	int64_t b = t->batch;

	if (t->batch_jitter) {
		uint64_t span = 2ULL * t->batch_jitter + 1;
		b += (int64_t)(vis_rng_next(&t->rng) % span) - (int64_t)t->batch_jitter;
		if (b < 0)
			b = 0;
	}
	t->last_batch_added = (uint64_t)b;
	return (uint32_t)b;
}

static uint64_t jittered_period(struct vis_ticket *t)
{
	uint64_t p = t->period_ns;

	if (t->period_jitter_ns && t->period_jitter_ns < p) {
		uint64_t span = 2 * t->period_jitter_ns + 1;
		p = p - t->period_jitter_ns + vis_rng_next(&t->rng) % span;
	}
	return p;
}

static void refill(struct vis_ticket *t)
{
	int64_t b = t->balance + jittered_batch(t);

	if (b > (int64_t)t->cap)
		b = t->cap;
	t->balance = b;
	t->consumed_all = 0;
}

void vis_ticket_advance(struct vis_ticket *t, uint64_t now)
{
	if (!t->started) {
		t->started = 1;
		t->cur_start_ns = now - now % t->period_ns;
		t->next_ns = t->cur_start_ns + jittered_period(t);
		t->balance = 0;
		refill(t);
		return;
	}
	if (now < t->next_ns)
		return;
	/* a long idle gap: after enough batches the box is full anyway.  With
	 * period jitter the skipped periods count at the nominal period (the
	 * jitter's mean is zero); the loop below draws the last ones. */
	{
		uint64_t k = (now - t->next_ns) / t->period_ns;
		uint64_t need = t->batch ? ((int64_t)t->cap - t->balance) / t->batch + 2 : 0;
		if (k > need + 2) {
			t->refills += k;
			t->next_ns += k * t->period_ns;
			if (t->batch) {
				t->balance = t->cap;
				t->consumed_all = 0;
			}
		}
	}
	while (now >= t->next_ns) {
		t->refills++;
		t->cur_start_ns = t->next_ns;
		t->next_ns += jittered_period(t);
		refill(t);
	}
}

int vis_ticket_available(const struct vis_ticket *t)
{
	return t->balance > t->floor;
}

void vis_ticket_spend(struct vis_ticket *t)
{
	t->balance--;
	if (t->balance <= t->floor && !t->consumed_all) {
		t->consumed_all = 1;
		t->consumed_all_n++;
	}
}
