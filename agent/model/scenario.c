/*
 * scenario.c - the `model` config section: option table, conversion into
 * a model_config plus traffic generator / replay configurations, and the
 * built-in demo scenario (see scenario.h).
 *
 * Every value option is a libconfuse "pointer" option (CONF_V,
 * agent/confval.h) that only records the raw text and the line it was on.
 * All checking happens afterwards, here, with the shared conf_ parsers,
 * where the file name and the whole section are known, so each error
 * reads "FILE:LINE: key: problem" with the right line.
 * Every key is documented in bsflowd.conf(5) (the MODEL SECTION part).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include "agent/model/scenario.h"

#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <arpa/inet.h>

#include "agent/confval.h"
#include "agent/model/headers.h"
#include "agent/model/scenario_ext.h"
#include "agent/model/scenario_qos.h"

static cfg_opt_t port_opts[] = {CONF_V("speed"), CONF_V("name"), CONF_V("sampling_rate"),
				MODEL_SCEN_QOS_OPTS, CFG_END()};

static cfg_opt_t wred_opts[] = {CONF_VL("ports"),      CONF_VL("queues"), CONF_V("min"),
				CONF_V("max"),	       CONF_V("ecn"),	  CONF_V("gain"),
				CONF_V("probability"), CFG_END()};

static cfg_opt_t mcg_opts[] = {CONF_VL("ports"), CFG_END()};

static cfg_opt_t traffic_opts[] = {
    CONF_VL("ports"),	 CONF_V("rate"),	CONF_V("size"),
    CONF_V("size_mean"), CONF_V("arrival"),	CONF_V("period"),
    CONF_V("duty"),	 CONF_V("phase"),	CONF_V("start"),
    CONF_V("stop"),	 CONF_V("packets"),	CONF_V("destination"),
    CONF_VL("to"),	 CONF_V("hotspot"),	CONF_V("flows"),
    CONF_V("ip"),	 CONF_V("protocol"),	CONF_V("vlan"),
    CONF_V("pcp"),	 CONF_V("dscp"),	CONF_V("ecn"),
    CONF_V("dport"),	 CONF_V("multicast"),	CONF_V("mc_group"),
    CONF_V("drop"),	 CONF_V("drop_reason"), CFG_END()};

static cfg_opt_t replay_opts[] = {CONF_V("file"),	   CONF_VL("ingress_ports"),
				  CONF_VL("egress_ports"), CONF_VL("vlan_ports"),
				  CONF_VL("egress_map"),   CONF_V("time_scale"),
				  CONF_V("start"),	   CONF_V("loop"),
				  CONF_V("mc_group"),	   CFG_END()};

static cfg_opt_t model_opts[] = {
    CONF_V("seed"),
    CONF_V("ports"),
    CONF_V("speed"),
    CONF_V("cell_size"),
    CONF_V("buffer"),
    CONF_V("unicast_queues"),
    CONF_V("multicast_queues"),
    CONF_V("dwrr_quantum"),
    CONF_V("dwrr_count"),
    CONF_V("sampling_rate"),
    CONF_V("duration"),
    MODEL_SCEN_QOS_OPTS,
    CFG_SEC("port", port_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_SEC("wred", wred_opts, CFGF_MULTI),
    CFG_SEC("mc_group", mcg_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_SEC("traffic", traffic_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_SEC("replay", replay_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_SEC("ingress_arbitration", model_scen_iarb_opts, CFGF_NONE),
    CFG_SEC("flow_admission", model_scen_fb_opts, CFGF_NONE),
    CFG_END()};

cfg_opt_t *model_conf_opts(void)
{
	return model_opts;
}

/* ---- value parsers of the model's own (the rest are in confval.h) ---- */

static int parse_speed(struct conf_ctx *x, const struct conf_val *v, const char *key, uint64_t *out)
{
	return conf_rate(x, v, key, MODEL_MIN_SPEED, MODEL_MAX_SPEED, out);
}

/* A list of port numbers and ranges "a-b"; every port below nports. */
static int parse_ports(struct conf_ctx *x, cfg_t *sec, const char *key, unsigned nports,
		       uint16_t **out, unsigned *nout)
{
	unsigned n = cfg_size(sec, key), i, k = 0, cap = 0;
	uint16_t *list = NULL;

	*out = NULL;
	*nout = 0;
	for (i = 0; i < n; i++) {
		const struct conf_val *v = cfg_getnptr(sec, key, i);
		long long a, b;

		if (conf_range(x, v, key, 0, (long long)nports - 1, &a, &b) < 0) {
			free(list);
			return -1;
		}
		for (long long p = a; p <= b; p++) {
			if (k == cap) {
				uint16_t *nl;

				cap = cap ? cap * 2 : 16;
				nl = realloc(list, cap * sizeof(*list));
				if (!nl) {
					free(list);
					return conf_fail(x, v, key, "out of memory");
				}
				list = nl;
			}
			for (unsigned j = 0; j < k; j++) {
				if (list[j] == p) {
					free(list);
					return conf_fail(
					    x, v, key,
					    "port %lld listed twice; allowed: each port "
					    "once",
					    p);
				}
			}
			list[k++] = (uint16_t)p;
		}
	}
	*out = list;
	*nout = k;
	return 0;
}

/* ---- the switch part ---- */

static int build_switch(struct conf_ctx *x, cfg_t *sec, struct model_scenario *sc)
{
	struct model_config *cfg = &sc->cfg;
	const struct conf_val *v;
	long long n, nports = 8, ucq = 8, mcq = 0;
	uint64_t speed = 10000000000ull, b;
	unsigned i, q, g;

	if (conf_get_int(x, sec, "ports", 1, MODEL_MAX_PORTS, &nports) < 0)
		return -1;
	if ((v = conf_get(sec, "speed")) && parse_speed(x, v, "speed", &speed) < 0)
		return -1;
	if (model_config_init(cfg, (unsigned)nports, speed) < 0)
		return conf_fail(x, NULL, NULL, "out of memory");
	n = 1;
	if (conf_get_int(x, sec, "seed", 0, LONG_MAX, &n) < 0)
		return -1;
	cfg->seed = (uint64_t)n;
	if (conf_get_int(x, sec, "cell_size", 64, 16384, &n) < 0)
		return -1;
	if (conf_get(sec, "cell_size"))
		cfg->cell_bytes = (uint32_t)n;
	if ((v = conf_get(sec, "buffer"))) {
		if (conf_size(x, v, "buffer", 0, 64ULL << 30, &b) < 0)
			return -1;
		if (b / cfg->cell_bytes < 1)
			return conf_fail(x, v, "buffer",
					 "less than one cell; allowed: %u bytes and up",
					 cfg->cell_bytes);
		cfg->total_cells = (uint32_t)(b / cfg->cell_bytes);
		if (!model_buffer_fits(cfg->total_cells, cfg->cell_bytes))
			return conf_fail(x, v, "buffer",
					 "too large for the model's counters with %u-byte cells; "
					 "allowed: less, or a larger cell_size",
					 cfg->cell_bytes);
	} else if (conf_get(sec, "cell_size")) {
		/* keep the default 16 MB (or more) in bytes */
		cfg->total_cells =
		    (uint32_t)((uint64_t)cfg->total_cells * MODEL_CELL_DEFAULT / cfg->cell_bytes);
	}
	if (conf_get_int(x, sec, "unicast_queues", 1, MODEL_MAX_QUEUES, &ucq) < 0 ||
	    conf_get_int(x, sec, "multicast_queues", 0, MODEL_MAX_QUEUES, &mcq) < 0)
		return -1;

	/* per-port overrides */
	for (i = 0; i < cfg_size(sec, "port"); i++) {
		cfg_t *ps = cfg_getnsec(sec, "port", i);
		const char *t = cfg_title(ps);
		struct model_port_config *p;
		long pn, pl;
		uint64_t sp = 0;

		conf_enter(x, "model", "port", t, conf_section_line(ps));
		/* a port number, or a range A-B of them */
		if (model_scen_range_title(t, (long)nports - 1, &pn, &pl) < 0)
			return conf_fail(
			    x, NULL, NULL,
			    "not a port number or range; allowed: 0..%lld, or A-B with "
			    "A <= B in it",
			    nports - 1);
		if ((v = conf_get(ps, "speed")) && parse_speed(x, v, "speed", &sp) < 0)
			return -1;
		if (conf_get_int(x, ps, "sampling_rate", 0, LONG_MAX, &n) < 0)
			return -1;
		if ((v = conf_get(ps, "name")) && pl > pn)
			return conf_fail(
			    x, v, "name",
			    "given for the range %ld-%ld; allowed: in a section of one "
			    "port",
			    pn, pl);
		for (long k = pn; k <= pl; k++) {
			p = &cfg->ports[k];
			if (conf_get(ps, "speed"))
				p->speed_bps = sp;
			if ((v = conf_get(ps, "name")) &&
			    conf_name(x, v, "name", NULL, p->name, sizeof(p->name)) < 0)
				return -1;
			if (conf_get(ps, "sampling_rate"))
				p->sampling_rate = (uint32_t)n;
		}
		conf_enter(x, "model", NULL, NULL, 0);
	}

	/* sampling on every front-panel port that its port section left off */
	if (conf_get_int(x, sec, "sampling_rate", 0, LONG_MAX, &n) < 0)
		return -1;
	if (conf_get(sec, "sampling_rate"))
		for (i = 0; i < cfg->nports; i++)
			if (!cfg->ports[i].sampling_rate)
				cfg->ports[i].sampling_rate = (uint32_t)n;
	/* queues, limits, lossless classes, scheduling, WRED: per switch,
	 * port, queue and PG */
	if (model_scen_qos_build(x, sec, cfg, (unsigned)ucq, (unsigned)mcq) < 0)
		return -1;
	conf_enter(x, "model", NULL, NULL, 0);

	/* multicast groups, numbered 1..n */
	n = cfg_size(sec, "mc_group");
	if (n > 0) {
		cfg->mc_groups = calloc((size_t)n, sizeof(*cfg->mc_groups));
		if (!cfg->mc_groups)
			return conf_fail(x, NULL, NULL, "out of memory");
		cfg->n_mc_groups = (uint32_t)n;
	}
	for (i = 0; i < (unsigned)n; i++) {
		cfg_t *gs = cfg_getnsec(sec, "mc_group", i);
		const char *t = cfg_title(gs);
		uint16_t *ports;
		unsigned np;
		char *end;
		long gn;

		errno = 0;
		gn = strtol(t, &end, 10);
		conf_enter(x, "model", "mc_group", t, conf_section_line(gs));
		if (end == t || *end || errno || gn < 1 || gn > n)
			return conf_fail(x, NULL, NULL,
					 "not a group number; allowed: 1..%lld (one section each)",
					 n);
		if (parse_ports(x, gs, "ports", cfg->nports, &ports, &np) < 0)
			return -1;
		if (np < 1 || np > 64) {
			free(ports);
			return conf_fail(x, NULL, "ports", "%u ports; allowed: 1..64 ports", np);
		}
		memcpy(cfg->mc_groups[gn - 1].ports, ports, np * sizeof(*ports));
		cfg->mc_groups[gn - 1].nports = (uint16_t)np;
		free(ports);
		conf_enter(x, "model", NULL, NULL, 0);
	}

	/* shared pools: the buffer less the minimum guarantees and headroom */
	{
		uint64_t ing = 0, egr = 0;

		for (i = 0; i <= cfg->nports; i++) {
			const struct model_port_config *p =
			    i < cfg->nports ? &cfg->ports[i] : &cfg->cpu;

			for (g = 0; g < MODEL_NUM_PG; g++)
				ing += p->pg[g].min_cells + p->pg[g].headroom_cells;
			for (q = 0; q < p->n_ucq; q++)
				egr += p->ucq[q].min_cells;
			for (q = 0; q < p->n_mcq; q++)
				egr += p->mcq[q].min_cells;
		}
		if (ing >= cfg->total_cells || egr >= cfg->total_cells) {
			const struct conf_val *bv = conf_get(sec, "buffer");

			/* (the default buffer: the model section's line) */
			if (!bv)
				conf_enter(x, "model", NULL, NULL, conf_section_line(sec));
			return conf_fail(
			    x, bv, "buffer",
			    "%u cells of %u bytes leave nothing shared after the minimum "
			    "guarantees and headroom (%llu ingress, %llu egress cells); allowed: "
			    "a larger buffer, or smaller minimums (queue_min, pg_min, queue and "
			    "pg sections' min) or headroom",
			    cfg->total_cells, cfg->cell_bytes, (unsigned long long)ing,
			    (unsigned long long)egr);
		}
		cfg->ing_pool_cells[0] = (uint32_t)(cfg->total_cells - ing);
		cfg->egr_pool_cells[0] = (uint32_t)(cfg->total_cells - egr);
	}

	if ((v = conf_get(sec, "duration")) &&
	    conf_time(x, v, "duration", 0, CONF_TIME_MAX, &sc->duration_ns) < 0)
		return -1;
	return 0;
}

/* ---- traffic sections ---- */

static int parse_size(struct conf_ctx *x, const struct conf_val *v, struct model_gen_conf *c)
{
	long long a, b;

	if (strcasecmp(v->text, "imix") == 0) {
		c->size = MODEL_SIZE_IMIX;
		return 0;
	}
	if (strcasecmp(v->text, "exponential") == 0) {
		c->size = MODEL_SIZE_EXP;
		c->size_lo = 0; /* the smallest frame its headers fit */
		c->size_hi = MODEL_FRAME_MAX;
		return 0;
	}
	if (conf_parse_range(v->text, &a, &b) < 0)
		return conf_fail(x, v, "size",
				 "not a size; allowed: imix, exponential, N or A-B in %d..%d bytes",
				 MODEL_FRAME_MIN, MODEL_FRAME_MAX);
	if (a < MODEL_FRAME_MIN || b > MODEL_FRAME_MAX || a > b)
		return conf_fail(
		    x, v, "size",
		    "out of range; allowed: imix, exponential, N or A-B in %d..%d bytes",
		    MODEL_FRAME_MIN, MODEL_FRAME_MAX);
	c->size = a == b ? MODEL_SIZE_FIXED : MODEL_SIZE_UNIFORM;
	c->size_lo = (uint32_t)a;
	c->size_hi = (uint32_t)b;
	return 0;
}

static int parse_reason(struct conf_ctx *x, const struct conf_val *v, uint16_t *out)
{
	long long n;

	if (model_drop_fwd_code(v->text, out) == 0)
		return 0;
	if (!isdigit((unsigned char)v->text[0]))
		return conf_fail(x, v, "drop_reason",
				 "unknown word; allowed: ttl_exceeded, acl, blackhole_route or a "
				 "reason code 1..65535");
	if (conf_int(x, v, "drop_reason", 1, 65535, &n) < 0)
		return -1;
	*out = (uint16_t)n;
	return 0;
}

/* Append a generator; flow ids follow on from the previous one's. */
static int add_gen(struct model_scenario *sc, const struct model_gen_conf *c)
{
	struct model_gen_conf *ng = realloc(sc->gen, (sc->ngen + 1) * sizeof(*ng));

	if (!ng)
		return -1;
	sc->gen = ng;
	ng[sc->ngen] = *c;
	ng[sc->ngen].flow_base =
	    sc->ngen ? ng[sc->ngen - 1].flow_base + model_gen_flow_ids(&ng[sc->ngen - 1]) : 0;
	sc->ngen++;
	return 0;
}

static int build_traffic(struct conf_ctx *x, cfg_t *ts, unsigned index, struct model_scenario *sc)
{
	static const char *const arrivals[] = {"constant", "poisson", "onoff", "poisson_link",
					       NULL};
	static const char *const dests[] = {"fixed",	   "uniform", "hotspot",
					    "permutation", "incast",  NULL};
	static const char *const protos[] = {"udp", "tcp", NULL};
	const struct model_config *cfg = &sc->cfg;
	struct model_gen_conf c;
	const struct conf_val *v, *ratev = conf_get(ts, "rate");
	uint16_t *ports = NULL, perm[MODEL_MAX_PORTS];
	unsigned np, i;
	double rate_frac = 0.1, rate_bps = 0;
	int k, rc = -1;
	long long n;
	char gerr[200];

	model_gen_defaults(&c);
	c.nports = (uint16_t)cfg->nports;
	c.size = MODEL_SIZE_IMIX;
	c.dest = MODEL_DEST_UNIFORM;
	c.nflows = 4;
	c.hotspot = 0.5;
	if (parse_ports(x, ts, "ports", cfg->nports, &ports, &np) < 0)
		return -1;
	if (np == 0) {
		conf_fail(x, NULL, "ports",
			  "missing; allowed: the ingress ports, e.g. ports = {1-4}");
		goto out;
	}
	if (ratev) {
		const char *pct = strchr(ratev->text, '%');

		if (pct) {
			if (conf_frac(x, ratev, "rate", 0, 1, &rate_frac) < 0)
				goto out;
			if (rate_frac <= 0) {
				conf_fail(x, ratev, "rate", "out of range; allowed: above 0%%");
				goto out;
			}
		} else if (conf_parse_rate(ratev->text, &rate_bps) < 0 || !(rate_bps > 0)) {
			conf_fail(x, ratev, "rate",
				  "not a rate; allowed: a percentage of line rate, or bits/s with "
				  "suffix K, M, G or T (powers of 1000), above 0");
			goto out;
		}
	}
	if ((v = conf_get(ts, "size")) && parse_size(x, v, &c) < 0)
		goto out;
	if ((v = conf_get(ts, "size_mean"))) {
		uint64_t mb;

		if (c.size != MODEL_SIZE_EXP) {
			conf_fail(x, v, "size_mean",
				  "without size = exponential; allowed: with it");
			goto out;
		}
		if (conf_size(x, v, "size_mean", MODEL_FRAME_MIN + 1, MODEL_FRAME_MAX - 1, &mb) < 0)
			goto out;
		c.size_mean = (double)mb;
	} else if (c.size == MODEL_SIZE_EXP) {
		conf_fail(x, conf_get(ts, "size"), "size_mean",
			  "missing; allowed: the mean frame length in bytes (exponential sizes "
			  "need one)");
		goto out;
	}
	if ((v = conf_get(ts, "arrival"))) {
		if (conf_enum(x, v, "arrival", arrivals, &k) < 0)
			goto out;
		c.arrival = (enum model_arrival_kind)k;
	}
	if ((v = conf_get(ts, "period")) &&
	    conf_time(x, v, "period", 0, CONF_TIME_MAX, &c.period_ns) < 0)
		goto out;
	if ((v = conf_get(ts, "duty")) && conf_frac(x, v, "duty", 0, 1, &c.duty) < 0)
		goto out;
	if ((v = conf_get(ts, "phase")) &&
	    conf_time(x, v, "phase", 0, CONF_TIME_MAX, &c.phase_ns) < 0)
		goto out;
	if ((v = conf_get(ts, "start")) &&
	    conf_time(x, v, "start", 0, CONF_TIME_MAX, &c.start_ns) < 0)
		goto out;
	if ((v = conf_get(ts, "stop")) && conf_time(x, v, "stop", 0, CONF_TIME_MAX, &c.stop_ns) < 0)
		goto out;
	if (v && c.stop_ns <= c.start_ns) {
		conf_fail(x, v, "stop", "not after start; allowed: a later time than start");
		goto out;
	}
	if (conf_get_int(x, ts, "packets", 0, LONG_MAX, &n) < 0)
		goto out;
	if (conf_get(ts, "packets"))
		c.max_packets = (uint64_t)n;
	if (c.arrival == MODEL_ARRIVAL_ONOFF) {
		if (!conf_get(ts, "period")) {
			conf_fail(x, conf_get(ts, "arrival"), "period",
				  "missing; allowed: a time (onoff arrivals need a period)");
			goto out;
		}
		if (!(c.duty > 0)) {
			conf_fail(x, conf_get(ts, "duty"), "duty",
				  "out of range; allowed: above 0");
			goto out;
		}
		if (!conf_get(ts, "duty")) {
			conf_fail(
			    x, conf_get(ts, "arrival"), "duty",
			    "missing; allowed: a fraction (onoff arrivals need a duty cycle)");
			goto out;
		}
	}
	if ((v = conf_get(ts, "destination"))) {
		if (conf_enum(x, v, "destination", dests, &k) < 0)
			goto out;
		c.dest = (enum model_dest_kind)k;
	}
	if ((v = conf_get(ts, "to"))) {
		/* a port, or a set of them (ECMP: each flow hashed to one) */
		uint16_t *tos;
		unsigned nto;

		if (parse_ports(x, ts, "to", cfg->nports, &tos, &nto) < 0)
			goto out;
		if (nto > MODEL_GEN_MAX_TO ||
		    (nto > 1 && c.dest != MODEL_DEST_FIXED && c.dest != MODEL_DEST_INCAST)) {
			conf_fail(
			    x, v, "to",
			    "%u ports; allowed: one port, or with destination fixed or incast "
			    "a set of at most %u ports",
			    nto, MODEL_GEN_MAX_TO);
			free(tos);
			goto out;
		}
		c.dest_port = tos[0];
		if (nto > 1) {
			c.n_to = (uint16_t)nto;
			memcpy(c.to, tos, nto * sizeof(*tos));
		}
		free(tos);
	} else if (c.dest == MODEL_DEST_FIXED || c.dest == MODEL_DEST_HOTSPOT ||
		   c.dest == MODEL_DEST_INCAST) {
		conf_fail(x, conf_get(ts, "destination"), "to",
			  "missing; allowed: a port (destination %s needs one)", dests[c.dest]);
		goto out;
	}
	if ((v = conf_get(ts, "hotspot")) && conf_frac(x, v, "hotspot", 0, 1, &c.hotspot) < 0)
		goto out;
	if (c.dest == MODEL_DEST_PERMUTATION && np < 2) {
		conf_fail(
		    x, conf_get(ts, "destination"), "destination",
		    "permutation with one port; allowed: two or more ports in the ports list");
		goto out;
	}
	if (c.dest == MODEL_DEST_INCAST) {
		for (i = 0; i < np * (c.n_to > 1 ? c.n_to : 1u); i++) {
			if (ports[i % np] == (c.n_to > 1 ? c.to[i / np] : c.dest_port)) {
				conf_fail(x, conf_get(ts, "to"), "to",
					  "the incast target is also one of the senders; allowed: "
					  "a port not in ports");
				goto out;
			}
		}
	}
	if (conf_get_int(x, ts, "flows", 1, MODEL_GEN_MAX_FLOWS, &n) < 0)
		goto out;
	if (conf_get(ts, "flows"))
		c.nflows = (uint32_t)n;
	if (conf_get_int(x, ts, "ip", 4, 6, &n) < 0)
		goto out;
	if ((v = conf_get(ts, "ip"))) {
		if (n == 5) {
			conf_fail(x, v, "ip", "out of range; allowed: 4 or 6");
			goto out;
		}
		c.ip_version = (uint8_t)n;
	}
	if ((v = conf_get(ts, "protocol"))) {
		if (conf_enum(x, v, "protocol", protos, &k) < 0)
			goto out;
		c.l4 = k ? MODEL_IPPROTO_TCP : MODEL_IPPROTO_UDP;
	}
	if (conf_get_int(x, ts, "vlan", 0, 4095, &n) < 0)
		goto out;
	if (conf_get(ts, "vlan"))
		c.vlan = (int)n;
	if (conf_get_int(x, ts, "pcp", 0, 7, &n) < 0)
		goto out;
	if ((v = conf_get(ts, "pcp"))) {
		if (c.vlan < 0) {
			conf_fail(
			    x, v, "pcp",
			    "no vlan; allowed: with a vlan (the PCP travels in the 802.1Q tag)");
			goto out;
		}
		c.pcp = (uint8_t)n;
	}
	if (conf_get_int(x, ts, "dscp", 0, 63, &n) < 0)
		goto out;
	if (conf_get(ts, "dscp"))
		c.dscp = (uint8_t)n;
	if ((v = conf_get(ts, "ecn"))) {
		/* in the order of the field's values (RFC 3168) */
		static const char *const ecns[] = {"not_ect", "ect1", "ect0", "ce", NULL};

		if (conf_enum(x, v, "ecn", ecns, &k) < 0)
			goto out;
		c.ecn = (uint8_t)k;
	}
	if (conf_get_int(x, ts, "dport", 0, 65535, &n) < 0)
		goto out;
	if (conf_get(ts, "dport"))
		c.dport = (uint16_t)n;
	if ((v = conf_get(ts, "multicast")) &&
	    conf_frac(x, v, "multicast", 0, 1, &c.mc_fraction) < 0)
		goto out;
	if ((v = conf_get(ts, "mc_group"))) {
		if (cfg->n_mc_groups == 0) {
			conf_fail(x, v, "mc_group",
				  "no mc_group sections are defined; allowed: none");
			goto out;
		}
		if (conf_int(x, v, "mc_group", 1, cfg->n_mc_groups, &n) < 0)
			goto out;
		c.mc_group = (uint16_t)n;
	} else if (c.mc_fraction > 0) {
		conf_fail(x, conf_get(ts, "multicast"), "mc_group",
			  "missing; allowed: a group number (multicast traffic needs one)");
		goto out;
	}
	if ((v = conf_get(ts, "drop")) && conf_frac(x, v, "drop", 0, 1, &c.drop_fraction) < 0)
		goto out;
	if ((v = conf_get(ts, "drop_reason")) && parse_reason(x, v, &c.drop_reason) < 0)
		goto out;

	if (c.dest == MODEL_DEST_PERMUTATION)
		model_traffic_permutation(np, cfg->seed * 1000003u + index, perm);
	for (i = 0; i < np; i++) {
		struct model_gen_conf g = c;
		double line = (double)cfg->ports[ports[i]].speed_bps;

		g.in_port = ports[i];
		g.link_bps = line;
		g.rate_bps = rate_bps > 0 ? rate_bps : rate_frac * line;
		if (g.rate_bps > line * (1 + 1e-9)) {
			conf_fail(x, ratev, "rate",
				  "%.6g bits/s is above the line rate of port %u; allowed: up to "
				  "%.6g bits/s",
				  g.rate_bps, g.in_port, line);
			goto out;
		}
		if (c.dest == MODEL_DEST_PERMUTATION)
			g.dest_port = ports[perm[i]];
		g.seed = cfg->seed * 0x9e3779b97f4a7c15ull + index;
		if (model_gen_check(&g, gerr, sizeof(gerr)) < 0) {
			conf_fail(x, NULL, NULL, "%s", gerr);
			goto out;
		}
		if (add_gen(sc, &g) < 0) {
			conf_fail(x, NULL, NULL, "out of memory");
			goto out;
		}
	}
	rc = 0;
out:
	free(ports);
	return rc;
}

/* ---- replay sections ---- */

static int parse_prefix(const char *s, struct model_replay_prefix *p, long *port)
{
	char addr[64], *slash, *eq, *end;
	long plen;
	size_t n;

	eq = strchr(s, '=');
	if (!eq || (n = (size_t)(eq - s)) >= sizeof(addr))
		return -1;
	memcpy(addr, s, n);
	addr[n] = 0;
	errno = 0;
	*port = strtol(eq + 1, &end, 10);
	if (end == eq + 1 || *end || errno)
		return -1;
	slash = strchr(addr, '/');
	if (slash)
		*slash = 0;
	memset(p, 0, sizeof(*p));
	if (inet_pton(AF_INET, addr, p->addr) == 1) {
		p->family = 4;
		plen = 32;
	} else if (inet_pton(AF_INET6, addr, p->addr) == 1) {
		p->family = 6;
		plen = 128;
	} else {
		return -1;
	}
	if (slash) {
		long l = strtol(slash + 1, &end, 10);

		if (end == slash + 1 || *end || l < 0 || l > plen)
			return -1;
		plen = l;
	}
	p->plen = (uint8_t)plen;
	return 0;
}

static int build_replay(struct conf_ctx *x, cfg_t *rs, struct model_scenario *sc)
{
	const struct model_config *cfg = &sc->cfg;
	struct model_scen_replay *r;
	const struct conf_val *v;
	unsigned i, n;
	long long l;

	r = realloc(sc->replay, (sc->nreplay + 1) * sizeof(*r));
	if (!r)
		return conf_fail(x, NULL, NULL, "out of memory");
	sc->replay = r;
	r = &sc->replay[sc->nreplay++];
	memset(r, 0, sizeof(*r));
	model_replay_defaults(&r->rc);
	r->rc.nports = (uint16_t)cfg->nports;

	if (!(v = conf_get(rs, "file")))
		return conf_fail(x, NULL, "file", "missing; allowed: the pcap file to replay");
	snprintf(r->where, sizeof(r->where), "%s:%d", x->file, v->line);
	{
		const char *slash = strrchr(x->file, '/');
		size_t dl = slash && v->text[0] != '/' ? (size_t)(slash - x->file) + 1 : 0;

		r->file = malloc(dl + strlen(v->text) + 1);
		if (!r->file)
			return conf_fail(x, v, "file", "out of memory");
		memcpy(r->file, x->file, dl);
		strcpy(r->file + dl, v->text);
		r->rc.file = r->file;
	}
	if (parse_ports(x, rs, "ingress_ports", cfg->nports, &r->in_ports, &r->rc.n_in_ports) < 0 ||
	    parse_ports(x, rs, "egress_ports", cfg->nports, &r->out_ports, &r->rc.n_out_ports) < 0)
		return -1;
	r->rc.in_ports = r->in_ports;
	r->rc.out_ports = r->out_ports;

	n = cfg_size(rs, "vlan_ports");
	if (n) {
		r->vlan_map = calloc(n, sizeof(*r->vlan_map));
		if (!r->vlan_map)
			return conf_fail(x, NULL, NULL, "out of memory");
	}
	for (i = 0; i < n; i++) {
		char *end;
		long vid, port;

		v = cfg_getnptr(rs, "vlan_ports", i);
		errno = 0;
		vid = strtol(v->text, &end, 10);
		if (end == v->text || *end != ':')
			return conf_fail(x, v, "vlan_ports",
					 "not VLAN:PORT; allowed: e.g. \"100:3\"");
		{
			const char *s = end + 1;

			port = strtol(s, &end, 10);
			if (end == s || *end || errno)
				return conf_fail(x, v, "vlan_ports",
						 "not VLAN:PORT; allowed: e.g. \"100:3\"");
		}
		if (vid < 0 || vid > 4095)
			return conf_fail(x, v, "vlan_ports",
					 "VLAN out of range; allowed: VLAN 0..4095");
		if (port < 0 || port >= (long)cfg->nports)
			return conf_fail(x, v, "vlan_ports",
					 "port out of range; allowed: ports 0..%u",
					 cfg->nports - 1);
		r->vlan_map[i].vid = (uint16_t)vid;
		r->vlan_map[i].port = (uint16_t)port;
	}
	r->rc.vlan_map = r->vlan_map;
	r->rc.n_vlan_map = n;

	n = cfg_size(rs, "egress_map");
	if (n) {
		r->egress_map = calloc(n, sizeof(*r->egress_map));
		if (!r->egress_map)
			return conf_fail(x, NULL, NULL, "out of memory");
	}
	for (i = 0; i < n; i++) {
		long port;

		v = cfg_getnptr(rs, "egress_map", i);
		if (parse_prefix(v->text, &r->egress_map[i], &port) < 0)
			return conf_fail(x, v, "egress_map",
					 "not PREFIX=PORT; allowed: e.g. \"10.1.0.0/16=3\"");
		if (port < 0 || port >= (long)cfg->nports)
			return conf_fail(x, v, "egress_map",
					 "port out of range; allowed: ports 0..%u",
					 cfg->nports - 1);
		r->egress_map[i].port = (uint16_t)port;
	}
	r->rc.egress_map = r->egress_map;
	r->rc.n_egress_map = n;

	if ((v = conf_get(rs, "time_scale")) &&
	    conf_double(x, v, "time_scale", 0, 1e9, 1, &r->rc.time_scale) < 0)
		return -1;
	if ((v = conf_get(rs, "start")) &&
	    conf_time(x, v, "start", 0, CONF_TIME_MAX, &r->rc.start_ns) < 0)
		return -1;
	if (conf_get_int(x, rs, "loop", 0, UINT32_MAX, &l) < 0)
		return -1;
	if (conf_get(rs, "loop"))
		r->rc.loops = (uint32_t)l;
	if ((v = conf_get(rs, "mc_group"))) {
		if (cfg->n_mc_groups == 0)
			return conf_fail(x, v, "mc_group",
					 "no mc_group sections are defined; allowed: none");
		if (conf_int(x, v, "mc_group", 1, cfg->n_mc_groups, &l) < 0)
			return -1;
		r->rc.mc_group = (uint16_t)l;
	}
	return 0;
}

/* ---- entry points ---- */

int model_scenario_from_cfg(cfg_t *sec, const char *filename,
			    const struct model_scenario_opts *opts, struct model_scenario *sc,
			    char *err, size_t errlen)
{
	struct conf_ctx x;
	unsigned i;

	memset(sc, 0, sizeof(*sc));
	memset(&x, 0, sizeof(x));
	x.file = filename ? filename : "(config)";
	sc->file = strdup(x.file);
	if (!sc->file) {
		snprintf(err, errlen, "%s: out of memory", x.file);
		return -1;
	}
	x.err = err;
	x.errlen = errlen;
	conf_enter(&x, "model", NULL, NULL, 0);
	if (build_switch(&x, sec, sc) < 0)
		return -1;
	if (opts && opts->set_seed)
		sc->cfg.seed = opts->seed;
	if (model_scen_ext_build(&x, sec, &sc->cfg) < 0)
		return -1;
	for (i = 0; sec && i < cfg_size(sec, "traffic"); i++) {
		cfg_t *ts = cfg_getnsec(sec, "traffic", i);

		conf_enter(&x, "model", "traffic", cfg_title(ts), conf_section_line(ts));
		if (build_traffic(&x, ts, i, sc) < 0)
			return -1;
		sc->ntraffic++;
	}
	for (i = 0; sec && i < cfg_size(sec, "replay"); i++) {
		cfg_t *rs = cfg_getnsec(sec, "replay", i);

		conf_enter(&x, "model", "replay", cfg_title(rs), conf_section_line(rs));
		if (build_replay(&x, rs, sc) < 0)
			return -1;
	}
	return 0;
}

/*
 * Keep only the top-level `model { ... }` sections of a config text:
 * everything else becomes blanks (newlines stay, so line numbers hold).
 * bsflow-sim reads a whole bsflowd.conf with the model's options only, and
 * libconfuse refuses the keys it does not know (CFGF_IGNORE_UNKNOWN would
 * also let a misspelt model key through).  The text has been through
 * conf_blank_comments: no comments, every string closed.
 */
static char *only_model(const char *text, unsigned *nkept)
{
	size_t n = strlen(text), i = 0, keep_from = 0;
	char *out = malloc(n + 1);
	int depth = 0, keeping = 0, want_brace = 0;

	if (!out)
		return NULL;
	for (size_t j = 0; j < n; j++)
		out[j] = text[j] == '\n' ? '\n' : ' ';
	out[n] = 0;
	while (i < n) {
		char c = text[i];

		if (c == '"' || c == '\'') {
			i++;
			while (i < n && text[i] != c) {
				if (text[i] == '\\' && i + 1 < n)
					i++;
				i++;
			}
			i++;
			want_brace = 0;
			continue;
		}
		if (c == '{') {
			if (depth == 0 && want_brace)
				keeping = 1;
			want_brace = 0;
			depth++;
			i++;
			continue;
		}
		if (c == '}') {
			if (depth > 0)
				depth--;
			i++;
			if (depth == 0 && keeping) {
				memcpy(out + keep_from, text + keep_from, i - keep_from);
				keeping = 0;
				(*nkept)++;
			}
			continue;
		}
		if (isspace((unsigned char)c)) {
			i++;
			continue;
		}
		if (depth == 0 && !keeping) {
			size_t s = i;

			while (i < n && (isalnum((unsigned char)text[i]) || text[i] == '_' ||
					 text[i] == '-' || text[i] == '.'))
				i++;
			if (i == s) {
				i++;
				want_brace = 0;
				continue;
			}
			want_brace = (i - s == 5 && strncmp(text + s, "model", 5) == 0);
			if (want_brace)
				keep_from = s;
			continue;
		}
		i++;
	}
	return out;
}

static int parse_text(const char *text, const char *name, const struct model_scenario_opts *opts,
		      struct model_scenario *sc, char *err, size_t errlen)
{
	cfg_opt_t top[] = {CFG_SEC("model", model_opts, CFGF_NONE), CFG_END()};
	unsigned nkept = 0;
	char *clean, *only;
	cfg_t *root;
	int rc;

	memset(sc, 0, sizeof(*sc));
	if (conf_check_text(text, name, err, errlen) < 0)
		return -1;
	clean = conf_blank_comments(text, name, err, errlen); /* right line numbers */
	if (!clean)
		return -1;
	only = only_model(clean, &nkept);
	free(clean);
	if (!only) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	if (nkept == 0) {
		free(only);
		snprintf(err, errlen, "%s: no model section", name);
		return -1;
	}
	root = cfg_init(top, CFGF_NONE);
	if (!root) {
		free(only);
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	rc = conf_lib_parse(root, name, only, err, errlen);
	free(only);
	if (rc < 0) {
		cfg_free(root);
		return -1;
	}
	rc = model_scenario_from_cfg(cfg_getsec(root, "model"), name, opts, sc, err, errlen);
	cfg_free(root);
	return rc;
}

int model_scenario_parse_text(const char *text, const char *name,
			      const struct model_scenario_opts *opts, struct model_scenario *sc,
			      char *err, size_t errlen)
{
	return parse_text(text, name ? name : "(text)", opts, sc, err, errlen);
}

int model_scenario_parse_section(const char *body, const char *file, int first_line,
				 const struct model_scenario_opts *opts, struct model_scenario *sc,
				 char *err, size_t errlen)
{
	const char *name = file ? file : "(config)";
	size_t nl = first_line > 1 ? (size_t)first_line - 1 : 0;
	size_t blen = body ? strlen(body) : 0;
	char *text;
	int rc;

	if (!body)
		return model_scenario_from_cfg(NULL, name, opts, sc, err, errlen);
	/* the section again, its opening brace on its first line */
	text = malloc(nl + sizeof "model {" - 1 + blen + sizeof "\n}\n");
	if (!text) {
		memset(sc, 0, sizeof(*sc));
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	memset(text, '\n', nl);
	memcpy(text + nl, "model {", 7);
	memcpy(text + nl + 7, body, blen);
	memcpy(text + nl + 7 + blen, "\n}\n", sizeof "\n}\n");
	rc = parse_text(text, name, opts, sc, err, errlen);
	free(text);
	return rc;
}

int model_scenario_parse_file(const char *path, const struct model_scenario_opts *opts,
			      struct model_scenario *sc, char *err, size_t errlen)
{
	char *buf = conf_read_file(path, err, errlen);
	int rc;

	memset(sc, 0, sizeof(*sc));
	if (!buf)
		return -1;
	rc = parse_text(buf, path, opts, sc, err, errlen);
	free(buf);
	return rc;
}

int model_scenario_add_sources(const struct model_scenario *sc, struct model *m, char *err,
			       size_t errlen)
{
	const char *name = sc->file ? sc->file : "(config)";
	char e[300];
	unsigned i;

	for (i = 0; i < sc->ngen; i++) {
		struct model_source s;

		if (model_gen_new(&sc->gen[i], &s, e, sizeof(e)) < 0) {
			snprintf(err, errlen, "traffic generator for port %u: %s",
				 sc->gen[i].in_port, e);
			return -1;
		}
		if (model_add_source(m, &s) < 0) {
			s.free(s.state);
			snprintf(err, errlen, "cannot add a traffic source to the model");
			return -1;
		}
	}
	for (i = 0; i < sc->nreplay; i++) {
		struct model_source s;

		if (model_replay_new(&sc->replay[i].rc, &s, e, sizeof(e)) < 0) {
			snprintf(err, errlen, "%s: replay: %s", sc->replay[i].where, e);
			return -1;
		}
		if (model_add_source(m, &s) < 0) {
			s.free(s.state);
			snprintf(err, errlen, "%s: cannot add a replay source to the model", name);
			return -1;
		}
	}
	return 0;
}

struct model *model_scenario_build(const struct model_scenario *sc, char *err, size_t errlen)
{
	struct model_err me;
	struct model *m = model_new(&sc->cfg, &me);

	if (!m) {
		snprintf(err, errlen, "%s: model: %s", sc->file ? sc->file : "(config)", me.msg);
		return NULL;
	}
	if (model_scenario_add_sources(sc, m, err, errlen) < 0) {
		model_free(m);
		return NULL;
	}
	return m;
}

void model_scenario_free(struct model_scenario *sc)
{
	unsigned i;

	model_config_release(&sc->cfg);
	free(sc->gen);
	for (i = 0; i < sc->nreplay; i++) {
		struct model_scen_replay *r = &sc->replay[i];

		free(r->file);
		free(r->in_ports);
		free(r->out_ports);
		free(r->vlan_map);
		free(r->egress_map);
	}
	free(sc->replay);
	free(sc->file);
	memset(sc, 0, sizeof(*sc));
}

/* ---- the demo: keep identical to etc/scenarios/demo.conf ---- */

const char model_demo_scenario[] =
    "# demo.conf - the built-in demo scenario of bsflowd.\n"
    "#\n"
    "# bsflowd runs this model section when it is started without a config\n"
    "# file; bsflow-sim -f demo.conf runs it on virtual time.  The daemon\n"
    "# keeps a copy compiled in (agent/model/scenario.c, model_demo_scenario),\n"
    "# and a test checks that the two stay identical.\n"
    "#\n"
    "# An 8-port switch (10G, but port 5 is a 1G server port) with 8 unicast\n"
    "# queues per port and a 2 MB buffer, light enough (about 250 000 packets\n"
    "# a second) for the model to run in real time inside bsflowd on a small\n"
    "# fraction of a core:\n"
    "#  - port 0: incast microbursts, ports 1-4 send at line rate to port 0\n"
    "#    for 250 us every 50 ms (a 4:1 burst: the queue fills, some tail drops);\n"
    "#  - port 5 (1G): steadily congested, ports 6 and 7 each send 800 Mb/s to\n"
    "#    it (1.6:1), WRED on its queue 1 drops early;\n"
    "#  - ports 0 -> 1: light background traffic, 1 % dropped by an ACL;\n"
    "#  - ports 2, 3, 4, 6 and 7 receive nothing: idle egress ports.\n"
    "# Ports are numbered from 0 (names port0..port7).\n"
    "#\n"
    "# SPDX-License-Identifier: BSD-2-Clause\n"
    "\n"
    "model {\n"
    "\tseed = 1\n"
    "\tports = 8\n"
    "\tspeed = 10G\n"
    "\tbuffer = 2M\n"
    "\tunicast_queues = 8\n"
    "\talpha = 1\n"
    "\tsampling_rate = 1000\n"
    "\tduration = 20s\n"
    "\n"
    "\t# the server port\n"
    "\tport 5 {\n"
    "\t\tspeed = 1G\n"
    "\t}\n"
    "\n"
    "\t# WRED on queue 1 (traffic class 1, DSCP 8..15) of port 5\n"
    "\twred {\n"
    "\t\tports = {5}\n"
    "\t\tqueues = {1}\n"
    "\t\tmin = 64K\n"
    "\t\tmax = 256K\n"
    "\t\tprobability = 20%\n"
    "\t}\n"
    "\n"
    "\ttraffic incast {\n"
    "\t\tports = {1-4}\n"
    "\t\tdestination = incast\n"
    "\t\tto = 0\n"
    "\t\trate = 100%\n"
    "\t\tarrival = onoff\n"
    "\t\tperiod = 50ms\n"
    "\t\tduty = 0.5%\n"
    "\t\tsize = 1500\n"
    "\t\tdscp = 0\n"
    "\t\tflows = 4\n"
    "\t}\n"
    "\n"
    "\ttraffic congested {\n"
    "\t\tports = {6, 7}\n"
    "\t\tdestination = fixed\n"
    "\t\tto = 5\n"
    "\t\trate = 800M\n"
    "\t\tarrival = poisson\n"
    "\t\tsize = 576-1500\n"
    "\t\tdscp = 8\n"
    "\t\tflows = 32\n"
    "\t}\n"
    "\n"
    "\ttraffic background {\n"
    "\t\tports = {0}\n"
    "\t\tdestination = fixed\n"
    "\t\tto = 1\n"
    "\t\trate = 200M\n"
    "\t\tsize = 64-1518\n"
    "\t\tprotocol = tcp\n"
    "\t\tdscp = 0\n"
    "\t\tflows = 64\n"
    "\t\tdrop = 1%\n"
    "\t\tdrop_reason = acl\n"
    "\t}\n"
    "}\n";
