/*
 * vis_backend.h - from the backend's event (struct bsf_event, backend.h)
 * to the visibility library's packet event.  A BSF_EV_DROP becomes a drop
 * on (out_port, queue); a BSF_EV_SAMPLE becomes a departure carrying its
 * transit delay, which feeds the high-delay monitor only (a 1-in-N sample
 * is not the full departure stream that forensics and congestion need).
 */
#ifndef BSFLOWD_VIS_BACKEND_H
#define BSFLOWD_VIS_BACKEND_H

#include "agent/backend.h"
#include "agent/visibility/vis.h"

/* Returns 0, or -1 for an event type the library does not take.  pe->hdr
 * points into be (keep be alive while pe is used). */
int vis_pkt_from_bsf(const struct bsf_event *be, struct vis_pkt_event *pe);

#endif
