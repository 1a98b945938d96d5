/*
 * packet.c - the sampling fallback when psample is absent: one AF_PACKET
 * socket per port with a classic BPF filter that keeps a packet with
 * probability 1/N (the kernel's random number modulo N is 0), truncated
 * to header_bytes.  It sees both directions (outgoing packets after the
 * qdisc); each sample becomes a BSF_EV_SAMPLE on the port's data source
 * (in_port = the port, out_port = the port too for outgoing packets), with
 * no queue, depth or transit (this source cannot know them).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <syslog.h>
#include <unistd.h>

#include "agent/linux/state.h"

struct pkt_sock {
	struct linuxbe_st *st;
	uint32_t port;
	int fd;
	struct bsf_fd_watch *w;
};

struct linuxbe_pkt {
	struct pkt_sock *s;
	unsigned n;
};

static void pkt_read(int fd, void *arg)
{
	struct pkt_sock *ps = arg;
	struct linuxbe_st *st = ps->st;
	uint8_t buf[BSF_HDR_MAX];
	int i, any = 0;

	for (i = 0; i < 64; i++) {
		struct sockaddr_ll sll;
		socklen_t sl = sizeof sll;
		ssize_t n = recvfrom(fd, buf, sizeof buf, MSG_TRUNC | MSG_DONTWAIT,
				     (struct sockaddr *)&sll, &sl);
		struct bsf_event *e;
		size_t len;

		if (n < 0)
			break;
		e = linuxbe_evq_slot(st, BSF_EV_SAMPLE);
		if (!e) {
			st->ports[ps->port].sample_drops++;
			continue;
		}
		e->in_port = ps->port;
		if (sll.sll_pkttype == PACKET_OUTGOING)
			e->out_port = ps->port;
		e->sampling_rate = st->ports[ps->port].sampling_rate;
		e->t_ns = st->host->now_ns(st->host->arg);
		e->frame_len = (uint32_t)n + 4; /* + FCS */
		len = (size_t)n < sizeof buf ? (size_t)n : sizeof buf;
		if (len > st->conf.header_bytes)
			len = st->conf.header_bytes;
		memcpy(e->hdr, buf, len);
		e->hdr_len = (uint32_t)len;
		any = 1;
	}
	if (any && st->host->events_ready)
		st->host->events_ready(st->host->arg);
}

static int open_one(struct linuxbe_st *st, struct pkt_sock *ps, uint32_t rate, char *err,
		    size_t errlen)
{
	struct sock_filter code[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)(SKF_AD_OFF + SKF_AD_RANDOM)),
	    BPF_STMT(BPF_ALU | BPF_MOD | BPF_K, rate),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, 0),
	    BPF_STMT(BPF_RET | BPF_K, st->conf.header_bytes),
	};
	struct sock_fprog prog = {sizeof code / sizeof code[0], code};
	struct sockaddr_ll sll;
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, htons(ETH_P_ALL));

	if (fd < 0) {
		snprintf(err, errlen, "%s", errno == EPERM ? "needs CAP_NET_RAW" : strerror(errno));
		return -1;
	}
	/* the filter first, so that nothing unsampled is queued before it */
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof prog) < 0) {
		snprintf(err, errlen, "socket filter: %s", strerror(errno));
		close(fd);
		return -1;
	}
	memset(&sll, 0, sizeof sll);
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = (int)st->ports[ps->port].ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof sll) < 0) {
		snprintf(err, errlen, "bind to %s: %s", st->ports[ps->port].name, strerror(errno));
		close(fd);
		return -1;
	}
	ps->st = st;
	ps->fd = fd;
	ps->w = st->host->fd_watch(st->host->arg, fd, pkt_read, ps);
	if (!ps->w) {
		snprintf(err, errlen, "cannot watch the socket");
		close(fd);
		return -1;
	}
	return 0;
}

int linuxbe_pkt_open(struct linuxbe_st *st, char *why, size_t whylen)
{
	struct linuxbe_pkt *pk = calloc(1, sizeof *pk);
	char e[200];
	uint32_t p;

	if (!pk || !(pk->s = calloc(st->nports, sizeof *pk->s))) {
		free(pk);
		snprintf(why, whylen, "packet absent (out of memory)");
		return -1;
	}
	st->pkt = pk;
	for (p = 0; p < st->nports; p++) {
		uint32_t rate = st->ports[p].sampling_rate;

		if (!rate)
			continue;
		pk->s[pk->n].port = p;
		if (open_one(st, &pk->s[pk->n], rate, e, sizeof e) < 0) {
			snprintf(why, whylen, "packet sampler on %s: %s", st->ports[p].name, e);
			linuxbe_pkt_close(st);
			return -1;
		}
		pk->n++;
	}
	if (!pk->n) {
		snprintf(why, whylen,
			 "packet absent (no port has a sampling rate: see sampling "
			 "in bsflowd.conf)");
		linuxbe_pkt_close(st);
		return -1;
	}
	snprintf(why, whylen,
		 "packet sampler (AF_PACKET, random 1-in-N) on %u port%s, no queue records", pk->n,
		 pk->n == 1 ? "" : "s");
	return 0;
}

void linuxbe_pkt_close(struct linuxbe_st *st)
{
	struct linuxbe_pkt *pk = st->pkt;
	unsigned i;

	if (!pk)
		return;
	for (i = 0; i < pk->n; i++) {
		st->host->fd_unwatch(pk->s[i].w);
		close(pk->s[i].fd);
	}
	free(pk->s);
	free(pk);
	st->pkt = NULL;
}
