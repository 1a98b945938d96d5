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
 * ("bsf_queue_uc_3_peak_cells").  Values are printed as they are on the
 * wire (4294967295 and -1 are "unknown").  The list of keys is in
 * bsflowd-structures(7).
 */
#include <stdio.h>

#include "collector-test/print.h"
#include "proto/sflow_own.h"

static void print_buffer(struct collect_out *o, const char *obj, const struct sflow_own_buffer *b)
{
	char k[COLLECT_OUT_KEYMAX];

	snprintf(k, sizeof k, "%s_cur_cells", obj);
	collect_out_u32(o, k, b->cur_cells);
	snprintf(k, sizeof k, "%s_cur_bytes", obj);
	collect_out_u32(o, k, b->cur_bytes);
	snprintf(k, sizeof k, "%s_peak_cells", obj);
	collect_out_u32(o, k, b->peak_cells);
	snprintf(k, sizeof k, "%s_peak_bytes", obj);
	collect_out_u32(o, k, b->peak_bytes);
	snprintf(k, sizeof k, "%s_alloc_cells", obj);
	collect_out_u32(o, k, b->alloc_cells);
	snprintf(k, sizeof k, "%s_peak_pc", obj);
	collect_out_i64(o, k, b->peak_pc);
	snprintf(k, sizeof k, "%s_peak_time_ns", obj);
	collect_out_u64(o, k, b->peak_time_ns);
}

/* "<base>_count N", then each element as "<base>_<i>_...". */
static void print_buffers(struct collect_out *o, const char *base, const struct sflow_own_array *a)
{
	char k[COLLECT_OUT_KEYMAX];
	struct sflow_own_buffer b;

	snprintf(k, sizeof k, "%s_count", base);
	collect_out_u32(o, k, a->n);
	for (uint32_t i = 0; i < a->n; i++) {
		sflow_own_buffer_at(a, i, &b);
		snprintf(k, sizeof k, "%s_%u", base, i);
		print_buffer(o, k, &b);
	}
}

static void print_delays(struct collect_out *o, const char *base, const struct sflow_own_array *a)
{
	char k[COLLECT_OUT_KEYMAX];
	struct sflow_own_qdelay d;

	snprintf(k, sizeof k, "%s_count", base);
	collect_out_u32(o, k, a->n);
	for (uint32_t i = 0; i < a->n; i++) {
		sflow_own_qdelay_at(a, i, &d);
		snprintf(k, sizeof k, "%s_%u_latest_ns", base, i);
		collect_out_u32(o, k, d.latest_ns);
		snprintf(k, sizeof k, "%s_%u_max_ns", base, i);
		collect_out_u32(o, k, d.max_ns);
		snprintf(k, sizeof k, "%s_%u_measurements", base, i);
		collect_out_u32(o, k, d.count);
		snprintf(k, sizeof k, "%s_%u_marker_ns", base, i);
		collect_out_u32(o, k, d.marker_ns);
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
			snprintf(k, sizeof k, "bsf_pg_%u_shared", i);
			print_buffer(o, k, &pg.shared);
			snprintf(k, sizeof k, "bsf_pg_%u_headroom", i);
			print_buffer(o, k, &pg.headroom);
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
	default:
		collect_out_unknown_body(o, r->length, r->body);
		break;
	}
}

void collect_print_own_sample_fields(struct collect_out *o, const struct sflow_sample *s)
{
	/* No own sample type is defined yet (E:1, the visibility event
	 * sample, is reserved): say which one it is, nothing more. */
	collect_out_u32(o, "bsf_sample_format", SFLOW_TAG_FORMAT(s->tag));
}
