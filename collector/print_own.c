/*
 * print_own.c - print bsflowd's own sFlow structures (sflow_own.h) in
 * bsflow-collect's output, by name (see print.h for when these are
 * called).
 *
 * Keys are flat, in the sflowtool manner, so that the text output stays
 * one unambiguous "key value" line per field and the JSON output has the
 * same names: every record first gets "bsf_record <name>", then its fields
 * prefixed "bsf_".  A buffer object prints seven fields <obj>_cur_cells,
 * _cur_bytes, _peak_cells, _peak_bytes, _alloc_cells, _peak_pc and
 * _peak_time_ns; array elements put their index in the key
 * ("bsf_queue_uc_3_peak_cells", "bsf_sampler_0_seen").  Values are
 * printed as they are on the wire (4294967295 and -1 are "unknown").  The
 * visibility event sample prints its header with the keys of a discard
 * sample (sampleSequenceNo, sourceId, dropEvents, inputPort, outputPort);
 * its visibility_event record prints bsf_event_type by name.  The list of
 * keys is in bsflowd-structures(7).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "collector/print.h"
#include "proto/sflow_drops.h"
#include "proto/sflow_own.h"

/* Keys are composed by hand (no printf on the hot path), cut to fit k like
 * snprintf would: kcat "<a><b>", kcatu "<a><sep><i><b><c>". */
static size_t kput(char *k, size_t size, size_t n, const char *s)
{
	while (*s && n + 1 < size)
		k[n++] = *s++;
	k[n] = '\0';
	return n;
}

static const char *kcat(char *k, size_t size, const char *a, const char *b)
{
	kput(k, size, kput(k, size, 0, a), b);
	return k;
}

static const char *kcatu(char *k, const char *a, const char *sep, uint32_t i, const char *b,
			 const char *c)
{
	char d[11];
	size_t j = sizeof d - 1, n;

	d[j] = '\0';
	do {
		d[--j] = (char)('0' + i % 10);
		i /= 10;
	} while (i);
	n = kput(k, COLLECT_OUT_KEYMAX, 0, a);
	n = kput(k, COLLECT_OUT_KEYMAX, n, sep);
	n = kput(k, COLLECT_OUT_KEYMAX, n, d + j);
	n = kput(k, COLLECT_OUT_KEYMAX, n, b);
	kput(k, COLLECT_OUT_KEYMAX, n, c);
	return k;
}

static void print_buffer(struct collect_out *o, const char *obj, const struct sflow_own_buffer *b)
{
	char k[COLLECT_OUT_KEYMAX];
	size_t n = kput(k, sizeof k, 0, obj);

	/* the object's name once, each field's suffix after it */
	collect_out_u32_k(o, k, kput(k, sizeof k, n, "_cur_cells"), b->cur_cells);
	collect_out_u32_k(o, k, kput(k, sizeof k, n, "_cur_bytes"), b->cur_bytes);
	collect_out_u32_k(o, k, kput(k, sizeof k, n, "_peak_cells"), b->peak_cells);
	collect_out_u32_k(o, k, kput(k, sizeof k, n, "_peak_bytes"), b->peak_bytes);
	collect_out_u32_k(o, k, kput(k, sizeof k, n, "_alloc_cells"), b->alloc_cells);
	collect_out_i64_k(o, k, kput(k, sizeof k, n, "_peak_pc"), b->peak_pc);
	collect_out_u64_k(o, k, kput(k, sizeof k, n, "_peak_time_ns"), b->peak_time_ns);
}

/* "<base>_count N", then each element as "<base>_<i>_...". */
static void print_buffers(struct collect_out *o, const char *base, const struct sflow_own_array *a)
{
	char k[COLLECT_OUT_KEYMAX];
	struct sflow_own_buffer b;

	collect_out_u32(o, kcat(k, sizeof k, base, "_count"), a->n);
	for (uint32_t i = 0; i < a->n; i++) {
		sflow_own_buffer_at(a, i, &b);
		print_buffer(o, kcatu(k, base, "_", i, "", ""), &b);
	}
}

static void print_delays(struct collect_out *o, const char *base, const struct sflow_own_array *a)
{
	char k[COLLECT_OUT_KEYMAX];
	struct sflow_own_qdelay d;

	collect_out_u32(o, kcat(k, sizeof k, base, "_count"), a->n);
	for (uint32_t i = 0; i < a->n; i++) {
		sflow_own_qdelay_at(a, i, &d);
		collect_out_u32(o, kcatu(k, base, "_", i, "_latest_ns", ""), d.latest_ns);
		collect_out_u32(o, kcatu(k, base, "_", i, "_max_ns", ""), d.max_ns);
		collect_out_u32(o, kcatu(k, base, "_", i, "_measurements", ""), d.count);
		collect_out_u32(o, kcatu(k, base, "_", i, "_marker_ns", ""), d.marker_ns);
	}
}

static void print_vis_event(struct collect_out *o, const struct sflow_own_vis_event *e)
{
	const char *name = sflow_own_vis_type_name(e->type);

	collect_out_str(o, "bsf_event_type", name ? name : "unknown");
	collect_out_u32(o, "bsf_event_type_code", e->type);
	collect_out_u32(o, "bsf_event_flags", e->flags);
	collect_out_u32(o, "bsf_level", e->level);
	collect_out_u32(o, "bsf_severity", e->severity);
	collect_out_u32(o, "bsf_tag", e->tag);
	collect_out_u64(o, "bsf_event_id", e->event_id);
	collect_out_u64(o, "bsf_own_id", e->own_id);
	collect_out_u32(o, "bsf_queue", e->queue);
	collect_out_u32(o, "bsf_reason", e->reason);
	if (e->type == SFLOW_OWN_VIS_FORENSICS || e->type == SFLOW_OWN_VIS_DROP) {
		name = sflow_drop_name(e->reason);
		collect_out_str(o, "bsf_reason_name", name ? name : "NotFound");
	}
	collect_out_u32(o, "bsf_depth_bytes", e->depth);
	collect_out_u32(o, "bsf_delay_ns", e->delay);
	collect_out_u32(o, "bsf_peak_bytes", e->peak);
	collect_out_u64(o, "bsf_peak_time_ns", e->peak_time_ns);
	collect_out_u64(o, "bsf_duration_ns", e->duration_ns);
}

/* One field of sampler i: "bsf_sampler_<i>_<field>". */
static const char *sampler_key(char *k, uint32_t i, const char *field)
{
	return kcatu(k, "bsf_sampler", "_", i, "_", field);
}

/* "bsf_sampler_count N", then each sampler as "bsf_sampler_<i>_...". */
static void print_samplers(struct collect_out *o, const struct sflow_own_sampler_stats *a)
{
	char k[COLLECT_OUT_KEYMAX], field[32];
	uint64_t rej[SFLOW_OWN_SAMPLER_REJECTS];
	struct sflow_own_sampler_stat st;
	uint32_t pos = 0;

	collect_out_u32(o, "bsf_sampler_count", a->n);
	for (uint32_t i = 0; i < a->n && sflow_own_sampler_next(a, &pos, &st) == 0; i++) {
		sflow_own_sampler_rejects(&st, rej);
		collect_out_strn(o, sampler_key(k, i, "name"), st.name, strlen(st.name));
		collect_out_u64(o, sampler_key(k, i, "seen"), st.seen);
		collect_out_u64(o, sampler_key(k, i, "passed"), st.passed);
		for (uint32_t j = 0; j < SFLOW_OWN_SAMPLER_REJECTS; j++) {
			kcat(field, sizeof field, "rejected_", sflow_own_sampler_reject_name(j));
			collect_out_u64(o, sampler_key(k, i, field), rej[j]);
		}
		collect_out_i64(o, sampler_key(k, i, "ticket_balance"), st.ticket_balance);
		collect_out_u32(o, sampler_key(k, i, "ticket_batch"), st.ticket_batch);
		collect_out_u64(o, sampler_key(k, i, "consumed_all"), st.consumed_all);
	}
}

static void print_iarb(struct collect_out *o, const struct sflow_own_iarb *a)
{
	char k[COLLECT_OUT_KEYMAX];

	collect_out_u64(o, "bsf_iarb_accelerated", a->accelerated);
	collect_out_u64(o, "bsf_iarb_not_accelerated", a->not_accelerated);
	collect_out_u64(o, "bsf_iarb_dropped", a->dropped);
	for (uint32_t i = 0; i < SFLOW_OWN_IARB_CAUSES; i++) {
		snprintf(k, sizeof k, "bsf_iarb_cause_%s", sflow_own_iarb_cause_name(i));
		collect_out_u64(o, k, a->by_cause[i]);
	}
	collect_out_u64(o, "bsf_iarb_transitions", a->transitions);
	collect_out_u64(o, "bsf_iarb_congested_ns", a->congested_ns);
	collect_out_u32(o, "bsf_iarb_congested", a->congested);
	collect_out_u32(o, "bsf_iarb_am_cur", a->am_cur);
	collect_out_u32(o, "bsf_iarb_am_peak", a->am_peak);
	collect_out_i64(o, "bsf_iarb_am_cur_pc", a->am_cur_pc);
	collect_out_i64(o, "bsf_iarb_am_peak_pc", a->am_peak_pc);
	collect_out_u32(o, "bsf_iarb_am_lat_min", a->am_lat_min);
	collect_out_u32(o, "bsf_iarb_am_lat_mean", a->am_lat_mean);
	collect_out_u32(o, "bsf_iarb_am_lat_max", a->am_lat_max);
	collect_out_u32(o, "bsf_iarb_pb_lat_min", a->pb_lat_min);
	collect_out_u32(o, "bsf_iarb_pb_lat_mean", a->pb_lat_mean);
	collect_out_u32(o, "bsf_iarb_pb_lat_max", a->pb_lat_max);
}

static void print_regions(struct collect_out *o, const struct sflow_own_flow_regions *f)
{
	char k[COLLECT_OUT_KEYMAX];
	struct sflow_own_region g;

	collect_out_str(o, "bsf_region_unit", f->unit == 1 ? "packets" : "bytes");
	collect_out_u32(o, "bsf_region_total", f->total);
	collect_out_u32(o, "bsf_region_count", f->regions.n);
	for (uint32_t i = 0; i < f->regions.n; i++) {
		sflow_own_region_at(&f->regions, i, &g);
#define RK(name) (snprintf(k, sizeof k, "bsf_region_%u_" name, i), k)
		collect_out_u32(o, RK("region"), g.region);
		collect_out_u32(o, RK("cur"), g.cur);
		collect_out_u32(o, RK("peak"), g.peak);
		collect_out_u32(o, RK("bound"), g.bound);
		collect_out_i64(o, RK("cur_pc"), g.cur_pc);
		collect_out_i64(o, RK("peak_pc"), g.peak_pc);
		collect_out_u32(o, RK("state"), g.state);
		collect_out_u32(o, RK("flags"), g.flags);
		collect_out_u64(o, RK("admitted"), g.admitted);
		collect_out_u64(o, RK("dropped"), g.dropped);
		collect_out_u64(o, RK("mirrored"), g.mirrored);
#undef RK
	}
}

/* "<base>_count N", then each queue as "<base>_<i>_packets" and
 * "_bytes". */
static void print_qdrops(struct collect_out *o, const char *base, const struct sflow_own_array *a)
{
	char k[COLLECT_OUT_KEYMAX];
	struct sflow_own_qdrop d;

	collect_out_u32(o, kcat(k, sizeof k, base, "_count"), a->n);
	for (uint32_t i = 0; i < a->n; i++) {
		sflow_own_qdrop_at(a, i, &d);
		collect_out_u64(o, kcatu(k, base, "_", i, "_packets", ""), d.packets);
		collect_out_u64(o, kcatu(k, base, "_", i, "_bytes", ""), d.bytes);
	}
}

/* One field of drop counter i: "bsf_drop_counter_<i>_<field>". */
static const char *dropctr_key(char *k, uint32_t i, const char *field)
{
	return kcatu(k, "bsf_drop_counter", "_", i, "_", field);
}

static void print_dropctrs(struct collect_out *o, const struct sflow_own_drop_counters *a)
{
	char k[COLLECT_OUT_KEYMAX];
	struct sflow_own_drop_counter c;
	const char *name;
	uint32_t pos = 0;

	collect_out_u32(o, "bsf_drop_counter_count", a->n);
	for (uint32_t i = 0; i < a->n && sflow_own_drop_counter_next(a, &pos, &c) == 0; i++) {
		collect_out_strn(o, dropctr_key(k, i, "name"), c.name, strlen(c.name));
		collect_out_strn(o, dropctr_key(k, i, "alias"), c.alias, strlen(c.alias));
		collect_out_str(o, dropctr_key(k, i, "direction"),
				sflow_own_direction_name(c.direction));
		collect_out_u32(o, dropctr_key(k, i, "reason"), c.reason);
		name = c.reason == SFLOW_OWN_UNKNOWN32 ? "unknown" : sflow_drop_name(c.reason);
		collect_out_str(o, dropctr_key(k, i, "reason_name"), name ? name : "NotFound");
		collect_out_u64(o, dropctr_key(k, i, "packets"), c.packets);
		collect_out_strn(o, dropctr_key(k, i, "reasons"), c.reasons, strlen(c.reasons));
	}
}

/* "bsf_sojourn_count N", then each queue's histogram as
 * "bsf_sojourn_<i>_queue", _unmeasured, _first, _buckets and
 * "bsf_sojourn_<i>_bucket_<b>" for each bucket b it carries. */
static void print_sojourns(struct collect_out *o, const struct sflow_own_sojourns *a)
{
	char k[COLLECT_OUT_KEYMAX], b[24];
	struct sflow_own_sojourn h;
	uint32_t pos = 0;

	collect_out_u32(o, "bsf_sojourn_count", a->n);
	for (uint32_t i = 0; i < a->n && sflow_own_sojourn_next(a, &pos, &h) == 0; i++) {
		collect_out_u32(o, kcatu(k, "bsf_sojourn", "_", i, "_queue", ""), h.queue);
		collect_out_u32(o, kcatu(k, "bsf_sojourn", "_", i, "_unmeasured", ""),
				h.unmeasured);
		collect_out_u32(o, kcatu(k, "bsf_sojourn", "_", i, "_first", ""), h.first);
		collect_out_u32(o, kcatu(k, "bsf_sojourn", "_", i, "_buckets", ""), h.n);
		for (uint32_t j = 0; j < h.n; j++) {
			kcatu(b, "_bucket", "_", h.first + j, "", "");
			collect_out_u32(o, kcatu(k, "bsf_sojourn", "_", i, b, ""), h.counts[j]);
		}
	}
}

/* E:2 in a 0:5: the flow region that dropped the packet. */
static void print_region_drop(struct collect_out *o, const struct sflow_own_region_drop *d)
{
	const char *cause = sflow_own_region_cause_name(d->cause);

	collect_out_u32(o, "bsf_drop_region", d->region);
	if (cause)
		collect_out_str(o, "bsf_drop_region_cause", cause);
	else
		collect_out_u32(o, "bsf_drop_region_cause", d->cause);
	collect_out_str(o, "bsf_drop_region_unit", d->unit == 1 ? "packets" : "bytes");
	collect_out_u32(o, "bsf_drop_region_pc", d->region_pc);
	collect_out_u32(o, "bsf_drop_region_ingress_pc", d->ingress_pc);
	collect_out_u32(o, "bsf_drop_region_egress_pc", d->egress_pc);
	collect_out_u32(o, "bsf_drop_region_count", d->count);
	collect_out_u32(o, "bsf_drop_region_bound", d->bound);
}

/* E:13: CE marks per queue. */
static void print_queue_ecn(struct collect_out *o, const char *prefix,
			    const struct sflow_own_array *a)
{
	char k[COLLECT_OUT_KEYMAX];
	uint64_t v;

	for (uint32_t i = 0; i < a->n; i++) {
		sflow_own_u64_at(a, i, &v);
		collect_out_u64(o, kcatu(k, prefix, "_", i, "", ""), v);
	}
}

void collect_print_own_record(struct collect_out *o, const struct sflow_record *r)
{
	const char *name = NULL;

	if (r->kind == SFLOW_REC_OWN)
		name = sflow_own_record_name(r->u.own.format, o->sample_tag);
	if (r->kind != SFLOW_REC_OWN || !name) {
		collect_out_str(o, "bsf_record", "unknown");
		collect_out_unknown_body(o, r->length, r->body);
		return;
	}
	collect_out_str(o, "bsf_record", name);

	const struct sflow_own_record *own = &r->u.own;
	if (o->sample_tag == SFLOW_SAMPLE_DISCARD ||
	    (SFLOW_TAG_FORMAT(o->sample_tag) == SFLOW_OWN_SMP_EVENT &&
	     SFLOW_TAG_ENTERPRISE(o->sample_tag) == SFLOW_TAG_ENTERPRISE(r->tag))) {
		/* the own sample's and 0:5's records: a numbering of their own */
		if (own->format == SFLOW_OWN_VIS_EVENT)
			print_vis_event(o, &own->u.event);
		else if (own->format == SFLOW_OWN_REGION_DROP)
			print_region_drop(o, &own->u.region_drop);
		else
			collect_out_unknown_body(o, r->length, r->body);
		return;
	}
	switch (own->format) {
	case SFLOW_OWN_PORT_BUFFERS:
		print_buffer(o, "bsf_ingress_uc", &own->u.port.ingress_uc);
		print_buffer(o, "bsf_ingress_mc", &own->u.port.ingress_mc);
		print_buffer(o, "bsf_egress_uc", &own->u.port.egress_uc);
		print_buffer(o, "bsf_egress_mc", &own->u.port.egress_mc);
		break;
	case SFLOW_OWN_QUEUE_BUFFERS:
		print_buffers(o, "bsf_queue_uc", &own->u.queues.uc);
		print_buffers(o, "bsf_queue_mc", &own->u.queues.mc);
		break;
	case SFLOW_OWN_QUEUE_DELAYS:
		print_delays(o, "bsf_delay_uc", &own->u.delays.uc);
		print_delays(o, "bsf_delay_mc", &own->u.delays.mc);
		break;
	case SFLOW_OWN_PG_BUFFERS: {
		char k[COLLECT_OUT_KEYMAX];
		struct sflow_own_pg pg;
		collect_out_u32(o, "bsf_pg_count", own->u.pgs.pgs.n);
		for (uint32_t i = 0; i < own->u.pgs.pgs.n; i++) {
			sflow_own_pg_at(&own->u.pgs.pgs, i, &pg);
			print_buffer(o, kcatu(k, "bsf_pg", "_", i, "_shared", ""), &pg.shared);
			print_buffer(o, kcatu(k, "bsf_pg", "_", i, "_headroom", ""), &pg.headroom);
		}
		break;
	}
	case SFLOW_OWN_DEVICE_POOLS:
		collect_out_u32(o, "bsf_cell_bytes", own->u.pools.cell_bytes);
		collect_out_u32(o, "bsf_total_cells", own->u.pools.total_cells);
		print_buffer(o, "bsf_device_uc", &own->u.pools.uc);
		print_buffer(o, "bsf_device_mc", &own->u.pools.mc);
		print_buffers(o, "bsf_ingress_pool", &own->u.pools.ingress);
		print_buffers(o, "bsf_egress_pool", &own->u.pools.egress);
		break;
	case SFLOW_OWN_CPU_QUEUES:
		print_buffers(o, "bsf_cpu_queue", &own->u.cpu.queues);
		break;
	case SFLOW_OWN_SAMPLER_STATS:
		print_samplers(o, &own->u.samplers);
		break;
	case SFLOW_OWN_INGRESS_ARB:
		print_iarb(o, &own->u.iarb);
		break;
	case SFLOW_OWN_FLOW_REGIONS:
		print_regions(o, &own->u.regions);
		break;
	case SFLOW_OWN_QUEUE_DROPS:
		print_qdrops(o, "bsf_queue_drop_uc", &own->u.qdrops.uc);
		print_qdrops(o, "bsf_queue_drop_mc", &own->u.qdrops.mc);
		break;
	case SFLOW_OWN_DROP_COUNTERS:
		print_dropctrs(o, &own->u.dropctrs);
		break;
	case SFLOW_OWN_SOJOURN_HISTS:
		print_sojourns(o, &own->u.sojourns);
		break;
	case SFLOW_OWN_QUEUE_ECN:
		print_queue_ecn(o, "bsf_ecn_uc", &own->u.ecn.uc);
		print_queue_ecn(o, "bsf_ecn_mc", &own->u.ecn.mc);
		break;
	default:
		collect_out_unknown_body(o, r->length, r->body);
		break;
	}
}

void collect_print_own_sample_fields(struct collect_out *o, const struct sflow_sample *s)
{
	const struct sflow_own_event_sample *h = &s->h.own.u.event;

	if (s->h.own.format != SFLOW_OWN_SMP_EVENT) {
		/* a sample type proto/ decoded but this file does not know */
		collect_out_u32(o, "bsf_sample_format", SFLOW_TAG_FORMAT(s->tag));
		return;
	}
	collect_out_u32(o, "sampleSequenceNo", h->sequence_number);
	collect_out_u32_pair(o, "sourceId", h->source_id_type, h->source_id_index);
	collect_out_u32(o, "dropEvents", h->drops);
	collect_out_u32(o, "inputPort", h->input);
	collect_out_u32(o, "outputPort", h->output);
}
