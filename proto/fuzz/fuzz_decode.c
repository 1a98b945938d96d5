/*
 * fuzz_decode.c - libFuzzer target for sflow_decode(): decode the input,
 * walk everything the result points at (so ASan sees any pointer outside
 * the input), print names into a buffer, free.  The last input byte also
 * picks the own-enterprise setting, so bsflowd's own records are reached
 * both as own records and as unknown ones.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_drops.h"

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
		sink += (uint32_t)strlen(err.msg) + (uint32_t)err.offset;
		return 0;
	}
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
	sflow_datagram_free(&d);
	(void)sink;
	return 0;
}
