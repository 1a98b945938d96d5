/*
 * fuzz_collect.c - libFuzzer target for what bsflow-collect does with one
 * received datagram: decode it, run the sequence checks, print it as text
 * and as JSON (packet headers decoded too), and feed the --table view.
 * proto/fuzz/fuzz_decode covers the decoder alone; this one covers the
 * collector code that walks the decoded value.  The last input byte picks
 * the own-enterprise setting, so bsflowd's own records are printed both
 * by name and as unknown ones.  State (checks, table) lives across inputs,
 * as it does across datagrams in the program.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "collector/checks.h"
#include "collector/output.h"
#include "collector/print.h"
#include "collector/table.h"
#include "proto/sflow_decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;
static struct collect_checks *checks;
static struct collect_table *table;
static unsigned long inputs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t ent = size && (data[size - 1] & 1) ? 1234 : SFLOW_ENT_OWN_DEFAULT;
	struct sflow_decode_opts opts = {.own_enterprise = ent};
	struct collect_rx rx = {.src = {.type = SFLOW_ADDR_IP4, .a = {127, 0, 0, 1}},
				.src_port = 6343,
				.size = size,
				.unix_sec = 1700000000,
				.unix_usec = 0};
	struct sflow_datagram d;
	struct sflow_decode_error err;
	struct collect_out text, json;

	if (!sink) {
		sink = fopen("/dev/null", "w");
		checks = collect_checks_new(sink, SFLOW_ENT_OWN_DEFAULT);
		table = collect_table_new(SFLOW_ENT_OWN_DEFAULT);
		if (!sink || !checks || !table)
			return 0;
	}
	if (sflow_decode(data, size, &opts, &d, &err) != SFLOW_OK) {
		collect_checks_malformed(checks, &rx, &err);
		return 0;
	}
	collect_checks_datagram(checks, &rx, &d);
	collect_out_init(&text, COLLECT_FMT_TEXT, sink);
	text.own_enterprise = ent;
	collect_print_datagram(&text, &rx, &d);
	collect_out_init(&json, COLLECT_FMT_JSON, sink);
	json.own_enterprise = ent;
	collect_print_datagram(&json, &rx, &d);
	collect_table_add(table, &d);
	if (++inputs % 1024 == 0) {
		collect_table_render(table, sink, 0);
		collect_checks_summary(checks, sink);
	}
	sflow_datagram_free(&d);
	return 0;
}
