/*
 * lines.c - the -l (CSV) and -g (grep-friendly) outputs of bsflow-collect
 * (lines.h).  -g reuses the text printer (print.h) into memory and
 * prefixes its field lines, so it shows exactly the fields the default
 * output shows.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "collector/lines.h"
#include "collector/output.h"
#include "proto/sflow_drops.h"

static void flow_line(FILE *out, const char *agent, const struct sflow_sample *s)
{
	const struct sflow_flow_sample *f = &s->h.flow;
	long long frame = -1, queue = -1, depth = -1, delay = -1;

	for (uint32_t i = 0; i < s->nrecords; i++) {
		const struct sflow_record *r = &s->records[i];

		if (r->kind == SFLOW_REC_SAMPLED_HEADER)
			frame = r->u.header.frame_length;
		else if (r->kind == SFLOW_REC_EGRESS_QUEUE || r->kind == SFLOW_REC_BST_EGRESS_QUEUE)
			queue = r->u.queue;
		else if (r->kind == SFLOW_REC_QUEUE_DEPTH)
			depth = r->u.depth;
		else if (r->kind == SFLOW_REC_TRANSIT)
			delay = r->u.delay_ns;
	}
	fprintf(out, "FLOW,%s,%u:%u,%u,%u,%u", agent, f->source_id_type, f->source_id_index,
		f->sampling_rate, f->input_value, f->output_value);
	for (int k = 0; k < 4; k++) {
		long long v = k == 0 ? frame : k == 1 ? queue : k == 2 ? depth : delay;

		if (v >= 0)
			fprintf(out, ",%lld", v);
		else
			fputs(",", out);
	}
	fputc('\n', out);
}

static void counters_line(FILE *out, uint32_t ent, const char *agent, const struct sflow_sample *s)
{
	const struct sflow_if_counters *ifc = NULL;
	const struct sflow_bst_port *bst = NULL;
	const struct sflow_own_queue_delays *qd = NULL;

	for (uint32_t i = 0; i < s->nrecords; i++) {
		const struct sflow_record *r = &s->records[i];

		if (r->kind == SFLOW_REC_IF_COUNTERS)
			ifc = &r->u.ifc;
		else if (r->kind == SFLOW_REC_BST_PORT)
			bst = &r->u.bst_port;
		else if (r->kind == SFLOW_REC_OWN && SFLOW_TAG_ENTERPRISE(r->tag) == ent &&
			 r->u.own.format == SFLOW_OWN_QUEUE_DELAYS)
			qd = &r->u.own.u.delays;
	}
	fprintf(out, "CNTR,%s,%u:%u", agent, s->h.counters.source_id_type,
		s->h.counters.source_id_index);
	if (ifc)
		fprintf(out, ",%u,%llu,%llu,%u,%u", ifc->ifIndex,
			(unsigned long long)ifc->ifInOctets, (unsigned long long)ifc->ifOutOctets,
			ifc->ifInDiscards, ifc->ifOutDiscards);
	else
		fputs(",,,,,", out);
	if (bst) {
		fprintf(out, ",%d,%d,", bst->ingress_uc_pc, bst->egress_uc_pc);
		for (uint32_t q = 0; q < bst->n_uc && q < SFLOW_BST_MAX_QUEUES; q++)
			fprintf(out, "%s%d", q ? ";" : "", bst->egress_queue_uc_pc[q]);
	} else {
		fputs(",,,", out);
	}
	fputc(',', out);
	if (qd) {
		struct sflow_own_qdelay d;

		for (uint32_t q = 0; q < qd->uc.n && sflow_own_qdelay_at(&qd->uc, q, &d) == 0;
		     q++) {
			if (q)
				fputc(';', out);
			if (d.max_ns != SFLOW_OWN_UNKNOWN32)
				fprintf(out, "%u", d.max_ns);
		}
	}
	fputc('\n', out);
}

static void drop_line(FILE *out, const char *agent, const struct sflow_sample *s)
{
	const struct sflow_discard_sample *x = &s->h.discard;
	const char *name = sflow_drop_name(x->reason);
	long long frame = -1;

	for (uint32_t i = 0; i < s->nrecords; i++)
		if (s->records[i].kind == SFLOW_REC_SAMPLED_HEADER)
			frame = s->records[i].u.header.frame_length;
	fprintf(out, "DROP,%s,%u:%u,", agent, x->source_id_type, x->source_id_index);
	if (name)
		fputs(name, out);
	else
		fprintf(out, "%u", x->reason);
	fprintf(out, ",%u,%u,", x->input, x->output);
	if (frame >= 0)
		fprintf(out, "%lld", frame);
	fputc('\n', out);
}

static void event_lines(FILE *out, uint32_t ent, const char *agent, const struct sflow_sample *s)
{
	for (uint32_t i = 0; i < s->nrecords; i++) {
		const struct sflow_record *r = &s->records[i];
		const struct sflow_own_vis_event *e;
		const char *tn;

		if (r->kind != SFLOW_REC_OWN || SFLOW_TAG_ENTERPRISE(r->tag) != ent ||
		    r->u.own.format != SFLOW_OWN_VIS_EVENT)
			continue;
		e = &r->u.own.u.event;
		tn = sflow_own_vis_type_name(e->type);
		fprintf(out, "EVENT,%s,%u:%u,%s,%u,%u,%u,%u\n", agent,
			s->h.own.u.event.source_id_type, s->h.own.u.event.source_id_index,
			tn ? tn : "unknown", e->queue, e->depth, e->delay, e->peak);
	}
}

void collect_lines_csv(FILE *out, uint32_t own_enterprise, const struct sflow_datagram *d)
{
	char agent[INET6_ADDRSTRLEN];

	collect_addr_str(&d->agent, agent, sizeof agent);
	for (uint32_t i = 0; i < d->nsamples; i++) {
		const struct sflow_sample *s = &d->samples[i];

		if (s->kind == SFLOW_SMP_FLOW)
			flow_line(out, agent, s);
		else if (s->kind == SFLOW_SMP_COUNTERS)
			counters_line(out, own_enterprise, agent, s);
		else if (s->kind == SFLOW_SMP_DISCARD)
			drop_line(out, agent, s);
		else if (s->kind == SFLOW_SMP_OWN &&
			 SFLOW_TAG_ENTERPRISE(s->tag) == own_enterprise &&
			 s->h.own.format == SFLOW_OWN_SMP_EVENT)
			event_lines(out, own_enterprise, agent, s);
	}
}

static void emit(FILE *out, const char *agent, const char *source, const char *type, char **lines,
		 size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s %s %s %s\n", agent, source, type, lines[i]);
}

void collect_lines_grep(FILE *out, uint32_t own_enterprise, const struct collect_rx *rx,
			const struct sflow_datagram *d)
{
	struct collect_out o;
	char *buf = NULL, *line, *save = NULL, **held = NULL;
	size_t len = 0, nheld = 0, cap = 0;
	char agent[INET6_ADDRSTRLEN], source[32] = "-", type[48] = "SAMPLE";
	int in_sample = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return;
	collect_out_init(&o, COLLECT_FMT_TEXT, mem);
	o.own_enterprise = own_enterprise;
	collect_print_datagram(&o, rx, d);
	if (fclose(mem) != 0) {
		free(buf);
		return;
	}
	collect_addr_str(&d->agent, agent, sizeof agent);
	/* a sample's lines are held until its end: its source and type come
	 * after its first lines */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "startDatagram ", 14) == 0 ||
		    strncmp(line, "endDatagram ", 12) == 0)
			continue;
		if (strncmp(line, "startSample ", 12) == 0) {
			in_sample = 1;
			nheld = 0;
			snprintf(source, sizeof source, "-");
			snprintf(type, sizeof type, "SAMPLE");
			continue;
		}
		if (strncmp(line, "endSample ", 10) == 0) {
			emit(out, agent, source, type, held, nheld);
			in_sample = 0;
			nheld = 0;
			continue;
		}
		if (!in_sample) {
			emit(out, agent, "-", "DATAGRAM", &line, 1);
			continue;
		}
		if (strncmp(line, "sampleType ", 11) == 0)
			snprintf(type, sizeof type, "%s", line + 11);
		else if (strncmp(line, "sourceId ", 9) == 0)
			snprintf(source, sizeof source, "%s", line + 9);
		if (nheld == cap) {
			char **n = realloc(held, (cap ? 2 * cap : 64) * sizeof *n);

			if (!n)
				break;
			held = n;
			cap = cap ? 2 * cap : 64;
		}
		held[nheld++] = line;
	}
	if (in_sample)
		emit(out, agent, source, type, held, nheld);
	free(held);
	free(buf);
}
