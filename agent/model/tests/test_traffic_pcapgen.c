/*
 * test_traffic_pcapgen.c - helper of test_traffic_tshark.sh: writes the
 * packets of a few traffic generators (IPv4/IPv6, UDP/TCP, tagged and
 * untagged, unicast and multicast) to a pcap file, each frame its
 * synthesized headers followed by a zero payload up to its length less
 * the FCS, so that tshark can check every header and checksum.
 * Usage: test_traffic_pcapgen FILE
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include "agent/model/traffic.h"

int main(int argc, char **argv)
{
	static unsigned char buf[16384];
	pcap_dumper_t *d;
	pcap_t *p;

	if (argc != 2) {
		fprintf(stderr, "usage: test_traffic_pcapgen FILE\n");
		return 2;
	}
	p = pcap_open_dead(DLT_EN10MB, 65535);
	d = p ? pcap_dump_open(p, argv[1]) : NULL;
	if (!d) {
		fprintf(stderr, "test_traffic_pcapgen: cannot write %s\n", argv[1]);
		return 1;
	}
	for (unsigned k = 0; k < 8; k++) {
		struct model_gen_conf c;
		struct model_source s;
		struct model_pkt pk;
		char err[200];

		model_gen_defaults(&c);
		c.nports = 8;
		c.in_port = (uint16_t)k;
		c.dest = MODEL_DEST_UNIFORM;
		c.nflows = 3;
		c.size = MODEL_SIZE_UNIFORM;
		c.size_lo = 90;
		c.size_hi = 1518;
		c.ip_version = k & 1 ? 6 : 4;
		c.l4 = k & 2 ? 6 : 17;
		if (k & 4) {
			c.vlan = (int)(100 + k);
			c.pcp = 5;
		}
		c.dscp = 10;
		c.mc_fraction = 0.25;
		c.mc_group = 2;
		c.drop_fraction = 0.25;
		c.drop_reason = 257;
		c.max_packets = 25;
		c.seed = k;
		if (model_gen_new(&c, &s, err, sizeof(err)) < 0) {
			fprintf(stderr, "test_traffic_pcapgen: %s\n", err);
			return 1;
		}
		while (s.next(s.state, &pk)) {
			struct pcap_pkthdr h;

			memset(&h, 0, sizeof(h));
			memset(buf, 0, pk.len);
			memcpy(buf, pk.hdr, pk.hdr_len);
			h.ts.tv_sec = (time_t)(pk.t_ns / 1000000000u);
			h.ts.tv_usec = (suseconds_t)(pk.t_ns % 1000000000u / 1000);
			h.len = h.caplen = pk.len - 4; /* a capture has no FCS */
			pcap_dump((u_char *)d, &h, buf);
		}
		s.free(s.state);
	}
	pcap_dump_close(d);
	pcap_close(p);
	return 0;
}
