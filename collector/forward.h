/*
 * forward.h - bsflow-collect -f HOST/PORT: every datagram received, as
 * received, sent on to other collectors (several -f allowed), as
 * sflowtool -f does.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_FORWARD_H
#define BSFLOWD_COLLECT_FORWARD_H

#include <stddef.h>
#include <stdint.h>

struct collect_forward;

/* Add a destination "HOST/PORT" (HOST a name or numeric address).  0, or
 * -1 with the reason in err.  *f is created on the first call. */
int collect_forward_add(struct collect_forward **f, const char *spec, char *err, size_t errlen);
/* Send buf to every destination; a failed send is counted, not fatal. */
void collect_forward_send(struct collect_forward *f, const uint8_t *buf, size_t len);
/* Datagrams that could not be sent. */
uint64_t collect_forward_errors(const struct collect_forward *f);
void collect_forward_free(struct collect_forward *f);

#endif
