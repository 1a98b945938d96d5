/*
 * print.c - print a decoded sFlow datagram with sflowtool's key names.
 *
 * The shape follows sflowtool's text and -j output: datagram fields, then
 * each sample between startSample/endSample markers (a "samples" array in
 * JSON), each record of a sample as one element of its "elements" array,
 * starting with flowBlock_tag or counterBlock_tag.  Records of a discard
 * sample carry the key prefix "discarded_" as in sflowtool.  Structures
 * sflowtool does not decode (Broadcom 4413:*, 0:1043) get the names listed
 * in bsflow-collect(1).  bsflowd's own structures go to print_own.c.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "collector/header.h"
#include "collector/print.h"
#include "proto/sflow_drops.h"

static void print_port(struct collect_out *o, const char *key, uint32_t format, uint32_t value)
{
	switch (format) {
	case SFLOW_IF_FORMAT_IFINDEX:
		collect_out_u32(o, key, value);
		break;
	case SFLOW_IF_FORMAT_DISCARDED:
		collect_out_str_u32(o, key, "dropCode ", value);
		break;
	case SFLOW_IF_FORMAT_MULTIPLE:
		collect_out_str_u32(o, key, "multiple ", value);
		break;
	default:
		collect_out_strf(o, key, "format==%" PRIu32 " %" PRIu32, format, value);
		break;
	}
}

static void print_source(struct collect_out *o, uint32_t type, uint32_t index)
{
	collect_out_u32_pair(o, "sourceId", type, index);
}

static void print_if_counters(struct collect_out *o, const struct sflow_if_counters *c)
{
	collect_out_u32(o, "ifIndex", c->ifIndex);
	collect_out_u32(o, "networkType", c->ifType);
	collect_out_u64(o, "ifSpeed", c->ifSpeed);
	collect_out_u32(o, "ifDirection", c->ifDirection);
	collect_out_u32(o, "ifStatus", c->ifStatus);
	collect_out_u64(o, "ifInOctets", c->ifInOctets);
	collect_out_u32(o, "ifInUcastPkts", c->ifInUcastPkts);
	collect_out_u32(o, "ifInMulticastPkts", c->ifInMulticastPkts);
	collect_out_u32(o, "ifInBroadcastPkts", c->ifInBroadcastPkts);
	collect_out_u32(o, "ifInDiscards", c->ifInDiscards);
	collect_out_u32(o, "ifInErrors", c->ifInErrors);
	collect_out_u32(o, "ifInUnknownProtos", c->ifInUnknownProtos);
	collect_out_u64(o, "ifOutOctets", c->ifOutOctets);
	collect_out_u32(o, "ifOutUcastPkts", c->ifOutUcastPkts);
	collect_out_u32(o, "ifOutMulticastPkts", c->ifOutMulticastPkts);
	collect_out_u32(o, "ifOutBroadcastPkts", c->ifOutBroadcastPkts);
	collect_out_u32(o, "ifOutDiscards", c->ifOutDiscards);
	collect_out_u32(o, "ifOutErrors", c->ifOutErrors);
	collect_out_u32(o, "ifPromiscuousMode", c->ifPromiscuousMode);
}

static void print_eth_counters(struct collect_out *o, const struct sflow_eth_counters *c)
{
	collect_out_u32(o, "dot3StatsAlignmentErrors", c->dot3StatsAlignmentErrors);
	collect_out_u32(o, "dot3StatsFCSErrors", c->dot3StatsFCSErrors);
	collect_out_u32(o, "dot3StatsSingleCollisionFrames", c->dot3StatsSingleCollisionFrames);
	collect_out_u32(o, "dot3StatsMultipleCollisionFrames", c->dot3StatsMultipleCollisionFrames);
	collect_out_u32(o, "dot3StatsSQETestErrors", c->dot3StatsSQETestErrors);
	collect_out_u32(o, "dot3StatsDeferredTransmissions", c->dot3StatsDeferredTransmissions);
	collect_out_u32(o, "dot3StatsLateCollisions", c->dot3StatsLateCollisions);
	collect_out_u32(o, "dot3StatsExcessiveCollisions", c->dot3StatsExcessiveCollisions);
	collect_out_u32(o, "dot3StatsInternalMacTransmitErrors",
			c->dot3StatsInternalMacTransmitErrors);
	collect_out_u32(o, "dot3StatsCarrierSenseErrors", c->dot3StatsCarrierSenseErrors);
	collect_out_u32(o, "dot3StatsFrameTooLongs", c->dot3StatsFrameTooLongs);
	collect_out_u32(o, "dot3StatsInternalMacReceiveErrors",
			c->dot3StatsInternalMacReceiveErrors);
	collect_out_u32(o, "dot3StatsSymbolErrors", c->dot3StatsSymbolErrors);
}

static void print_bst_port(struct collect_out *o, const struct sflow_bst_port *b)
{
	size_t nuc = b->n_uc > SFLOW_BST_MAX_QUEUES ? SFLOW_BST_MAX_QUEUES : b->n_uc;
	size_t nmc = b->n_mc > SFLOW_BST_MAX_QUEUES ? SFLOW_BST_MAX_QUEUES : b->n_mc;

	collect_out_i64(o, "bst_ingress_uc_pc", b->ingress_uc_pc);
	collect_out_i64(o, "bst_ingress_mc_pc", b->ingress_mc_pc);
	collect_out_i64(o, "bst_egress_uc_pc", b->egress_uc_pc);
	collect_out_i64(o, "bst_egress_mc_pc", b->egress_mc_pc);
	collect_out_i32_array(o, "bst_egress_queue_uc_pc", b->egress_queue_uc_pc, nuc);
	collect_out_i32_array(o, "bst_egress_queue_mc_pc", b->egress_queue_mc_pc, nmc);
}

static void print_sampled_header(struct collect_out *o, const struct sflow_sampled_header *h)
{
	collect_out_str(o, "flowSampleType", "HEADER");
	collect_out_u32(o, "headerProtocol", h->header_protocol);
	collect_out_u32(o, "sampledPacketSize", h->frame_length);
	collect_out_u32(o, "strippedBytes", h->stripped);
	collect_out_u32(o, "headerLen", h->header_length);
	collect_out_hex(o, "headerBytes", h->header, h->header_length);
	collect_header_decode(o, h);
}

/* One record: the element object, its tag and its fields. */
static void print_record(struct collect_out *o, const struct sflow_sample *s,
			 const struct sflow_record *r)
{
	int counters = s->kind == SFLOW_SMP_COUNTERS;

	collect_out_begin_object(o, NULL);
	collect_out_tag(o, counters ? "counterBlock_tag" : "flowBlock_tag", r->tag);
	if (r->kind == SFLOW_REC_OWN ||
	    (r->kind == SFLOW_REC_UNKNOWN && SFLOW_TAG_ENTERPRISE(r->tag) == o->own_enterprise)) {
		collect_print_own_record(o, r);
		collect_out_end_object(o);
		return;
	}
	switch (r->kind) {
	case SFLOW_REC_IF_COUNTERS:
		print_if_counters(o, &r->u.ifc);
		break;
	case SFLOW_REC_ETH_COUNTERS:
		print_eth_counters(o, &r->u.eth);
		break;
	case SFLOW_REC_PORT_NAME:
		collect_out_strn(o, "ifName", r->u.port_name.name,
				 strnlen(r->u.port_name.name, sizeof(r->u.port_name.name)));
		break;
	case SFLOW_REC_BST_DEVICE:
		collect_out_i64(o, "bst_device_uc_pc", r->u.bst_device.uc_pc);
		collect_out_i64(o, "bst_device_mc_pc", r->u.bst_device.mc_pc);
		break;
	case SFLOW_REC_BST_PORT:
		print_bst_port(o, &r->u.bst_port);
		break;
	case SFLOW_REC_SAMPLED_HEADER:
		print_sampled_header(o, &r->u.header);
		break;
	case SFLOW_REC_EXT_SWITCH:
		collect_out_str(o, "extendedType", "SWITCH");
		collect_out_u32(o, "in_vlan", r->u.ext_switch.src_vlan);
		collect_out_u32(o, "in_priority", r->u.ext_switch.src_priority);
		collect_out_u32(o, "out_vlan", r->u.ext_switch.dst_vlan);
		collect_out_u32(o, "out_priority", r->u.ext_switch.dst_priority);
		break;
	case SFLOW_REC_EGRESS_QUEUE:
		collect_out_str(o, "extendedType", "egress_queue");
		collect_out_u32(o, "egress_queue_id", r->u.queue);
		break;
	case SFLOW_REC_FUNCTION:
		collect_out_str(o, "extendedType", "function");
		collect_out_strn(o, "symbol", r->u.function.symbol ? r->u.function.symbol : "",
				 r->u.function.symbol ? r->u.function.len : 0);
		break;
	case SFLOW_REC_HW_TRAP:
		collect_out_str(o, "extendedType", "hw_trap");
		collect_out_strn(o, "hw_trap_group", r->u.hw_trap.group ? r->u.hw_trap.group : "",
				 r->u.hw_trap.group ? r->u.hw_trap.group_len : 0);
		collect_out_strn(o, "hw_trap_name", r->u.hw_trap.trap ? r->u.hw_trap.trap : "",
				 r->u.hw_trap.trap ? r->u.hw_trap.trap_len : 0);
		break;
	case SFLOW_REC_LINUX_REASON:
		collect_out_str(o, "extendedType", "linux_reason");
		collect_out_strn(o, "linux_reason",
				 r->u.linux_reason.symbol ? r->u.linux_reason.symbol : "",
				 r->u.linux_reason.symbol ? r->u.linux_reason.len : 0);
		break;
	case SFLOW_REC_TRANSIT:
		collect_out_str(o, "extendedType", "transit_delay");
		collect_out_u32(o, "transit_delay_nS", r->u.delay_ns);
		break;
	case SFLOW_REC_QUEUE_DEPTH:
		collect_out_str(o, "extendedType", "queue_depth");
		collect_out_u32(o, "queue_depth_bytes", r->u.depth);
		break;
	case SFLOW_REC_TIMESTAMP:
		collect_out_str(o, "extendedType", "timestamp");
		collect_out_u64(o, "timestamp_nS", r->u.timestamp_ns);
		break;
	case SFLOW_REC_BST_EGRESS_QUEUE:
		collect_out_str(o, "extendedType", "bst_egress_queue");
		collect_out_u32(o, "bst_egress_queue", r->u.queue);
		break;
	default:
		collect_out_unknown_body(o, r->length, r->body);
		break;
	}
	collect_out_end_object(o);
}

/* The "elements" array; prefix (sflowtool's "discarded_") applies to the
 * keys inside it, not to "elements" itself. */
static void print_records(struct collect_out *o, const struct sflow_sample *s, const char *prefix)
{
	o->sample_tag = s->tag;
	collect_out_begin_array(o, "elements");
	collect_out_set_prefix(o, prefix);
	for (uint32_t i = 0; i < s->nrecords; i++)
		print_record(o, s, &s->records[i]);
	collect_out_set_prefix(o, NULL);
	collect_out_end_array(o);
}

static void print_sample(struct collect_out *o, const struct sflow_sample *s)
{
	const char *name;

	collect_out_begin_object(o, NULL);
	collect_out_text(o, "startSample ----------------------");
	collect_out_tag(o, "sampleType_tag", s->tag);
	switch (s->kind) {
	case SFLOW_SMP_FLOW:
		collect_out_str(o, "sampleType", "FLOWSAMPLE");
		collect_out_u32(o, "sampleSequenceNo", s->h.flow.sequence_number);
		print_source(o, s->h.flow.source_id_type, s->h.flow.source_id_index);
		collect_out_u32(o, "meanSkipCount", s->h.flow.sampling_rate);
		collect_out_u32(o, "samplePool", s->h.flow.sample_pool);
		collect_out_u32(o, "dropEvents", s->h.flow.drops);
		print_port(o, "inputPort", s->h.flow.input_format, s->h.flow.input_value);
		print_port(o, "outputPort", s->h.flow.output_format, s->h.flow.output_value);
		print_records(o, s, NULL);
		break;
	case SFLOW_SMP_COUNTERS:
		collect_out_str(o, "sampleType", "COUNTERSSAMPLE");
		collect_out_u32(o, "sampleSequenceNo", s->h.counters.sequence_number);
		print_source(o, s->h.counters.source_id_type, s->h.counters.source_id_index);
		print_records(o, s, NULL);
		break;
	case SFLOW_SMP_DISCARD:
		collect_out_str(o, "sampleType", "DISCARD");
		collect_out_u32(o, "sampleSequenceNo", s->h.discard.sequence_number);
		print_source(o, s->h.discard.source_id_type, s->h.discard.source_id_index);
		collect_out_u32(o, "dropEvents", s->h.discard.drops);
		collect_out_u32(o, "inputPort", s->h.discard.input);
		collect_out_u32(o, "outputPort", s->h.discard.output);
		collect_out_u32(o, "discardCode", s->h.discard.reason);
		name = sflow_drop_name(s->h.discard.reason);
		collect_out_str(o, "discardReason", name ? name : "NotFound");
		print_records(o, s, "discarded_");
		break;
	case SFLOW_SMP_OWN:
		name = sflow_own_sample_name(SFLOW_TAG_FORMAT(s->tag));
		collect_out_str(o, "sampleType", name ? name : "OWN");
		collect_print_own_sample_fields(o, s);
		print_records(o, s, NULL);
		break;
	default:
		collect_out_str(o, "sampleType", "UNKNOWN");
		collect_out_unknown_body(o, s->length, s->body);
		break;
	}
	collect_out_text(o, "endSample   ----------------------");
	collect_out_end_object(o);
}

/* "localtime": the last second's text is kept, most datagrams share it. */
static void print_localtime(struct collect_out *o, int64_t sec)
{
	time_t t = (time_t)sec;
	struct tm tm;

	if (!o->lt_valid || o->lt_sec != sec) {
		o->lt_sec = sec;
		o->lt_len = 0;
		if (localtime_r(&t, &tm))
			o->lt_len =
			    strftime(o->lt_buf, sizeof(o->lt_buf), "%Y-%m-%dT%H:%M:%S%z", &tm);
		o->lt_valid = 1;
	}
	if (o->lt_len)
		collect_out_strn(o, "localtime", o->lt_buf, o->lt_len);
}

void collect_print_datagram(struct collect_out *o, const struct collect_rx *rx,
			    const struct sflow_datagram *d)
{
	collect_out_begin_datagram(o);
	collect_out_addr(o, "datagramSourceIP", &rx->src);
	collect_out_u64(o, "datagramSize", rx->size);
	collect_out_i64(o, "unixSecondsUTC", rx->unix_sec);
	print_localtime(o, rx->unix_sec);
	collect_out_u32(o, "datagramVersion", d->version);
	collect_out_u32(o, "agentSubId", d->sub_agent_id);
	collect_out_addr(o, "agent", &d->agent);
	collect_out_u32(o, "packetSequenceNo", d->sequence_number);
	collect_out_u32(o, "sysUpTime", d->uptime_ms);
	collect_out_u32(o, "samplesInPacket", d->nsamples);
	collect_out_begin_array(o, "samples");
	for (uint32_t i = 0; i < d->nsamples; i++)
		print_sample(o, &d->samples[i]);
	collect_out_end_array(o);
	collect_out_end_datagram(o);
}
