/*
 * input_pcap.c - read sFlow datagrams from a capture file (-r).
 *
 * Link types: Ethernet (with any number of 802.1Q/802.1ad tags), Linux
 * cooked v1 (SLL) and v2 (SLL2), BSD null/loopback (either byte order) and
 * raw IP.  Network: IPv4 (not fragments) and IPv6 (hop-by-hop, routing and
 * destination-option headers skipped).  Every UDP payload is taken as an
 * sFlow datagram -- only those to port -p when -p is given.  Anything else
 * is skipped and counted by reason.  -t S stops at the first frame more
 * than S seconds (capture time) after the first one.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include "collector/collect.h"

#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif

static unsigned be16(const uint8_t *p)
{
	return ((unsigned)p[0] << 8) | p[1];
}

struct frame {
	const uint8_t *payload;
	size_t len;
	struct sflow_addr src;
	uint16_t sport, dport;
};

/* UDP header at p; fills f; returns NULL or a skip reason. */
static const char *parse_udp(const uint8_t *p, const uint8_t *end, struct frame *f)
{
	unsigned ulen;

	if (end - p < 8)
		return "truncated";
	f->sport = (uint16_t)be16(p);
	f->dport = (uint16_t)be16(p + 2);
	ulen = be16(p + 4);
	if (ulen < 8)
		return "bad_udp_length";
	if ((size_t)(end - p) < ulen)
		return "truncated";
	f->payload = p + 8;
	f->len = ulen - 8u;
	return NULL;
}

static const char *parse_ip4(const uint8_t *p, const uint8_t *end, struct frame *f)
{
	unsigned ihl, tot;

	if (end - p < 20)
		return "truncated";
	if ((p[0] >> 4) != 4 || (p[0] & 15) < 5)
		return "bad_ip_header";
	ihl = (p[0] & 15u) * 4u;
	tot = be16(p + 2);
	if (tot < ihl || (size_t)(end - p) < ihl)
		return "truncated";
	if ((be16(p + 6) & 0x3fff) != 0)
		return "ip_fragment";
	if (p[9] != 17)
		return "not_udp";
	if ((size_t)(end - p) > tot)
		end = p + tot; /* Ethernet padding */
	f->src.type = SFLOW_ADDR_IP4;
	memcpy(f->src.a, p + 12, 4);
	return parse_udp(p + ihl, end, f);
}

static const char *parse_ip6(const uint8_t *p, const uint8_t *end, struct frame *f)
{
	unsigned next, plen;

	if (end - p < 40)
		return "truncated";
	if ((p[0] >> 4) != 6)
		return "bad_ip_header";
	plen = be16(p + 4);
	next = p[6];
	f->src.type = SFLOW_ADDR_IP6;
	memcpy(f->src.a, p + 8, 16);
	if ((size_t)(end - p - 40) > plen)
		end = p + 40 + plen;
	p += 40;
	while (next == 0 || next == 43 || next == 60) {
		size_t hl;
		if (end - p < 8)
			return "truncated";
		next = p[0];
		hl = 8u * ((size_t)p[1] + 1u);
		if ((size_t)(end - p) < hl)
			return "truncated";
		p += hl;
	}
	if (next == 44)
		return "ip_fragment";
	if (next != 17)
		return "not_udp";
	return parse_udp(p, end, f);
}

static const char *parse_ethertype(unsigned type, const uint8_t *p, const uint8_t *end,
				   struct frame *f)
{
	while (type == 0x8100 || type == 0x88a8 || type == 0x9100) {
		if (end - p < 4)
			return "truncated";
		type = be16(p + 2);
		p += 4;
	}
	if (type == 0x0800)
		return parse_ip4(p, end, f);
	if (type == 0x86dd)
		return parse_ip6(p, end, f);
	return "not_ip";
}

static const char *parse_frame(int dlt, const uint8_t *p, size_t caplen, struct frame *f)
{
	const uint8_t *end = p + caplen;
	uint32_t fam;

	switch (dlt) {
	case DLT_EN10MB:
		if (caplen < 14)
			return "truncated";
		return parse_ethertype(be16(p + 12), p + 14, end, f);
	case DLT_LINUX_SLL:
		if (caplen < 16)
			return "truncated";
		return parse_ethertype(be16(p + 14), p + 16, end, f);
	case DLT_LINUX_SLL2:
		if (caplen < 20)
			return "truncated";
		return parse_ethertype(be16(p), p + 20, end, f);
	case DLT_NULL:
	case DLT_LOOP:
		if (caplen < 4)
			return "truncated";
		/* DLT_NULL: host order of the capturing machine; DLT_LOOP:
		 * network order.  Accept either. */
		fam =
		    ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
		if (fam > 0xffff)
			fam = ((uint32_t)p[3] << 24) | ((uint32_t)p[2] << 16) |
			      ((uint32_t)p[1] << 8) | p[0];
		if (fam == 2)
			return parse_ip4(p + 4, end, f);
		if (fam == 10 || fam == 24 || fam == 28 || fam == 30)
			return parse_ip6(p + 4, end, f);
		return "not_ip";
	case DLT_RAW:
#ifdef DLT_IPV4
	case DLT_IPV4:
	case DLT_IPV6:
#endif
		if (caplen < 1)
			return "truncated";
		if ((p[0] >> 4) == 4)
			return parse_ip4(p, end, f);
		if ((p[0] >> 4) == 6)
			return parse_ip6(p, end, f);
		return "not_ip";
	default:
		return "link_type";
	}
}

/* The capture file, read through a 1 MiB stdio buffer (libpcap's own
 * stream reads 4 KiB at a time: a system call for every few datagrams);
 * "-" is standard input, as for pcap_open_offline.  NULL with errbuf set. */
static pcap_t *open_capture(const char *path, char *errbuf)
{
	static char readbuf[1u << 20]; /* one capture is read, once */
	FILE *fp;
	pcap_t *p;

	if (strcmp(path, "-") == 0)
		return pcap_open_offline(path, errbuf);
	fp = fopen(path, "rb");
	if (!fp) {
		snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s", strerror(errno));
		return NULL;
	}
	setvbuf(fp, readbuf, _IOFBF, sizeof readbuf); /* glibc ignores a size without a buffer */
	p = pcap_fopen_offline(fp, errbuf);
	if (!p)
		fclose(fp);
	return p;
}

int collect_pcap_run(struct collect_ctx *c)
{
	const struct collect_opts *o = c->opts;
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *ph;
	const u_char *data;
	pcap_t *p;
	int dlt, rc = 0, first = 1;
	double t0 = 0;

	errbuf[0] = '\0';
	p = open_capture(o->read_file, errbuf);
	if (!p) {
		fprintf(stderr, "bsflow-collect: -r %s: %s\n", o->read_file, errbuf);
		return COLLECT_EXIT_ERROR;
	}
	dlt = pcap_datalink(p);
	switch (dlt) {
	case DLT_EN10MB:
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2:
	case DLT_NULL:
	case DLT_LOOP:
	case DLT_RAW:
#ifdef DLT_IPV4
	case DLT_IPV4:
	case DLT_IPV6:
#endif
		break;
	default:
		fprintf(stderr, "bsflow-collect: -r %s: link type %d (%s) not supported\n",
			o->read_file, dlt,
			pcap_datalink_val_to_name(dlt) ? pcap_datalink_val_to_name(dlt) : "?");
		pcap_close(p);
		return COLLECT_EXIT_ERROR;
	}
	while (!*c->stop && (rc = pcap_next_ex(p, &ph, &data)) == 1) {
		struct frame f;
		struct collect_rx rx;
		const char *why;
		double t = (double)ph->ts.tv_sec + (double)ph->ts.tv_usec / 1e6;

		if (first) {
			t0 = t;
			first = 0;
		} else if (o->max_seconds > 0 && t - t0 > o->max_seconds) {
			break;
		}
		memset(&f, 0, sizeof(f));
		why = parse_frame(dlt, data, ph->caplen, &f);
		if (!why && o->port_given && f.dport != o->port)
			why = "other_port";
		if (why) {
			collect_checks_skipped(c->checks, why);
			continue;
		}
		memset(&rx, 0, sizeof(rx));
		rx.src = f.src;
		rx.src_port = f.sport;
		rx.size = f.len;
		rx.unix_sec = ph->ts.tv_sec;
		rx.unix_usec = (uint32_t)ph->ts.tv_usec;
		if (collect_process(c, f.payload, f.len, &rx))
			break;
	}
	if (rc == -1) {
		fprintf(stderr, "bsflow-collect: -r %s: %s\n", o->read_file, pcap_geterr(p));
		pcap_close(p);
		return COLLECT_EXIT_ERROR;
	}
	pcap_close(p);
	return 0;
}
