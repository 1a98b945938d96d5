/*
 * vis_conf.h - the `visibility` section of the bsflowd config file: its
 * libconfuse option table and its conversion into plain settings (struct
 * vis_config) from which vis_pipeline_new() builds monitors and samplers.
 * Every key is documented in bsflowd.conf(5), VISIBILITY SECTION.
 *
 * Two ways in:
 *  - the daemon embeds the table: CFG_SEC("visibility", vis_conf_opts(),
 *    CFGF_NONE), parses its file, then calls
 *    vis_conf_from_cfg(cfg_getsec(root, "visibility"), path, &vc, ...);
 *  - tests call vis_conf_parse_text() on the text of a whole file that
 *    holds only a visibility section.
 * Value errors read "FILE:LINE: visibility: [sampler "x": ]key: problem".
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_VIS_CONF_H
#define BSFLOWD_VIS_CONF_H

#include <confuse.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/visibility/vis.h"
#include "agent/visibility/vis_monitor.h"
#include "agent/visibility/vis_sampler.h"

struct vis_conf_delay {
	char name[VIS_NAME_MAX];
	struct vis_set ports, queues; /* empty: all */
	struct vis_delay_profile profile;
};

struct vis_conf_congestion {
	char name[VIS_NAME_MAX];
	int port_scope;
	struct vis_set ports, queues;
	uint64_t high, low;
};

struct vis_conf_sampler {
	struct vis_sampler_conf c;
	uint32_t n_members;
	char members[VIS_MEMBERS_MAX_CONF][VIS_NAME_MAX];
};

#define VIS_CONF_SAMPLERS_MAX 256 /* sampler sections */
#define VIS_CONF_DEPTH_MAX    16  /* levels of nested chains / aggregates */
#define VIS_CONF_DEFAULT_RATE 100 /* default_rate */

struct vis_config {
	int enabled;
	uint64_t seed;
	int drops;
	struct vis_set drop_reasons;
	int forensics;
	int forensics_port_scope;
	struct vis_set forensics_ports, forensics_queues;
	int has_eligibility;
	struct vis_match eligibility;
	size_t n_delay;
	struct vis_conf_delay *delay;
	size_t n_congestion;
	struct vis_conf_congestion *congestion;
	size_t n_samplers;
	struct vis_conf_sampler *samplers;
	/* the sampler each event type goes through ("" = none: all pass);
	 * index enum vis_event_type (congestion start and end share one) */
	char route[VIS_EV_NTYPES][VIS_NAME_MAX];
	/* events per second and type let through for a non-drop event type
	 * with no route (an implicit ticket box); 0 = no limit */
	uint32_t default_rate;
};

/* The option table (static storage; libconfuse copies it in cfg_init). */
cfg_opt_t *vis_conf_opts(void);

/* Defaults: disabled, no samplers. */
void vis_config_init(struct vis_config *vc);
void vis_config_release(struct vis_config *vc);

/* A parsed visibility section (NULL: the defaults) into *vc.  filename
 * names the file in messages.  Returns 0, or -1 with the message in err;
 * *vc needs vis_config_release() either way. */
int vis_conf_from_cfg(cfg_t *sec, const char *filename, struct vis_config *vc, char *err,
		      size_t errlen);

/* With the section declared CFGF_MULTI in root's options (libconfuse
 * silently merges a repeated non-multi section): 0 if the file has at
 * most one, else -1 with "FILE:LINE: visibility: a second visibility
 * section" in err.  Then pass cfg_getsec(root, "visibility") on. */
int vis_conf_single(cfg_t *root, const char *filename, char *err, size_t errlen);

/* Parse text holding a `visibility { ... }` section (name is used in
 * messages).  Returns 0, or -1 with a message in err. */
int vis_conf_parse_text(const char *text, const char *name, struct vis_config *vc, char *err,
			size_t errlen);

#endif
