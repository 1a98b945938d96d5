/*
 * pcapw.c - the -w pcap writer (see pcapw.h), on libpcap's dump API, and
 * the -W pcapng writer with a comment per dropped packet (pcapng, IETF
 * draft-ietf-opsawg-pcapng: section header, interface description, enhanced
 * packet blocks; little-endian, as written on this machine's order).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/output.h"
#include "collector/pcapw.h"
#include "proto/sflow_drops.h"

#define PCAPW_SNAPLEN 65535

struct collect_pcapw {
	pcap_t *dead;
	pcap_dumper_t *dump;
	FILE *ng; /* pcapng instead */
	int ng_error;
	const struct sflow_datagram *d; /* the datagram being written (comments) */
	uint64_t count;
};

/* pcapng blocks and options (host byte order: the section header's byte
 * order magic says which) */
#define NG_SHB		 0x0A0D0D0Au
#define NG_IDB		 1u
#define NG_EPB		 6u
#define NG_BOM		 0x1A2B3C4Du
#define NG_OPT_COMMENT	 1
#define NG_SHB_USERAPPL	 4
#define NG_IF_TSRESOL	 9
#define NG_LINK_ETHERNET 1

struct ngbuf {
	uint8_t b[PCAPW_SNAPLEN + 2048];
	size_t n;
};

static void ng_put(struct ngbuf *g, const void *p, size_t n)
{
	if (g->n + n > sizeof g->b)
		n = sizeof g->b - g->n; /* (cannot happen: sizes are bounded) */
	memcpy(g->b + g->n, p, n);
	g->n += n;
}

static void ng_u32(struct ngbuf *g, uint32_t v)
{
	ng_put(g, &v, 4);
}

static void ng_pad(struct ngbuf *g)
{
	static const uint8_t z[4];

	ng_put(g, z, (4 - g->n % 4) % 4);
}

/* An option: code, length, value padded to 32 bits. */
static void ng_opt(struct ngbuf *g, uint16_t code, const void *v, uint16_t len)
{
	ng_put(g, &code, 2);
	ng_put(g, &len, 2);
	ng_put(g, v, len);
	ng_pad(g);
}

/* The end of an option list (opt_endofopt: code 0, length 0). */
static void ng_opt_end(struct ngbuf *g)
{
	ng_u32(g, 0);
}

/* Close a block started with its type and a length placeholder: the
 * total length at both ends; then write it. */
static void ng_end(struct collect_pcapw *w, struct ngbuf *g)
{
	uint32_t total = (uint32_t)(g->n + 4);

	memcpy(g->b + 4, &total, 4);
	ng_u32(g, total);
	if (fwrite(g->b, 1, g->n, w->ng) != g->n)
		w->ng_error = 1;
}

static void ng_begin(struct ngbuf *g, uint32_t type)
{
	g->n = 0;
	ng_u32(g, type);
	ng_u32(g, 0);
}

struct collect_pcapw *collect_pcapw_open_ng(const char *path, char *err, size_t errlen)
{
	struct collect_pcapw *w = calloc(1, sizeof(*w));
	static struct ngbuf g;
	static const char app[] = "bsflow-collect " PACKAGE_VERSION;
	uint16_t u16;
	uint8_t res = 9; /* if_tsresol: 10^-9 s */
	int64_t seclen = -1;

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->ng = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
	if (!w->ng) {
		snprintf(err, errlen, "%m");
		free(w);
		return NULL;
	}
	ng_begin(&g, NG_SHB);
	ng_u32(&g, NG_BOM);
	u16 = 1;
	ng_put(&g, &u16, 2); /* version 1.0 */
	u16 = 0;
	ng_put(&g, &u16, 2);
	ng_put(&g, &seclen, 8);
	ng_opt(&g, NG_SHB_USERAPPL, app, (uint16_t)strlen(app));
	ng_opt_end(&g);
	ng_end(w, &g);
	ng_begin(&g, NG_IDB);
	u16 = NG_LINK_ETHERNET;
	ng_put(&g, &u16, 2);
	u16 = 0;
	ng_put(&g, &u16, 2);
	ng_u32(&g, PCAPW_SNAPLEN);
	ng_opt(&g, NG_IF_TSRESOL, &res, 1);
	ng_opt_end(&g);
	ng_end(w, &g);
	if (w->ng_error || fflush(w->ng) != 0) {
		snprintf(err, errlen, "cannot write: %m");
		if (w->ng != stdout)
			fclose(w->ng);
		free(w);
		return NULL;
	}
	return w;
}

/* An sFlow interface value for a comment: "unknown" for 0x3FFFFFFF. */
static void if_str(char *b, size_t n, uint32_t v)
{
	if (v == 0x3FFFFFFFu)
		snprintf(b, n, "unknown");
	else
		snprintf(b, n, "%u", v);
}

/* Append to the comment c (n bytes, k used): text, then the wire string
 * s[0..len) as the JSON output writes it but valid UTF-8 as it is
 * (collect_utf8_piece: a byte from 0x80 on as its Latin-1 character, a
 * control byte or NUL escaped), cut between characters if it does not
 * fit.  pcapng wants UTF-8 comments, and a raw NUL would end one. */
static void put_wire(char *c, size_t n, size_t *k, const char *text, const char *s, size_t len)
{
	char one[6];

	if (*k < n)
		*k += (size_t)snprintf(c + *k, n - *k, "%s", text);
	for (size_t i = 0; i < len && *k < n; i++) {
		size_t m = (size_t)(collect_utf8_piece(one, s + i, 1) - one);

		if (*k + m >= n) {
			*k = n;
			break;
		}
		memcpy(c + *k, one, m);
		*k += m;
		c[*k] = '\0';
	}
}

/* The comment of a dropped packet: what its notification says. */
static void drop_comment(const struct collect_pcapw *w, const struct sflow_sample *s, char *c,
			 size_t n)
{
	const struct sflow_discard_sample *ds = &s->h.discard;
	const char *name = sflow_drop_name(ds->reason);
	char in[16], out[16], agent[64] = "?";
	size_t k;

	if (w->d)
		sflow_addr_str(&w->d->agent, agent, sizeof agent);
	if_str(in, sizeof in, ds->input);
	if_str(out, sizeof out, ds->output);
	k = (size_t)snprintf(c, n, "drop reason %s (%u); agent %s; input %s; output %s",
			     name ? name : "unknown", ds->reason, agent, in, out);
	for (uint32_t j = 0; j < s->nrecords && k < n; j++) {
		const struct sflow_record *r = &s->records[j];

		switch (r->kind) {
		case SFLOW_REC_EGRESS_QUEUE:
			k += (size_t)snprintf(c + k, n - k, "; queue %u", r->u.queue);
			break;
		case SFLOW_REC_QUEUE_DEPTH:
			k += (size_t)snprintf(c + k, n - k, "; queue depth %u bytes", r->u.depth);
			break;
		case SFLOW_REC_FUNCTION:
			put_wire(c, n, &k, "; function ", r->u.function.symbol, r->u.function.len);
			break;
		case SFLOW_REC_HW_TRAP:
			put_wire(c, n, &k, "; trap ", r->u.hw_trap.group, r->u.hw_trap.group_len);
			put_wire(c, n, &k, "/", r->u.hw_trap.trap, r->u.hw_trap.trap_len);
			break;
		case SFLOW_REC_LINUX_REASON:
			put_wire(c, n, &k, "; reason ", r->u.linux_reason.symbol,
				 r->u.linux_reason.len);
			break;
		default:
			break;
		}
	}
	if (ds->drops && k < n)
		snprintf(c + k, n - k, "; %u drops not notified so far", ds->drops);
}

static void write_ng(struct collect_pcapw *w, const struct sflow_sampled_header *h, uint32_t caplen,
		     uint32_t len, uint64_t t_ns, const char *comment)
{
	static struct ngbuf g;
	size_t cl = comment ? strlen(comment) : 0;

	ng_begin(&g, NG_EPB);
	ng_u32(&g, 0); /* interface 0 */
	ng_u32(&g, (uint32_t)(t_ns >> 32));
	ng_u32(&g, (uint32_t)t_ns);
	ng_u32(&g, caplen);
	ng_u32(&g, len);
	ng_put(&g, h->header, caplen);
	ng_pad(&g);
	if (cl)
		ng_opt(&g, NG_OPT_COMMENT, comment, (uint16_t)(cl > 2000 ? 2000 : cl));
	ng_opt_end(&g);
	ng_end(w, &g);
}

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
			 uint32_t nsec, const struct sflow_sample *s)
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
	if (w->ng) {
		char comment[1024];

		if (s->kind == SFLOW_SMP_DISCARD)
			drop_comment(w, s, comment, sizeof comment);
		write_ng(w, h, caplen, len, (uint64_t)sec * 1000000000u + nsec,
			 s->kind == SFLOW_SMP_DISCARD ? comment : NULL);
		w->count++;
		return;
	}
	ph.ts.tv_sec = (time_t)sec;
	ph.ts.tv_usec = (suseconds_t)(nsec / 1000u);
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
		uint32_t nsec = rx->unix_usec * 1000u;

		if (s->kind != SFLOW_SMP_FLOW && s->kind != SFLOW_SMP_DISCARD)
			continue;
		for (uint32_t j = 0; j < s->nrecords; j++) {
			const struct sflow_record *r = &s->records[j];
			if (r->kind == SFLOW_REC_TIMESTAMP) {
				sec = (int64_t)(r->u.timestamp_ns / 1000000000u);
				nsec = (uint32_t)(r->u.timestamp_ns % 1000000000u);
			}
		}
		w->d = d;
		for (uint32_t j = 0; j < s->nrecords; j++)
			if (s->records[j].kind == SFLOW_REC_SAMPLED_HEADER)
				write_header(w, &s->records[j].u.header, sec, nsec, s);
		w->d = NULL;
	}
	if (w->ng) {
		if (fflush(w->ng) != 0)
			w->ng_error = 1;
		return;
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
	if (w->ng) {
		rc = w->ng_error || fflush(w->ng) != 0 ? -1 : 0;
		if (w->ng != stdout && fclose(w->ng) != 0)
			rc = -1;
		free(w);
		return rc;
	}
	if (pcap_dump_flush(w->dump) != 0)
		rc = -1;
	pcap_dump_close(w->dump);
	pcap_close(w->dead);
	free(w);
	return rc;
}
