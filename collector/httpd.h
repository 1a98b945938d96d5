/*
 * httpd.h - the small HTTP/1.x listener behind bsflow-collect --prometheus:
 * one thread, one request per connection, GET /metrics answered from the
 * metrics (prometheus.h) in the Prometheus text format, or in OpenMetrics
 * when the request's Accept header asks for application/openmetrics-text.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_HTTPD_H
#define BSFLOWD_COLLECT_HTTPD_H

#include <stddef.h>

struct collect_prom;
struct collect_httpd;

/* Listen on addr ("HOST:PORT", "[V6]:PORT" or ":PORT" for all addresses)
 * and serve p from a thread.  NULL with the reason in err. */
struct collect_httpd *collect_httpd_start(const char *addr, struct collect_prom *p, char *err,
					  size_t errlen);
/* Stop the thread and close the socket. */
void collect_httpd_stop(struct collect_httpd *h);

#endif
