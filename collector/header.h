/*
 * header.h - decode the first layers of a sampled packet header (0:1
 * record) into sflowtool's packet keys: dstMAC, srcMAC, decodedVLAN,
 * ethernet_type, IPSize, srcIP/dstIP (srcIP6/dstIP6), IPProtocol, ports.
 * Reads only within the header bytes; stops quietly where they end.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_HEADER_H
#define BSFLOWD_COLLECT_HEADER_H

#include "collector/output.h"
#include "proto/sflow.h"

void collect_header_decode(struct collect_out *o, const struct sflow_sampled_header *h);

#endif
