/*
 * fuzz_collect.c - libFuzzer target for what bsflow-collect does with one
 * received datagram: decode it as the program does (sflow_decode_with,
 * its arrays kept from one input to the next), run the sequence checks,
 * filter it (--type, --source, --reason), print it in every output shape
 * (text and JSON into buffers kept from input to input, as for a capture
 * read to a file, so that items meet the buffer's end at every offset;
 * -l's CSV lines and -g's grep lines), write its packet headers as pcap
 * (-w) and as pcapng with the drops' comments (-W), and feed the --table
 * view and the --prometheus series (rendered in both formats now and
 * then, with series expiring).  proto/fuzz/fuzz_decode covers the decoder
 * alone; this one covers the collector code that walks the decoded value.
 * The last input byte picks the own-enterprise setting (bit 0, so that
 * bsflowd's own records are printed both by name and as unknown ones) and
 * the filter (bits 1-7).  State (checks, table, series, output buffers)
 * lives across inputs, as it does across datagrams in the program.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/checks.h"
#include "collector/filter.h"
#include "collector/lines.h"
#include "collector/output.h"
#include "collector/pcapw.h"
#include "collector/print.h"
#include "collector/prometheus.h"
#include "collector/table.h"
#include "proto/sflow_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;
static struct collect_checks *checks;
static struct collect_table *table;
static struct collect_prom *prom;
static struct collect_pcapw *pcap, *pcapng;
static struct sflow_decoder dec;
static struct collect_out text, json;
static unsigned long inputs;

static int setup(void)
{
	char err[256];

	sink = fopen("/dev/null", "w");
	checks = collect_checks_new(sink, SFLOW_ENT_OWN_DEFAULT);
	table = collect_table_new(SFLOW_ENT_OWN_DEFAULT);
	prom = collect_prom_new(SFLOW_ENT_OWN_DEFAULT, 300, 5000);
	pcap = collect_pcapw_open("/dev/null", err, sizeof err);
	pcapng = collect_pcapw_open_ng("/dev/null", err, sizeof err);
	if (!sink || !checks || !table || !prom || !pcap || !pcapng)
		abort();
	/* small limits, so that the checks' eviction runs too */
	collect_checks_set_limits(checks, 64, 512);
	collect_out_init(&text, COLLECT_FMT_TEXT, sink);
	collect_out_init(&json, COLLECT_FMT_JSON, sink);
	text.batch = json.batch = 1;
	return 0;
}

/* The filter bits 1-7 of b select: bits 1-4 the sample types, bit 5 the
 * data sources 0:3 and 2:1, bit 6 the reasons 0 and 258 (--reason), bit
 * 7 the agent 10.0.0.1. */
static void make_filter(struct collect_filter *f, uint8_t b, uint32_t ent)
{
	char err[128];

	memset(f, 0, sizeof *f);
	f->own_enterprise = ent;
	f->types = (b >> 1) & 15;
	if (b & 0x20) {
		collect_filter_source(f, "0:3", err, sizeof err);
		collect_filter_source(f, "2:1", err, sizeof err);
	}
	if (b & 0x40) {
		collect_filter_reason(f, "0", err, sizeof err);
		collect_filter_reason(f, "258", err, sizeof err);
	}
	if (b & 0x80)
		collect_filter_agent(f, "10.0.0.1", err, sizeof err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t last = size ? data[size - 1] : 0;
	uint32_t ent = last & 1 ? 1234 : SFLOW_ENT_OWN_DEFAULT;
	struct sflow_decode_opts opts = {.own_enterprise = ent};
	struct collect_rx rx = {.src = {.type = SFLOW_ADDR_IP4, .a = {127, 0, 0, 1}},
				.src_port = 6343,
				.size = size,
				.unix_sec = 1700000000 + (int64_t)(inputs / 64),
				.unix_usec = (uint32_t)(inputs % 1000000)};
	struct collect_filter f;
	struct sflow_datagram d, view = {0};
	const struct sflow_datagram *shown = &d;
	struct sflow_decode_error err;
	double now = (double)inputs * 0.5;

	if (!sink)
		setup();
	inputs++;
	if (sflow_decode_with(&dec, data, size, &opts, &d, &err) != SFLOW_OK) {
		collect_checks_malformed(checks, &rx, &err);
		collect_prom_malformed(prom, now);
		return 0;
	}
	collect_checks_datagram(checks, &rx, &d);
	collect_prom_datagram(prom, &d, now);
	make_filter(&f, last, ent);
	if (collect_filter_active(&f))
		shown = collect_filter_apply(&f, &d, &view) > 0 ? &view : NULL;
	if (shown) {
		text.own_enterprise = json.own_enterprise = ent;
		collect_print_datagram(&text, &rx, shown);
		collect_print_datagram(&json, &rx, shown);
		collect_lines_csv(sink, ent, shown);
		collect_lines_grep(sink, ent, &rx, shown);
		collect_pcapw_datagram(pcap, &rx, shown);
		collect_pcapw_datagram(pcapng, &rx, shown);
		collect_table_add(table, shown);
	}
	free(view.samples);
	if (inputs % 1024 == 0) {
		collect_table_render(table, sink, 0);
		collect_checks_summary(checks, sink);
		collect_prom_render(prom, sink, (inputs / 1024) & 1, now);
	}
	sflow_datagram_free(&d);
	return 0;
}
