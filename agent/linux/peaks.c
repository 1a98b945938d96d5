/*
 * peaks.c - peak windows for polled occupancy: every reading a poller takes
 * is folded into all BSF_WINDOWS running peaks, and a window's read returns
 * and restarts only its own (so no reader clears another's).  Also the
 * widening of the kernel's 32-bit qdisc counters to 64 bits.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/linux/linuxbe.h"

void linuxbe_peak_fold(struct linuxbe_peak *p, uint64_t v, uint64_t alloc, uint64_t t_ns)
{
	unsigned w;

	if (!p->valid) {
		p->valid = 1;
		for (w = 0; w < BSF_WINDOWS; w++) {
			p->peak[w] = v;
			p->peak_t[w] = t_ns;
			p->alloc_at_peak[w] = alloc;
		}
	}
	p->cur = v;
	for (w = 0; w < BSF_WINDOWS; w++)
		if (v > p->peak[w]) {
			p->peak[w] = v;
			p->peak_t[w] = t_ns;
			p->alloc_at_peak[w] = alloc;
		}
}

void linuxbe_peak_take(struct linuxbe_peak *p, unsigned w, struct bsf_buf *out, uint64_t alloc,
		       int unit_bytes)
{
	out->cur_cells = out->cur_bytes = out->peak_cells = out->peak_bytes = BSF_UNKNOWN;
	out->alloc_cells = BSF_UNKNOWN;
	out->peak_time_ns = BSF_UNKNOWN;
	if (!p->valid || w >= BSF_WINDOWS)
		return;
	/* without cells, "cells" carry the unit the limit is in (bytes or
	 * packets), so that peak_cells / alloc_cells is the BST percentage */
	out->cur_cells = p->cur;
	out->peak_cells = p->peak[w];
	out->alloc_cells = p->alloc_at_peak[w] != BSF_UNKNOWN ? p->alloc_at_peak[w] : alloc;
	if (unit_bytes) {
		out->cur_bytes = p->cur;
		out->peak_bytes = p->peak[w];
	}
	out->peak_time_ns = p->peak_t[w];
	p->peak[w] = p->cur;
	p->alloc_at_peak[w] = alloc;
}

uint64_t linuxbe_wrap_add(struct linuxbe_wrap *w, uint32_t now)
{
	if (w->seen)
		w->total += (uint32_t)(now - w->last);
	else
		w->total = now;
	w->seen = 1;
	w->last = now;
	return w->total;
}
