/*
 * fuzz_decode.c - libFuzzer target for sflow_decode(): decode the input,
 * walk everything the result points at (so ASan sees any pointer outside
 * the input), print names into a buffer, free.  The last input byte also
 * picks the own-enterprise setting, so bsflowd's own records are reached
 * both as own records and as unknown ones.  Then the standard samples and
 * records decoded are encoded again into a heap buffer of exactly the
 * capacity the second-last byte picks (0 to 2040 bytes), so that ASan sees
 * any encoder write past its buffer, and the writer's length is checked
 * against the capacity.  The input is decoded again with
 * sflow_decode_with() and a decoder kept from input to input (its arrays
 * reused): the same status, error and values, sample by sample and record
 * by record, or the target aborts.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_drops.h"
#include "proto/sflow_encode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t sum_bytes(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += p[i];
	return s;
}

static uint32_t walk_record(const struct sflow_sample *smp, const struct sflow_record *r)
{
	char buf[24];
	uint32_t s = sum_bytes(r->body, r->length);
	const char *name = sflow_record_name(smp->tag, r->tag);

	s += (uint32_t)strlen(sflow_tag_str(r->tag, buf, sizeof buf));
	if (name)
		s += (uint32_t)strlen(name);
	switch (r->kind) {
	case SFLOW_REC_PORT_NAME:
		s += (uint32_t)strlen(r->u.port_name.name) + r->u.port_name.len;
		break;
	case SFLOW_REC_SAMPLED_HEADER:
		s += sum_bytes(r->u.header.header, r->u.header.header_length);
		break;
	case SFLOW_REC_FUNCTION:
	case SFLOW_REC_LINUX_REASON:
		s += sum_bytes((const uint8_t *)r->u.function.symbol, r->u.function.len);
		break;
	case SFLOW_REC_HW_TRAP:
		s += sum_bytes((const uint8_t *)r->u.hw_trap.group, r->u.hw_trap.group_len);
		s += sum_bytes((const uint8_t *)r->u.hw_trap.trap, r->u.hw_trap.trap_len);
		break;
	case SFLOW_REC_BST_PORT: {
		uint32_t i;

		for (i = 0; i < r->u.bst_port.n_uc; i++)
			s += (uint32_t)r->u.bst_port.egress_queue_uc_pc[i];
		for (i = 0; i < r->u.bst_port.n_mc; i++)
			s += (uint32_t)r->u.bst_port.egress_queue_mc_pc[i];
		break;
	}
	case SFLOW_REC_OWN: {
		const char *own = sflow_own_record_name(r->u.own.format, smp->tag);

		if (own)
			s += (uint32_t)strlen(own);
		break;
	}
	default:
		break;
	}
	return s;
}

/* Encode the decoded standard samples again through w. */
static void reencode(struct sflow_w *w, const struct sflow_datagram *d)
{
	for (uint32_t i = 0; i < d->nsamples; i++) {
		const struct sflow_sample *s = &d->samples[i];
		struct sflow_sample_enc e;

		switch (s->kind) {
		case SFLOW_SMP_FLOW:
			sflow_enc_flow_begin(w, &e, &s->h.flow);
			break;
		case SFLOW_SMP_COUNTERS:
			sflow_enc_counters_begin(w, &e, &s->h.counters);
			break;
		case SFLOW_SMP_DISCARD:
			sflow_enc_discard_begin(w, &e, &s->h.discard);
			break;
		default:
			continue;
		}
		for (uint32_t j = 0; j < s->nrecords; j++) {
			const struct sflow_record *r = &s->records[j];

			switch (r->kind) {
			case SFLOW_REC_IF_COUNTERS:
				sflow_enc_if_counters(w, &e, &r->u.ifc);
				break;
			case SFLOW_REC_ETH_COUNTERS:
				sflow_enc_eth_counters(w, &e, &r->u.eth);
				break;
			case SFLOW_REC_PORT_NAME:
				sflow_enc_port_name(w, &e, r->u.port_name.name);
				break;
			case SFLOW_REC_BST_DEVICE:
				sflow_enc_bst_device(w, &e, &r->u.bst_device);
				break;
			case SFLOW_REC_BST_PORT:
				sflow_enc_bst_port(w, &e, &r->u.bst_port);
				break;
			case SFLOW_REC_SAMPLED_HEADER:
				sflow_enc_sampled_header(w, &e, &r->u.header);
				break;
			case SFLOW_REC_EXT_SWITCH:
				sflow_enc_ext_switch(w, &e, &r->u.ext_switch);
				break;
			case SFLOW_REC_EGRESS_QUEUE:
				sflow_enc_egress_queue(w, &e, r->u.queue);
				break;
			case SFLOW_REC_TRANSIT:
				sflow_enc_transit(w, &e, r->u.delay_ns);
				break;
			case SFLOW_REC_QUEUE_DEPTH:
				sflow_enc_queue_depth(w, &e, r->u.depth);
				break;
			case SFLOW_REC_TIMESTAMP:
				sflow_enc_timestamp(w, &e, r->u.timestamp_ns);
				break;
			case SFLOW_REC_BST_EGRESS_QUEUE:
				sflow_enc_bst_egress_queue(w, &e, r->u.queue);
				break;
			default:
				break;
			}
		}
		sflow_enc_sample_end(w, &e);
	}
}

/* The decoder's result against sflow_decode()'s: the same, but for the
 * arrays' addresses and the borrowed flag. */
static void same_with_decoder(const uint8_t *data, size_t size,
			      const struct sflow_decode_opts *opts, int rc,
			      const struct sflow_datagram *d, const struct sflow_decode_error *err)
{
	static struct sflow_decoder dec;
	struct sflow_datagram e;
	struct sflow_decode_error e_err;

	if (sflow_decode_with(&dec, data, size, opts, &e, &e_err) != rc ||
	    e_err.status != err->status || e_err.offset != err->offset ||
	    strcmp(e_err.msg, err->msg) != 0)
		abort();
	if (rc != SFLOW_OK)
		return;
	if (!e.borrowed || e.version != d->version || e.sub_agent_id != d->sub_agent_id ||
	    e.sequence_number != d->sequence_number || e.uptime_ms != d->uptime_ms ||
	    e.nsamples != d->nsamples || e.length != d->length ||
	    memcmp(&e.agent, &d->agent, sizeof e.agent) != 0)
		abort();
	for (uint32_t i = 0; i < d->nsamples; i++) {
		struct sflow_sample a = d->samples[i], b = e.samples[i];

		if (a.nrecords != b.nrecords)
			abort();
		for (uint32_t j = 0; j < a.nrecords; j++)
			if (memcmp(&a.records[j], &b.records[j], sizeof a.records[j]) != 0)
				abort();
		a.records = b.records = NULL;
		if (memcmp(&a, &b, sizeof a) != 0)
			abort();
	}
	sflow_datagram_free(&e); /* frees nothing: the decoder's */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sflow_decode_opts opts = {0};
	struct sflow_datagram d;
	struct sflow_decode_error err;
	volatile uint32_t sink = 0;
	uint32_t i, j;

	/* last byte even: default own enterprise; odd: enterprise 9, so own
	 * records become unknown ones */
	if (size > 0 && (data[size - 1] & 1))
		opts.own_enterprise = 9;
	if (sflow_decode(data, size, &opts, &d, &err) != SFLOW_OK) {
		same_with_decoder(data, size, &opts, err.status, &d, &err);
		sink += (uint32_t)strlen(err.msg) + (uint32_t)err.offset;
		return 0;
	}
	same_with_decoder(data, size, &opts, SFLOW_OK, &d, &err);
	for (i = 0; i < d.nsamples; i++) {
		const struct sflow_sample *s = &d.samples[i];
		const char *name = sflow_sample_name(s->tag);

		sink += sum_bytes(s->body, s->length);
		if (name)
			sink += (uint32_t)strlen(name);
		if (s->kind == SFLOW_SMP_DISCARD && sflow_drop_name(s->h.discard.reason))
			sink += 1;
		for (j = 0; j < s->nrecords; j++)
			sink += walk_record(s, &s->records[j]);
	}
	{
		size_t cap = size > 1 ? (size_t)data[size - 2] * 8 : 0;
		uint8_t *buf = cap ? malloc(cap) : NULL;
		struct sflow_w w;

		sflow_w_init(&w, buf, cap);
		reencode(&w, &d);
		if (w.len > cap || (w.err == SFLOW_OK && w.len > 0 && !buf))
			abort();
		sink += (uint32_t)w.len;
		free(buf);
	}
	sflow_datagram_free(&d);
	(void)sink;
	return 0;
}
