/*
 * scenario_ext.c - the model section's subsections for the optional
 * admission-path mechanisms: ingress_arbitration (ingress arbitration
 * with accelerated memory, model_iarb.h) and flow_admission (flow-based
 * shared-buffer admission, model_flowbuf.h), parsed into the scenario's
 * model_config (iarb, fb).  The keys are documented in bsflowd.conf(5).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <arpa/inet.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/confval.h"
#include "agent/model/model_flowbuf.h"
#include "agent/model/model_iarb.h"
#include "agent/model/scenario_ext.h"

cfg_opt_t model_scen_iarb_opts[] = {CONF_V("sop_size"),	     CONF_V("unit_size"),
				    CONF_V("packet_buffer"), CONF_V("accelerated_memory"),
				    CONF_VL("inputs"),	     CONF_V("am_per_port"),
				    CONF_V("am_threshold"),  CONF_V("oversubscription"),
				    CONF_V("sop_duplicate"), CONF_V("hysteresis"),
				    CONF_V("latency_am"),    CONF_V("latency_pb"),
				    CONF_V("clock_mhz"),     CONF_V("pfc_threshold"),
				    CONF_V("egress_over"),   CFG_END()};

static cfg_opt_t fb_rule_opts[] = {
    CONF_V("src"),  CONF_V("dst"),  CONF_V("sport"),   CONF_V("dport"),	 CONF_V("protocol"),
    CONF_V("dscp"), CONF_V("vlan"), CONF_V("binding"), CONF_V("region"), CFG_END()};

cfg_opt_t model_scen_fb_opts[] = {
    CONF_V("flow_regions"),
    CONF_V("unit"),
    CONF_V("regions"),
    CONF_VL("region_states"),
    CONF_V("combine"),
    CONF_V("classify"),
    CONF_V("state"),
    CONF_V("levels"),
    CONF_V("decision"),
    CONF_V("alpha"),
    CONF_V("occupancy_alpha"),
    CONF_V("pool"),
    CONF_V("refresh"),
    CONF_V("wred_min"),
    CONF_V("wred_max"),
    CONF_V("wred_probability"),
    CONF_V("mirror_above"),
    CONF_V("mirror_congested"),
    CONF_V("mirror_port"),
    CONF_V("change_window"),
    CONF_V("change_delta"),
    CONF_V("change_admit"),
    CONF_V("change_mirror"),
    CFG_SEC("rule", fb_rule_opts, CFGF_MULTI | CFGF_TITLE | CFGF_NO_TITLE_DUPES),
    CFG_END()};

static int get_size(struct conf_ctx *x, cfg_t *s, const char *key, uint64_t lo, uint64_t hi,
		    uint64_t *out)
{
	const struct conf_val *v = conf_get(s, key);
	return v ? conf_size(x, v, key, lo, hi, out) : 0;
}

static int get_bool(struct conf_ctx *x, cfg_t *s, const char *key, uint8_t *out)
{
	const struct conf_val *v = conf_get(s, key);
	int b;
	if (!v)
		return 0;
	if (conf_bool(x, v, key, &b) < 0)
		return -1;
	*out = (uint8_t)b;
	return 0;
}

static int get_u32(struct conf_ctx *x, cfg_t *s, const char *key, long long lo, long long hi,
		   uint32_t *out)
{
	long long n;
	if (!conf_get(s, key))
		return 0;
	if (conf_get_int(x, s, key, lo, hi, &n) < 0)
		return -1;
	*out = (uint32_t)n;
	return 0;
}

static int get_frac_pc(struct conf_ctx *x, cfg_t *s, const char *key, uint32_t *out)
{
	const struct conf_val *v = conf_get(s, key);
	double f;
	if (!v)
		return 0;
	if (conf_frac(x, v, key, 0, 1, &f) < 0)
		return -1;
	*out = (uint32_t)(f * 10000.0 + 0.5);
	return 0;
}

static int get_enum(struct conf_ctx *x, cfg_t *s, const char *key, const char *const *names,
		    uint8_t *out)
{
	const struct conf_val *v = conf_get(s, key);
	int k;
	if (!v)
		return 0;
	if (conf_enum(x, v, key, names, &k) < 0)
		return -1;
	*out = (uint8_t)k;
	return 0;
}

static int build_iarb(struct conf_ctx *x, cfg_t *s, struct model_config *cfg)
{
	struct model_iarb_config *c = malloc(sizeof(*c));
	if (c == NULL)
		return conf_fail(x, NULL, NULL, "out of memory");
	model_iarb_defaults(c, cfg->nports + 1);
	cfg->iarb = c;
	uint64_t n;
	uint32_t u;
	if (get_size(x, s, "sop_size", 1, 16384, &n) < 0)
		return -1;
	if (conf_get(s, "sop_size"))
		c->sop_bytes = (uint32_t)n;
	if (get_size(x, s, "unit_size", 1, 16384, &n) < 0)
		return -1;
	if (conf_get(s, "unit_size"))
		c->unit_bytes = (uint32_t)n;
	if (get_size(x, s, "packet_buffer", 1, 64ULL << 30, &c->pb_bytes) < 0 ||
	    get_size(x, s, "accelerated_memory", 0, 64ULL << 30, &c->am_bytes) < 0 ||
	    get_size(x, s, "am_threshold", 0, 64ULL << 30, &c->am_thresh) < 0 ||
	    get_size(x, s, "pfc_threshold", 0, 64ULL << 30, &c->pb_pfc_bytes) < 0 ||
	    get_bool(x, s, "am_per_port", &c->am_per_port) < 0 ||
	    get_bool(x, s, "sop_duplicate", &c->sop_dup) < 0 ||
	    get_frac_pc(x, s, "oversubscription", &c->oversub_pc) < 0 ||
	    get_frac_pc(x, s, "egress_over", &c->egr_over_pc) < 0 ||
	    get_u32(x, s, "latency_am", 1, 1000000, &c->lat_am_clk) < 0 ||
	    get_u32(x, s, "latency_pb", 1, 1000000, &c->lat_pb_clk) < 0)
		return -1;
	if (conf_get(s, "hysteresis")) {
		if (get_frac_pc(x, s, "hysteresis", &c->hyst_pc) < 0)
			return -1;
		c->hysteresis = 1;
	}
	u = 1000;
	if (get_u32(x, s, "clock_mhz", 1, 100000, &u) < 0)
		return -1;
	c->clock_hz = (uint64_t)u * 1000000ULL;
	/* the peak processing rate: the sum of the ports' speeds */
	for (unsigned i = 0; i < cfg->nports; i++)
		c->peak_bps += cfg->ports[i].speed_bps;
	c->inputs = MODEL_IARB_IN_ALL;
	unsigned ni = cfg_size(s, "inputs");
	if (ni > 0) {
		static const char *const names[] = {"am_fill",
						    "pfc_ingress",
						    "pfc_egress",
						    "pfc_ingress_resources",
						    "pfc_egress_resources",
						    "oversubscription",
						    "egress_over",
						    NULL};
		c->inputs = 0;
		for (unsigned i = 0; i < ni; i++) {
			const struct conf_val *v = cfg_getnptr(s, "inputs", i);
			int k;
			if (conf_enum(x, v, "inputs", names, &k) < 0)
				return -1;
			c->inputs |= 1u << k;
		}
	}
	struct model_err err;
	struct model_iarb *ia = model_iarb_new(c, &err);
	if (ia == NULL)
		return conf_fail(x, NULL, NULL, "%s", err.msg);
	model_iarb_free(ia);
	return 0;
}

static int parse_pfx(struct conf_ctx *x, const struct conf_val *v, const char *key, uint32_t *ip,
		     uint8_t *len)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", v->text);
	char *slash = strchr(buf, '/');
	long l = 32;
	if (slash) {
		*slash = 0;
		char *end;
		l = strtol(slash + 1, &end, 10);
		if (*end || l < 0 || l > 32)
			return conf_fail(x, v, key, "bad prefix length; allowed: 0..32");
	}
	struct in_addr a;
	if (inet_pton(AF_INET, buf, &a) != 1)
		return conf_fail(x, v, key, "not an IPv4 address; allowed: A.B.C.D[/len]");
	*ip = ntohl(a.s_addr);
	*len = (uint8_t)l;
	return 0;
}

static int build_rule(struct conf_ctx *x, cfg_t *rs, struct model_fb_config *c)
{
	if (c->n_rules >= MODEL_FB_MAX_RULES)
		return conf_fail(x, NULL, NULL, "too many rules; allowed: %u", MODEL_FB_MAX_RULES);
	struct model_fb_rule *r = &c->rules[c->n_rules++];
	const struct conf_val *v;
	long long n;
	if ((v = conf_get(rs, "src"))) {
		if (parse_pfx(x, v, "src", &r->key.src_ip, &r->src_len) < 0)
			return -1;
		r->match |= MODEL_FB_M_SRC;
	}
	if ((v = conf_get(rs, "dst"))) {
		if (parse_pfx(x, v, "dst", &r->key.dst_ip, &r->dst_len) < 0)
			return -1;
		r->match |= MODEL_FB_M_DST;
	}
	static const struct {
		const char *key;
		uint32_t bit;
		long long hi;
	} ints[] = {
	    {"sport", MODEL_FB_M_SPORT, 65535},	 {"dport", MODEL_FB_M_DPORT, 65535},
	    {"protocol", MODEL_FB_M_PROTO, 255}, {"dscp", MODEL_FB_M_DSCP, 63},
	    {"vlan", MODEL_FB_M_VLAN, 4095},	 {"binding", MODEL_FB_M_BINDING, UINT32_MAX}};
	for (unsigned k = 0; k < sizeof(ints) / sizeof(ints[0]); k++) {
		if (!conf_get(rs, ints[k].key))
			continue;
		if (conf_get_int(x, rs, ints[k].key, 0, ints[k].hi, &n) < 0)
			return -1;
		r->match |= ints[k].bit;
		switch (ints[k].bit) {
		case MODEL_FB_M_SPORT:
			r->key.src_port = (uint16_t)n;
			break;
		case MODEL_FB_M_DPORT:
			r->key.dst_port = (uint16_t)n;
			break;
		case MODEL_FB_M_PROTO:
			r->key.proto = (uint8_t)n;
			break;
		case MODEL_FB_M_DSCP:
			r->key.dscp = (uint8_t)n;
			break;
		case MODEL_FB_M_VLAN:
			r->key.vlan = (uint16_t)n;
			break;
		default:
			r->key.binding = (uint32_t)n;
		}
	}
	if (!conf_get(rs, "region"))
		return conf_fail(x, NULL, "region", "missing; allowed: 0..%u", c->n_counts - 1);
	if (conf_get_int(x, rs, "region", 0, c->n_counts - 1, &n) < 0)
		return -1;
	r->count = (uint16_t)n;
	return 0;
}

static int build_fb(struct conf_ctx *x, cfg_t *s, struct model_config *cfg)
{
	struct model_fb_config *c = malloc(sizeof(*c));
	if (c == NULL)
		return conf_fail(x, NULL, NULL, "out of memory");
	model_fb_defaults(c, cfg->nports + 1, (uint64_t)cfg->total_cells * cfg->cell_bytes);
	cfg->fb = c;
	static const char *const units[] = {"bytes", "packets", NULL};
	static const char *const classes[] = {"hash", "rules", NULL};
	static const char *const states[] = {"binary", "levels", "percent", NULL};
	static const char *const rules[] = {"all", "majority", "function", NULL};
	static const char *const combs[] = {"sum", "max", "mean", NULL};
	const struct conf_val *v;
	uint32_t u;
	if (get_bool(x, s, "flow_regions", &c->flow_on) < 0 ||
	    get_enum(x, s, "unit", units, &c->unit) < 0 ||
	    get_enum(x, s, "classify", classes, &c->classify) < 0 ||
	    get_enum(x, s, "state", states, &c->encoding) < 0 ||
	    get_enum(x, s, "decision", rules, &c->rule) < 0 ||
	    get_enum(x, s, "combine", combs, &c->combine) < 0 ||
	    get_u32(x, s, "regions", 1, MODEL_FB_MAX_COUNTS, &c->n_counts) < 0 ||
	    get_size(x, s, "pool", 1, 64ULL << 30, &c->pool) < 0 ||
	    get_size(x, s, "wred_min", 0, 64ULL << 30, &c->wred_min) < 0 ||
	    get_size(x, s, "wred_max", 0, 64ULL << 30, &c->wred_max) < 0 ||
	    get_size(x, s, "mirror_above", 0, 64ULL << 30, &c->mirror_at) < 0 ||
	    get_size(x, s, "change_delta", 0, 64ULL << 30, &c->stc_delta) < 0 ||
	    get_bool(x, s, "mirror_congested", &c->mirror_cong) < 0 ||
	    get_bool(x, s, "change_admit", &c->stc_admit) < 0 ||
	    get_bool(x, s, "change_mirror", &c->stc_mirror) < 0)
		return -1;
	u = c->levels;
	if (get_u32(x, s, "levels", 2, 255, &u) < 0)
		return -1;
	c->levels = (uint8_t)u;
	u = 0;
	if (get_u32(x, s, "mirror_port", 0, cfg->nports - 1, &u) < 0)
		return -1;
	c->mirror_port = (uint16_t)u;
	if ((v = conf_get(s, "alpha")) &&
	    conf_double(x, v, "alpha", 0, 1e6, 1, &c->flow_bound.alpha) < 0)
		return -1;
	if ((v = conf_get(s, "occupancy_alpha")) &&
	    conf_double(x, v, "occupancy_alpha", 0, 1e6, 1, &c->occ_bound.alpha) < 0)
		return -1;
	if ((v = conf_get(s, "wred_probability")) &&
	    conf_frac(x, v, "wred_probability", 0, 1, &c->wred_maxp) < 0)
		return -1;
	if (c->wred_max != 0 && c->wred_maxp == 0)
		c->wred_maxp = 0.1;
	if ((v = conf_get(s, "refresh")) &&
	    conf_time(x, v, "refresh", 0, CONF_TIME_MAX, &c->refresh_ns) < 0)
		return -1;
	if ((v = conf_get(s, "change_window")) &&
	    conf_time(x, v, "change_window", 1, CONF_TIME_MAX, &c->stc_win_ns) < 0)
		return -1;
	unsigned ns = cfg_size(s, "region_states");
	if (ns > 0) {
		if (ns != c->n_counts)
			return conf_fail(x, cfg_getnptr(s, "region_states", 0), "region_states",
					 "%u entries for %u regions; allowed: one per region", ns,
					 c->n_counts);
		uint32_t max = 0;
		for (unsigned i = 0; i < ns; i++) {
			const struct conf_val *e = cfg_getnptr(s, "region_states", i);
			long long n;
			if (conf_int(x, e, "region_states", 0, c->n_counts - 1, &n) < 0)
				return -1;
			c->count_state[i] = (uint16_t)n;
			if ((uint32_t)n + 1 > max)
				max = (uint32_t)n + 1;
		}
		c->n_states = max;
	}
	for (unsigned i = 0; i < cfg_size(s, "rule"); i++) {
		cfg_t *rs = cfg_getnsec(s, "rule", i);
		conf_enter(x, "model", "flow_admission: rule", cfg_title(rs),
			   conf_section_line(rs));
		if (build_rule(x, rs, c) < 0)
			return -1;
	}
	conf_enter(x, "model", "flow_admission", NULL, conf_section_line(s));
	if (c->n_rules > 0 && !conf_get(s, "classify"))
		c->classify = MODEL_FB_CLASS_RULES;
	struct model_err err;
	struct model_fb *fb = model_fb_new(c, &err);
	if (fb == NULL)
		return conf_fail(x, NULL, NULL, "%s", err.msg);
	model_fb_free(fb);
	return 0;
}

int model_scen_ext_build(struct conf_ctx *x, cfg_t *sec, struct model_config *cfg)
{
	if (sec == NULL)
		return 0;
	cfg_t *s = cfg_getsec(sec, "ingress_arbitration");
	if (s != NULL && conf_section_line(s) > 0) {
		conf_enter(x, "model", "ingress_arbitration", NULL, conf_section_line(s));
		if (build_iarb(x, s, cfg) < 0)
			return -1;
	}
	s = cfg_getsec(sec, "flow_admission");
	if (s != NULL && conf_section_line(s) > 0) {
		conf_enter(x, "model", "flow_admission", NULL, conf_section_line(s));
		if (build_fb(x, s, cfg) < 0)
			return -1;
	}
	conf_enter(x, "model", NULL, NULL, 0);
	return 0;
}
