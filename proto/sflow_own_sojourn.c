/*
 * sflow_own_sojourn.c - bsflowd's own counter record E:10
 * sojourn_histograms (sflow_own.h, bsflowd-structures(7)): per queue, a
 * log2 histogram of the packets' sojourn in the queue, sent as the range
 * of buckets from the first to the last non-zero one.  Encoder, decoder
 * (validates the whole body: each element's bucket range within the 32
 * buckets and its counts within the record) and element accessors.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <string.h>

#include "proto/sflow_own.h"

size_t sflow_own_sojourn_size(const struct sflow_own_sojourn *h)
{
	return SFLOW_OWN_SOJOURN_MIN_SIZE + 4u * (size_t)h->n;
}

static int bad_range(uint32_t first, uint32_t n)
{
	return first >= SFLOW_OWN_SOJOURN_BUCKETS || n > SFLOW_OWN_SOJOURN_BUCKETS - first;
}

void sflow_own_enc_sojourns(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			    const struct sflow_own_sojourn *h, uint32_t n)
{
	int bad = (n > 0 && !h) || n > SFLOW_OWN_SOJOURN_MAX;

	for (uint32_t i = 0; !bad && i < n; i++)
		bad = bad_range(h[i].first, h[i].n);
	if (bad) {
		if (!w->err)
			w->err = SFLOW_ERR_INVALID;
		return;
	}
	size_t m = sflow_enc_record_begin(w, s, SFLOW_TAG(enterprise, SFLOW_OWN_SOJOURN_HISTS));
	sflow_w_u32(w, n);
	for (uint32_t i = 0; i < n && !w->err; i++) {
		sflow_w_u32(w, h[i].queue);
		sflow_w_u32(w, h[i].unmeasured);
		sflow_w_u32(w, h[i].first);
		sflow_w_u32(w, h[i].n);
		for (uint32_t k = 0; k < h[i].n; k++)
			sflow_w_u32(w, h[i].counts[k]);
	}
	sflow_enc_record_end(w, m);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* One element at p, of which avail bytes are there: its wire size, or 0
 * when it does not fit or its range is outside the 32 buckets. */
static size_t sojourn_from(const uint8_t *p, size_t avail, struct sflow_own_sojourn *out)
{
	uint32_t first, n;
	size_t size;

	if (avail < SFLOW_OWN_SOJOURN_MIN_SIZE)
		return 0;
	first = get32(p + 8);
	n = get32(p + 12);
	if (bad_range(first, n))
		return 0;
	size = SFLOW_OWN_SOJOURN_MIN_SIZE + 4u * (size_t)n;
	if (size > avail)
		return 0;
	if (out) {
		memset(out, 0, sizeof *out);
		out->queue = get32(p);
		out->unmeasured = get32(p + 4);
		out->first = first;
		out->n = n;
		for (uint32_t k = 0; k < n; k++)
			out->counts[k] = get32(p + 16 + 4 * (size_t)k);
	}
	return size;
}

static size_t sojourn_size(const uint8_t *p, size_t avail, const char **bad)
{
	if (avail >= SFLOW_OWN_SOJOURN_MIN_SIZE && bad_range(get32(p + 8), get32(p + 12))) {
		*bad = "own sojourn_histograms: buckets beyond 31";
		return 0;
	}
	return sojourn_from(p, avail, NULL);
}

int sflow_own_read_sojourns(struct sflow_r *r, struct sflow_own_sojourns *a)
{
	static const struct sflow_own_elems d = {
	    "own sojourn_histograms count",
	    "own sojourn_histograms: count larger than the record",
	    "own sojourn_histograms: queue runs past the record",
	    "own sojourn_histograms queues",
	    SFLOW_OWN_SOJOURN_MIN_SIZE,
	    sojourn_size};

	return sflow_own_read_elems(r, &d, &a->n, &a->len, &a->p);
}

int sflow_own_sojourn_next(const struct sflow_own_sojourns *a, uint32_t *pos,
			   struct sflow_own_sojourn *out)
{
	size_t size;

	if (*pos >= a->len)
		return -1;
	size = sojourn_from(a->p + *pos, a->len - *pos, out);
	if (size == 0)
		return -1;
	*pos += (uint32_t)size;
	return 0;
}

int sflow_own_sojourn_at(const struct sflow_own_sojourns *a, uint32_t i,
			 struct sflow_own_sojourn *out)
{
	uint32_t pos = 0;

	if (i >= a->n)
		return -1;
	for (uint32_t k = 0; k <= i; k++)
		if (sflow_own_sojourn_next(a, &pos, out) < 0)
			return -1;
	return 0;
}
