/*
 * pcapw.c - the -w pcap writer (see pcapw.h), on libpcap's dump API.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>

#include "collector/pcapw.h"

#define PCAPW_SNAPLEN 65535

struct collect_pcapw {
	pcap_t *dead;
	pcap_dumper_t *dump;
	uint64_t count;
};

struct collect_pcapw *collect_pcapw_open(const char *path, char *err, size_t errlen)
{
	struct collect_pcapw *w = calloc(1, sizeof(*w));

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->dead = pcap_open_dead(DLT_EN10MB, PCAPW_SNAPLEN);
	if (!w->dead) {
		snprintf(err, errlen, "pcap_open_dead failed");
		free(w);
		return NULL;
	}
	w->dump = pcap_dump_open(w->dead, path);
	if (!w->dump) {
		snprintf(err, errlen, "%s", pcap_geterr(w->dead));
		pcap_close(w->dead);
		free(w);
		return NULL;
	}
	return w;
}

static void write_header(struct collect_pcapw *w, const struct sflow_sampled_header *h, int64_t sec,
			 uint32_t usec)
{
	struct pcap_pkthdr ph;
	uint32_t caplen = h->header_length;
	uint32_t len = h->frame_length >= h->stripped ? h->frame_length - h->stripped : 0;

	if (h->header_protocol != SFLOW_HEADER_PROTO_ETHERNET || !h->header || caplen == 0)
		return;
	if (caplen > PCAPW_SNAPLEN)
		caplen = PCAPW_SNAPLEN;
	if (len < caplen)
		len = caplen;
	ph.ts.tv_sec = (time_t)sec;
	ph.ts.tv_usec = (suseconds_t)usec;
	ph.caplen = caplen;
	ph.len = len;
	pcap_dump((unsigned char *)w->dump, &ph, h->header);
	w->count++;
}

void collect_pcapw_datagram(struct collect_pcapw *w, const struct collect_rx *rx,
			    const struct sflow_datagram *d)
{
	for (uint32_t i = 0; i < d->nsamples; i++) {
		const struct sflow_sample *s = &d->samples[i];
		int64_t sec = rx->unix_sec;
		uint32_t usec = rx->unix_usec;

		if (s->kind != SFLOW_SMP_FLOW && s->kind != SFLOW_SMP_DISCARD)
			continue;
		for (uint32_t j = 0; j < s->nrecords; j++) {
			const struct sflow_record *r = &s->records[j];
			if (r->kind == SFLOW_REC_TIMESTAMP) {
				sec = (int64_t)(r->u.timestamp_ns / 1000000000u);
				usec = (uint32_t)(r->u.timestamp_ns % 1000000000u / 1000u);
			}
		}
		for (uint32_t j = 0; j < s->nrecords; j++)
			if (s->records[j].kind == SFLOW_REC_SAMPLED_HEADER)
				write_header(w, &s->records[j].u.header, sec, usec);
	}
	pcap_dump_flush(w->dump);
}

uint64_t collect_pcapw_count(const struct collect_pcapw *w)
{
	return w->count;
}

int collect_pcapw_close(struct collect_pcapw *w)
{
	int rc = 0;

	if (!w)
		return 0;
	if (pcap_dump_flush(w->dump) != 0)
		rc = -1;
	pcap_dump_close(w->dump);
	pcap_close(w->dead);
	free(w);
	return rc;
}
