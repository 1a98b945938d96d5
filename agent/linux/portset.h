/*
 * portset.h - the linux backend's ports changing while it runs: the pure
 * steps (portset.c: the old -> new index map, the queued events
 * renumbered, the change as one log line) and the running part
 * (portswap.c: link notifications gathered over a short quiet time, the
 * new set found with the rule of open(), offered to the daemon through
 * host->device_changed and made current, with every source rebuilt, at
 * the daemon's next describe()).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUX_PORTSET_H
#define BSFLOWD_LINUX_PORTSET_H

#include <stddef.h>
#include <stdint.h>

#include "agent/backend.h"
#include "agent/linux/state.h"

/* map[i] = the new index of old port i (the port with the same ifindex),
 * UINT32_MAX if it is gone. */
void linuxbe_port_map(const uint32_t *old_ifx, uint32_t nold, const uint32_t *new_ifx,
		      uint32_t nnew, uint32_t *map);
/* One event of the old numbering in the new one: 0, or -1 when it is to
 * be dropped (a sample of a port gone, a queue event of a queue gone); a
 * drop keeps its place with its gone ports unknown. */
int linuxbe_event_renumber(struct bsf_event *e, const uint32_t *map, uint32_t nold);
/* Every event of the queue so (order kept); returns how many it dropped. */
size_t linuxbe_evq_renumber(struct linuxbe_evq *q, const uint32_t *map, uint32_t nold);

struct linuxbe_port_id {
	uint32_t ifindex;
	const char *name;
};
/* "added NAME (ifindex N), renamed A -> B (ifindex N), removed NAME
 * (ifindex N)" into buf; returns the number of changes (0: the same
 * ports, buf ""). */
unsigned linuxbe_port_changes(const struct linuxbe_port_id *old, uint32_t nold,
			      const struct linuxbe_port_id *nw, uint32_t nnew, char *buf,
			      size_t len);

/* ---- portswap.c ---- */
/* After open(): remember the sampling rules' answers for ports that
 * appear later (args->sampling_rate is gone after open()). */
void linuxbe_swap_rates(struct linuxbe_st *st, const struct bsf_backend_args *args);
/* A link notification says the ports may have changed (queues: a port's
 * queues did): look again after a short quiet time.  Returns 0 when the
 * daemon cannot take a new description (the caller logs "reload"). */
int linuxbe_swap_schedule(struct linuxbe_st *st, int queues);
/* describe(): make the ports kept aside current, rebuilding the sources. */
void linuxbe_swap_apply(struct linuxbe_st *st);
void linuxbe_swap_close(struct linuxbe_st *st);

#endif
