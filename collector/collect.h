/*
 * collect.h - bsflow-collect's top-level state and the interfaces between
 * its parts: main.c (options), the inputs (input_udp.c, input_pcap.c) that
 * hand each UDP payload to process.c, which decodes, checks, prints and
 * writes it (print.c, checks.c, pcapw.c).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_COLLECT_H
#define BSFLOWD_COLLECT_COLLECT_H

#include <signal.h>
#include <stdint.h>

#include "collector/checks.h"
#include "collector/filter.h"
#include "collector/forward.h"
#include "collector/lines.h"
#include "collector/output.h"
#include "collector/pcapw.h"
#include "collector/print.h"
#include "collector/prometheus.h"
#include "collector/table.h"
#include "proto/sflow_decode.h"

#define COLLECT_DEFAULT_PORT 6343
#define COLLECT_MAX_DATAGRAM 65536

/* Exit codes (bsflow-collect(1), EXIT STATUS) */
#define COLLECT_EXIT_OK	    0
#define COLLECT_EXIT_ERROR  1  /* cannot open, bind, read or write */
#define COLLECT_EXIT_STRICT 2  /* --strict and a malformed datagram */
#define COLLECT_EXIT_USAGE  64 /* bad command line (EX_USAGE) */

struct collect_opts {
	uint16_t port;
	int port_given;
	const char *bind_addr;	/* -b, or NULL */
	int family;		/* 0 dual-stack, 4 (-4), 6 (-6) */
	const char *read_file;	/* -r */
	const char *write_file; /* -w */
	enum collect_fmt fmt;
	uint32_t own_enterprise;
	uint64_t max_datagrams; /* -c, 0 = no limit */
	double max_seconds;	/* -t, 0 = no limit */
	int strict;
	int quiet;
	int summary_stdout;
	int no_summary;
	int table;		      /* --table */
	const char *prometheus;	      /* --prometheus ADDR:PORT, or NULL */
	double prom_expire;	      /* --prometheus-expire seconds */
	uint64_t prom_max;	      /* --prometheus-max-series */
	const char *drops_file;	      /* --write-drops, or NULL */
	int lines;		      /* 'l' (-l CSV), 'g' (-g grep lines) or 0 */
	struct collect_filter filter; /* --agent, --source, --type, --reason */
};

struct collect_ctx {
	const struct collect_opts *opts;
	struct collect_out out;
	struct sflow_decoder dec; /* its arrays, kept from datagram to datagram */
	struct collect_checks *checks;
	struct collect_pcapw *pcapw;
	struct collect_pcapw *pcapw_drops; /* --write-drops, or NULL */
	struct collect_table *table;	   /* --table, or NULL */
	struct collect_prom *prom;	   /* --prometheus, or NULL */
	struct collect_forward *fwd;	   /* -f, or NULL */
	double table_drawn;		   /* monotonic seconds of the last redraw */
	uint64_t received;		   /* datagrams handed to process, -c counts these */
	int exit_code;			   /* set by --strict */
	volatile sig_atomic_t *stop;	   /* set by SIGINT/SIGTERM */
};

/* process.c: one UDP payload.  Returns 0 to go on, 1 to stop (-c reached,
 * --strict failure: then ctx->exit_code says which). */
int collect_process(struct collect_ctx *c, const uint8_t *buf, size_t len,
		    const struct collect_rx *rx);

/* input_udp.c: receive until stopped; 0, or COLLECT_EXIT_ERROR after
 * printing why. */
int collect_udp_run(struct collect_ctx *c);

/* input_pcap.c: read the capture file; 0, or COLLECT_EXIT_ERROR. */
int collect_pcap_run(struct collect_ctx *c);

#endif
