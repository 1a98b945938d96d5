/*
 * filter.c - bsflow-collect's sample filters (filter.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/filter.h"
#include "proto/sflow_drops.h"

static int full(size_t n, char *err, size_t errlen)
{
	if (n < COLLECT_FILTER_MAX)
		return 0;
	snprintf(err, errlen, "at most %d values", COLLECT_FILTER_MAX);
	return -1;
}

int collect_filter_agent(struct collect_filter *f, const char *s, char *err, size_t errlen)
{
	struct sflow_addr a;

	if (full(f->nagents, err, errlen))
		return -1;
	memset(&a, 0, sizeof a);
	if (inet_pton(AF_INET, s, a.a) == 1) {
		a.type = SFLOW_ADDR_IP4;
	} else if (inet_pton(AF_INET6, s, a.a) == 1) {
		a.type = SFLOW_ADDR_IP6;
	} else {
		snprintf(err, errlen, "'%s' is not an IPv4 or IPv6 address", s);
		return -1;
	}
	f->agents[f->nagents++] = a;
	return 0;
}

int collect_filter_source(struct collect_filter *f, const char *s, char *err, size_t errlen)
{
	unsigned long t, i;
	char *end;

	if (full(f->nsources, err, errlen))
		return -1;
	errno = 0;
	t = strtoul(s, &end, 10);
	if (errno || end == s || *end != ':' || t > 255 || s[0] == '-')
		goto bad;
	s = end + 1;
	i = strtoul(s, &end, 10);
	if (errno || end == s || *end || i > 0xffffff || s[0] == '-')
		goto bad;
	f->sources[f->nsources][0] = (uint32_t)t;
	f->sources[f->nsources][1] = (uint32_t)i;
	f->nsources++;
	return 0;
bad:
	snprintf(err, errlen, "not a data source TYPE:INDEX (e.g. 0:3)");
	return -1;
}

int collect_filter_type(struct collect_filter *f, const char *s, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		unsigned bit;
	} types[] = {{"flow", COLLECT_TYPE_FLOW},
		     {"counters", COLLECT_TYPE_COUNTERS},
		     {"drop", COLLECT_TYPE_DROP},
		     {"event", COLLECT_TYPE_EVENT}};

	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(s, types[i].name) == 0) {
			f->types |= types[i].bit;
			return 0;
		}
	snprintf(err, errlen, "'%s' is not a sample type (flow, counters, drop, event)", s);
	return -1;
}

int collect_filter_reason(struct collect_filter *f, const char *s, char *err, size_t errlen)
{
	uint32_t code;
	char *end;
	unsigned long v;

	if (full(f->nreasons, err, errlen))
		return -1;
	if (sflow_drop_code(s, &code) == 0) {
		f->reasons[f->nreasons++] = code;
		return 0;
	}
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v > 0xffffffffUL) {
		snprintf(err, errlen, "'%s' is not a drop reason name or number", s);
		return -1;
	}
	f->reasons[f->nreasons++] = (uint32_t)v;
	return 0;
}

int collect_filter_active(const struct collect_filter *f)
{
	return f->nagents || f->nsources || f->types || f->nreasons;
}

static int sample_pass(const struct collect_filter *f, const struct sflow_sample *s)
{
	uint32_t type, index;
	unsigned bit;
	int ok;

	switch (s->kind) {
	case SFLOW_SMP_FLOW:
		bit = COLLECT_TYPE_FLOW;
		type = s->h.flow.source_id_type;
		index = s->h.flow.source_id_index;
		break;
	case SFLOW_SMP_COUNTERS:
		bit = COLLECT_TYPE_COUNTERS;
		type = s->h.counters.source_id_type;
		index = s->h.counters.source_id_index;
		break;
	case SFLOW_SMP_DISCARD:
		bit = COLLECT_TYPE_DROP;
		type = s->h.discard.source_id_type;
		index = s->h.discard.source_id_index;
		break;
	case SFLOW_SMP_OWN:
		if (SFLOW_TAG_ENTERPRISE(s->tag) != f->own_enterprise ||
		    s->h.own.format != SFLOW_OWN_SMP_EVENT)
			return 0;
		bit = COLLECT_TYPE_EVENT;
		type = s->h.own.u.event.source_id_type;
		index = s->h.own.u.event.source_id_index;
		break;
	default:
		return !f->types && !f->nsources && !f->nreasons;
	}
	if (f->types && !(f->types & bit))
		return 0;
	if (f->nsources) {
		ok = 0;
		for (size_t i = 0; i < f->nsources; i++)
			if (f->sources[i][0] == type && f->sources[i][1] == index)
				ok = 1;
		if (!ok)
			return 0;
	}
	if (f->nreasons) {
		if (s->kind != SFLOW_SMP_DISCARD)
			return 0;
		ok = 0;
		for (size_t i = 0; i < f->nreasons; i++)
			if (f->reasons[i] == s->h.discard.reason)
				ok = 1;
		if (!ok)
			return 0;
	}
	return 1;
}

int collect_filter_apply(const struct collect_filter *f, const struct sflow_datagram *d,
			 struct sflow_datagram *view)
{
	*view = *d;
	view->nsamples = 0;
	view->samples = NULL;
	if (f->nagents) {
		int ok = 0;

		for (size_t i = 0; i < f->nagents; i++)
			if (f->agents[i].type == d->agent.type &&
			    memcmp(f->agents[i].a, d->agent.a,
				   d->agent.type == SFLOW_ADDR_IP6 ? 16 : 4) == 0)
				ok = 1;
		if (!ok)
			return 0;
	}
	view->samples = calloc(d->nsamples ? d->nsamples : 1, sizeof *view->samples);
	if (!view->samples)
		return -1;
	for (uint32_t i = 0; i < d->nsamples; i++)
		if (sample_pass(f, &d->samples[i]))
			view->samples[view->nsamples++] = d->samples[i];
	return (int)view->nsamples;
}
