/*
 * counters.h - build the counters samples bsflowd exports, from a backend.
 *
 * One call reads a port (or the device) through the backend interface
 * (backend.h) and encodes one complete counters_sample_expanded (0:4) into
 * a caller's scratch buffer, ready for sflow_builder_add():
 *
 *   port   source 0:ifIndex, records 0:1 generic, 0:2 ethernet,
 *          0:1005 port name, 4413:2 bst_port_buffers, then bsflowd's own
 *          E:1 port buffers, E:2 queue buffers, E:3 queue delays,
 *          E:4 PG buffers (E = own_enterprise; see bsflowd-structures(7));
 *   device source 2:device_index, records 4413:1 bst_device_buffers, then
 *          own E:5 device pools, E:6 CPU queues and E:7 sampler statistics
 *          (when visibility samplers are configured).
 *
 * Each backend read uses src->window (0 for the sFlow export) and so
 * closes that window's peaks exactly when the sample is built: nothing is
 * lost between two exports and nothing is reported twice.  The backend is
 * read once per call; if the encoded sample does not fit in cap bytes the
 * own records are left out one by one, from the end (E:4, E:3, E:2, E:1;
 * device: E:7, E:6, E:5), and the left-out ones are reported in out->omitted,
 * so pass cap = the builder's max_bytes minus its header length to get a
 * sample the builder always accepts.  A backend read that fails is logged
 * by the caller from out->err; its values go on the wire as unknown.
 *
 * Nothing here allocates, keeps state or does I/O; the caller owns the
 * per-data-source sequence numbers and increments one after its sample
 * was added to a datagram.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_COUNTERS_H
#define BSFLOWD_AGENT_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"
#include "agent/visibility/vis.h"
#include "proto/sflow.h"

struct sflow_own_sampler_stat;
struct sflow_own_vis_event;

/* Bits for bsf_counters_src.own_records and bsf_counters_out.omitted: one per
 * own record (format number n is bit 1 << n). */
#define BSF_COUNTERS_OWN_PORT_BUFFERS  (1u << 1) /* E:1 */
#define BSF_COUNTERS_OWN_QUEUE_BUFFERS (1u << 2) /* E:2 */
#define BSF_COUNTERS_OWN_QUEUE_DELAYS  (1u << 3) /* E:3 */
#define BSF_COUNTERS_OWN_PG_BUFFERS    (1u << 4) /* E:4 */
#define BSF_COUNTERS_OWN_DEVICE_POOLS  (1u << 5) /* E:5 */
#define BSF_COUNTERS_OWN_CPU_QUEUES    (1u << 6) /* E:6 */
#define BSF_COUNTERS_OWN_SAMPLER_STATS (1u << 7) /* E:7 */
#define BSF_COUNTERS_OWN_BACKEND       (1u << 8) /* the backend's own (E:8, E:9) */
#define BSF_COUNTERS_OWN_ALL	       0x1feu

/* A scratch buffer this big always holds any sample these functions make
 * (the largest datagram less the smallest header). */
#define BSF_COUNTERS_SCRATCH 8192u

/* Where samples come from.  Filled once by the caller (after the backend's
 * open/describe); read-only here. */
struct bsf_counters_src {
	const struct bsf_backend_ops *ops;
	void *st;			   /* the backend's state from open() */
	const struct bsf_device_desc *dev; /* from describe() */
	unsigned window;		   /* peak read window: 0 for the export */
	uint32_t own_enterprise;	   /* own records' enterprise; 0 = send none */
	uint32_t own_records;		   /* BSF_COUNTERS_OWN_* to send (ALL) */
	uint32_t device_index;		   /* device source 2:N; 0 is taken as 1 */
	/* optional: called with each port's buffers right after a
	 * successful read (the daemon feeds polled queue depths to its
	 * visibility monitors) */
	void (*port_buffers)(void *arg, uint32_t port, const struct bsf_port_buffers *b);
	void *port_buffers_arg;
	/* the visibility samplers' statistics for E:7 in the device sample
	 * (n_samplers 0: no E:7) */
	const struct sflow_own_sampler_stat *samplers;
	uint32_t n_samplers;
};

/* What one call did. */
struct bsf_counters_out {
	size_t len;	   /* bytes of the encoded sample in buf */
	uint32_t nrecords; /* records in the sample */
	uint32_t omitted;  /* BSF_COUNTERS_OWN_* left out for lack of room */
	int read_errors;   /* backend reads that failed (sent as unknown) */
	char err[160];	   /* the first failed read's message, "" if none */
};

/*
 * Read port index `port` (0..dev->nports-1) and encode its counters sample
 * with sequence number seq into buf (cap bytes).  Returns 0 (SFLOW_OK) with
 * out->len set, SFLOW_ERR_INVALID for a bad port or src, or SFLOW_ERR_FULL
 * when even the standard records do not fit in cap (the backend was read
 * all the same: those peaks are gone).
 */
int bsf_counters_port(const struct bsf_counters_src *src, uint32_t port, uint32_t seq, uint8_t *buf,
		      size_t cap, struct bsf_counters_out *out);

/* The same for the device data source 2:device_index. */
int bsf_counters_device(const struct bsf_counters_src *src, uint32_t seq, uint8_t *buf, size_t cap,
			struct bsf_counters_out *out);

/*
 * When E:7 did not fit in the device sample (out->omitted has
 * BSF_COUNTERS_OWN_SAMPLER_STATS): a further counters sample of the device
 * source carrying only E:7, with src->samplers[first..] as many as fit in
 * cap (at least one); *n gets how many.  The caller sends such samples,
 * each with the source's next sequence number, until every sampler went
 * out.  Reads nothing from the backend.  SFLOW_ERR_FULL when not even one
 * fits, SFLOW_ERR_INVALID for first >= n_samplers.
 */
int bsf_counters_device_samplers(const struct bsf_counters_src *src, uint32_t seq, uint32_t first,
				 uint8_t *buf, size_t cap, uint32_t *n,
				 struct bsf_counters_out *out);

#endif
