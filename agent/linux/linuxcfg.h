/*
 * linuxcfg.h - the `linux { }` section of bsflowd.conf: its keys, their
 * defaults and checks (linuxcfg.c parses the section's text with
 * libconfuse; see bsflowd.conf(5)).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUX_LINUXCFG_H
#define BSFLOWD_LINUX_LINUXCFG_H

#include <confuse.h>
#include <stddef.h>
#include <stdint.h>

/* Per-source setting: auto = use it if the kernel has it; on = required
 * (open fails without it); off = never. */
enum linuxbe_mode { LINUXBE_AUTO = 0, LINUXBE_ON, LINUXBE_OFF };

enum linuxbe_src {
	LINUXBE_SRC_LINK = 0,
	LINUXBE_SRC_QDISC,
	LINUXBE_SRC_SB,
	LINUXBE_SRC_DROPMON,
	LINUXBE_SRC_PSAMPLE,
	LINUXBE_SRC_TRACEPOINT,
	LINUXBE_SRC_PACKET,
	LINUXBE_SRC_BPF,
	LINUXBE_NSRC
};
extern const char *const linuxbe_src_names[LINUXBE_NSRC];

#define LINUXBE_MAX_LIST 64

struct linuxbe_conf {
	int ports_auto;
	char *ports[LINUXBE_MAX_LIST]; /* names, or one "/regex/" */
	unsigned n_ports;
	uint32_t queues[LINUXBE_MAX_LIST]; /* tc handles, in queue order; none = auto */
	unsigned n_queues;
	unsigned qdisc_poll_ms, buffer_poll_ms;
	unsigned mode[LINUXBE_NSRC];
	int install_samplers;
	unsigned psample_group;
	unsigned header_bytes;
	/* reason overrides, checked before the built-in table */
	char *reason_names[LINUXBE_MAX_LIST];
	uint32_t reason_codes[LINUXBE_MAX_LIST];
	unsigned n_reasons;
};

/* Parse text (the section's body, NULL = all defaults) from file at line
 * (of its first byte).  0, or -1 with "FILE:LINE: linux: ..." in err. */
int linuxbe_conf_parse(struct linuxbe_conf *c, const char *text, const char *file, int line,
		       char *err, size_t errlen);
void linuxbe_conf_free(struct linuxbe_conf *c);
/* The section's keys, for the daemon's own parse of bsflowd.conf
 * (CFG_SEC("linux", linuxbe_conf_opts(), CFGF_NONE)). */
cfg_opt_t *linuxbe_conf_opts(void);

#endif
