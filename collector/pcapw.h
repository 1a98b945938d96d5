/*
 * pcapw.h - bsflow-collect -w: write the packet headers carried in 0:1
 * sampled_header records of flow (0:1, 0:3) and discard (0:5) samples to
 * a pcap file (link type Ethernet, DLT_EN10MB) that tcpdump, tshark and
 * Wireshark open.  Time stamp: the sample's 0:1043 extended_timestamp when
 * present, else the datagram's receive (or capture) time.  The original
 * length is the record's frame_length minus its stripped bytes.
 *
 * bsflow-collect -W (--write-drops) writes pcapng instead (written here,
 * libpcap cannot): one Ethernet interface with nanosecond time stamps,
 * and each discarded packet with a packet comment (opt_comment) naming
 * the drop: "drop reason NAME (CODE); agent A; input I; output O" and,
 * when the notification carries them, "; queue Q; queue depth D bytes;
 * function F; trap G/T; reason R; N drops not notified so far" (the
 * notification's drops counter).  The strings from the wire (F, G, T, R)
 * are written as the JSON output writes them, but as UTF-8 text: a byte
 * from 0x80 on as its Latin-1 character, '"', '\' and control bytes
 * (NUL included) escaped (\", \\, \n, \u0000...), so that the comment is
 * valid UTF-8, as pcapng requires, and whole.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_COLLECT_PCAPW_H
#define BSFLOWD_COLLECT_PCAPW_H

#include <stddef.h>
#include <stdint.h>

#include "collector/print.h"
#include "proto/sflow_decode.h"

struct collect_pcapw;

/* NULL on failure, with the reason in err. */
struct collect_pcapw *collect_pcapw_open(const char *path, char *err, size_t errlen);
/* The same, pcapng with comments ("-": standard output). */
struct collect_pcapw *collect_pcapw_open_ng(const char *path, char *err, size_t errlen);
void collect_pcapw_datagram(struct collect_pcapw *w, const struct collect_rx *rx,
			    const struct sflow_datagram *d);
uint64_t collect_pcapw_count(const struct collect_pcapw *w);
/* Flushes and closes; returns 0, or -1 if a write failed. */
int collect_pcapw_close(struct collect_pcapw *w);

#endif
