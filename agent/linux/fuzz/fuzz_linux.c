/*
 * fuzz_linux.c - libFuzzer target over the linux backend's parsers: the
 * input is taken as one netlink message (copied to an aligned buffer) and
 * given to every parser (link, tc, NET_DM alert and stats, psample,
 * devlink, ethtool stats), and as text to the kfree_skb format parser.  A parser may
 * refuse the input; it must never read out of bounds or crash.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent/linux/linuxbe.h"
#include "agent/linux/state.h"
#include "agent/linux/tracepoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct linuxbe_tp_format f;
	char err[256];
	void *buf;
	char *text;
	const struct nlmsghdr *m;

	if (size > 1 << 16)
		return 0;
	buf = malloc(size ? size : 1);
	text = malloc(size + 1);
	if (!buf || !text) {
		free(buf);
		free(text);
		return 0;
	}
	memcpy(buf, data, size);
	m = buf;
	{
		struct linuxbe_link l;
		struct linuxbe_tc t;
		struct linuxbe_drop d;
		struct linuxbe_sample s;
		struct linuxbe_sb_rec r;
		uint64_t lost;

		linuxbe_link_parse(m, size, &l, err, sizeof err);
		linuxbe_tc_parse(m, size, &t, err, sizeof err);
		if (linuxbe_dropmon_parse(m, size, &d, err, sizeof err) == 0 && d.payload_len) {
			volatile uint8_t x = d.payload[d.payload_len - 1];
			(void)x;
		}
		linuxbe_dropmon_stats_parse(m, size, &lost, err, sizeof err);
		if (linuxbe_psample_parse(m, size, &s, err, sizeof err) == 0 && s.data_len) {
			volatile uint8_t x = s.data[s.data_len - 1];
			(void)x;
		}
		linuxbe_sb_parse(m, size, &r, err, sizeof err);
		{
			struct linuxbe_ethstats es;

			linuxbe_ethstats_parse(m, size, &es, err, sizeof err);
		}
	}
	memcpy(text, data, size);
	text[size] = '\0';
	linuxbe_tp_format_parse(text, &f, err, sizeof err);
	free(buf);
	free(text);
	return 0;
}
