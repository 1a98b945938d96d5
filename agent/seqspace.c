/*
 * seqspace.c - the sample sequence numbers of one datagram stream (see
 * seqspace.h): an open-addressing hash table of (sample type, data source
 * type, data source index) -> next number.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "agent/seqspace.h"
#include "proto/sflow.h"

struct seq_entry {
	uint32_t tag, type, index; /* tag 0: empty slot */
	uint32_t next;		   /* the next sequence number */
};

struct seqspace {
	struct seq_entry *tab;
	size_t cap, used;
};

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static size_t hash3(uint32_t a, uint32_t b, uint32_t c)
{
	uint64_t h = 1469598103934665603ull;

	h = (h ^ a) * 1099511628211ull;
	h = (h ^ b) * 1099511628211ull;
	h = (h ^ c) * 1099511628211ull;
	return (size_t)(h ^ (h >> 29));
}

static int grow(struct seqspace *s)
{
	size_t ncap = s->cap ? 2 * s->cap : 64;
	struct seq_entry *nt = calloc(ncap, sizeof *nt);

	if (!nt)
		return -1;
	for (size_t i = 0; i < s->cap; i++) {
		const struct seq_entry *e = &s->tab[i];
		size_t j;

		if (!e->tag)
			continue;
		j = hash3(e->tag, e->type, e->index) & (ncap - 1);
		while (nt[j].tag)
			j = (j + 1) & (ncap - 1);
		nt[j] = *e;
	}
	free(s->tab);
	s->tab = nt;
	s->cap = ncap;
	return 0;
}

struct seqspace *seqspace_new(void)
{
	struct seqspace *s = calloc(1, sizeof *s);

	if (s && grow(s) < 0) {
		free(s);
		return NULL;
	}
	return s;
}

void seqspace_free(struct seqspace *s)
{
	if (!s)
		return;
	free(s->tab);
	free(s);
}

/* Is a sample of this tag numbered here? */
static int numbered(uint32_t tag)
{
	uint32_t ent = SFLOW_TAG_ENTERPRISE(tag), fmt = SFLOW_TAG_FORMAT(tag);

	if (ent == 0)
		return fmt == 3 || fmt == 4 || fmt == 5;
	return ent != SFLOW_ENT_BROADCOM && fmt == 1;
}

uint32_t *seqspace_slot(struct seqspace *s, const uint8_t *sample, size_t len)
{
	uint32_t tag, type, index;
	size_t j;

	if (len < 20)
		return NULL;
	tag = be32(sample);
	if (!numbered(tag))
		return NULL;
	type = be32(sample + 12);
	index = be32(sample + 16);
	if ((s->used + 1) * 2 > s->cap && grow(s) < 0)
		return NULL;
	j = hash3(tag, type, index) & (s->cap - 1);
	while (s->tab[j].tag) {
		struct seq_entry *e = &s->tab[j];

		if (e->tag == tag && e->type == type && e->index == index)
			return &e->next;
		j = (j + 1) & (s->cap - 1);
	}
	s->tab[j].tag = tag;
	s->tab[j].type = type;
	s->tab[j].index = index;
	s->tab[j].next = 1;
	s->used++;
	return &s->tab[j].next;
}

void seqspace_write(uint8_t *sample, const uint32_t *slot)
{
	sample[8] = (uint8_t)(*slot >> 24);
	sample[9] = (uint8_t)(*slot >> 16);
	sample[10] = (uint8_t)(*slot >> 8);
	sample[11] = (uint8_t)*slot;
}
