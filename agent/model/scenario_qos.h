/*
 * scenario_qos.h - the model section's queueing and admission settings
 * (scenario_qos.c): thresholds, minimums, lossless classes with their
 * headroom and PFC thresholds, schedulers and weights, on three levels:
 * the whole switch (keys of the model section), ports (keys of `port`
 * sections), queues and priority groups (`queue`, `mc_queue` and `pg`
 * sections, in the model section or in a port section); and the `wred`
 * sections (WRED, ECN marking, averaged depth).  Keys documented in
 * bsflowd.conf(5).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_SCENARIO_QOS_H
#define BSFLOWD_MODEL_SCENARIO_QOS_H

#include <confuse.h>
#include <stdint.h>

#include "agent/confval.h"
#include "agent/model/model.h"

extern cfg_opt_t model_scen_queue_opts[];
extern cfg_opt_t model_scen_pg_opts[];

/* The keys and subsections both the model section and a port section
 * have (in their option tables). */
#define MODEL_SCEN_QOS_OPTS                                                                        \
	CONF_V("alpha"), CONF_V("pg_alpha"), CONF_V("queue_limit"), CONF_V("queue_min"),           \
	    CONF_V("pg_min"), CONF_V("queue_packets"), CONF_V("scheduler"), CONF_VL("weights"),    \
	    CONF_VL("lossless"), CONF_V("headroom"), CONF_V("xoff"), CONF_V("xon"),                \
	    CONF_V("pfc_delay"),                                                                   \
	    CFG_SEC("queue", model_scen_queue_opts,                                                \
		    CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),                                \
	    CFG_SEC("mc_queue", model_scen_queue_opts,                                             \
		    CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),                                \
	    CFG_SEC("pg", model_scen_pg_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES)

/* Bytes as cells of cell bytes, rounded up (at most UINT32_MAX). */
uint32_t model_scen_cells(uint64_t bytes, uint32_t cell);

/* A section title that is a number or a range A-B within 0..max: *a,
 * *b.  0, or -1 (not one). */
int model_scen_range_title(const char *t, long max, long *a, long *b);

/*
 * The settings of the model section sec (NULL: none) and of its port,
 * queue, mc_queue, pg and wred sections into cfg, whose ports have
 * ucq unicast and mcq multicast queues: first the model section's keys
 * on every front-panel port, then each port section's keys on its
 * ports, then the model section's queue, mc_queue and pg sections on
 * every port, then the port sections' on theirs (each in file order:
 * the more specific wins, and among equals the later), then the wred
 * sections.  0, or -1 with the message in x.
 */
int model_scen_qos_build(struct conf_ctx *x, cfg_t *sec, struct model_config *cfg, unsigned ucq,
			 unsigned mcq);

#endif
