/*
 * checks.c - sequence checks and summary counters of bsflow-collect (see
 * checks.h).  Everything is kept in one small open-addressing hash table
 * of fixed-size keys; the summary sorts the entries so its order does not
 * depend on arrival order.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "collector/checks.h"
#include "proto/sflow_drops.h"

#define KEYW 10 /* even: hashed as 64-bit words */

enum entry_kind {
	K_STREAM = 1, /* addr type, addr[4], sub-agent */
	K_SOURCE,     /* addr type, addr[4], sub-agent, family tag, ds type, ds index */
	K_SAMPLE,     /* sample tag, known */
	K_RECORD,     /* family (0 flow, 1 counters, 2 own), tag */
	K_DISCARD,    /* reason */
	K_FLOWQ,      /* output port known, port, queue known, queue */
	K_SKIP,	      /* index into skip reasons */
};

struct entry {
	uint32_t key[KEYW]; /* key[0] = kind; 0 = empty slot */
	uint64_t count;
	uint32_t last_seq;
	uint32_t last_uptime;
	uint64_t last_used; /* K_STREAM: tick of its last datagram */
};

struct collect_checks {
	FILE *report;
	uint32_t own_enterprise;
	struct entry *tab;
	size_t cap, used;

	uint64_t datagrams, bytes, malformed, skipped, written;
	uint64_t samples, records, unknown_tags;
	uint64_t gaps_dgram, missing_dgram, resets_dgram;
	uint64_t gaps_sample, missing_sample, resets_sample;
	uint64_t sampler_mismatches, bad_event_samples;
	const char *skip_names[16];
	unsigned nskip_names;

	/* the bound on per-agent state (checks.h) */
	size_t max_agents, max_sources;
	size_t nstreams, nsources, nsummary; /* entries by kind */
	uint64_t tick;			     /* datagrams checked */
	uint64_t agents_evicted, sources_evicted, untracked;
	/* The summary counters a datagram bumps (a few dozen, the same ones
	 * datagram after datagram): where each key was last found, checked
	 * against the key and the table's generation, which grow() and
	 * evict() advance when they move the entries. */
	uint64_t gen;
	struct {
		uint32_t key[5];
		uint64_t gen;
		size_t slot;
	} memo[64];
};

/* The key as KEYW / 2 64-bit words, each multiplied by its own odd
 * constant (independent multiplications, not one chain), summed, and the
 * sum's high bits folded into the low ones the table index uses. */
static uint64_t key_hash(const uint32_t *k)
{
	static const uint64_t mul[KEYW / 2] = {0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full,
					       0x165667b19e3779f9ull, 0x27d4eb2f165667c5ull,
					       0xff51afd7ed558ccdull};
	uint64_t h = 0;

	for (int i = 0; i < KEYW / 2; i++)
		h += ((uint64_t)k[2 * i] | (uint64_t)k[2 * i + 1] << 32) * mul[i];
	h ^= h >> 32;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

static int key_eq(const uint32_t *a, const uint32_t *b)
{
	uint32_t d = 0;

	for (int i = 0; i < KEYW; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

static int grow(struct collect_checks *c)
{
	size_t ncap = c->cap ? c->cap * 2 : 256;
	struct entry *nt = calloc(ncap, sizeof(*nt));

	if (!nt)
		return -1;
	for (size_t i = 0; i < c->cap; i++) {
		if (!c->tab[i].key[0])
			continue;
		size_t j = key_hash(c->tab[i].key) & (ncap - 1);
		while (nt[j].key[0])
			j = (j + 1) & (ncap - 1);
		nt[j] = c->tab[i];
	}
	free(c->tab);
	c->tab = nt;
	c->cap = ncap;
	c->gen++;
	return 0;
}

/* Find or add the entry for key; *fresh says whether it was added.
 * Returns NULL only when memory runs out (then nothing is counted). */
static struct entry *lookup(struct collect_checks *c, const uint32_t *key, int *fresh)
{
	size_t j;

	if ((c->used + 1) * 2 > c->cap && grow(c) < 0)
		return NULL;
	j = key_hash(key) & (c->cap - 1);
	while (c->tab[j].key[0]) {
		if (key_eq(c->tab[j].key, key)) {
			if (fresh)
				*fresh = 0;
			return &c->tab[j];
		}
		j = (j + 1) & (c->cap - 1);
	}
	memcpy(c->tab[j].key, key, sizeof(c->tab[j].key));
	c->used++;
	if (fresh)
		*fresh = 1;
	return &c->tab[j];
}

/* The entry for key, or NULL: nothing is added. */
static struct entry *find(struct collect_checks *c, const uint32_t *key)
{
	size_t j = key_hash(key) & (c->cap - 1);

	while (c->tab[j].key[0]) {
		if (key_eq(c->tab[j].key, key))
			return &c->tab[j];
		j = (j + 1) & (c->cap - 1);
	}
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Forget the least recently heard quarter of the agents (at least one,
 * never the one of the datagram being checked), with their data sources:
 * one pass over the table, so that a stream of new agents costs O(1)
 * each.  Counted in agents_evicted and sources_evicted. */
static void evict(struct collect_checks *c)
{
	uint64_t *t = malloc((c->nstreams ? c->nstreams : 1) * sizeof(*t));
	struct entry *nt = calloc(c->cap, sizeof(*nt));
	size_t n = 0, k;
	uint64_t limit;

	if (!t || !nt || c->nstreams == 0) {
		free(t);
		free(nt);
		return;
	}
	for (size_t i = 0; i < c->cap; i++)
		if (c->tab[i].key[0] == K_STREAM)
			t[n++] = c->tab[i].last_used;
	qsort(t, n, sizeof(*t), cmp_u64);
	k = n / 4 ? n / 4 : 1;
	limit = t[k - 1]; /* streams last heard at or before it go */
	if (limit >= c->tick && c->tick > 0)
		limit = c->tick - 1;
	free(t);
	c->used = c->nstreams = c->nsources = 0;
	for (size_t i = 0; i < c->cap; i++) {
		const struct entry *e = &c->tab[i];
		size_t j;

		if (!e->key[0])
			continue;
		if (e->key[0] == K_STREAM && e->last_used <= limit) {
			c->agents_evicted++;
			continue;
		}
		if (e->key[0] == K_SOURCE) {
			uint32_t sk[KEYW] = {K_STREAM};
			const struct entry *st;

			memcpy(sk + 1, e->key + 1, 6 * sizeof(uint32_t));
			st = find(c, sk);
			if (!st || st->last_used <= limit) {
				c->sources_evicted++;
				continue;
			}
		}
		j = key_hash(e->key) & (c->cap - 1);
		while (nt[j].key[0])
			j = (j + 1) & (c->cap - 1);
		nt[j] = *e;
		c->used++;
		c->nstreams += e->key[0] == K_STREAM;
		c->nsources += e->key[0] == K_SOURCE;
	}
	free(c->tab);
	c->tab = nt;
	c->gen++;
}

static void bump(struct collect_checks *c, uint32_t k0, uint32_t k1, uint32_t k2, uint32_t k3,
		 uint32_t k4)
{
	uint32_t key[KEYW] = {k0, k1, k2, k3, k4};
	size_t m =
	    (k0 * 0x9e3779b1u ^ k1 * 0x85ebca6bu ^ k2 * 0xc2b2ae35u ^ k3 * 0x27d4eb2fu ^ k4) >> 26;
	struct entry *e;
	int fresh = 0;

	if (c->memo[m].gen == c->gen && c->memo[m].key[0] == k0 && c->memo[m].key[1] == k1 &&
	    c->memo[m].key[2] == k2 && c->memo[m].key[3] == k3 && c->memo[m].key[4] == k4) {
		c->tab[c->memo[m].slot].count++;
		return;
	}
	e = find(c, key);

	if (!e) {
		/* summary keys come from the wire too: bounded as well */
		if (c->nsummary >= c->max_sources) {
			c->untracked++;
			return;
		}
		e = lookup(c, key, &fresh);
		c->nsummary += fresh;
	}
	if (!e)
		return;
	e->count++;
	memcpy(c->memo[m].key, key, sizeof c->memo[m].key);
	c->memo[m].gen = c->gen;
	c->memo[m].slot = (size_t)(e - c->tab);
}

void collect_checks_set_limits(struct collect_checks *c, size_t max_agents, size_t max_sources)
{
	c->max_agents = max_agents ? max_agents : 1;
	c->max_sources = max_sources ? max_sources : 1;
}

struct collect_checks *collect_checks_new(FILE *report, uint32_t own_enterprise)
{
	struct collect_checks *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->report = report;
	c->own_enterprise = own_enterprise;
	c->max_agents = COLLECT_MAX_AGENTS;
	c->max_sources = COLLECT_MAX_SOURCES;
	if (grow(c) < 0) {
		free(c);
		return NULL;
	}
	return c;
}

void collect_checks_free(struct collect_checks *c)
{
	if (!c)
		return;
	free(c->tab);
	free(c);
}

static void addr_str(const struct sflow_addr *a, char *buf, size_t n)
{
	if (a->type == SFLOW_ADDR_IP4) {
		snprintf(buf, n, "%u.%u.%u.%u", a->a[0], a->a[1], a->a[2], a->a[3]);
	} else if (a->type == SFLOW_ADDR_IP6) {
		size_t len = 0;
		for (int i = 0; i < 16 && len < n; i += 2)
			len += (size_t)snprintf(buf + len, n - len, "%s%02x%02x", i ? ":" : "",
						a->a[i], a->a[i + 1]);
	} else {
		snprintf(buf, n, "-");
	}
}

static void addr_words(const struct sflow_addr *a, uint32_t *w)
{
	w[0] = a->type;
	for (int i = 0; i < 4; i++)
		w[1 + i] = ((uint32_t)a->a[4 * i] << 24) | ((uint32_t)a->a[4 * i + 1] << 16) |
			   ((uint32_t)a->a[4 * i + 2] << 8) | a->a[4 * i + 3];
}

/* bsflowd's visibility event sample (own enterprise, format 1). */
static int is_event_sample(const struct collect_checks *c, const struct sflow_sample *s)
{
	return s->kind == SFLOW_SMP_OWN && s->h.own.format == SFLOW_OWN_SMP_EVENT &&
	       SFLOW_TAG_ENTERPRISE(s->tag) == c->own_enterprise;
}

/* The family of a sample type for per-source sequence numbers: the compact
 * and expanded forms share one sequence. */
static uint32_t family_tag(const struct sflow_sample *s)
{
	switch (s->kind) {
	case SFLOW_SMP_FLOW:
		return SFLOW_SAMPLE_FLOW_EXP;
	case SFLOW_SMP_COUNTERS:
		return SFLOW_SAMPLE_COUNTERS_EXP;
	default:
		return s->tag;
	}
}

static const char *family_name(const struct collect_checks *c, uint32_t tag, char *buf, size_t n)
{
	if (tag == SFLOW_SAMPLE_FLOW_EXP)
		return "FLOWSAMPLE";
	if (tag == SFLOW_SAMPLE_COUNTERS_EXP)
		return "COUNTERSSAMPLE";
	if (tag == SFLOW_SAMPLE_DISCARD)
		return "DISCARD";
	if (tag == SFLOW_TAG(c->own_enterprise, SFLOW_OWN_SMP_EVENT))
		return sflow_own_sample_name(SFLOW_OWN_SMP_EVENT);
	snprintf(buf, n, "%" PRIu32 ":%" PRIu32, SFLOW_TAG_ENTERPRISE(tag), SFLOW_TAG_FORMAT(tag));
	return buf;
}

/* Compare seq with the last one; 0 in order, 1 gap (*missing set), 2 reset. */
static int seq_check(uint32_t last, uint32_t seq, uint32_t *missing)
{
	uint32_t expected = last + 1u;
	uint32_t d = seq - expected;

	if (d == 0)
		return 0;
	if (d < 0x80000000u) {
		*missing = d;
		return 1;
	}
	return 2;
}

static void check_datagram_seq(struct collect_checks *c, const struct sflow_datagram *d)
{
	uint32_t key[KEYW] = {K_STREAM};
	struct entry *e;
	int fresh;
	uint32_t missing = 0;
	char ab[48];

	addr_words(&d->agent, key + 1);
	key[6] = d->sub_agent_id;
	c->tick++;
	e = find(c, key);
	fresh = 0;
	if (!e) {
		if (c->nstreams >= c->max_agents)
			evict(c);
		e = lookup(c, key, &fresh);
		if (!e)
			return;
		c->nstreams++;
	}
	e->last_used = c->tick;
	if (!fresh) {
		int r = d->uptime_ms < e->last_uptime
			    ? 2
			    : seq_check(e->last_seq, d->sequence_number, &missing);
		if (r != 0) /* formatted for a report only */
			addr_str(&d->agent, ab, sizeof(ab));
		if (r == 1) {
			c->gaps_dgram++;
			c->missing_dgram += missing;
			fprintf(c->report,
				"gap datagram agent=%s subAgent=%" PRIu32 " expected=%" PRIu32
				" received=%" PRIu32 " missing=%" PRIu32 "\n",
				ab, d->sub_agent_id, e->last_seq + 1u, d->sequence_number, missing);
		} else if (r == 2) {
			c->resets_dgram++;
			fprintf(c->report,
				"reset datagram agent=%s subAgent=%" PRIu32 " last=%" PRIu32
				" received=%" PRIu32 " lastUptime=%" PRIu32 " uptime=%" PRIu32 "\n",
				ab, d->sub_agent_id, e->last_seq, d->sequence_number,
				e->last_uptime, d->uptime_ms);
		}
	}
	e->count++;
	e->last_seq = d->sequence_number;
	e->last_uptime = d->uptime_ms;
}

static void source_of(const struct sflow_sample *s, uint32_t *seq, uint32_t *type, uint32_t *idx)
{
	switch (s->kind) {
	case SFLOW_SMP_FLOW:
		*seq = s->h.flow.sequence_number;
		*type = s->h.flow.source_id_type;
		*idx = s->h.flow.source_id_index;
		break;
	case SFLOW_SMP_COUNTERS:
		*seq = s->h.counters.sequence_number;
		*type = s->h.counters.source_id_type;
		*idx = s->h.counters.source_id_index;
		break;
	case SFLOW_SMP_DISCARD:
		*seq = s->h.discard.sequence_number;
		*type = s->h.discard.source_id_type;
		*idx = s->h.discard.source_id_index;
		break;
	case SFLOW_SMP_OWN: /* the event sample (is_event_sample) */
		*seq = s->h.own.u.event.sequence_number;
		*type = s->h.own.u.event.source_id_type;
		*idx = s->h.own.u.event.source_id_index;
		break;
	default:
		*seq = *type = *idx = 0;
		break;
	}
}

static void check_sample_seq(struct collect_checks *c, const struct sflow_datagram *d,
			     const struct sflow_sample *s)
{
	uint32_t key[KEYW] = {K_SOURCE};
	uint32_t seq, type, idx, missing = 0;
	struct entry *e;
	int fresh, r;
	char ab[48], fb[24];

	if (s->kind != SFLOW_SMP_FLOW && s->kind != SFLOW_SMP_COUNTERS &&
	    s->kind != SFLOW_SMP_DISCARD && !is_event_sample(c, s))
		return;
	source_of(s, &seq, &type, &idx);
	addr_words(&d->agent, key + 1);
	key[6] = d->sub_agent_id;
	key[7] = family_tag(s);
	key[8] = type;
	key[9] = idx;
	e = find(c, key);
	fresh = 0;
	if (!e) {
		if (c->nsources >= c->max_sources)
			evict(c);
		if (c->nsources >= c->max_sources) {
			c->untracked++; /* one agent with that many sources */
			return;
		}
		e = lookup(c, key, &fresh);
		if (!e)
			return;
		c->nsources++;
	}
	if (!fresh && (r = seq_check(e->last_seq, seq, &missing)) != 0) {
		addr_str(&d->agent, ab, sizeof(ab));
		if (r == 1) {
			c->gaps_sample++;
			c->missing_sample += missing;
			fprintf(c->report,
				"gap sample agent=%s subAgent=%" PRIu32
				" sampleType=%s sourceId=%" PRIu32 ":%" PRIu32 " expected=%" PRIu32
				" received=%" PRIu32 " missing=%" PRIu32 "\n",
				ab, d->sub_agent_id, family_name(c, key[7], fb, sizeof(fb)), type,
				idx, e->last_seq + 1u, seq, missing);
		} else {
			c->resets_sample++;
			fprintf(c->report,
				"reset sample agent=%s subAgent=%" PRIu32
				" sampleType=%s sourceId=%" PRIu32 ":%" PRIu32 " last=%" PRIu32
				" received=%" PRIu32 "\n",
				ab, d->sub_agent_id, family_name(c, key[7], fb, sizeof(fb)), type,
				idx, e->last_seq, seq);
		}
	}
	e->count++;
	e->last_seq = seq;
}

/* A name from the wire as one word of a report line: printable ASCII as
 * is, anything else (space, '=', '\\' included) as \xNN. */
static void word_str(const char *in, char *out, size_t n)
{
	size_t o = 0;

	for (; *in && o + 5 < n; in++) {
		unsigned char ch = (unsigned char)*in;
		if (ch <= 0x20 || ch >= 0x7f || ch == '=' || ch == '\\')
			o += (size_t)snprintf(out + o, n - o, "\\x%02x", ch);
		else
			out[o++] = (char)ch;
	}
	out[o] = '\0';
}

/* Sampler statistics (own E:7 in a counters sample): every sampler's seen
 * must equal passed plus its eight rejection counts. */
static void check_samplers(struct collect_checks *c, const struct sflow_datagram *d,
			   const struct sflow_sample *s)
{
	if (s->kind != SFLOW_SMP_COUNTERS)
		return;
	for (uint32_t i = 0; i < s->nrecords; i++) {
		const struct sflow_record *r = &s->records[i];
		struct sflow_own_sampler_stat st;
		uint32_t pos = 0;
		char ab[48], nb[4 * SFLOW_OWN_SAMPLER_NAME_MAX + 1];

		if (r->kind != SFLOW_REC_OWN || r->u.own.format != SFLOW_OWN_SAMPLER_STATS ||
		    SFLOW_TAG_ENTERPRISE(r->tag) != c->own_enterprise)
			continue;
		while (sflow_own_sampler_next(&r->u.own.u.samplers, &pos, &st) == 0) {
			uint64_t rej[SFLOW_OWN_SAMPLER_REJECTS], sum = 0;

			if (sflow_own_sampler_adds_up(&st))
				continue;
			sflow_own_sampler_rejects(&st, rej);
			for (uint32_t j = 0; j < SFLOW_OWN_SAMPLER_REJECTS; j++)
				sum = rej[j] > UINT64_MAX - sum ? UINT64_MAX : sum + rej[j];
			c->sampler_mismatches++;
			addr_str(&d->agent, ab, sizeof(ab));
			word_str(st.name, nb, sizeof(nb));
			fprintf(c->report,
				"sampler mismatch agent=%s subAgent=%" PRIu32 " sourceId=%" PRIu32
				":%" PRIu32 " sampler=%s seen=%" PRIu64 " passed=%" PRIu64
				" rejected=%" PRIu64 "\n",
				ab, d->sub_agent_id, s->h.counters.source_id_type,
				s->h.counters.source_id_index, nb, st.seen, st.passed, sum);
		}
	}
}

/* A visibility event sample carries exactly one visibility_event record,
 * its first. */
static void check_event_sample(struct collect_checks *c, const struct sflow_datagram *d,
			       const struct sflow_sample *s)
{
	uint32_t n = 0;
	char ab[48];

	if (!is_event_sample(c, s))
		return;
	for (uint32_t i = 0; i < s->nrecords; i++)
		if (s->records[i].kind == SFLOW_REC_OWN &&
		    s->records[i].u.own.format == SFLOW_OWN_VIS_EVENT)
			n++;
	if (n == 1 && s->records[0].kind == SFLOW_REC_OWN &&
	    s->records[0].u.own.format == SFLOW_OWN_VIS_EVENT)
		return;
	c->bad_event_samples++;
	addr_str(&d->agent, ab, sizeof(ab));
	fprintf(c->report,
		"bad event sample agent=%s subAgent=%" PRIu32 " sourceId=%" PRIu32 ":%" PRIu32
		" sequence=%" PRIu32 " visibilityEvents=%" PRIu32 " first=%s\n",
		ab, d->sub_agent_id, s->h.own.u.event.source_id_type,
		s->h.own.u.event.source_id_index, s->h.own.u.event.sequence_number, n,
		n > 0 && s->records[0].kind == SFLOW_REC_OWN &&
			s->records[0].u.own.format == SFLOW_OWN_VIS_EVENT
		    ? "yes"
		    : "no");
}

static void count_sample(struct collect_checks *c, const struct sflow_sample *s)
{
	uint32_t family = s->kind == SFLOW_SMP_COUNTERS ? 1 : s->kind == SFLOW_SMP_OWN ? 2 : 0;
	int has_queue = 0;
	uint32_t queue = 0;

	c->samples++;
	bump(c, K_SAMPLE, s->tag, s->kind != SFLOW_SMP_UNKNOWN, 0, 0);
	if (s->kind == SFLOW_SMP_UNKNOWN)
		c->unknown_tags++;
	for (uint32_t i = 0; i < s->nrecords; i++) {
		const struct sflow_record *r = &s->records[i];
		c->records++;
		bump(c, K_RECORD, family, r->tag, r->kind != SFLOW_REC_UNKNOWN, 0);
		if (r->kind == SFLOW_REC_UNKNOWN)
			c->unknown_tags++;
		if (r->kind == SFLOW_REC_EGRESS_QUEUE ||
		    (r->kind == SFLOW_REC_BST_EGRESS_QUEUE && !has_queue)) {
			has_queue = 1;
			queue = r->u.queue;
		}
	}
	if (s->kind == SFLOW_SMP_DISCARD)
		bump(c, K_DISCARD, s->h.discard.reason, 0, 0, 0);
	if (s->kind == SFLOW_SMP_FLOW) {
		int port_known = s->h.flow.output_format == SFLOW_IF_FORMAT_IFINDEX;
		bump(c, K_FLOWQ, port_known, port_known ? s->h.flow.output_value : 0,
		     (uint32_t)has_queue, queue);
	}
}

void collect_checks_datagram(struct collect_checks *c, const struct collect_rx *rx,
			     const struct sflow_datagram *d)
{
	c->datagrams++;
	c->bytes += rx->size;
	check_datagram_seq(c, d);
	for (uint32_t i = 0; i < d->nsamples; i++) {
		check_sample_seq(c, d, &d->samples[i]);
		check_samplers(c, d, &d->samples[i]);
		check_event_sample(c, d, &d->samples[i]);
		count_sample(c, &d->samples[i]);
	}
}

void collect_checks_malformed(struct collect_checks *c, const struct collect_rx *rx,
			      const struct sflow_decode_error *err)
{
	char ab[48];

	c->datagrams++;
	c->bytes += rx->size;
	c->malformed++;
	addr_str(&rx->src, ab, sizeof(ab));
	fprintf(c->report, "malformed datagram source=%s size=%zu offset=%zu reason=%s\n", ab,
		rx->size, err->offset, err->msg);
}

void collect_checks_skipped(struct collect_checks *c, const char *why)
{
	unsigned i;

	c->skipped++;
	for (i = 0; i < c->nskip_names; i++)
		if (strcmp(c->skip_names[i], why) == 0)
			break;
	if (i == c->nskip_names) {
		if (c->nskip_names == sizeof(c->skip_names) / sizeof(c->skip_names[0]))
			i = c->nskip_names - 1; /* lump the rest into the last name */
		else
			c->skip_names[c->nskip_names++] = why;
	}
	bump(c, K_SKIP, i, 0, 0, 0);
}

void collect_checks_written(struct collect_checks *c, uint64_t n)
{
	c->written = n;
}

size_t collect_checks_agents(const struct collect_checks *c)
{
	return c->nstreams;
}

size_t collect_checks_sources(const struct collect_checks *c)
{
	return c->nsources;
}

uint64_t collect_checks_agents_evicted(const struct collect_checks *c)
{
	return c->agents_evicted;
}

uint64_t collect_checks_gaps(const struct collect_checks *c)
{
	return c->gaps_dgram + c->gaps_sample;
}

uint64_t collect_checks_malformed_count(const struct collect_checks *c)
{
	return c->malformed;
}

uint64_t collect_checks_own_errors(const struct collect_checks *c)
{
	return c->sampler_mismatches + c->bad_event_samples;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	for (int i = 0; i < KEYW; i++)
		if (x->key[i] != y->key[i])
			return x->key[i] < y->key[i] ? -1 : 1;
	return 0;
}

static void tag_str(uint32_t tag, char *buf, size_t n)
{
	snprintf(buf, n, "%" PRIu32 ":%" PRIu32, SFLOW_TAG_ENTERPRISE(tag), SFLOW_TAG_FORMAT(tag));
}

void collect_checks_summary(const struct collect_checks *c, FILE *fp)
{
	static const char *families[] = {"flow", "counters", "own"};
	struct entry *v = malloc((c->used ? c->used : 1) * sizeof(*v));
	size_t n = 0;
	char tb[24];

	fputs("startSummary ==================================\n", fp);
	fprintf(fp, "datagrams %" PRIu64 "\n", c->datagrams);
	fprintf(fp, "bytes %" PRIu64 "\n", c->bytes);
	fprintf(fp, "malformedDatagrams %" PRIu64 "\n", c->malformed);
	fprintf(fp, "skippedFrames %" PRIu64 "\n", c->skipped);
	fprintf(fp, "samples %" PRIu64 "\n", c->samples);
	fprintf(fp, "records %" PRIu64 "\n", c->records);
	fprintf(fp, "unknownTags %" PRIu64 "\n", c->unknown_tags);
	fprintf(fp, "datagramGaps %" PRIu64 "\n", c->gaps_dgram);
	fprintf(fp, "datagramsMissing %" PRIu64 "\n", c->missing_dgram);
	fprintf(fp, "datagramResets %" PRIu64 "\n", c->resets_dgram);
	fprintf(fp, "sampleGaps %" PRIu64 "\n", c->gaps_sample);
	fprintf(fp, "samplesMissing %" PRIu64 "\n", c->missing_sample);
	fprintf(fp, "sampleResets %" PRIu64 "\n", c->resets_sample);
	fprintf(fp, "samplerMismatches %" PRIu64 "\n", c->sampler_mismatches);
	fprintf(fp, "badEventSamples %" PRIu64 "\n", c->bad_event_samples);
	fprintf(fp, "pcapPacketsWritten %" PRIu64 "\n", c->written);
	fprintf(fp, "agentsEvicted %" PRIu64 "\n", c->agents_evicted);
	fprintf(fp, "sourcesEvicted %" PRIu64 "\n", c->sources_evicted);
	fprintf(fp, "keysNotTracked %" PRIu64 "\n", c->untracked);
	if (v) {
		for (size_t i = 0; i < c->cap; i++)
			if (c->tab[i].key[0])
				v[n++] = c->tab[i];
		qsort(v, n, sizeof(*v), entry_cmp);
	}
	for (size_t i = 0; i < n; i++) {
		const uint32_t *k = v[i].key;
		const char *name;
		switch (k[0]) {
		case K_SKIP:
			fprintf(fp, "skipped.%s %" PRIu64 "\n",
				k[1] < c->nskip_names ? c->skip_names[k[1]] : "other", v[i].count);
			break;
		case K_SAMPLE:
			tag_str(k[1], tb, sizeof(tb));
			fprintf(fp, "samples.%s%s %" PRIu64 "\n", tb, k[2] ? "" : ".unknown",
				v[i].count);
			break;
		case K_RECORD:
			tag_str(k[2], tb, sizeof(tb));
			fprintf(fp, "records.%s.%s%s %" PRIu64 "\n", families[k[1] < 3 ? k[1] : 0],
				tb, k[3] ? "" : ".unknown", v[i].count);
			break;
		case K_DISCARD:
			name = sflow_drop_name(k[1]);
			fprintf(fp, "discards.%" PRIu32 ".%s %" PRIu64 "\n", k[1],
				name ? name : "NotFound", v[i].count);
			break;
		case K_FLOWQ:
			fputs("flowSamples.outputPort.", fp);
			if (k[1])
				fprintf(fp, "%" PRIu32, k[2]);
			else
				fputs("-", fp);
			fputs(".queue.", fp);
			if (k[3])
				fprintf(fp, "%" PRIu32, k[4]);
			else
				fputs("-", fp);
			fprintf(fp, " %" PRIu64 "\n", v[i].count);
			break;
		default:
			break;
		}
	}
	fputs("endSummary   ==================================\n", fp);
	fflush(fp);
	free(v);
}
