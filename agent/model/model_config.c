/*
 * model_config.c - default switch configuration and its validation.
 *
 * model_config_init() builds a usable switch for a port count and speed;
 * the scenario parser (scenario.c) and tests start from it and change
 * fields.  model_config_check() is what model_new() runs first: every
 * value a user can get wrong is checked here with a message naming it.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model_int.h"

static void port_defaults(struct model_port_config *p, unsigned i, uint64_t speed, int cpu)
{
	memset(p, 0, sizeof(*p));
	p->ifindex = i + 1;
	if (cpu)
		snprintf(p->name, sizeof(p->name), "cpu");
	else
		snprintf(p->name, sizeof(p->name), "port%u", i);
	p->speed_bps = speed;
	p->overhead_bytes = 20;
	p->n_ucq = 8;
	p->n_mcq = cpu ? 0 : 8;
	p->pfc_delay_ns = 1000;
	for (unsigned t = 0; t < MODEL_NUM_TC; t++) {
		p->tc_to_pg[t] = (uint8_t)t;
		p->tc_to_ucq[t] = (uint8_t)t;
		p->tc_to_mcq[t] = (uint8_t)t;
	}
	for (unsigned g = 0; g < MODEL_NUM_PG; g++) {
		struct model_pg_config *pg = &p->pg[g];
		pg->min_cells = 8;
		pg->shared.mode = MODEL_LIMIT_DYNAMIC;
		pg->shared.alpha = 1.0;
		pg->shared.cells = 0;
	}
	for (unsigned q = 0; q < MODEL_MAX_QUEUES; q++) {
		struct model_queue_config *uq = &p->ucq[q], *mq = &p->mcq[q];
		uq->min_cells = 8;
		uq->shared.mode = MODEL_LIMIT_DYNAMIC;
		uq->shared.alpha = 1.0;
		uq->sched = MODEL_SCHED_SP;
		uq->weight = 1;
		*mq = *uq;
	}
}

int model_config_init(struct model_config *cfg, unsigned nports, uint64_t speed_bps)
{
	memset(cfg, 0, sizeof(*cfg));
	if (nports < 1 || nports > MODEL_MAX_PORTS)
		return -1;
	cfg->ports = calloc(nports, sizeof(*cfg->ports));
	if (cfg->ports == NULL)
		return -1;
	cfg->nports = nports;
	cfg->cell_bytes = MODEL_CELL_DEFAULT;
	for (unsigned i = 0; i < nports; i++)
		port_defaults(&cfg->ports[i], i, speed_bps, 0);
	port_defaults(&cfg->cpu, nports, MODEL_MIN_SPEED, 1);
	/* mins: 8 PGs + 16 queues x 8 cells per port; make room for them */
	uint64_t mins = (uint64_t)(nports + 1) * MODEL_NUM_PG * 8;
	uint64_t total = 65536;
	if (total < mins * 4)
		total = mins * 4;
	cfg->total_cells = (uint32_t)total;
	cfg->n_ing_pools = 1;
	cfg->n_egr_pools = 1;
	cfg->ing_pool_cells[0] = (uint32_t)(total - mins);
	cfg->egr_pool_cells[0] = (uint32_t)(total - 2 * mins);
	cfg->seed = 1;
	cfg->dwrr_quantum = 2048;
	cfg->event_capacity = 4096;
	cfg->event_hdr_bytes = 128;
	cfg->marker_tick_ns = 1000;
	cfg->marker_tick_queues = 64;
	return 0;
}

void model_config_release(struct model_config *cfg)
{
	free(cfg->ports);
	free(cfg->mc_groups);
	free((void *)cfg->iarb);
	free((void *)cfg->fb);
	cfg->iarb = NULL;
	cfg->fb = NULL;
	cfg->ports = NULL;
	cfg->mc_groups = NULL;
	cfg->nports = 0;
	cfg->n_mc_groups = 0;
}

int model_err_set(struct model_err *err, const char *fmt, ...)
{
	if (err != NULL) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int check_limit(const struct model_limit *l, const char *what, const char *pname, unsigned i,
		       struct model_err *err)
{
	if (l->mode == MODEL_LIMIT_STATIC)
		return 0;
	if (l->mode != MODEL_LIMIT_DYNAMIC)
		return model_err_set(err,
				     "%s: %s %u: limit mode %u is not static (0) or dynamic (1)",
				     pname, what, i, l->mode);
	if (!(l->alpha > 0.0 && l->alpha <= 1024.0))
		return model_err_set(err, "%s: %s %u: alpha %g out of range (0, 1024]", pname, what,
				     i, l->alpha);
	return 0;
}

static int check_queue(const struct model_config *cfg, const struct model_queue_config *q,
		       const char *pname, const char *what, unsigned i, struct model_err *err)
{
	if (q->pool >= cfg->n_egr_pools)
		return model_err_set(err, "%s: %s %u: egress pool %u does not exist (%u pools)",
				     pname, what, i, q->pool, cfg->n_egr_pools);
	if (check_limit(&q->shared, what, pname, i, err) < 0)
		return -1;
	if (q->sched != MODEL_SCHED_SP && q->sched != MODEL_SCHED_DWRR)
		return model_err_set(err, "%s: %s %u: scheduler %u is not sp (0) or dwrr (1)",
				     pname, what, i, q->sched);
	if (q->sched == MODEL_SCHED_DWRR && (q->weight < 1 || q->weight > 1024))
		return model_err_set(err, "%s: %s %u: dwrr weight %u out of range 1..1024", pname,
				     what, i, q->weight);
	if (q->wred.enabled) {
		if (q->wred.max_bytes <= q->wred.min_bytes)
			return model_err_set(err, "%s: %s %u: wred max %u must exceed min %u",
					     pname, what, i, q->wred.max_bytes, q->wred.min_bytes);
		if (!(q->wred.max_prob >= 0.0 && q->wred.max_prob <= 1.0))
			return model_err_set(err,
					     "%s: %s %u: wred probability %g out of range 0..1",
					     pname, what, i, q->wred.max_prob);
		if (q->wred.ecn > 1 || q->wred.gain > 15)
			return model_err_set(
			    err,
			    "%s: %s %u: wred ecn %u (0 or 1) or gain %u (0..15) out "
			    "of range",
			    pname, what, i, q->wred.ecn, q->wred.gain);
	}
	return 0;
}

static int check_port(const struct model_config *cfg, const struct model_port_config *p,
		      uint64_t *ing_min, uint64_t *egr_min, struct model_err *err)
{
	const char *n = p->name;
	if (p->speed_bps < MODEL_MIN_SPEED || p->speed_bps > MODEL_MAX_SPEED)
		return model_err_set(err, "port %s: speed %llu bit/s out of range 1G..800G", n,
				     (unsigned long long)p->speed_bps);
	if (p->n_ucq < 1 || p->n_ucq > MODEL_MAX_QUEUES)
		return model_err_set(err, "port %s: %u unicast queues, must be 1..8", n, p->n_ucq);
	if (p->n_mcq > MODEL_MAX_QUEUES)
		return model_err_set(err, "port %s: %u multicast queues, must be 0..8", n,
				     p->n_mcq);
	if (p->overhead_bytes > 1000)
		return model_err_set(err, "port %s: overhead %u bytes out of range 0..1000", n,
				     p->overhead_bytes);
	for (unsigned t = 0; t < MODEL_NUM_TC; t++) {
		if (p->tc_to_pg[t] >= MODEL_NUM_PG)
			return model_err_set(err, "port %s: tc %u maps to PG %u (0..7)", n, t,
					     p->tc_to_pg[t]);
		if (p->tc_to_ucq[t] >= p->n_ucq)
			return model_err_set(err,
					     "port %s: tc %u maps to unicast queue %u (has %u)", n,
					     t, p->tc_to_ucq[t], p->n_ucq);
		if (p->n_mcq > 0 && p->tc_to_mcq[t] >= p->n_mcq)
			return model_err_set(err,
					     "port %s: tc %u maps to multicast queue %u (has %u)",
					     n, t, p->tc_to_mcq[t], p->n_mcq);
	}
	for (unsigned g = 0; g < MODEL_NUM_PG; g++) {
		const struct model_pg_config *pg = &p->pg[g];
		if (pg->pool >= cfg->n_ing_pools)
			return model_err_set(
			    err, "port %s: PG %u: ingress pool %u does not exist (%u pools)", n, g,
			    pg->pool, cfg->n_ing_pools);
		if (check_limit(&pg->shared, "PG", n, g, err) < 0)
			return -1;
		if (pg->lossless) {
			if (pg->xon_cells > pg->xoff_cells && pg->xoff_cells != 0)
				return model_err_set(err, "port %s: PG %u: xon %u above xoff %u", n,
						     g, pg->xon_cells, pg->xoff_cells);
		} else if (pg->headroom_cells != 0) {
			return model_err_set(err, "port %s: PG %u: headroom %u on a lossy PG", n, g,
					     pg->headroom_cells);
		}
		*ing_min += pg->min_cells + pg->headroom_cells;
	}
	for (unsigned q = 0; q < p->n_ucq; q++) {
		if (check_queue(cfg, &p->ucq[q], n, "unicast queue", q, err) < 0)
			return -1;
		*egr_min += p->ucq[q].min_cells;
	}
	for (unsigned q = 0; q < p->n_mcq; q++) {
		if (check_queue(cfg, &p->mcq[q], n, "multicast queue", q, err) < 0)
			return -1;
		*egr_min += p->mcq[q].min_cells;
	}
	return 0;
}

int model_buffer_fits(uint32_t cells, uint32_t cell_bytes)
{
	/* model.c: bytes in the low bit length of the buffer's bytes, cells
	 * above them, with room for thresholds a little above the buffer */
	uint64_t bytes = (uint64_t)cells * cell_bytes;
	if (bytes == 0)
		return 1;
	unsigned shift = 64u - (unsigned)__builtin_clzll(bytes);
	return (uint64_t)cells + 65536 <= UINT64_MAX >> shift;
}

int model_config_check(const struct model_config *cfg, struct model_err *err)
{
	if (cfg->nports < 1 || cfg->nports > MODEL_MAX_PORTS || cfg->ports == NULL)
		return model_err_set(err, "ports: %u ports, must be 1..%u", cfg->nports,
				     MODEL_MAX_PORTS);
	if (cfg->cell_bytes < 32 || cfg->cell_bytes > 65536)
		return model_err_set(err, "cell size %u bytes out of range 32..65536",
				     cfg->cell_bytes);
	if (cfg->total_cells < 1)
		return model_err_set(err, "buffer: 0 cells");
	if (!model_buffer_fits(cfg->total_cells, cfg->cell_bytes))
		return model_err_set(
		    err,
		    "buffer: %u cells of %u bytes, too large for the model's counters "
		    "(larger cells would fit)",
		    cfg->total_cells, cfg->cell_bytes);
	if (cfg->n_ing_pools < 1 || cfg->n_ing_pools > MODEL_MAX_POOLS)
		return model_err_set(err, "%u ingress pools, must be 1..4", cfg->n_ing_pools);
	if (cfg->n_egr_pools < 1 || cfg->n_egr_pools > MODEL_MAX_POOLS)
		return model_err_set(err, "%u egress pools, must be 1..4", cfg->n_egr_pools);
	if (cfg->event_hdr_bytes > MODEL_EVENT_HDR_MAX)
		return model_err_set(err, "event header bytes %u above %u", cfg->event_hdr_bytes,
				     MODEL_EVENT_HDR_MAX);
	if (cfg->dwrr_quantum < 64 || cfg->dwrr_quantum > (1u << 20))
		return model_err_set(err, "dwrr quantum %u bytes out of range 64..1048576",
				     cfg->dwrr_quantum);
	if (cfg->dwrr_wire > 1)
		return model_err_set(err, "dwrr_wire %u is not 0 (frame bytes) or 1 (wire bytes)",
				     cfg->dwrr_wire);
	if (cfg->event_capacity > (1u << 24))
		return model_err_set(err, "event ring capacity %u above %u", cfg->event_capacity,
				     1u << 24);
	uint64_t ing = 0, egr = 0;
	for (unsigned i = 0; i < cfg->n_ing_pools; i++)
		ing += cfg->ing_pool_cells[i];
	for (unsigned i = 0; i < cfg->n_egr_pools; i++)
		egr += cfg->egr_pool_cells[i];
	for (unsigned i = 0; i <= cfg->nports; i++) {
		const struct model_port_config *p = i < cfg->nports ? &cfg->ports[i] : &cfg->cpu;
		if (check_port(cfg, p, &ing, &egr, err) < 0)
			return -1;
	}
	if (ing > cfg->total_cells)
		return model_err_set(
		    err,
		    "buffer: ingress pools + PG minimums + headroom = %llu cells, above "
		    "the %u cells of the buffer",
		    (unsigned long long)ing, cfg->total_cells);
	if (egr > cfg->total_cells)
		return model_err_set(
		    err,
		    "buffer: egress pools + queue minimums = %llu cells, above the %u "
		    "cells of the buffer",
		    (unsigned long long)egr, cfg->total_cells);
	for (unsigned g = 0; g < cfg->n_mc_groups; g++) {
		const struct model_mc_group *mg = &cfg->mc_groups[g];
		if (mg->nports < 1 || mg->nports > 64)
			return model_err_set(err, "multicast group %u: %u ports, must be 1..64",
					     g + 1, mg->nports);
		for (unsigned k = 0; k < mg->nports; k++)
			if (mg->ports[k] > cfg->nports)
				return model_err_set(
				    err, "multicast group %u: port index %u out of range", g + 1,
				    mg->ports[k]);
	}
	return 0;
}
