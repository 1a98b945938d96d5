/*
 * process.c - what bsflow-collect does with one received UDP payload:
 * decode it (proto/), run the checks, print it, write its packet headers
 * to the -w file, and decide whether to stop (-c, --strict: a malformed
 * datagram, or own structures found wrong by the checks).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collector/collect.h"
#include "proto/sflow_decode.h"

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* --write-drops: the drop notifications' packets to their file, the
 * sampled packets to -w's. */
static void write_apart(struct collect_ctx *c, const struct collect_rx *rx,
			const struct sflow_datagram *d)
{
	struct collect_filter f;
	struct sflow_datagram part;

	memset(&f, 0, sizeof f);
	f.own_enterprise = c->opts->own_enterprise;
	f.types = COLLECT_TYPE_DROP;
	if (collect_filter_apply(&f, d, &part) > 0)
		collect_pcapw_datagram(c->pcapw_drops, rx, &part);
	free(part.samples);
	if (!c->pcapw)
		return;
	f.types = COLLECT_TYPE_FLOW;
	if (collect_filter_apply(&f, d, &part) > 0)
		collect_pcapw_datagram(c->pcapw, rx, &part);
	free(part.samples);
}

/* --table: account the datagram; redraw at most twice a second. */
static void table_update(struct collect_ctx *c, const struct sflow_datagram *d)
{
	struct timespec ts;
	double now;

	collect_table_add(c->table, d);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	if (now - c->table_drawn < 0.5)
		return;
	c->table_drawn = now;
	collect_table_render(c->table, stdout, isatty(fileno(stdout)));
	fflush(stdout);
}

int collect_process(struct collect_ctx *c, const uint8_t *buf, size_t len,
		    const struct collect_rx *rx)
{
	struct sflow_decode_opts dopts = {.own_enterprise = c->opts->own_enterprise};
	struct sflow_datagram d, view = {0}, *shown = &d;
	struct sflow_decode_error err;
	int rc;

	c->received++;
	if (c->fwd)
		collect_forward_send(c->fwd, buf, len);
	rc = sflow_decode_with(&c->dec, buf, len, &dopts, &d, &err);
	if (rc != SFLOW_OK) {
		collect_out_flush(&c->out);
		collect_checks_malformed(c->checks, rx, &err);
		if (c->prom)
			collect_prom_malformed(c->prom, mono_now());
		if (c->opts->strict) {
			fprintf(stderr, "bsflow-collect: --strict: malformed datagram: %s\n",
				err.msg);
			c->exit_code = COLLECT_EXIT_STRICT;
			return 1;
		}
	} else {
		uint64_t own_errors = collect_checks_own_errors(c->checks);

		/* checks first: their reports go to stderr, flushed before output */
		collect_checks_datagram(c->checks, rx, &d);
		if (c->prom)
			collect_prom_datagram(c->prom, &d, mono_now());
		if (collect_filter_active(&c->opts->filter))
			shown =
			    collect_filter_apply(&c->opts->filter, &d, &view) > 0 ? &view : NULL;
		if (shown && !c->opts->quiet) {
			if (c->opts->lines == 'l')
				collect_lines_csv(c->out.fp, c->opts->own_enterprise, shown);
			else if (c->opts->lines == 'g')
				collect_lines_grep(c->out.fp, c->opts->own_enterprise, rx, shown);
			else
				collect_print_datagram(&c->out, rx, shown);
		}
		if (shown && c->pcapw_drops)
			write_apart(c, rx, shown);
		else if (shown && c->pcapw)
			collect_pcapw_datagram(c->pcapw, rx, shown);
		if (shown && c->table)
			table_update(c, shown);
		if (view.samples)
			free(view.samples);
		sflow_datagram_free(&d);
		if (c->opts->strict && collect_checks_own_errors(c->checks) > own_errors) {
			collect_out_flush(&c->out);
			fprintf(stderr, "bsflow-collect: --strict: bsflowd's own structures "
					"failed a check (sampler mismatch or bad event sample)\n");
			c->exit_code = COLLECT_EXIT_STRICT;
			return 1;
		}
	}
	if (c->opts->max_datagrams && c->received >= c->opts->max_datagrams)
		return 1;
	return 0;
}
