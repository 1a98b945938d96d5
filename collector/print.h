/*
 * print.h - print one decoded sFlow datagram through the output
 * abstraction (output.h), with sflowtool's key names.
 *
 * print.c prints the datagram header, the standard and Broadcom samples
 * and records and any unknown ones.  bsflowd's own structures (enterprise
 * o->own_enterprise) are printed by print_own.c:
 *   - collect_print_own_sample_fields() after print.c printed
 *     sampleType_tag / sampleType of an own sample (kind SFLOW_SMP_OWN):
 *     the sample's own fixed fields (s->h.own);
 *   - collect_print_own_record() inside an element object, after print.c
 *     printed flowBlock_tag / counterBlock_tag, for every record whose
 *     enterprise is o->own_enterprise (kind SFLOW_REC_OWN, or
 *     SFLOW_REC_UNKNOWN when proto/ does not know the format).
 *     o->sample_tag holds the enclosing sample's tag.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_PRINT_H
#define BSFLOWD_COLLECT_PRINT_H

#include <stdint.h>
#include <sys/socket.h>

#include "collector/output.h"
#include "proto/sflow_decode.h"

/* How and when a datagram arrived. */
struct collect_rx {
	struct sflow_addr src; /* datagramSourceIP */
	uint16_t src_port;
	size_t size;	  /* datagramSize */
	int64_t unix_sec; /* unixSecondsUTC: receive or pcap time */
	uint32_t unix_usec;
};

void collect_print_datagram(struct collect_out *o, const struct collect_rx *rx,
			    const struct sflow_datagram *d);

/* print_own.c */
void collect_print_own_record(struct collect_out *o, const struct sflow_record *r);
void collect_print_own_sample_fields(struct collect_out *o, const struct sflow_sample *s);

#endif
