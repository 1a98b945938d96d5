/*
 * filter.h - bsflow-collect's sample filters (--agent, --source, --type,
 * --reason): which samples the printed outputs (-j, text, -l, -g, --table)
 * and -w show.  The checks, the summary, --prometheus and -f see every
 * datagram.  Each option may be repeated: a sample passes when it matches
 * one of the values of every option given.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_FILTER_H
#define BSFLOWD_COLLECT_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "proto/sflow_decode.h"

#define COLLECT_FILTER_MAX 32

enum {
	COLLECT_TYPE_FLOW = 1,
	COLLECT_TYPE_COUNTERS = 2,
	COLLECT_TYPE_DROP = 4,
	COLLECT_TYPE_EVENT = 8,
};

struct collect_filter {
	struct sflow_addr agents[COLLECT_FILTER_MAX];
	size_t nagents;
	uint32_t sources[COLLECT_FILTER_MAX][2];
	size_t nsources;
	unsigned types; /* COLLECT_TYPE_* bits, 0 = any */
	uint32_t reasons[COLLECT_FILTER_MAX];
	size_t nreasons;
	uint32_t own_enterprise;
};

/* Add a value; 0, or -1 with the reason in err. */
int collect_filter_agent(struct collect_filter *f, const char *s, char *err, size_t errlen);
int collect_filter_source(struct collect_filter *f, const char *s, char *err, size_t errlen);
int collect_filter_type(struct collect_filter *f, const char *s, char *err, size_t errlen);
int collect_filter_reason(struct collect_filter *f, const char *s, char *err, size_t errlen);
/* Any filter given? */
int collect_filter_active(const struct collect_filter *f);

/* view: d with only the samples that pass (view->samples newly allocated,
 * the samples' records shared with d; free(view->samples) when done).
 * Returns the number of samples kept, -1 out of memory. */
int collect_filter_apply(const struct collect_filter *f, const struct sflow_datagram *d,
			 struct sflow_datagram *view);

#endif
