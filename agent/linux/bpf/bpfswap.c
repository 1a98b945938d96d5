/*
 * bpfswap.c - the `bpf` source across a change of the ports (portswap.c):
 * before the switch, what the kernel measured is read into the old
 * numbering (rings consumed, per-CPU figures drained) and the cumulative
 * figures kept by port ifindex and queue handle (sojourn histograms,
 * packets unmeasured, the ports' sample pools, the losses); the object is
 * closed.  After the switch it is loaded again on the new queues
 * (linuxbe_bpf_open) and the kept figures given back to the queues and
 * ports that are still there, so that the E:12 histograms and the sample
 * pools of a kept port run on without a reset.
 *
 * SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "agent/linux/bpf/bpfrun.h"
#include "agent/linux/state.h"

#if HAVE_BPF
#include "agent/linux/bpf/bpfint.h"

struct carry_slot {
	uint32_t ifindex, handle;
	uint64_t hist[LINUXBE_BPF_HIST];
	uint64_t unmeasured;
};

struct linuxbe_bpf_carry {
	struct carry_slot slot[LINUXBE_BPF_SLOTS];
	uint32_t nslots;
	uint32_t *pool_ifx;
	uint64_t *pool;
	uint32_t npool;
	uint64_t samples, drop_events, qev_read, qev_lost, drops_lost;
};

struct linuxbe_bpf_carry *linuxbe_bpf_carry_take(struct linuxbe_st *st)
{
	struct linuxbe_bpf *b = st->bpf;
	struct linuxbe_bpf_carry *c;
	uint32_t s, p;

	if (!b)
		return NULL;
	if (b->rb)
		ring_buffer__consume(b->rb); /* into the queue, old numbering */
	b->last_drain_mono = 0;		     /* a drain now */
	linuxbe_bpf_drain(st);
	c = calloc(1, sizeof *c);
	if (c) {
		c->pool_ifx = calloc(st->nports + 1, sizeof *c->pool_ifx);
		c->pool = calloc(st->nports + 1, sizeof *c->pool);
	}
	if (c && c->pool && c->pool_ifx) {
		for (s = 0; s < b->nslots; s++) {
			const struct linuxbe_port *pt = &st->ports[b->slot_port[s]];

			c->slot[s].ifindex = pt->ifindex;
			c->slot[s].handle = pt->leaves[b->slot_q[s]].handle;
			memcpy(c->slot[s].hist, b->hist[s], sizeof c->slot[s].hist);
			c->slot[s].unmeasured = b->unmeasured[s];
		}
		c->nslots = b->nslots;
		for (p = 0; b->pool && p < st->nports; p++) {
			c->pool_ifx[c->npool] = st->ports[p].ifindex;
			c->pool[c->npool++] = b->pool[p];
		}
		c->samples = b->samples;
		c->drop_events = b->drop_events;
		c->qev_read = b->qev_read;
		c->qev_lost = b->qev_lost;
		c->drops_lost = linuxbe_bpf_drops_lost(st);
	}
	linuxbe_bpf_close(st);
	return c;
}

void linuxbe_bpf_carry_give(struct linuxbe_st *st, struct linuxbe_bpf_carry *c)
{
	struct linuxbe_bpf *b = st->bpf;
	uint32_t s, k, p;

	if (!c)
		return;
	if (b) {
		for (s = 0; s < b->nslots; s++) {
			const struct linuxbe_port *pt = &st->ports[b->slot_port[s]];
			uint32_t h = pt->leaves[b->slot_q[s]].handle;

			for (k = 0; k < c->nslots; k++)
				if (c->slot[k].ifindex == pt->ifindex && c->slot[k].handle == h) {
					memcpy(b->hist[s], c->slot[k].hist, sizeof b->hist[s]);
					b->unmeasured[s] = c->slot[k].unmeasured;
					break;
				}
		}
		for (p = 0; b->pool && p < st->nports; p++)
			for (k = 0; k < c->npool; k++)
				if (c->pool_ifx[k] == st->ports[p].ifindex)
					b->pool[p] = c->pool[k];
		b->samples += c->samples;
		b->drop_events += c->drop_events;
		b->qev_read += c->qev_read;
		b->qev_lost += c->qev_lost;
		b->drops_lost_base += c->drops_lost;
	}
	free(c->pool_ifx);
	free(c->pool);
	free(c);
}

#else /* !HAVE_BPF */

struct linuxbe_bpf_carry *linuxbe_bpf_carry_take(struct linuxbe_st *st)
{
	(void)st;
	return NULL;
}

void linuxbe_bpf_carry_give(struct linuxbe_st *st, struct linuxbe_bpf_carry *c)
{
	(void)st;
	(void)c;
}

#endif
