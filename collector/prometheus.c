/*
 * prometheus.c - the metrics bsflow-collect serves to Prometheus: one
 * table of metric families, series keyed by family and label text in a
 * hash table, filled from each decoded datagram and rendered on request
 * (see prometheus.h; names and labels in bsflow-collect(1)).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "collector/output.h"
#include "collector/prometheus.h"
#include "proto/sflow_drops.h"

enum mtype { GAUGE, COUNTER };

/* Counter families are named without "_total" here; the samples carry it. */
static const struct mdef {
	const char *name, *help, *unit;
	enum mtype type;
} mdefs[] = {
#define M_DATAGRAMS 0
    {"bsflow_datagrams", "sFlow datagrams received from the agent", "", COUNTER},
#define M_SEQ_GAPS 1
    {"bsflow_datagram_sequence_gaps", "datagrams missing in the agent's datagram sequence numbers",
     "", COUNTER},
#define M_MALFORMED 2
    {"bsflow_malformed_datagrams", "datagrams that did not decode", "", COUNTER},
#define M_BST_DEVICE 3
    {"bsflow_bst_device_peak_ratio",
     "device buffer peak of the last counters sample, as a fraction of the buffer (4413:1)",
     "ratio", GAUGE},
#define M_BST_PORT 4
    {"bsflow_bst_port_peak_ratio",
     "port buffer peak of the last counters sample, as a fraction of the buffer (4413:2)", "ratio",
     GAUGE},
#define M_BST_QUEUE 5
    {"bsflow_bst_queue_peak_ratio",
     "egress queue buffer peak of the last counters sample, as a fraction of the buffer (4413:2)",
     "ratio", GAUGE},
#define M_PORT_PEAK 6
    {"bsflow_port_buffer_peak_bytes", "port buffer peak in the last polling interval", "bytes",
     GAUGE},
#define M_PORT_CUR 7
    {"bsflow_port_buffer_bytes", "port buffer use when polled", "bytes", GAUGE},
#define M_QUEUE_PEAK 8
    {"bsflow_queue_buffer_peak_bytes", "queue buffer peak in the last polling interval", "bytes",
     GAUGE},
#define M_QUEUE_CUR 9
    {"bsflow_queue_buffer_bytes", "queue buffer use when polled", "bytes", GAUGE},
#define M_QDELAY 10
    {"bsflow_queue_delay_seconds", "latest queue delay measured", "seconds", GAUGE},
#define M_QDELAY_MAX 11
    {"bsflow_queue_delay_max_seconds", "largest queue delay in the last polling interval",
     "seconds", GAUGE},
#define M_IF_IN_BYTES 12
    {"bsflow_interface_receive_bytes", "ifInOctets (0:1)", "bytes", COUNTER},
#define M_IF_OUT_BYTES 13
    {"bsflow_interface_transmit_bytes", "ifOutOctets (0:1)", "bytes", COUNTER},
#define M_IF_IN_DISCARDS 14
    {"bsflow_interface_receive_discards", "ifInDiscards (0:1)", "", COUNTER},
#define M_IF_OUT_DISCARDS 15
    {"bsflow_interface_transmit_discards", "ifOutDiscards (0:1)", "", COUNTER},
#define M_IF_IN_ERRORS 16
    {"bsflow_interface_receive_errors", "ifInErrors (0:1)", "", COUNTER},
#define M_IF_OUT_ERRORS 17
    {"bsflow_interface_transmit_errors", "ifOutErrors (0:1)", "", COUNTER},
#define M_IF_UP 18
    {"bsflow_interface_oper_up", "1 when ifStatus says operationally up (0:1)", "", GAUGE},
#define M_FLOW_SAMPLES 19
    {"bsflow_flow_samples", "flow samples received", "", COUNTER},
#define M_DROP_NOTIFS 20
    {"bsflow_drop_notifications", "drop notifications (0:5) received, by reason", "", COUNTER},
#define M_EVENT_SAMPLES 21
    {"bsflow_visibility_events", "visibility event samples received, by type", "", COUNTER},
#define M_SAMPLER_SEEN 22
    {"bsflow_sampler_events_seen", "events seen by the agent's sampler (E:7)", "", COUNTER},
#define M_SAMPLER_PASSED 23
    {"bsflow_sampler_events_passed", "events passed by the agent's sampler (E:7)", "", COUNTER},
#define M_SAMPLER_REJECTED 24
    {"bsflow_sampler_events_rejected", "events rejected by the agent's sampler, by reason (E:7)",
     "", COUNTER},
#define M_SERIES 25
    {"bsflow_exporter_series", "series this exporter holds", "", GAUGE},
#define M_REFUSED 26
    {"bsflow_exporter_series_refused", "new series refused because the cap was reached", "",
     COUNTER},
};
#define NDEFS (sizeof mdefs / sizeof mdefs[0])

#define LABELS_MAX 160

struct series {
	uint32_t def;
	char labels[LABELS_MAX]; /* agent="..",source=".." */
	double value;
	double updated;
	uint64_t hash;
};

struct agent_seq {
	struct sflow_addr addr;
	uint32_t sub_agent;
	uint32_t last;
	double updated;
};

struct collect_prom {
	pthread_mutex_t mu;
	uint32_t ent;
	double expire;
	size_t max;
	struct series *s;
	size_t n;
	size_t *slots; /* hash table: index + 1, 0 empty */
	size_t nslots;
	uint64_t refused, malformed;
	struct agent_seq *agents;
	size_t nagents;
};

static uint64_t hash_key(uint32_t def, const char *labels)
{
	uint64_t h = 1469598103934665603ull ^ def;

	for (; *labels; labels++)
		h = (h ^ (unsigned char)*labels) * 1099511628211ull;
	return h;
}

static void rehash(struct collect_prom *p)
{
	memset(p->slots, 0, p->nslots * sizeof *p->slots);
	for (size_t i = 0; i < p->n; i++) {
		size_t k = p->s[i].hash & (p->nslots - 1);

		while (p->slots[k])
			k = (k + 1) & (p->nslots - 1);
		p->slots[k] = i + 1;
	}
}

struct collect_prom *collect_prom_new(uint32_t own_enterprise, double expire_s, size_t max_series)
{
	struct collect_prom *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->ent = own_enterprise;
	p->expire = expire_s;
	p->max = max_series;
	p->nslots = 16;
	while (p->nslots < 2 * max_series + 2)
		p->nslots *= 2;
	p->s = calloc(max_series ? max_series : 1, sizeof *p->s);
	p->slots = calloc(p->nslots, sizeof *p->slots);
	if (!p->s || !p->slots) {
		collect_prom_free(p);
		return NULL;
	}
	pthread_mutex_init(&p->mu, NULL);
	return p;
}

void collect_prom_free(struct collect_prom *p)
{
	if (!p)
		return;
	if (p->slots)
		pthread_mutex_destroy(&p->mu);
	free(p->s);
	free(p->slots);
	free(p->agents);
	free(p);
}

/* The series (def, labels), created if there is room; NULL when refused. */
static struct series *get(struct collect_prom *p, uint32_t def, const char *labels, double now)
{
	uint64_t h = hash_key(def, labels);
	size_t k = h & (p->nslots - 1);
	struct series *s;

	while (p->slots[k]) {
		s = &p->s[p->slots[k] - 1];
		if (s->hash == h && s->def == def && strcmp(s->labels, labels) == 0) {
			s->updated = now;
			return s;
		}
		k = (k + 1) & (p->nslots - 1);
	}
	if (p->n >= p->max) {
		p->refused++;
		return NULL;
	}
	s = &p->s[p->n++];
	memset(s, 0, sizeof *s);
	s->def = def;
	snprintf(s->labels, sizeof s->labels, "%s", labels);
	s->hash = h;
	s->updated = now;
	p->slots[k] = p->n;
	return s;
}

static void set(struct collect_prom *p, uint32_t def, const char *labels, double v, double now)
{
	struct series *s = get(p, def, labels, now);

	if (s)
		s->value = v;
}

static void add(struct collect_prom *p, uint32_t def, const char *labels, double v, double now)
{
	struct series *s = get(p, def, labels, now);

	if (s)
		s->value += v;
}

/* Labels: the agent (address, and sub-agent when not 0), the data source,
 * then what extra gives (already formatted, may be empty). */
static void lbl(char *buf, size_t n, const char *agent, uint32_t type, uint32_t index,
		const char *extra)
{
	snprintf(buf, n, "agent=\"%s\",source=\"%u:%u\"%s%s", agent, type, index, *extra ? "," : "",
		 extra);
}

/* A label value as the exposition formats want it: \\, \" and \n escaped,
 * and valid UTF-8 whatever the wire said (a byte from 0x80 on is taken as
 * a Latin-1 code point, as the JSON output does): one invalid byte makes
 * the whole scrape fail.  At most 2 bytes out per byte in. */
static void esc(char *out, size_t n, const char *in)
{
	size_t j = 0;

	for (; *in && j + 3 < n; in++) {
		unsigned char c = (unsigned char)*in;

		if (c == '\\' || c == '"' || c == '\n') {
			out[j++] = '\\';
			out[j++] = c == '\n' ? 'n' : (char)c;
		} else if (c >= 0x80) {
			out[j++] = (char)(0xc0 | c >> 6);
			out[j++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[j++] = (char)c;
		}
	}
	out[j] = '\0';
}

static void bst_ratio(struct collect_prom *p, uint32_t def, const char *labels, int32_t pc,
		      double now)
{
	if (pc >= 0)
		set(p, def, labels, pc / 10000.0, now);
}

static void own_buffer(struct collect_prom *p, uint32_t peak_def, uint32_t cur_def,
		       const char *labels, const struct sflow_own_buffer *b, double now)
{
	if (b->peak_bytes != SFLOW_OWN_UNKNOWN32)
		set(p, peak_def, labels, b->peak_bytes, now);
	if (b->cur_bytes != SFLOW_OWN_UNKNOWN32)
		set(p, cur_def, labels, b->cur_bytes, now);
}

static void counters_sample(struct collect_prom *p, const char *agent, const struct sflow_sample *s,
			    double now)
{
	uint32_t t = s->h.counters.source_id_type, x = s->h.counters.source_id_index;
	char l[LABELS_MAX], e[64];

	for (uint32_t r = 0; r < s->nrecords; r++) {
		const struct sflow_record *rec = &s->records[r];

		switch (rec->kind) {
		case SFLOW_REC_IF_COUNTERS: {
			const struct sflow_if_counters *c = &rec->u.ifc;

			lbl(l, sizeof l, agent, t, x, "");
			set(p, M_IF_IN_BYTES, l, (double)c->ifInOctets, now);
			set(p, M_IF_OUT_BYTES, l, (double)c->ifOutOctets, now);
			set(p, M_IF_IN_DISCARDS, l, c->ifInDiscards, now);
			set(p, M_IF_OUT_DISCARDS, l, c->ifOutDiscards, now);
			set(p, M_IF_IN_ERRORS, l, c->ifInErrors, now);
			set(p, M_IF_OUT_ERRORS, l, c->ifOutErrors, now);
			set(p, M_IF_UP, l, (c->ifStatus & 2) ? 1 : 0, now);
			break;
		}
		case SFLOW_REC_BST_DEVICE:
			lbl(l, sizeof l, agent, t, x, "cast=\"unicast\"");
			bst_ratio(p, M_BST_DEVICE, l, rec->u.bst_device.uc_pc, now);
			lbl(l, sizeof l, agent, t, x, "cast=\"multicast\"");
			bst_ratio(p, M_BST_DEVICE, l, rec->u.bst_device.mc_pc, now);
			break;
		case SFLOW_REC_BST_PORT: {
			const struct sflow_bst_port *b = &rec->u.bst_port;

			lbl(l, sizeof l, agent, t, x, "direction=\"ingress\",cast=\"unicast\"");
			bst_ratio(p, M_BST_PORT, l, b->ingress_uc_pc, now);
			lbl(l, sizeof l, agent, t, x, "direction=\"ingress\",cast=\"multicast\"");
			bst_ratio(p, M_BST_PORT, l, b->ingress_mc_pc, now);
			lbl(l, sizeof l, agent, t, x, "direction=\"egress\",cast=\"unicast\"");
			bst_ratio(p, M_BST_PORT, l, b->egress_uc_pc, now);
			lbl(l, sizeof l, agent, t, x, "direction=\"egress\",cast=\"multicast\"");
			bst_ratio(p, M_BST_PORT, l, b->egress_mc_pc, now);
			for (uint32_t q = 0; q < b->n_uc && q < SFLOW_BST_MAX_QUEUES; q++) {
				snprintf(e, sizeof e, "queue=\"%u\",cast=\"unicast\"", q);
				lbl(l, sizeof l, agent, t, x, e);
				bst_ratio(p, M_BST_QUEUE, l, b->egress_queue_uc_pc[q], now);
			}
			for (uint32_t q = 0; q < b->n_mc && q < SFLOW_BST_MAX_QUEUES; q++) {
				snprintf(e, sizeof e, "queue=\"%u\",cast=\"multicast\"", q);
				lbl(l, sizeof l, agent, t, x, e);
				bst_ratio(p, M_BST_QUEUE, l, b->egress_queue_mc_pc[q], now);
			}
			break;
		}
		case SFLOW_REC_OWN: {
			const struct sflow_own_record *o = &rec->u.own;
			static const char *const casts[2] = {"unicast", "multicast"};

			if (SFLOW_TAG_ENTERPRISE(rec->tag) != p->ent)
				break;
			if (o->format == SFLOW_OWN_PORT_BUFFERS) {
				const struct sflow_own_buffer *b[4] = {
				    &o->u.port.ingress_uc, &o->u.port.ingress_mc,
				    &o->u.port.egress_uc, &o->u.port.egress_mc};

				for (int i = 0; i < 4; i++) {
					snprintf(e, sizeof e, "direction=\"%s\",cast=\"%s\"",
						 i < 2 ? "ingress" : "egress", casts[i & 1]);
					lbl(l, sizeof l, agent, t, x, e);
					own_buffer(p, M_PORT_PEAK, M_PORT_CUR, l, b[i], now);
				}
			} else if (o->format == SFLOW_OWN_QUEUE_BUFFERS) {
				const struct sflow_own_array *a[2] = {&o->u.queues.uc,
								      &o->u.queues.mc};
				struct sflow_own_buffer b;

				for (int c = 0; c < 2; c++)
					for (uint32_t q = 0; q < a[c]->n; q++) {
						if (sflow_own_buffer_at(a[c], q, &b) < 0)
							break;
						snprintf(e, sizeof e, "queue=\"%u\",cast=\"%s\"", q,
							 casts[c]);
						lbl(l, sizeof l, agent, t, x, e);
						own_buffer(p, M_QUEUE_PEAK, M_QUEUE_CUR, l, &b,
							   now);
					}
			} else if (o->format == SFLOW_OWN_QUEUE_DELAYS) {
				const struct sflow_own_array *a[2] = {&o->u.delays.uc,
								      &o->u.delays.mc};
				struct sflow_own_qdelay dl;

				for (int c = 0; c < 2; c++)
					for (uint32_t q = 0; q < a[c]->n; q++) {
						if (sflow_own_qdelay_at(a[c], q, &dl) < 0)
							break;
						snprintf(e, sizeof e, "queue=\"%u\",cast=\"%s\"", q,
							 casts[c]);
						lbl(l, sizeof l, agent, t, x, e);
						if (dl.latest_ns != SFLOW_OWN_UNKNOWN32)
							set(p, M_QDELAY, l, dl.latest_ns / 1e9,
							    now);
						if (dl.max_ns != SFLOW_OWN_UNKNOWN32)
							set(p, M_QDELAY_MAX, l, dl.max_ns / 1e9,
							    now);
					}
			} else if (o->format == SFLOW_OWN_SAMPLER_STATS) {
				struct sflow_own_sampler_stat st;
				uint64_t rej[SFLOW_OWN_SAMPLER_REJECTS];
				uint32_t pos = 0;

				while (sflow_own_sampler_next(&o->u.samplers, &pos, &st) == 0) {
					char name[2 * SFLOW_OWN_SAMPLER_NAME_MAX + 4];

					esc(name, sizeof name, st.name);
					snprintf(l, sizeof l, "agent=\"%s\",sampler=\"%s\"", agent,
						 name);
					set(p, M_SAMPLER_SEEN, l, (double)st.seen, now);
					set(p, M_SAMPLER_PASSED, l, (double)st.passed, now);
					sflow_own_sampler_rejects(&st, rej);
					for (uint32_t i = 0; i < SFLOW_OWN_SAMPLER_REJECTS; i++) {
						snprintf(
						    l, sizeof l,
						    "agent=\"%s\",sampler=\"%s\",reason=\"%s\"",
						    agent, name, sflow_own_sampler_reject_name(i));
						set(p, M_SAMPLER_REJECTED, l, (double)rej[i], now);
					}
				}
			}
			break;
		}
		default:
			break;
		}
	}
}

/* Sequence gaps per agent: a datagram after the one expected adds the
 * missing ones; a lower number (agent restart, reordering) only resyncs. */
static void sequence(struct collect_prom *p, const struct sflow_datagram *d, const char *l,
		     double now)
{
	struct agent_seq *a = NULL;

	for (size_t i = 0; i < p->nagents; i++)
		if (p->agents[i].sub_agent == d->sub_agent_id &&
		    memcmp(&p->agents[i].addr, &d->agent, sizeof d->agent) == 0) {
			a = &p->agents[i];
			break;
		}
	if (!a) {
		struct agent_seq *na;

		if (p->nagents >= 4096)
			return;
		na = realloc(p->agents, (p->nagents + 1) * sizeof *na);
		if (!na)
			return;
		p->agents = na;
		a = &p->agents[p->nagents++];
		a->addr = d->agent;
		a->sub_agent = d->sub_agent_id;
		a->last = d->sequence_number;
		a->updated = now;
		add(p, M_SEQ_GAPS, l, 0, now);
		return;
	}
	if (d->sequence_number > a->last + 1)
		add(p, M_SEQ_GAPS, l, (double)(d->sequence_number - a->last - 1), now);
	else
		add(p, M_SEQ_GAPS, l, 0, now);
	a->last = d->sequence_number;
	a->updated = now;
}

void collect_prom_datagram(struct collect_prom *p, const struct sflow_datagram *d, double now)
{
	char agent[INET6_ADDRSTRLEN + 16], l[LABELS_MAX], e[96];

	sflow_addr_str(&d->agent, agent, sizeof agent);
	if (d->sub_agent_id) {
		size_t n = strlen(agent);

		snprintf(agent + n, sizeof agent - n, "/%u", d->sub_agent_id);
	}
	pthread_mutex_lock(&p->mu);
	snprintf(l, sizeof l, "agent=\"%s\"", agent);
	add(p, M_DATAGRAMS, l, 1, now);
	sequence(p, d, l, now);
	for (uint32_t i = 0; i < d->nsamples; i++) {
		const struct sflow_sample *s = &d->samples[i];

		if (s->kind == SFLOW_SMP_COUNTERS) {
			counters_sample(p, agent, s, now);
		} else if (s->kind == SFLOW_SMP_FLOW) {
			lbl(l, sizeof l, agent, s->h.flow.source_id_type, s->h.flow.source_id_index,
			    "");
			add(p, M_FLOW_SAMPLES, l, 1, now);
		} else if (s->kind == SFLOW_SMP_DISCARD) {
			const char *name = sflow_drop_name(s->h.discard.reason);

			if (name)
				snprintf(e, sizeof e, "reason=\"%s\"", name);
			else
				snprintf(e, sizeof e, "reason=\"%u\"", s->h.discard.reason);
			lbl(l, sizeof l, agent, s->h.discard.source_id_type,
			    s->h.discard.source_id_index, e);
			add(p, M_DROP_NOTIFS, l, 1, now);
		} else if (s->kind == SFLOW_SMP_OWN && SFLOW_TAG_ENTERPRISE(s->tag) == p->ent &&
			   s->h.own.format == SFLOW_OWN_SMP_EVENT) {
			for (uint32_t r = 0; r < s->nrecords; r++) {
				const struct sflow_record *rec = &s->records[r];
				const char *tn;

				if (rec->kind != SFLOW_REC_OWN ||
				    rec->u.own.format != SFLOW_OWN_VIS_EVENT)
					continue;
				tn = sflow_own_vis_type_name(rec->u.own.u.event.type);
				snprintf(e, sizeof e, "type=\"%s\"", tn ? tn : "unknown");
				lbl(l, sizeof l, agent, s->h.own.u.event.source_id_type,
				    s->h.own.u.event.source_id_index, e);
				add(p, M_EVENT_SAMPLES, l, 1, now);
			}
		}
	}
	pthread_mutex_unlock(&p->mu);
}

void collect_prom_malformed(struct collect_prom *p, double now)
{
	(void)now;
	pthread_mutex_lock(&p->mu);
	p->malformed++;
	pthread_mutex_unlock(&p->mu);
}

static void expire(struct collect_prom *p, double now)
{
	size_t j = 0;

	if (p->expire <= 0)
		return;
	for (size_t i = 0; i < p->n; i++)
		if (now - p->s[i].updated <= p->expire)
			p->s[j++] = p->s[i];
	if (j != p->n) {
		p->n = j;
		rehash(p);
	}
	j = 0;
	for (size_t i = 0; i < p->nagents; i++)
		if (now - p->agents[i].updated <= p->expire)
			p->agents[j++] = p->agents[i];
	p->nagents = j;
}

static const struct series *sort_base;

static int by_family(const void *a, const void *b)
{
	const struct series *x = &sort_base[*(const size_t *)a];
	const struct series *y = &sort_base[*(const size_t *)b];

	if (x->def != y->def)
		return x->def < y->def ? -1 : 1;
	return strcmp(x->labels, y->labels);
}

static void family_header(FILE *out, const struct mdef *m, int om)
{
	if (om) {
		fprintf(out, "# TYPE %s %s\n", m->name, m->type == COUNTER ? "counter" : "gauge");
		if (*m->unit && m->type == GAUGE && strcmp(m->unit, "ratio") != 0)
			fprintf(out, "# UNIT %s %s\n", m->name, m->unit);
		fprintf(out, "# HELP %s %s.\n", m->name, m->help);
	} else {
		fprintf(out, "# HELP %s%s %s.\n", m->name, m->type == COUNTER ? "_total" : "",
			m->help);
		fprintf(out, "# TYPE %s%s %s\n", m->name, m->type == COUNTER ? "_total" : "",
			m->type == COUNTER ? "counter" : "gauge");
	}
}

static void sample(FILE *out, const struct mdef *m, const char *labels, double v)
{
	fprintf(out, "%s%s", m->name, m->type == COUNTER ? "_total" : "");
	if (*labels)
		fprintf(out, "{%s}", labels);
	fprintf(out, " %.17g\n", v);
}

int collect_prom_render(struct collect_prom *p, FILE *out, int openmetrics, double now)
{
	size_t *order;
	uint32_t last = (uint32_t)-1;

	pthread_mutex_lock(&p->mu);
	expire(p, now);
	order = malloc((p->n ? p->n : 1) * sizeof *order);
	if (!order) {
		pthread_mutex_unlock(&p->mu);
		return -1;
	}
	for (size_t i = 0; i < p->n; i++)
		order[i] = i;
	sort_base = p->s;
	qsort(order, p->n, sizeof *order, by_family);
	for (size_t i = 0; i < p->n; i++) {
		const struct series *s = &p->s[order[i]];

		if (s->def != last) {
			family_header(out, &mdefs[s->def], openmetrics);
			last = s->def;
		}
		sample(out, &mdefs[s->def], s->labels, s->value);
	}
	family_header(out, &mdefs[M_MALFORMED], openmetrics);
	sample(out, &mdefs[M_MALFORMED], "", (double)p->malformed);
	family_header(out, &mdefs[M_SERIES], openmetrics);
	sample(out, &mdefs[M_SERIES], "", (double)p->n);
	family_header(out, &mdefs[M_REFUSED], openmetrics);
	sample(out, &mdefs[M_REFUSED], "", (double)p->refused);
	if (openmetrics)
		fputs("# EOF\n", out);
	free(order);
	pthread_mutex_unlock(&p->mu);
	return ferror(out) ? -1 : 0;
}

size_t collect_prom_series(struct collect_prom *p)
{
	size_t n;

	pthread_mutex_lock(&p->mu);
	n = p->n;
	pthread_mutex_unlock(&p->mu);
	return n;
}

uint64_t collect_prom_refused(struct collect_prom *p)
{
	uint64_t n;

	pthread_mutex_lock(&p->mu);
	n = p->refused;
	pthread_mutex_unlock(&p->mu);
	return n;
}
