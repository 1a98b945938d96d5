/*
 * discard.c - 0:5 discarded_packet notifications, their rate limit and
 * circuit breaker (see discard.h for the rules).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include "agent/discard.h"
#include "agent/flowsample.h"
#include "agent/evsample.h"
#include "proto/sflow_encode.h"
#include "proto/sflow_own.h"

#define NS_PER_S 1000000000ull
#define COST	 10u /* tenths of a token per notification */

const char *bsf_discard_stage_symbol(uint32_t stage)
{
	switch (stage) {
	case BSF_STAGE_FORWARDING:
		return "forwarding";
	case BSF_STAGE_INGRESS_ADMISSION:
		return "ingress_admission";
	case BSF_STAGE_EGRESS_ADMISSION:
		return "egress_admission";
	case BSF_STAGE_WRED:
		return "wred";
	default:
		return NULL;
	}
}

int bsf_discard_encode(const struct bsf_discard_params *p, const struct bsf_event *ev, uint8_t *buf,
		       size_t cap, size_t *len)
{
	struct sflow_w w;
	struct sflow_sample_enc s;
	struct sflow_discard_sample h;
	struct sflow_sampled_header sh;
	const char *sym;
	int egress;

	if (!p || !ev || ev->type != BSF_EV_DROP || p->header_bytes < BSF_FLOW_HEADER_MIN ||
	    p->header_bytes > BSF_FLOW_HEADER_MAX ||
	    (p->vis &&
	     (p->enterprise == SFLOW_ENT_STANDARD || p->enterprise == SFLOW_ENT_BROADCOM)))
		return SFLOW_ERR_INVALID;
	memset(&h, 0, sizeof h);
	h.sequence_number = p->seq;
	h.source_id_type = p->source_type;
	h.source_id_index = p->source_index;
	h.drops = p->drops;
	h.input = p->in_ifindex;
	/* the output only for a drop on egress (sFlow drops: 0 otherwise) */
	egress = ev->stage == BSF_STAGE_EGRESS_ADMISSION || ev->stage == BSF_STAGE_WRED;
	h.output = egress ? p->out_ifindex : 0;
	h.reason = ev->reason;

	sflow_w_init(&w, buf, cap);
	sflow_enc_discard_begin(&w, &s, &h);

	bsf_evsample_header(&sh, ev->hdr, ev->hdr_len, ev->frame_len, p->header_bytes);
	sflow_enc_sampled_header(&w, &s, &sh);

	if (ev->queue != UINT32_MAX && h.output != 0 && !ev->multicast) {
		/* 0:1036 numbers unicast queues only (as in flow samples);
		 * 0:1040's depth is that queue's: both or neither */
		sflow_enc_egress_queue(&w, &s, ev->queue);
		sflow_enc_queue_depth(&w, &s, ev->depth_bytes);
	}
	sflow_enc_timestamp(&w, &s, ev->t_ns);
	/* the backend's own function or symbol when it names one */
	sym = ev->function[0] ? ev->function : bsf_discard_stage_symbol(ev->stage);
	if (sym)
		sflow_enc_function(&w, &s, sym);
	/* the platform's names of the drop, when the backend gives them */
	if (ev->trap_group[0] || ev->trap_name[0])
		sflow_enc_hw_trap(&w, &s, ev->trap_group, ev->trap_name);
	if (ev->reason_name[0])
		sflow_enc_linux_reason(&w, &s, ev->reason_name);
	if (p->vis) /* last: tools that stop at an unknown record see the rest */
		sflow_own_enc_vis_event(&w, &s, p->enterprise, p->vis);
	if ((ev->flags & BSF_EVF_FLOW_REGION) && p->region && p->enterprise != SFLOW_ENT_STANDARD &&
	    p->enterprise != SFLOW_ENT_BROADCOM) {
		struct sflow_own_region_drop rd = {ev->region,
						   ev->region_cause,
						   ev->region_unit,
						   ev->region_pc,
						   ev->region_ingress_pc,
						   ev->region_egress_pc,
						   sflow_own_u32(ev->region_count),
						   sflow_own_u32(ev->region_bound)};
		sflow_own_enc_region_drop(&w, &s, p->enterprise, &rd);
	}
	sflow_enc_sample_end(&w, &s);
	if (w.err != SFLOW_OK)
		return w.err;
	*len = w.len;
	return SFLOW_OK;
}

/* ---- limiter */

void bsf_discard_conf_default(struct bsf_discard_conf *c)
{
	c->limit = BSF_DISCARD_LIMIT_DEFAULT;
	c->max = BSF_DISCARD_MAX_DEFAULT;
	c->max_trip = BSF_DISCARD_MAX_TRIP_DEFAULT;
	c->cooldown = BSF_DISCARD_COOLDOWN_DEFAULT;
}

static uint64_t capacity(const struct bsf_discard_conf *c)
{
	return c->limit > COST ? c->limit : COST;
}

static void breaker_restart(struct bsf_discard_limiter *l)
{
	l->open = 0;
	l->open_until_ns = 0;
	l->have_sec = 0;
	l->sec = l->sec_count = 0;
	l->last_over_sec = 0;
	l->run = 0;
}

void bsf_discard_limiter_init(struct bsf_discard_limiter *l, const struct bsf_discard_conf *c)
{
	memset(l, 0, sizeof *l);
	l->conf = *c;
	if (l->conf.max_trip == 0)
		l->conf.max_trip = 1;
}

void bsf_discard_limiter_configure(struct bsf_discard_limiter *l, const struct bsf_discard_conf *c)
{
	l->conf = *c;
	if (l->conf.max_trip == 0)
		l->conf.max_trip = 1;
	if (l->tokens > capacity(&l->conf))
		l->tokens = capacity(&l->conf);
	breaker_restart(l);
}

/* Refill for the step of t. */
static void refill(struct bsf_discard_limiter *l, uint64_t t_ns)
{
	uint64_t step = t_ns / BSF_DISCARD_STEP_NS;
	uint64_t cap = capacity(&l->conf);

	if (!l->started) {
		l->started = 1;
		l->step = step;
		l->tokens = l->conf.limit ? cap : 0;
		return;
	}
	if (step <= l->step)
		return; /* same step (or the clock went back) */
	if (l->conf.limit) {
		uint64_t steps = step - l->step;
		uint64_t add =
		    steps > cap ? cap * (uint64_t)l->conf.limit : steps * (uint64_t)l->conf.limit;

		l->tokens = l->tokens + add > cap ? cap : l->tokens + add;
	}
	l->step = step;
}

enum bsf_discard_verdict bsf_discard_offer(struct bsf_discard_limiter *l, uint64_t t_ns,
					   unsigned *transition)
{
	uint64_t sec = t_ns / NS_PER_S;

	if (transition)
		*transition = 0;
	l->offered++;
	if (l->open) {
		if (t_ns < l->open_until_ns) {
			l->suppressed_breaker++;
			return BSF_DISCARD_BREAKER;
		}
		breaker_restart(l);
		if (transition)
			*transition |= BSF_DISCARD_RESUMED;
	}
	if (!l->have_sec || sec > l->sec) {
		l->have_sec = 1;
		l->sec = sec;
		l->sec_count = 0;
	}
	l->sec_count++;
	if (l->conf.max && l->sec_count == (uint64_t)l->conf.max + 1) {
		/* this second just went over max */
		if (l->run > 0 && l->last_over_sec + 1 == l->sec)
			l->run++;
		else
			l->run = 1;
		l->last_over_sec = l->sec;
		if (l->run >= l->conf.max_trip) {
			l->open = 1;
			l->open_until_ns = t_ns + (uint64_t)l->conf.cooldown * NS_PER_S;
			l->trips++;
			l->run = 0;
			l->suppressed_breaker++;
			if (transition)
				*transition |= BSF_DISCARD_TRIPPED;
			return BSF_DISCARD_BREAKER;
		}
	}
	refill(l, t_ns);
	if (l->tokens >= COST) {
		l->tokens -= COST;
		l->sent++;
		return BSF_DISCARD_SEND;
	}
	l->suppressed_rate++;
	return BSF_DISCARD_RATE;
}

void bsf_discard_describe(const struct bsf_event *ev, char *buf, size_t len)
{
	char fn[BSF_NAME_MAX + 8] = "", rn[BSF_NAME_MAX + 4] = "", tr[2 * BSF_NAME_MAX + 12] = "";
	const char *sym = bsf_discard_stage_symbol(ev->stage);

	if (ev->reason_name[0])
		snprintf(rn, sizeof rn, " (%.*s)", BSF_NAME_MAX, ev->reason_name);
	if (ev->function[0] || sym)
		snprintf(fn, sizeof fn, " at %.*s", BSF_NAME_MAX,
			 ev->function[0] ? ev->function : sym);
	if (ev->trap_group[0] || ev->trap_name[0])
		snprintf(tr, sizeof tr, ", trap %.*s/%.*s", BSF_NAME_MAX,
			 ev->trap_group[0] ? ev->trap_group : "-", BSF_NAME_MAX,
			 ev->trap_name[0] ? ev->trap_name : "-");
	snprintf(buf, len, "reason %u%s%s%s", ev->reason, rn, fn, tr);
}
