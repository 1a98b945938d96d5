/*
 * conf.h - bsflowd's configuration: parsing and validating the libconfuse
 * file (grammar in bsflowd.conf(5)) into a struct conf.
 *
 * Every error a user can make (unknown key, wrong type, out-of-range or
 * malformed value, missing file) comes back as one "FILE:LINE: message"
 * text and no struct conf, so a caller can refuse a bad reload and keep the
 * configuration it runs.  A struct conf owns its libconfuse tree: the
 * built-in backends get their section from it (conf_backend_section).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_CONF_H
#define BSFLOWD_AGENT_CONF_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "agent/discard.h"
#include "agent/sampling.h"
#include "agent/visibility/vis_conf.h"

#define CONF_DEFAULT_POLLING_INTERVAL 20
#define CONF_MAX_POLLING_INTERVAL     86400
#define CONF_DEFAULT_PORT	      6343
#define CONF_NAME_MAX		      64
#define CONF_HOST_MAX		      256

enum conf_backend_kind {
	CONF_BACKEND_MODEL = 1,
	CONF_BACKEND_LINUX, /* refused until it exists */
	CONF_BACKEND_PLUGIN,
	CONF_BACKEND_SONIC, /* agent/sonic/ */
};

struct conf_collector {
	char name[CONF_NAME_MAX];    /* the section title */
	char address[CONF_HOST_MAX]; /* literal or host name */
	uint16_t port;
	char source[CONF_HOST_MAX]; /* source address literal, "" = any */
	char device[IF_NAMESIZE];   /* VRF / interface to bind to, "" = none */
	int line;		    /* where the section starts, for messages */
};

struct conf {
	char *file;			   /* the file, or "(built-in default)" */
	int is_file;			   /* read from a file (not text or the default) */
	char agent_address[CONF_HOST_MAX]; /* "auto" or a literal */
	uint32_t sub_agent_id;
	uint32_t enterprise;
	unsigned polling_interval; /* seconds, 0 = off */
	unsigned datagram_bytes;
	enum conf_backend_kind backend;
	char *backend_path;    /* plugins */
	int backend_line;      /* line of the backend key, 0 if defaulted */
	char **plugin_options; /* "key=value" strings, n_plugin_options */
	size_t n_plugin_options;
	char *backend_text; /* canonical text of the backend and its section */
	/* the body of the backend's section (model, linux or plugin), between
	 * its braces, comments included, for the backend's own parser; NULL if
	 * absent; backend_section_line: the line of its first byte */
	char *backend_section;
	int backend_section_line;
	struct conf_collector *collectors;
	size_t n_collectors;
	/* packet sampling and drop notifications (flows.mk) */
	unsigned header_bytes;		   /* sampled_header bytes, 14..128 */
	int sampling_set;		   /* a sampling section is present */
	struct bsf_sampling_conf sampling; /* arrays below */
	struct bsf_sampling_speed *sampling_speeds;
	struct bsf_sampling_port *sampling_ports; /* names owned here */
	struct bsf_discard_conf drops;
	/* visibility events and samplers (vis_conf.h); vis.enabled 0 = off */
	struct vis_config vis;
	char *vis_text; /* source text of the visibility section, "" if none */
	void *cfg;	/* cfg_t *, the parsed tree */
	/* Not from the file: bsflow-sim --seed, the seed of the model
	 * backend's scenario in place of its section's (model_seed_set 0:
	 * the section's) */
	int model_seed_set;
	uint64_t model_seed;
};

/* Parse a file.  NULL on error, with "FILE:LINE: message" in err. */
struct conf *conf_load_file(const char *path, char *err, size_t errlen);
/* Parse text; name stands for the file in messages. */
struct conf *conf_load_text(const char *text, const char *name, char *err, size_t errlen);
/* The built-in default: the model backend running the demo scenario,
 * exporting to 127.0.0.1:6343. */
struct conf *conf_load_default(char *err, size_t errlen);
void conf_free(struct conf *c);

/* The option tree of bsflowd.conf (cfg_opt_t *; static storage), for
 * tests that walk it. */
void *conf_opts(void);

/* The backend's own libconfuse section (cfg_t *), or NULL. */
void *conf_backend_section(const struct conf *c);
/* 1 when a and b select the same backend with the same settings, so a
 * reload need not reopen it. */
int conf_backend_same(const struct conf *a, const struct conf *b);
/* 1 when a and b have the same visibility section (same text, comments
 * and blanks outside it aside), so a reload keeps the running pipeline
 * and its sampler statistics. */
int conf_vis_same(const struct conf *a, const struct conf *b);
/* "model", "linux", "sonic" or the plugin path. */
const char *conf_backend_name(const struct conf *c);

#endif
