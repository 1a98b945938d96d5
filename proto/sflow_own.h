/*
 * sflow_own.h - bsflowd's own sFlow structures (enterprise configurable,
 * default SFLOW_ENT_OWN_DEFAULT = 32473).
 *
 * What the standard and Broadcom structures cannot carry (bytes and cells,
 * per-queue delay, service pools, priority groups, CPU queues, more than 8
 * queues, time of peak, sampler statistics, visibility events) travels in
 * the records and sample types defined here, always next to the standard
 * ones.  Every structure here is also in bsflowd-structures(7).
 *
 * Decoding contract with sflow_decode.c: for a record or sample whose
 * enterprise is the configured own enterprise, the decoder calls
 * sflow_own_decode_record() / sflow_own_decode_sample() with a reader over
 * exactly the body.  They validate the whole body (array counts against the
 * remaining bytes, no bytes left over) and fill the value; variable-length
 * arrays are not copied: the value keeps a pointer to the validated
 * elements and an accessor decodes element i.  Return SFLOW_OK, 1 for a
 * format not known here (the decoder then keeps it as unknown), or an
 * error on the reader.
 *
 * The structures, in XDR (RFC 4506; E = the own enterprise; "percentage"
 * is an int in hundredths of a percent as in 4413:1/4413:2):
 *
 *   Conventions
 *     unsigned int fields that count bytes, cells or ns saturate at
 *     0xFFFFFFFE; 0xFFFFFFFF means unknown (the backend cannot say).
 *     unsigned hyper times are ns since the Unix epoch (UTC); all ones
 *     means unknown.  percentage -1 means unknown.  Peaks are since the
 *     previous export of the same data source (the window closes when
 *     the sample is built, as for 4413:2).  In a uc<>/mc<> array the
 *     element's position is the queue number (0 first).
 *
 *   struct buffer {                 (32 bytes; one buffer object)
 *     unsigned int cur_cells;       occupancy when the sample was built
 *     unsigned int cur_bytes;
 *     unsigned int peak_cells;      peak since the previous export
 *     unsigned int peak_bytes;
 *     unsigned int alloc_cells;     most the object may hold (at the peak)
 *     percentage   peak_pc;         100 * peak_cells / alloc_cells, rounded
 *                                   down, 0..10000; -1 unknown / alloc 0
 *     unsigned hyper peak_time;     when the peak happened
 *   }
 *
 *   Counter records (in counters samples 0:4 / 0:2):
 *
 *   E:1 port_buffers {              (128 bytes; in each port's sample)
 *     buffer ingress_uc;            the port's ingress accounting
 *     buffer ingress_mc;
 *     buffer egress_uc;             the port's egress accounting
 *     buffer egress_mc;
 *   }
 *   E:2 queue_buffers {             (every egress queue, not only 8)
 *     buffer uc<>;                  unicast queue i
 *     buffer mc<>;                  multicast queue i
 *   }
 *   E:3 queue_delays {
 *     queue_delay uc<>;
 *     queue_delay mc<>;
 *   }
 *   struct queue_delay {            (16 bytes)
 *     unsigned int latest;          ns: last completed non-tagged (seed
 *                                   004) measurement
 *     unsigned int max;             ns: largest measurement since the
 *                                   previous export
 *     unsigned int count;           measurements since the previous export
 *     unsigned int marker;          ns: marker queue delay (seed 000) now
 *   }
 *   E:4 pg_buffers {                (per ingress priority group)
 *     pg_buffer pgs<>;              position = PG number
 *   }
 *   struct pg_buffer {              (64 bytes)
 *     buffer shared;                use of the shared pool by the PG
 *     buffer headroom;              use of the PG's headroom
 *   }
 *   E:5 device_pools {              (in the device sample 2:N)
 *     unsigned int cell_bytes;      bytes per cell, 0xFFFFFFFF unknown
 *     unsigned int total_cells;     cells in the whole buffer
 *     buffer uc;                    device unicast use (4413:1 uc_pc's base)
 *     buffer mc;                    device multicast use
 *     buffer ingress<>;             ingress service pool i
 *     buffer egress<>;              egress service pool i
 *   }
 *   E:6 cpu_queues {                (in the device sample)
 *     buffer queues<>;              CPU port queue i
 *   }
 *   E:7 reserved: sampler statistics (counter record, issue 6).
 *   E:8..E:15 reserved for further counter records.
 *
 *   Sample types (enterprise E):
 *   E:1 reserved: visibility event sample (issue 6), with its own event
 *       records E:1.. inside it (numbers told apart from the counter
 *       records by the enclosing sample).  Not sent yet.
 */
#ifndef BSFLOWD_PROTO_SFLOW_OWN_H
#define BSFLOWD_PROTO_SFLOW_OWN_H

#include <stdint.h>

#include "proto/sflow_encode.h"
#include "proto/xdr.h"

/* Counter record formats */
#define SFLOW_OWN_PORT_BUFFERS	1u
#define SFLOW_OWN_QUEUE_BUFFERS 2u
#define SFLOW_OWN_QUEUE_DELAYS	3u
#define SFLOW_OWN_PG_BUFFERS	4u
#define SFLOW_OWN_DEVICE_POOLS	5u
#define SFLOW_OWN_CPU_QUEUES	6u
#define SFLOW_OWN_SAMPLER_STATS 7u /* reserved (issue 6), not decoded */
/* Sample types */
#define SFLOW_OWN_SMP_EVENT 1u /* reserved (issue 6), not decoded */

#define SFLOW_OWN_UNKNOWN32 0xFFFFFFFFu
#define SFLOW_OWN_MAX32	    0xFFFFFFFEu
#define SFLOW_OWN_UNKNOWN64 0xFFFFFFFFFFFFFFFFull

/* Wire sizes in bytes */
#define SFLOW_OWN_BUFFER_SIZE 32u
#define SFLOW_OWN_QDELAY_SIZE 16u
#define SFLOW_OWN_PG_SIZE     64u

/* A 64-bit backend value as an own unsigned int: all ones (unknown) stays
 * unknown, anything else saturates at SFLOW_OWN_MAX32. */
static inline uint32_t sflow_own_u32(uint64_t v)
{
	if (v == SFLOW_OWN_UNKNOWN64)
		return SFLOW_OWN_UNKNOWN32;
	return v > SFLOW_OWN_MAX32 ? SFLOW_OWN_MAX32 : (uint32_t)v;
}

struct sflow_own_buffer {
	uint32_t cur_cells;
	uint32_t cur_bytes;
	uint32_t peak_cells;
	uint32_t peak_bytes;
	uint32_t alloc_cells;
	int32_t peak_pc;
	uint64_t peak_time_ns;
};

struct sflow_own_qdelay {
	uint32_t latest_ns;
	uint32_t max_ns;
	uint32_t count;
	uint32_t marker_ns;
};

struct sflow_own_pg {
	struct sflow_own_buffer shared;
	struct sflow_own_buffer headroom;
};

/* A decoded, validated variable-length array: n elements of a fixed wire
 * size starting at p (inside the decoder's input).  Read element i with
 * the accessor for its type. */
struct sflow_own_array {
	uint32_t n;
	const uint8_t *p;
};

struct sflow_own_port_buffers { /* E:1 */
	struct sflow_own_buffer ingress_uc, ingress_mc, egress_uc, egress_mc;
};

struct sflow_own_queue_buffers { /* E:2: elements are buffers */
	struct sflow_own_array uc, mc;
};

struct sflow_own_queue_delays { /* E:3: elements are qdelays */
	struct sflow_own_array uc, mc;
};

struct sflow_own_pg_buffers { /* E:4: elements are pgs */
	struct sflow_own_array pgs;
};

struct sflow_own_device_pools { /* E:5 */
	uint32_t cell_bytes;
	uint32_t total_cells;
	struct sflow_own_buffer uc, mc;
	struct sflow_own_array ingress, egress; /* buffers */
};

struct sflow_own_cpu_queues { /* E:6: elements are buffers */
	struct sflow_own_array queues;
};

struct sflow_own_record {
	uint32_t format;
	union {
		struct sflow_own_port_buffers port;
		struct sflow_own_queue_buffers queues;
		struct sflow_own_queue_delays delays;
		struct sflow_own_pg_buffers pgs;
		struct sflow_own_device_pools pools;
		struct sflow_own_cpu_queues cpu;
	} u;
};

struct sflow_own_sample {
	uint32_t format; /* no own sample type is defined yet */
};

/* ---- decoding */

/* in_sample: the enclosing sample's tag (counters vs flow records share
 * format numbers).  Counter records are known inside 0:2 and 0:4. */
int sflow_own_decode_record(uint32_t format, uint32_t in_sample, struct sflow_r *r,
			    struct sflow_own_record *out);
/* Decodes the own sample's fixed fields; leaves the reader at the record
 * count. */
int sflow_own_decode_sample(uint32_t format, struct sflow_r *r, struct sflow_own_sample *out);
/* Name of an own record/sample format for printing, or NULL. */
const char *sflow_own_record_name(uint32_t format, uint32_t in_sample);
const char *sflow_own_sample_name(uint32_t format);

/* Element i of a decoded array; 0, or -1 (and *out untouched) when i >= n. */
int sflow_own_buffer_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_buffer *out);
int sflow_own_qdelay_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_qdelay *out);
int sflow_own_pg_at(const struct sflow_own_array *a, uint32_t i, struct sflow_own_pg *out);

/* ---- encoding: each adds one record (tag enterprise:format) to the
 * counters sample s being written through w; errors are sticky in w->err. */

void sflow_own_enc_port_buffers(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				const struct sflow_own_port_buffers *b);
void sflow_own_enc_queue_buffers(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				 const struct sflow_own_buffer *uc, uint32_t n_uc,
				 const struct sflow_own_buffer *mc, uint32_t n_mc);
void sflow_own_enc_queue_delays(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				const struct sflow_own_qdelay *uc, uint32_t n_uc,
				const struct sflow_own_qdelay *mc, uint32_t n_mc);
void sflow_own_enc_pg_buffers(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			      const struct sflow_own_pg *pgs, uint32_t n);
/* E:5: the arrays come as C arrays (the ingress/egress members of a
 * decoded value are ignored). */
void sflow_own_enc_device_pools(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
				uint32_t cell_bytes, uint32_t total_cells,
				const struct sflow_own_buffer *uc,
				const struct sflow_own_buffer *mc,
				const struct sflow_own_buffer *ingress, uint32_t n_ingress,
				const struct sflow_own_buffer *egress, uint32_t n_egress);
void sflow_own_enc_cpu_queues(struct sflow_w *w, struct sflow_sample_enc *s, uint32_t enterprise,
			      const struct sflow_own_buffer *q, uint32_t n);

#endif
