/*
 * table.c - the per-port table of bsflow-collect --table (see table.h).
 *
 * Rows live in a growing array in first-seen order and are found by a
 * linear search: a demo has a few hundred data sources at most.  Counters
 * samples replace a row's "last" figures (peak, delay) and advance its
 * discard deltas; discard samples add to the drop counts by reason of
 * the port the drop happened to (output, else input, else the sample's
 * data source: bsflowd sends them all on the device source 2:1).  Own
 * visibility event samples (E:1) count on the row of their data source,
 * which bsflowd sets to the event's egress port (the device when the port
 * is not known).  Rendering orders the rows by agent, then data source,
 * and prints the agent once above its rows to keep the lines short.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "collector/table.h"
#include "proto/sflow_drops.h"
#include "proto/sflow_own.h"

#define MAX_REASONS 16

struct trow {
	struct collect_table_row r;
	int have_ifc;
	uint32_t last_in_discards, last_out_discards;
	unsigned nreasons;
	struct {
		uint32_t code;
		uint64_t n;
	} reasons[MAX_REASONS];
};

struct collect_table {
	uint32_t ent;
	struct trow *rows;
	unsigned n, cap;
};

struct collect_table *collect_table_new(uint32_t own_enterprise)
{
	struct collect_table *t = calloc(1, sizeof *t);
	if (t)
		t->ent = own_enterprise ? own_enterprise : SFLOW_ENT_OWN_DEFAULT;
	return t;
}

void collect_table_free(struct collect_table *t)
{
	if (!t)
		return;
	free(t->rows);
	free(t);
}

unsigned collect_table_rows(const struct collect_table *t)
{
	return t->n;
}

int collect_table_row(const struct collect_table *t, unsigned i, struct collect_table_row *out)
{
	if (i >= t->n)
		return -1;
	*out = t->rows[i].r;
	return 0;
}

static int same_addr(const struct sflow_addr *a, const struct sflow_addr *b)
{
	size_t n = a->type == SFLOW_ADDR_IP6 ? 16 : 4;
	return a->type == b->type && memcmp(a->a, b->a, n) == 0;
}

static struct trow *get_row(struct collect_table *t, const struct sflow_datagram *d, uint32_t type,
			    uint32_t index)
{
	for (unsigned i = 0; i < t->n; i++) {
		struct collect_table_row *r = &t->rows[i].r;
		if (r->source_type == type && r->source_index == index &&
		    r->sub_agent_id == d->sub_agent_id && same_addr(&r->agent, &d->agent))
			return &t->rows[i];
	}
	if (t->n == t->cap) {
		unsigned cap = t->cap ? 2 * t->cap : 64;
		struct trow *rows = realloc(t->rows, cap * sizeof *rows);
		if (!rows)
			return NULL;
		t->rows = rows;
		t->cap = cap;
	}
	struct trow *w = &t->rows[t->n++];
	memset(w, 0, sizeof *w);
	w->r.agent = d->agent;
	w->r.sub_agent_id = d->sub_agent_id;
	w->r.source_type = type;
	w->r.source_index = index;
	w->r.peak_pc = -1;
	w->r.in_discards_delta = UINT64_MAX;
	w->r.out_discards_delta = UINT64_MAX;
	w->r.delay_max_ns = UINT64_MAX;
	return w;
}

/* The running maximum of one sample's percentages. */
struct peak {
	int32_t pc;
	char obj[16];
};

static void peak_see(struct peak *p, int32_t pc, const char *obj, int idx)
{
	if (pc <= p->pc)
		return;
	p->pc = pc;
	if (idx >= 0)
		snprintf(p->obj, sizeof p->obj, "%s%d", obj, idx);
	else
		snprintf(p->obj, sizeof p->obj, "%s", obj);
}

static void peak_buffers(struct peak *p, const struct sflow_own_array *a, const char *obj)
{
	struct sflow_own_buffer b;
	for (uint32_t i = 0; i < a->n; i++)
		if (sflow_own_buffer_at(a, i, &b) == 0)
			peak_see(p, b.peak_pc, obj, (int)i);
}

static void delay_see(uint64_t *max, char *q, size_t qn, uint32_t v, const char *kind, uint32_t i)
{
	if (v == SFLOW_OWN_UNKNOWN32)
		return;
	if (*max == UINT64_MAX || v > *max) {
		*max = v;
		snprintf(q, qn, "%s%u", kind, i);
	}
}

static void delays(struct trow *w, const struct sflow_own_queue_delays *qd)
{
	struct sflow_own_qdelay d;
	uint64_t max = UINT64_MAX;
	char q[16] = "";

	for (int mc = 0; mc < 2; mc++) {
		const struct sflow_own_array *a = mc ? &qd->mc : &qd->uc;
		for (uint32_t i = 0; i < a->n; i++) {
			if (sflow_own_qdelay_at(a, i, &d) != 0)
				continue;
			/* the non-tagged max when measured, else the marker delay */
			uint32_t v = d.max_ns != SFLOW_OWN_UNKNOWN32 && d.count != 0 &&
					     d.count != SFLOW_OWN_UNKNOWN32
					 ? d.max_ns
					 : d.marker_ns;
			delay_see(&max, q, sizeof q, v, mc ? "mc" : "uc", i);
		}
	}
	w->r.delay_max_ns = max;
	snprintf(w->r.delay_queue, sizeof w->r.delay_queue, "%s", q);
}

static void own_record(const struct sflow_own_record *o, struct peak *p, int *seen, struct trow *w)
{
	switch (o->format) {
	case SFLOW_OWN_PORT_BUFFERS:
		*seen = 1;
		peak_see(p, o->u.port.ingress_uc.peak_pc, "ingress_uc", -1);
		peak_see(p, o->u.port.ingress_mc.peak_pc, "ingress_mc", -1);
		peak_see(p, o->u.port.egress_uc.peak_pc, "egress_uc", -1);
		peak_see(p, o->u.port.egress_mc.peak_pc, "egress_mc", -1);
		break;
	case SFLOW_OWN_QUEUE_BUFFERS:
		*seen = 1;
		peak_buffers(p, &o->u.queues.uc, "uc");
		peak_buffers(p, &o->u.queues.mc, "mc");
		break;
	case SFLOW_OWN_QUEUE_DELAYS:
		delays(w, &o->u.delays);
		break;
	case SFLOW_OWN_PG_BUFFERS: {
		struct sflow_own_pg pg;
		*seen = 1;
		for (uint32_t i = 0; i < o->u.pgs.pgs.n; i++)
			if (sflow_own_pg_at(&o->u.pgs.pgs, i, &pg) == 0) {
				peak_see(p, pg.shared.peak_pc, "pg", (int)i);
				peak_see(p, pg.headroom.peak_pc, "pghr", (int)i);
			}
		break;
	}
	case SFLOW_OWN_DEVICE_POOLS:
		*seen = 1;
		peak_see(p, o->u.pools.uc.peak_pc, "device_uc", -1);
		peak_see(p, o->u.pools.mc.peak_pc, "device_mc", -1);
		peak_buffers(p, &o->u.pools.ingress, "ipool");
		peak_buffers(p, &o->u.pools.egress, "epool");
		break;
	case SFLOW_OWN_CPU_QUEUES:
		*seen = 1;
		peak_buffers(p, &o->u.cpu.queues, "cpu");
		break;
	default:
		break;
	}
}

static uint64_t delta32(uint32_t now, uint32_t before)
{
	return (uint32_t)(now - before);
}

static void counters_sample(struct collect_table *t, struct trow *w, const struct sflow_sample *s)
{
	struct peak p = {.pc = -1, .obj = ""};
	int seen = 0;

	w->r.counter_samples++;
	for (uint32_t i = 0; i < s->nrecords; i++) {
		const struct sflow_record *r = &s->records[i];
		switch (r->kind) {
		case SFLOW_REC_IF_COUNTERS: {
			uint32_t in = r->u.ifc.ifInDiscards, out = r->u.ifc.ifOutDiscards;
			if (w->have_ifc) {
				w->r.in_discards_delta =
				    in == SFLOW_COUNTER32_UNKNOWN ||
					    w->last_in_discards == SFLOW_COUNTER32_UNKNOWN
					? UINT64_MAX
					: delta32(in, w->last_in_discards);
				w->r.out_discards_delta =
				    out == SFLOW_COUNTER32_UNKNOWN ||
					    w->last_out_discards == SFLOW_COUNTER32_UNKNOWN
					? UINT64_MAX
					: delta32(out, w->last_out_discards);
			}
			w->have_ifc = 1;
			w->last_in_discards = in;
			w->last_out_discards = out;
			break;
		}
		case SFLOW_REC_PORT_NAME:
			snprintf(w->r.name, sizeof w->r.name, "%.63s", r->u.port_name.name);
			break;
		case SFLOW_REC_BST_PORT: {
			const struct sflow_bst_port *b = &r->u.bst_port;
			seen = 1;
			peak_see(&p, b->ingress_uc_pc, "ingress_uc", -1);
			peak_see(&p, b->ingress_mc_pc, "ingress_mc", -1);
			peak_see(&p, b->egress_uc_pc, "egress_uc", -1);
			peak_see(&p, b->egress_mc_pc, "egress_mc", -1);
			for (uint32_t q = 0; q < b->n_uc && q < SFLOW_BST_MAX_QUEUES; q++)
				peak_see(&p, b->egress_queue_uc_pc[q], "uc", (int)q);
			for (uint32_t q = 0; q < b->n_mc && q < SFLOW_BST_MAX_QUEUES; q++)
				peak_see(&p, b->egress_queue_mc_pc[q], "mc", (int)q);
			break;
		}
		case SFLOW_REC_BST_DEVICE:
			seen = 1;
			peak_see(&p, r->u.bst_device.uc_pc, "device_uc", -1);
			peak_see(&p, r->u.bst_device.mc_pc, "device_mc", -1);
			break;
		case SFLOW_REC_OWN:
			if (SFLOW_TAG_ENTERPRISE(r->tag) == t->ent)
				own_record(&r->u.own, &p, &seen, w);
			break;
		default:
			break;
		}
	}
	if (seen) {
		w->r.peak_pc = p.pc;
		snprintf(w->r.peak_obj, sizeof w->r.peak_obj, "%s", p.obj);
	}
}

static void discard_sample(struct trow *w, const struct sflow_sample *s)
{
	uint32_t code = s->h.discard.reason;
	unsigned i;

	w->r.drops++;
	for (i = 0; i < w->nreasons; i++)
		if (w->reasons[i].code == code)
			break;
	if (i == w->nreasons) {
		if (w->nreasons == MAX_REASONS)
			return; /* counted in drops, not by reason */
		w->reasons[w->nreasons].code = code;
		w->reasons[w->nreasons++].n = 0;
	}
	w->reasons[i].n++;
	if (w->reasons[i].n > w->r.top_reason_count) {
		w->r.top_reason_count = w->reasons[i].n;
		w->r.top_reason = code;
	}
}

/* One visibility event (the sample's first own visibility_event record;
 * other types, type 1 drop included, are not counted). */
static void event_sample(struct collect_table *t, struct trow *w, const struct sflow_sample *s)
{
	for (uint32_t i = 0; i < s->nrecords; i++) {
		const struct sflow_record *r = &s->records[i];
		if (r->kind != SFLOW_REC_OWN || SFLOW_TAG_ENTERPRISE(r->tag) != t->ent ||
		    r->u.own.format != SFLOW_OWN_VIS_EVENT)
			continue;
		switch (r->u.own.u.event.type) {
		case SFLOW_OWN_VIS_HIGH_DELAY:
			w->r.high_delay++;
			break;
		case SFLOW_OWN_VIS_FORENSICS:
			w->r.forensics++;
			break;
		case SFLOW_OWN_VIS_CONGESTION_START:
			w->r.congestion++;
			w->r.congestion_open++;
			break;
		case SFLOW_OWN_VIS_CONGESTION_END:
			/* the end of an episode whose start came before we
			 * listened (or was lost) still is an episode */
			if (w->r.congestion_open)
				w->r.congestion_open--;
			else
				w->r.congestion++;
			break;
		default:
			break;
		}
		return;
	}
}

int collect_table_add(struct collect_table *t, const struct sflow_datagram *d)
{
	int rc = 0;
	for (uint32_t i = 0; i < d->nsamples; i++) {
		const struct sflow_sample *s = &d->samples[i];
		struct trow *w;
		if (s->kind == SFLOW_SMP_COUNTERS) {
			w = get_row(t, d, s->h.counters.source_id_type,
				    s->h.counters.source_id_index);
			if (!w) {
				rc = -1;
				continue;
			}
			counters_sample(t, w, s);
		} else if (s->kind == SFLOW_SMP_DISCARD) {
			/* a drop counts on the port it happened to: the output
			 * port, else (dropped before one was chosen) the input
			 * port, else the sample's own data source */
			uint32_t port =
			    s->h.discard.output ? s->h.discard.output : s->h.discard.input;
			if (port)
				w = get_row(t, d, SFLOW_DS_IFINDEX, port);
			else
				w = get_row(t, d, s->h.discard.source_id_type,
					    s->h.discard.source_id_index);
			if (!w) {
				rc = -1;
				continue;
			}
			discard_sample(w, s);
		} else if (s->kind == SFLOW_SMP_OWN && SFLOW_TAG_ENTERPRISE(s->tag) == t->ent &&
			   s->h.own.format == SFLOW_OWN_SMP_EVENT) {
			w = get_row(t, d, s->h.own.u.event.source_id_type,
				    s->h.own.u.event.source_id_index);
			if (!w) {
				rc = -1;
				continue;
			}
			event_sample(t, w, s);
		}
	}
	return rc;
}

static void fmt_u64(char *buf, size_t n, uint64_t v)
{
	if (v == UINT64_MAX)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%" PRIu64, v);
}

/* Queue delay in microseconds with one decimal (rounded down). */
static void fmt_delay(char *buf, size_t n, uint64_t ns)
{
	if (ns == UINT64_MAX)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%" PRIu64 ".%" PRIu64, ns / 1000, ns % 1000 / 100);
}

/* Append " <letter><count><mark>" to the events cell (nothing for 0);
 * large counts in thousands or millions, rounded down. */
static void events_part(char *buf, size_t n, size_t *len, char letter, uint64_t v, const char *mark)
{
	const char *unit = "";
	int k;

	if (v == 0 || *len + 1 >= n)
		return;
	if (v >= 10000000) {
		v /= 1000000;
		unit = "M";
	} else if (v >= 10000) {
		v /= 1000;
		unit = "k";
	}
	k = snprintf(buf + *len, n - *len, "%s%c%" PRIu64 "%s%s", *len ? " " : "", letter, v, unit,
		     mark);
	if (k > 0)
		*len = *len + (size_t)k < n ? *len + (size_t)k : n - 1;
}

/* The EVENTS cell: "C3* D120 F5" (see table.h), "-" when none. */
static void fmt_events(char *buf, size_t n, const struct collect_table_row *r)
{
	size_t len = 0;

	buf[0] = '\0';
	events_part(buf, n, &len, 'C', r->congestion, r->congestion_open ? "*" : "");
	events_part(buf, n, &len, 'D', r->high_delay, "");
	events_part(buf, n, &len, 'F', r->forensics, "");
	if (len == 0)
		snprintf(buf, n, "-");
}

static int same_agent(const struct collect_table_row *a, const struct collect_table_row *b)
{
	return a->sub_agent_id == b->sub_agent_id && same_addr(&a->agent, &b->agent);
}

/* Row order for rendering: agent, sub-agent, the device (type 2) before
 * the ports, then by index. */
static int row_cmp(const void *pa, const void *pb)
{
	const struct collect_table_row *a = *(const struct collect_table_row *const *)pa;
	const struct collect_table_row *b = *(const struct collect_table_row *const *)pb;
	int c;

	if (a->agent.type != b->agent.type)
		return a->agent.type < b->agent.type ? -1 : 1;
	c = memcmp(a->agent.a, b->agent.a, sizeof a->agent.a);
	if (c)
		return c;
	if (a->sub_agent_id != b->sub_agent_id)
		return a->sub_agent_id < b->sub_agent_id ? -1 : 1;
	if (a->source_type != b->source_type)
		return a->source_type > b->source_type ? -1 : 1;
	if (a->source_index != b->source_index)
		return a->source_index < b->source_index ? -1 : 1;
	return 0;
}

void collect_table_render(const struct collect_table *t, FILE *fp, int clear)
{
	const struct collect_table_row **order = malloc((t->n ? t->n : 1) * sizeof *order);
	const struct collect_table_row *prev = NULL;

	if (order) {
		for (unsigned i = 0; i < t->n; i++)
			order[i] = &t->rows[i].r;
		qsort(order, t->n, sizeof *order, row_cmp);
	}
	if (clear)
		fputs("\033[H\033[2J", fp);
	fprintf(fp, "%-6s %-9s %6s %-10s %7s %8s %5s %-15s %8s %-3s %s\n", "SOURCE", "NAME",
		"PEAK%", "PEAK_AT", "IN_DISC", "OUT_DISC", "DROPS", "TOP_REASON", "DELAY_US", "Q",
		"EVENTS");
	for (unsigned i = 0; i < t->n; i++) {
		const struct collect_table_row *r = order ? order[i] : &t->rows[i].r;
		char agent[INET6_ADDRSTRLEN] = "-", src[16], pc[16], ind[24], outd[24], delay[24],
		     reason[24], events[64];

		if (!prev || !same_agent(prev, r)) {
			if (r->agent.type == SFLOW_ADDR_IP4)
				inet_ntop(AF_INET, r->agent.a, agent, sizeof agent);
			else if (r->agent.type == SFLOW_ADDR_IP6)
				inet_ntop(AF_INET6, r->agent.a, agent, sizeof agent);
			if (r->sub_agent_id)
				fprintf(fp, "agent %s sub-agent %u\n", agent, r->sub_agent_id);
			else
				fprintf(fp, "agent %s\n", agent);
		}
		prev = r;
		snprintf(src, sizeof src, "%u:%u", r->source_type, r->source_index);
		if (r->peak_pc >= 0)
			snprintf(pc, sizeof pc, "%d.%02d", r->peak_pc / 100, r->peak_pc % 100);
		else
			snprintf(pc, sizeof pc, "-");
		fmt_u64(ind, sizeof ind, r->in_discards_delta);
		fmt_u64(outd, sizeof outd, r->out_discards_delta);
		fmt_delay(delay, sizeof delay, r->delay_max_ns);
		fmt_events(events, sizeof events, r);
		/* which object or queue: only when there is something to name */
		const char *at = r->peak_pc > 0 && r->peak_obj[0] ? r->peak_obj : "-";
		const char *q =
		    r->delay_max_ns != UINT64_MAX && r->delay_max_ns > 0 && r->delay_queue[0]
			? r->delay_queue
			: "-";
		if (r->drops) {
			const char *nm = sflow_drop_name(r->top_reason);
			if (nm)
				snprintf(reason, sizeof reason, "%.23s", nm);
			else
				snprintf(reason, sizeof reason, "%u", r->top_reason);
		} else {
			snprintf(reason, sizeof reason, "-");
		}
		fprintf(fp, "%-6s %-9.9s %6s %-10s %7s %8s %5" PRIu64 " %-15.15s %8s %-3s %s\n",
			src, r->name[0] ? r->name : "-", pc, at, ind, outd, r->drops, reason, delay,
			q, events);
	}
	free(order);
	fflush(fp);
}
