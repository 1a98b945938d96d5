/*
 * daemon.h - bsflowd's top-level state and its life cycle: apply a
 * configuration (first start and SIGHUP reload), the signal handlers, the
 * status dump, the backend's event queue, and the service-manager
 * notifications.  main() in bsflowd.c parses the command line and drives
 * this.
 *
 * Reload semantics: bsf_daemon_reload() parses and validates the whole new
 * configuration and prepares everything that can fail (agent address,
 * backend open when its section changed) before touching the running
 * state; on any failure it returns -1 with the reason and the daemon runs
 * on exactly as before.  On success collectors are added and removed,
 * intervals changed, and the backend reopened only if its section changed;
 * datagram and sample sequence numbers, collector counters and (with the
 * same backend) pending peaks are kept.
 *
 * The visibility pipeline is built in the first step too (a section the
 * backend's ports cannot take refuses the reload).  It is replaced, and
 * its sampler statistics and monitor state restart, only when the
 * visibility section's text changed or a reopened backend has another
 * number of ports; otherwise it keeps running (after a backend reopen
 * with the same ports it forgets per-queue packet state, as after a gap).
 * The queue event streams are asked for again after every apply.
 *
 * The backend's ports may also change while it runs, without a reload
 * (devchange.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_DAEMON_H
#define BSFLOWD_AGENT_DAEMON_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backends.h"
#include "agent/conf.h"
#include "agent/events.h"
#include "agent/log.h"
#include "agent/visexport.h"

struct event;
struct event_base;
struct export;
struct poller;

struct bsf_daemon {
	struct event_base *base;
	struct conf *conf;     /* the configuration in force */
	const char *conf_path; /* the file to (re)load */
	int conf_explicit;     /* -f given (else the default path: said so when missing) */
	struct bsf_backend be;
	struct export *x;
	struct poller *poller;
	struct event *ev_sig[4]; /* HUP, TERM, INT, USR1 */
	struct event *ev_stop;	 /* --run-for */
	/* the backend's events: 0:3 samples, 0:5 notifications (events.h) */
	struct bsf_events events;
	/* visibility events and samplers (visexport.h) */
	struct bsf_visx vis;
	uint64_t vis_rebuilds; /* pipelines built (section changed, ports changed) */
	uint64_t reloads, reload_failures;
	/* the backend's device changes (devchange.h): its calls, the
	 * descriptions taken in, the attempts that failed; while a new one
	 * cannot be taken, the backend's port numbering is unknown: the
	 * attempts failed since, the delay before the next one and the rate
	 * limit of their messages */
	struct event *ev_devchange, *ev_devchange_retry;
	uint64_t device_change_calls, device_changes, device_change_failures;
	int ports_unknown;
	uint64_t devchange_failing;
	unsigned devchange_retry_s;
	struct bsf_ratelimit devchange_rl;
	int exit_code;
};

/* Load the configuration file named by d->conf_path.  NULL with a message
 * on error; a missing file is one ("FILE: No such file or directory"). */
struct conf *bsf_daemon_load_conf(const struct bsf_daemon *d, char *err, size_t errlen);

/* Set up on base (no configuration yet).  0 or -1. */
int bsf_daemon_init(struct bsf_daemon *d, struct event_base *base, const char *conf_path,
		    int conf_explicit);
/* Apply c (taken over on success; the caller keeps it on failure). */
int bsf_daemon_apply(struct bsf_daemon *d, struct conf *c, char *err, size_t errlen);
/* SIGHUP: load, validate and apply; -1 with the reason keeps the old one.
 * A file that has since been removed is refused like a bad one. */
int bsf_daemon_reload(struct bsf_daemon *d, char *err, size_t errlen);
/* Install SIGHUP/SIGTERM/SIGINT/SIGUSR1 handlers and, if seconds > 0, the
 * --run-for timer. */
int bsf_daemon_signals(struct bsf_daemon *d, unsigned run_for_seconds);
/* Flush what is pending (at exit). */
void bsf_daemon_flush(struct bsf_daemon *d);
void bsf_daemon_log_status(const struct bsf_daemon *d);
void bsf_daemon_fini(struct bsf_daemon *d);

#endif
