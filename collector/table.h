/*
 * table.h - bsflow-collect's per-port table for `make demo` (--table).
 *
 * Fed every decoded datagram, it keeps one row per (agent, sub-agent, data
 * source) with what an operator watches: the last peak buffer use (the
 * highest percentage in the port's last 4413:2 and own buffer records, and
 * which object had it), the ifInDiscards/ifOutDiscards increase between
 * the last two counters samples, drops by reason from discarded_packet
 * (0:5) samples (on the row of the drop's output port, else its input
 * port, else the sample's data source), the largest queue delay in the last own queue_delays
 * record, and the visibility events of own E:1 samples counted by type
 * since the start (on the row of the sample's data source: the egress
 * port's 0:ifIndex, or the device's 2:N).  collect_table_render() prints
 * it as a fixed-width table, one block per agent.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_TABLE_H
#define BSFLOWD_COLLECT_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "proto/sflow_decode.h"

struct collect_table;

/* own_enterprise: bsflowd's own records (0 = SFLOW_ENT_OWN_DEFAULT).
 * NULL when out of memory. */
struct collect_table *collect_table_new(uint32_t own_enterprise);
void collect_table_free(struct collect_table *t);

/* Account one decoded datagram.  Returns 0, or -1 when a new row could not
 * be allocated (the datagram is then partly accounted). */
int collect_table_add(struct collect_table *t, const struct sflow_datagram *d);

/* Rows known so far. */
unsigned collect_table_rows(const struct collect_table *t);

/* One row's figures, for tests and other front ends.  peak_pc and
 * delay_max_ns are -1 / UINT64_MAX when never reported. */
struct collect_table_row {
	struct sflow_addr agent;
	uint32_t sub_agent_id;
	uint32_t source_type; /* 0 port (ifIndex), 2 device */
	uint32_t source_index;
	char name[64];	   /* from 0:1005, "" if none */
	int32_t peak_pc;   /* hundredths of a percent */
	char peak_obj[16]; /* "uc3", "mc0", "egress_uc", "device_uc", ... */
	uint64_t in_discards_delta, out_discards_delta; /* UINT64_MAX: not yet */
	uint64_t drops;					/* 0:5 samples counted */
	uint32_t top_reason;				/* the most frequent reason, if drops > 0 */
	uint64_t top_reason_count;
	uint64_t delay_max_ns;	  /* largest queue delay in the last record */
	char delay_queue[16];	  /* which queue */
	uint32_t counter_samples; /* counters samples seen */
	/* visibility events (E:1 samples) received since the start */
	uint64_t congestion; /* congestion episodes: a start, or an end whose start was not seen */
	uint32_t congestion_open; /* episodes started and not ended yet */
	uint64_t high_delay, forensics;
};
/* Row i (0..rows-1, in first-seen order; rendering sorts them): 0, or -1 if no such row. */
int collect_table_row(const struct collect_table *t, unsigned i, struct collect_table_row *out);

/* Print the table; clear != 0 first sends the clear-screen escape
 * (the caller decides, e.g. isatty(fileno(fp))).  A line of column names,
 * then per agent an "agent ADDR" line (" sub-agent N" when not 0) and its
 * rows.  The EVENTS cell is "C<n>" congestion episodes ("*" appended while
 * one is open), "D<n>" high-delay and "F<n>" forensics events, separated by
 * spaces, zero counts left out, "-" with none; from 10000 on a count is
 * shown in thousands ("12k"), from 10000000 on in millions ("12M"),
 * rounded down. */
void collect_table_render(const struct collect_table *t, FILE *fp, int clear);

#endif
