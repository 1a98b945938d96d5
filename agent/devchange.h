/*
 * devchange.h - the daemon's side of a backend's device change (backend.h,
 * DEVICE CHANGES): when the open backend calls host->device_changed, the
 * daemon, on a later turn of its loop, reads the events already queued
 * (numbered as the old description), reads the description again, and
 * moves its data sources over: the counter poller's, the packet
 * samplers' and the visibility export's sources of ports that stay (same
 * ifIndex) keep their sequence numbers and counts, those of new ports
 * start, those of ports gone stop.  The visibility pipeline is rebuilt
 * when the number of ports changed (its port lists are port indices),
 * otherwise kept with its per-queue packet state forgotten; the queue
 * event streams are asked for again.  What changed is logged.
 *
 * Pushed events are refused from the backend's call until describe()
 * has returned (host.h), so that none is read in another numbering than
 * it was pushed with.
 *
 * A description the daemon cannot take (NULL, sizes below the minimum,
 * out of memory taking it in) leaves the data sources as they were, but
 * the backend numbers its ports anew from that describe(): until a
 * description is taken the port numbering is unknown and nothing is read
 * or attributed by port index (poller_suspend_ports,
 * bsf_events_suspend_ports, bsf_visx_suspend_ports): the device's
 * counters only.  The change is tried again after 1 s, then twice as long
 * each time up to 60 s, or at once on the backend's next call; the first
 * failure is logged, the next ones at most once a minute with their
 * count, and the description taken at last with how many failed.  A
 * backend opened by a reload starts with its ports known.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_AGENT_DEVCHANGE_H
#define BSFLOWD_AGENT_DEVCHANGE_H

#include <stddef.h>

#include "agent/backend.h"

struct bsf_daemon;

/* Set up d's device change handling on its loop (bsf_daemon_init).  0, or
 * -1 (out of memory). */
int bsf_devchange_init(struct bsf_daemon *d);
void bsf_devchange_fini(struct bsf_daemon *d);
/* After a backend was opened: its device_changed calls reach d, and its
 * ports are known (a change the backend before could not give is
 * forgotten). */
void bsf_devchange_watch(struct bsf_daemon *d);
/* Take the backend's new description now (the loop does it after the
 * backend's call).  0, or -1 with the reason (the data sources stay as
 * they were; the loop's caller then takes the ports as unknown and tries
 * again). */
int bsf_devchange_apply(struct bsf_daemon *d, char *err, size_t errlen);
/* What differs between two descriptions, by ifIndex, as one line into buf
 * ("33 ports, were 32; added Ethernet128 (ifIndex 33); removed ...;
 * changed ..."), at most len bytes (a long list ends "and N more").
 * Returns the number of ports added, removed or changed. */
unsigned bsf_devchange_diff(const struct bsf_device_desc *old, const struct bsf_device_desc *nw,
			    char *buf, size_t len);

#endif
