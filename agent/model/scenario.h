/*
 * scenario.h - the `model` section of the bsflowd config file: the
 * libconfuse option table, its conversion into a model configuration and
 * traffic sources, and the built-in demo scenario.
 *
 * Two ways in:
 *  - the daemon embeds the table in its own: CFG_SEC("model",
 *    model_conf_opts(), CFGF_NONE), parses its file, then calls
 *    model_scenario_from_cfg(cfg_getsec(root, "model"), path, ...);
 *  - bsflow-sim and tests call model_scenario_parse_file() or
 *    model_scenario_parse_text(), which read only the top-level `model`
 *    section of a file (every other top-level section is skipped
 *    unparsed, line numbers are kept).
 * Either way every value error is reported as "FILE:LINE: key: problem".
 * Syntax errors found by libconfuse itself are printed by libconfuse's
 * error function (to stderr) and the call fails with a short summary.
 *
 * model_scenario_build() then makes the model and adds one source per
 * (traffic section, ingress port) and one per replay section.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_SCENARIO_H
#define BSFLOWD_MODEL_SCENARIO_H

#include <confuse.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/model/model.h"
#include "agent/model/replay.h"
#include "agent/model/traffic.h"

/* One replay section, with the arrays its model_replay_conf points to. */
struct model_scen_replay {
	struct model_replay_conf rc;
	char *file; /* resolved path (rc.file points here) */
	uint16_t *in_ports, *out_ports;
	struct model_replay_vlan *vlan_map;
	struct model_replay_prefix *egress_map;
	char where[64]; /* "FILE:LINE" of the file key, for messages */
};

struct model_scenario {
	struct model_config cfg; /* the switch */
	uint64_t duration_ns;	 /* `duration` key (bsflow-sim default), 0 = unset */
	unsigned ngen;		 /* generators: one per traffic section and port */
	struct model_gen_conf *gen;
	unsigned nreplay;
	struct model_scen_replay *replay;
	unsigned ntraffic; /* traffic sections */
	char *file;	   /* the config file's name, for messages */
};

/* Options of a parse: set_seed replaces the section's seed (bsflow-sim
 * --seed).  Pass NULL for none. */
struct model_scenario_opts {
	int set_seed;
	uint64_t seed;
};

/* The option table of the model section (static storage; libconfuse
 * copies it in cfg_init). */
cfg_opt_t *model_conf_opts(void);

/*
 * Turn a parsed model section into *sc.  filename names the config file
 * in messages and anchors relative replay file names (NULL: "(config)" and
 * the current directory).  sec may be NULL (no model section: the
 * defaults, a switch with no traffic).  Returns 0, or -1 with "FILE:LINE:
 * ..." in err; *sc needs model_scenario_free() either way.
 */
int model_scenario_from_cfg(cfg_t *sec, const char *filename,
			    const struct model_scenario_opts *opts, struct model_scenario *sc,
			    char *err, size_t errlen);

/* Parse the model section of a file / of a text (name is used in
 * messages).  Returns 0, or -1 with a message in err. */
int model_scenario_parse_file(const char *path, const struct model_scenario_opts *opts,
			      struct model_scenario *sc, char *err, size_t errlen);
int model_scenario_parse_text(const char *text, const char *name,
			      const struct model_scenario_opts *opts, struct model_scenario *sc,
			      char *err, size_t errlen);

/* Parse the body of a model section given as text (what lies between
 * its braces, comments included; NULL: no section, the defaults), whose
 * first byte is on line first_line of file: the errors' FILE:LINE are
 * those of the file.  Returns 0, or -1 with a message in err. */
int model_scenario_parse_section(const char *body, const char *file, int first_line,
				 const struct model_scenario_opts *opts, struct model_scenario *sc,
				 char *err, size_t errlen);

/* Make the sources (reads pcap files) and add them to m.  Returns 0, or
 * -1 with a message in err. */
int model_scenario_add_sources(const struct model_scenario *sc, struct model *m, char *err,
			       size_t errlen);

/* model_new + model_scenario_add_sources.  NULL on error (message in err). */
struct model *model_scenario_build(const struct model_scenario *sc, char *err, size_t errlen);

void model_scenario_free(struct model_scenario *sc);

/* The demo scenario the daemon runs without a config file; the same text
 * as etc/scenarios/demo.conf. */
extern const char model_demo_scenario[];

#endif
