/*
 * vis_monitor_drop.c - drop visibility per cause:
 * every drop is counted by its sFlow discard reason; the causes in the
 * configured set (all by default) raise a drop visibility event.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <string.h>

#include "agent/visibility/vis_monitor.h"

void vis_drop_mon_init(struct vis_drop_mon *d)
{
	memset(d, 0, sizeof(*d));
}

int vis_drop_mon_account(struct vis_drop_mon *d, uint32_t reason)
{
	if (reason < VIS_REASON_SLOTS)
		d->by_reason[reason]++;
	else
		d->other_reason++;
	if (!d->enabled || (d->reasons.n && !vis_set_has(&d->reasons, reason)))
		return 0;
	d->reported++;
	return 1;
}
