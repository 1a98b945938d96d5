/*
 * tracepoint.h - the skb:kfree_skb format parser of the tracepoint source
 * (tracepoint.c), a pure function so it is unit-tested on a format text.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUX_TRACEPOINT_H
#define BSFLOWD_LINUX_TRACEPOINT_H

#include <stddef.h>
#include <stdint.h>

#define LINUXBE_TP_MAX_REASONS 256

struct linuxbe_tp_format {
	unsigned reason_off, reason_size; /* in the raw record */
	char names[LINUXBE_TP_MAX_REASONS][48];
	unsigned n; /* 1 + the highest value named */
};

/* Parse /sys/kernel/tracing/events/skb/kfree_skb/format.  0, or -1 + err. */
int linuxbe_tp_format_parse(const char *text, struct linuxbe_tp_format *f, char *err,
			    size_t errlen);

struct linuxbe_st;
/* Drops counted so far with that reason name (0 if none / no source). */
uint64_t linuxbe_tp_count(const struct linuxbe_st *st, const char *reason);
/* Log the drops counted so far by reason (the status dump). */
void linuxbe_tp_report(struct linuxbe_st *st);

#endif
