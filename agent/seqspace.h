/*
 * seqspace.h - the sample sequence numbers of one datagram stream (agent
 * address, sub-agent id).  sFlow numbers samples per data source within
 * an agent and sub-agent: when the agent address or sub-agent id changes,
 * the new stream's samples start their own numbering from 1, and going
 * back to an earlier stream goes on with its numbers, so that a collector
 * sees no false gap on either.  The exporter keeps one space per stream
 * it remembers and writes the number into each sample as it accepts it
 * (seqspace_renumber), whatever number the sample's producer put there.
 *
 * Numbered: the expanded flow, counters and discarded-packet samples
 * (0:3, 0:4, 0:5) and bsflowd's own event samples (E:1, any enterprise
 * but 0 and 4413), each keyed by (sample type, data source type, index);
 * their sequence number is the first word of the body, the data source
 * the next two.  Other samples are left as they are.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_SEQSPACE_H
#define BSFLOWD_AGENT_SEQSPACE_H

#include <stddef.h>
#include <stdint.h>

struct seqspace;

struct seqspace *seqspace_new(void);
void seqspace_free(struct seqspace *s);

/* The slot of sample (len bytes, framing already checked) in s: NULL if
 * the sample is not numbered, or memory ran out (then it keeps the number
 * its producer gave it). */
uint32_t *seqspace_slot(struct seqspace *s, const uint8_t *sample, size_t len);
/* Write *slot (the next number of its key) into sample's sequence field. */
void seqspace_write(uint8_t *sample, const uint32_t *slot);

#endif
