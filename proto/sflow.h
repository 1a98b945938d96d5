/*
 * sflow.h - sFlow v5 structures bsflowd puts on the wire, as C values.
 *
 * Tags, sample headers and record bodies for the standard (enterprise 0)
 * and Broadcom (enterprise 4413) structures documented in
 * bsflowd-structures(7).  The same structs are the input of the
 * encoders (sflow_encode.h) and the output of the decoder (sflow_decode.h).
 * Field names follow the spec so that they read like the XDR.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_PROTO_SFLOW_H
#define BSFLOWD_PROTO_SFLOW_H

#include <stddef.h>
#include <stdint.h>

#include "proto/xdr.h"

#define SFLOW_VERSION 5

/* data_format = enterprise (20 bits) << 12 | format (12 bits) */
#define SFLOW_TAG(ent, fmt)	  ((((uint32_t)(ent)) << 12) | ((uint32_t)(fmt)&0xfffu))
#define SFLOW_TAG_ENTERPRISE(tag) (((uint32_t)(tag)) >> 12)
#define SFLOW_TAG_FORMAT(tag)	  (((uint32_t)(tag)) & 0xfffu)

#define SFLOW_ENT_STANDARD 0u
#define SFLOW_ENT_BROADCOM 4413u
/* RFC 5612 documentation enterprise: the default for bsflowd's own records. */
#define SFLOW_ENT_OWN_DEFAULT 32473u

/* Sample types */
#define SFLOW_SAMPLE_FLOW	  SFLOW_TAG(0, 1)
#define SFLOW_SAMPLE_COUNTERS	  SFLOW_TAG(0, 2)
#define SFLOW_SAMPLE_FLOW_EXP	  SFLOW_TAG(0, 3)
#define SFLOW_SAMPLE_COUNTERS_EXP SFLOW_TAG(0, 4)
#define SFLOW_SAMPLE_DISCARD	  SFLOW_TAG(0, 5)

/* Counter records */
#define SFLOW_CTR_GENERIC    SFLOW_TAG(0, 1)
#define SFLOW_CTR_ETHERNET   SFLOW_TAG(0, 2)
#define SFLOW_CTR_PORT_NAME  SFLOW_TAG(0, 1005)
#define SFLOW_CTR_BST_DEVICE SFLOW_TAG(4413, 1)
#define SFLOW_CTR_BST_PORT   SFLOW_TAG(4413, 2)

/* Flow records (in 0:1, 0:3 and 0:5 samples) */
#define SFLOW_FLOW_HEADER	    SFLOW_TAG(0, 1)
#define SFLOW_FLOW_EXT_SWITCH	    SFLOW_TAG(0, 1001)
#define SFLOW_FLOW_EGRESS_QUEUE	    SFLOW_TAG(0, 1036)
#define SFLOW_FLOW_FUNCTION	    SFLOW_TAG(0, 1038)
#define SFLOW_FLOW_TRANSIT	    SFLOW_TAG(0, 1039)
#define SFLOW_FLOW_QUEUE_DEPTH	    SFLOW_TAG(0, 1040)
#define SFLOW_FLOW_HW_TRAP	    SFLOW_TAG(0, 1041)
#define SFLOW_FLOW_LINUX_REASON	    SFLOW_TAG(0, 1042)
#define SFLOW_FLOW_TIMESTAMP	    SFLOW_TAG(0, 1043)
#define SFLOW_FLOW_BST_EGRESS_QUEUE SFLOW_TAG(4413, 1)

/* Data source types (source_id_type) */
#define SFLOW_DS_IFINDEX 0u
#define SFLOW_DS_VLAN	 1u
#define SFLOW_DS_ENTITY	 2u

/* Flow sample input/output interface formats */
#define SFLOW_IF_FORMAT_IFINDEX	  0u
#define SFLOW_IF_FORMAT_DISCARDED 1u
#define SFLOW_IF_FORMAT_MULTIPLE  2u

#define SFLOW_HEADER_PROTO_ETHERNET 1u

/* Limits */
#define SFLOW_DGRAM_MIN		200u
#define SFLOW_DGRAM_MAX		8192u
#define SFLOW_DGRAM_DEFAULT	1400u
#define SFLOW_BST_MAX_QUEUES	8u
#define SFLOW_PORT_NAME_MAX	255u
#define SFLOW_PCT_UNKNOWN	(-1)
#define SFLOW_COUNTER32_UNKNOWN 0xFFFFFFFFu
#define SFLOW_COUNTER64_UNKNOWN 0xFFFFFFFFFFFFFFFFull

enum sflow_addr_type {
	SFLOW_ADDR_UNKNOWN = 0,
	SFLOW_ADDR_IP4 = 1,
	SFLOW_ADDR_IP6 = 2,
};

struct sflow_addr {
	uint32_t type; /* enum sflow_addr_type */
	uint8_t a[16]; /* 4 bytes used for IPv4, network order */
};

/* ---- sample headers (expanded form; the decoder widens compact 0:1/0:2) */

struct sflow_flow_sample {
	uint32_t sequence_number;
	uint32_t source_id_type;
	uint32_t source_id_index;
	uint32_t sampling_rate;
	uint32_t sample_pool;
	uint32_t drops;
	uint32_t input_format;
	uint32_t input_value;
	uint32_t output_format;
	uint32_t output_value;
};

struct sflow_counters_sample {
	uint32_t sequence_number;
	uint32_t source_id_type;
	uint32_t source_id_index;
};

struct sflow_discard_sample {
	uint32_t sequence_number;
	uint32_t source_id_type;
	uint32_t source_id_index;
	uint32_t drops;
	uint32_t input;
	uint32_t output;
	uint32_t reason;
};

/* ---- counter record bodies */

struct sflow_if_counters { /* 0:1, 88 bytes */
	uint32_t ifIndex;
	uint32_t ifType;
	uint64_t ifSpeed;
	uint32_t ifDirection;
	uint32_t ifStatus;
	uint64_t ifInOctets;
	uint32_t ifInUcastPkts;
	uint32_t ifInMulticastPkts;
	uint32_t ifInBroadcastPkts;
	uint32_t ifInDiscards;
	uint32_t ifInErrors;
	uint32_t ifInUnknownProtos;
	uint64_t ifOutOctets;
	uint32_t ifOutUcastPkts;
	uint32_t ifOutMulticastPkts;
	uint32_t ifOutBroadcastPkts;
	uint32_t ifOutDiscards;
	uint32_t ifOutErrors;
	uint32_t ifPromiscuousMode;
};

struct sflow_eth_counters { /* 0:2, 52 bytes */
	uint32_t dot3StatsAlignmentErrors;
	uint32_t dot3StatsFCSErrors;
	uint32_t dot3StatsSingleCollisionFrames;
	uint32_t dot3StatsMultipleCollisionFrames;
	uint32_t dot3StatsSQETestErrors;
	uint32_t dot3StatsDeferredTransmissions;
	uint32_t dot3StatsLateCollisions;
	uint32_t dot3StatsExcessiveCollisions;
	uint32_t dot3StatsInternalMacTransmitErrors;
	uint32_t dot3StatsCarrierSenseErrors;
	uint32_t dot3StatsFrameTooLongs;
	uint32_t dot3StatsInternalMacReceiveErrors;
	uint32_t dot3StatsSymbolErrors;
};

struct sflow_port_name {		    /* 0:1005 */
	uint32_t len;			    /* <= SFLOW_PORT_NAME_MAX */
	char name[SFLOW_PORT_NAME_MAX + 1]; /* NUL-terminated copy */
};

struct sflow_bst_device { /* 4413:1 counter record */
	int32_t uc_pc;
	int32_t mc_pc;
};

struct sflow_bst_port { /* 4413:2 */
	int32_t ingress_uc_pc;
	int32_t ingress_mc_pc;
	int32_t egress_uc_pc;
	int32_t egress_mc_pc;
	uint32_t n_uc; /* <= 8 */
	int32_t egress_queue_uc_pc[SFLOW_BST_MAX_QUEUES];
	uint32_t n_mc; /* <= 8 */
	int32_t egress_queue_mc_pc[SFLOW_BST_MAX_QUEUES];
};

/* ---- flow record bodies */

struct sflow_sampled_header { /* 0:1 */
	uint32_t header_protocol;
	uint32_t frame_length;
	uint32_t stripped;
	uint32_t header_length;
	const uint8_t *header; /* encode: caller's bytes; decode: into the input */
};

struct sflow_ext_switch { /* 0:1001 */
	uint32_t src_vlan;
	uint32_t src_priority;
	uint32_t dst_vlan;
	uint32_t dst_priority;
};

struct sflow_function { /* 0:1038 */
	uint32_t len;
	const char *symbol; /* not NUL-terminated; decode: into the input */
};

/* 0:1041 extended_hw_trap: the hardware trap that dropped a packet,
 * string group<>, string trap<> (as hsflowd sends them with drops). */
struct sflow_hw_trap {
	uint32_t group_len;
	const char *group; /* not NUL-terminated; decode: into the input */
	uint32_t trap_len;
	const char *trap;
};

/* 0:1042 extended_linux_reason: the platform's own drop reason, string
 * reason<> (e.g. the Linux kernel's "QDISC_DROP"): a struct
 * sflow_function layout, len and the string. */

/* 0:1036 egress queue, 0:1039 transit delay ns, 0:1040 queue depth bytes,
 * 4413:1 BST egress queue: one unsigned int each; 0:1043 one hyper. */

/* Percentage helper: 100 * used / allocated in hundredths of a percent,
 * rounded down, clamped to 0..10000; SFLOW_PCT_UNKNOWN when allocated is 0
 * or either side is unknown (UINT64_MAX). */
int32_t sflow_percentage(uint64_t used, uint64_t allocated);

/* An address as inet_ntop(3) writes it ("192.0.2.1", "2001:db8::1"), or
 * "unknown" for another type, into buf (n bytes, INET6_ADDRSTRLEN is
 * enough); returns buf. */
const char *sflow_addr_str(const struct sflow_addr *a, char *buf, size_t n);

#endif
