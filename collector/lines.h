/*
 * lines.h - bsflow-collect's one-line-per-sample outputs, in sflowtool's
 * habits: -l, CSV lines starting FLOW, CNTR, DROP or EVENT with the agent
 * and the data source; -g, every decoded field on its own line prefixed
 * with the agent, the data source and the sample type, for grep.  The
 * columns are in bsflow-collect(1), LINE OUTPUT.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_LINES_H
#define BSFLOWD_COLLECT_LINES_H

#include <stdint.h>
#include <stdio.h>

#include "collector/print.h"
#include "proto/sflow_decode.h"

/* -l: one CSV line per sample of d. */
void collect_lines_csv(FILE *out, uint32_t own_enterprise, const struct sflow_datagram *d);
/* -g: the text output of d (print.h), one field per line, each prefixed
 * "AGENT SOURCE SAMPLETYPE " (source "-" and type DATAGRAM for the
 * datagram's own fields). */
void collect_lines_grep(FILE *out, uint32_t own_enterprise, const struct collect_rx *rx,
			const struct sflow_datagram *d);

#endif
