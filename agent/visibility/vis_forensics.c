/*
 * vis_forensics.c - queue forensics (doc/glossary.md): after a drop on a
 * queue, the packets that were in it at drop time are tagged with the
 * drop's event id as they depart, until the packet that was at the tail
 * has left.  Packet ids are a per-queue enqueue sequence (vis.h).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/visibility/vis_monitor.h"

void vis_forensics_init(struct vis_forensics_q *q)
{
	memset(q, 0, sizeof(*q));
	q->last_enq = VIS_ID_NONE;
	/* the queue may already hold packets enqueued before we watched it:
	 * its count is unknown until a departure of the last enqueue seen */
	q->resync = 1;
}

/* The queue is known to be empty (enqueues seen and all of them left). */
static int known_empty(const struct vis_forensics_q *q)
{
	return q->last_enq != VIS_ID_NONE && !q->resync && q->in_queue == 0;
}

void vis_forensics_enqueue(struct vis_forensics_q *q, const struct vis_pkt_event *pe)
{
	q->in_queue++;
	q->last_enq = pe->pkt_id;
}

int vis_forensics_drop(struct vis_forensics_q *q, const struct vis_pkt_event *pe, uint64_t drop_id)
{
	uint64_t tail = pe->tail_id != VIS_ID_NONE ? pe->tail_id : q->last_enq;

	/* with enqueues seen, an empty queue has nothing to snapshot */
	if (!q->enabled || tail == VIS_ID_NONE || known_empty(q))
		return 0;
	if (!q->active)
		q->snapshots++;
	q->active = 1;
	q->tail = tail;
	q->drop_id = drop_id;
	q->reason = pe->reason;
	return 1;
}

int vis_forensics_dequeue(struct vis_forensics_q *q, const struct vis_pkt_event *pe,
			  uint64_t *drop_id, uint32_t *reason, int *last)
{
	int tagged = 0;

	if (q->in_queue)
		q->in_queue--;
	if (q->resync && q->last_enq != VIS_ID_NONE && pe->pkt_id != VIS_ID_NONE &&
	    pe->pkt_id >= q->last_enq) {
		/* the last packet seen enqueued has left: the queue is empty */
		q->resync = 0;
		q->in_queue = 0;
	}
	if (!q->active)
		return 0;
	*last = 0;
	if (pe->pkt_id <= q->tail) {
		tagged = 1;
		*drop_id = q->drop_id;
		*reason = q->reason;
		q->tagged++;
	}
	if (pe->pkt_id >= q->tail || known_empty(q)) {
		q->active = 0;
		*last = tagged;
	}
	return tagged;
}

int vis_forensics_forget(struct vis_forensics_q *q)
{
	int was = q->active;

	q->active = 0;
	q->in_queue = 0;
	q->last_enq = VIS_ID_NONE;
	q->resync = 1;
	return was;
}
