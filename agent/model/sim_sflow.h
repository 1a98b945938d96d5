/*
 * sim_sflow.h - bsflow-sim --sflow FILE.pcap and --sflow-to HOST:PORT:
 * the datagrams bsflowd would send for the scenario, made by bsflowd's
 * own modules (agent/daemon.c applying the file as bsflowd.conf: the
 * model backend, the counter poller, the events' flow samples, drop
 * notifications and visibility events, the exporter) run on the model's
 * virtual clock instead of the event loop.
 *
 * The daemon's clocks follow virtual time (bsf_clock_virtual): virtual
 * time 0 is the epoch (--epoch, or the wall clock's second when the run
 * starts; the datagrams' uptime 0).  Periods that bsflowd aligns to Unix
 * time (the drop notifications' second, ticket periods) depend on it: the
 * same file, seed and epoch give the same datagrams.  So
 * datagram uptimes, sample timestamps and the capture's packet times all
 * run on virtual time.  The model advances as bsflowd's real-time tick
 * does (steps of at most SIM_SFLOW_STEP_NS, the event ring drained
 * between them), each counter poll and each datagram flush happens at
 * its own virtual time.  The collectors of the file are not used: the
 * datagrams go to the capture and/or to HOST:PORT.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_MODEL_SIM_SFLOW_H
#define BSFLOWD_MODEL_SIM_SFLOW_H

#include <stddef.h>
#include <stdint.h>

#include "agent/model/model.h"
#include "agent/model/scenario.h"

#define SIM_SFLOW_STEP_NS 5000000ull /* the model backend's tick */

struct sim_sflow_opts {
	const char *pcap;  /* --sflow FILE, NULL: none */
	const char *to;	   /* --sflow-to HOST[:PORT], NULL: none */
	double speed;	   /* --sflow-to's pace: virtual seconds per wall second;
			      0: as fast as the socket takes them */
	uint64_t epoch_ns; /* --epoch: the Unix time of virtual 0; 0: the wall
			      clock at the start, in whole seconds */
};

/* What was sent. */
struct sim_sflow_stats {
	uint64_t datagrams, bytes, send_errors;
	int send_errno; /* the last send error */
	char dest[300]; /* the capture's destination address, "ADDR port N" */
};

struct sim_sflow;

/* Load file as bsflowd.conf (FILE:LINE messages as bsflowd's) and open
 * the daemon's modules on virtual time 0; so (NULL: none) applies to the
 * model section as to bsflow-sim's own.  NULL with a message in err. */
struct sim_sflow *sim_sflow_new(const char *file, const struct model_scenario_opts *so,
				const struct sim_sflow_opts *o, char *err, size_t errlen);
/* The running model (the backend's): read its figures, set its trace. */
struct model *sim_sflow_model(struct sim_sflow *s);
/* Run to virtual time t_ns: the model, the polls and flushes due, the
 * pace.  0, or -1 if the capture could not be written. */
int sim_sflow_advance_to(struct sim_sflow *s, uint64_t t_ns);
/* At the end: what is pending goes out (as bsflowd at exit), the capture
 * is closed.  0, or -1 with a message in err. */
int sim_sflow_finish(struct sim_sflow *s, struct sim_sflow_stats *st, char *err, size_t errlen);
void sim_sflow_free(struct sim_sflow *s);

#endif
