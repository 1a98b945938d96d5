/*
 * linkrun.c - the link source at run time: a port's 0:1 counters from
 * RTM_GETLINK (IFLA_STATS64) plus its root qdisc's drops (the kernel does
 * not count those in tx_dropped), and the RTNLGRP_LINK notifications that
 * keep oper / admin state current and report ports that come and go (to
 * portswap.c, which takes them in while running).
 *
 * Mapping: in_ucast = rx_packets - multicast; in_mcast = multicast;
 * in_bcast unknown; in_discards = rx_dropped + rx_missed_errors;
 * in_errors = rx_errors; in_unknown_protos = rx_nohandler; out_ucast =
 * tx_packets (the kernel does not split what it sends); out_mcast,
 * out_bcast unknown; out_discards = tx_dropped + root qdisc drops;
 * out_errors = tx_errors; speed from sysfs.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <linux/if.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "agent/linux/nl.h"
#include "agent/linux/portset.h"
#include "agent/linux/state.h"

static int one_link_cb(const struct nlmsghdr *nlh, size_t len, void *arg, char *err, size_t errlen)
{
	if (nlh->nlmsg_type != RTM_NEWLINK)
		return 0;
	return linuxbe_link_parse(nlh, len, arg, err, errlen);
}

int linuxbe_link_counters(struct linuxbe_st *st, uint32_t port, struct bsf_if_counters *out,
			  char *err, size_t errlen)
{
	struct linuxbe_port *p = &st->ports[port];
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;
	struct linuxbe_link l;
	char e[200];
	int rc;

	if (p->gone) {
		snprintf(err, errlen, "port %s is gone", p->name);
		return -1;
	}
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof *ifi);
	ifi->ifi_index = (int)p->ifindex;
	memset(&l, 0, sizeof l);
	rc = linuxbe_nl_exchange(st->rt, nlh, one_link_cb, &l, e, sizeof e);
	if (rc < 0 || !l.has_stats) {
		snprintf(err, errlen, "%s: RTM_GETLINK: %s", p->name,
			 rc < 0 ? e : "no IFLA_STATS64");
		return -1;
	}
	/* the root qdisc's drops now (a poll at most 1 ms old: the ports'
	 * counters are read one after the other) */
	linuxbe_qdisc_fresh(st);
	out->in_octets = l.rx_bytes;
	out->in_ucast = l.rx_packets >= l.multicast ? l.rx_packets - l.multicast : 0;
	out->in_mcast = l.multicast;
	out->in_discards = l.rx_dropped + l.rx_missed_errors;
	out->in_errors = l.rx_errors;
	out->in_unknown_protos = l.rx_nohandler;
	out->out_octets = l.tx_bytes;
	out->out_ucast = l.tx_packets;
	out->out_discards = l.tx_dropped;
	if (p->have_root_drops)
		out->out_discards += p->root_drops.total;
	out->out_errors = l.tx_errors;
	if (p->desc->speed_bps)
		out->speed_bps = p->desc->speed_bps;
	out->admin_up = (l.flags & IFF_UP) != 0;
	out->oper_up = l.operstate == UINT32_MAX ? (l.flags & IFF_RUNNING) != 0 : l.operstate == 6;
	p->admin_up = (int)out->admin_up;
	p->oper_up = (int)out->oper_up;
	p->desc->oper_up = (uint8_t)p->oper_up;
	return 0;
}

uint64_t linuxbe_link_pool(struct linuxbe_st *st, uint32_t port)
{
	struct linuxbe_port *p = &st->ports[port];
	uint64_t now = st->host->now_ns(st->host->arg);
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;
	struct linuxbe_link l;
	char e[200];

	if (p->pool_t_ns && now - p->pool_t_ns < 100000000u)
		return p->pool;
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof *ifi);
	ifi->ifi_index = (int)p->ifindex;
	memset(&l, 0, sizeof l);
	if (linuxbe_nl_exchange(st->rt, nlh, one_link_cb, &l, e, sizeof e) == 0 && l.has_stats) {
		/* the packet sampler sees both directions; psample ingress */
		p->pool = l.rx_packets +
			  (st->state[LINUXBE_SRC_PACKET] == LINUXBE_ACTIVE ? l.tx_packets : 0);
		p->pool_t_ns = now;
	}
	return p->pool;
}

static void linkmon_read(int fd, void *arg)
{
	struct linuxbe_st *st = arg;
	char buf[1 << 15];
	ssize_t n;
	const struct nlmsghdr *h;
	int left;

	(void)fd;
	for (int round = 0; round < 256; round++) {
		n = mnl_socket_recvfrom(st->rtmon, buf, sizeof buf);
		if (n < 0) {
			if (errno == ENOBUFS) {
				linuxbe_log(
				    st, LOG_WARNING,
				    "link notifications overflowed; state is re-read at the next "
				    "counter poll");
				/* a port may have come or gone unseen */
				linuxbe_swap_schedule(st, 0);
			}
			break;
		}
		left = (int)n;
		for (h = (const struct nlmsghdr *)buf; mnl_nlmsg_ok(h, left);
		     h = mnl_nlmsg_next(h, &left)) {
			struct linuxbe_link l;
			char e[200];
			uint32_t port;

			if (h->nlmsg_type != RTM_NEWLINK && h->nlmsg_type != RTM_DELLINK)
				continue;
			if (linuxbe_link_parse(h, h->nlmsg_len, &l, e, sizeof e) < 0)
				continue;
			port = linuxbe_port_by_ifindex(st, l.ifindex);
			if (port == UINT32_MAX) {
				/* taken in at the daemon's next describe() where it
				 * can take one (portswap.c), else "reload" */
				if (h->nlmsg_type == RTM_NEWLINK && linuxbe_ports_wanted(st, &l) &&
				    !linuxbe_swap_schedule(st, 0))
					linuxbe_log(
					    st, LOG_NOTICE,
					    "interface %s (ifindex %u) appeared and would be a "
					    "port "
					    "(linux ports); reload bsflowd (SIGHUP) to pick it up",
					    l.name, l.ifindex);
				continue;
			}
			if (h->nlmsg_type == RTM_DELLINK) {
				int told = linuxbe_swap_schedule(st, 0);

				if (!st->ports[port].gone)
					linuxbe_log(
					    st, told ? LOG_NOTICE : LOG_WARNING,
					    "port %s (ifindex %u) disappeared: its values are "
					    "unknown%s",
					    st->ports[port].name, l.ifindex,
					    told ? "" : "; reload bsflowd (SIGHUP) to drop it");
				st->ports[port].gone = 1;
				st->ports[port].oper_up = 0;
				st->ports[port].desc->oper_up = 0;
				continue;
			}
			/* renamed: still a port, or no longer one */
			if (l.name[0] && strcmp(l.name, st->ports[port].name) != 0)
				linuxbe_swap_schedule(st, 0);
			st->ports[port].admin_up = (l.flags & IFF_UP) != 0;
			st->ports[port].oper_up = l.operstate == UINT32_MAX
						      ? (l.flags & IFF_RUNNING) != 0
						      : l.operstate == 6;
			st->ports[port].desc->oper_up = (uint8_t)st->ports[port].oper_up;
		}
	}
}

int linuxbe_linkmon_open(struct linuxbe_st *st, char *err, size_t errlen)
{
	st->rtmon = mnl_socket_open(NETLINK_ROUTE);
	if (!st->rtmon ||
	    mnl_socket_bind(st->rtmon, 1u << (RTNLGRP_LINK - 1), MNL_SOCKET_AUTOPID) < 0) {
		snprintf(err, errlen, "link notifications: %s", strerror(errno));
		linuxbe_linkmon_close(st);
		return -1;
	}
	linuxbe_nl_listener(st->rtmon, 1 << 20);
	st->rtmon_w =
	    st->host->fd_watch(st->host->arg, mnl_socket_get_fd(st->rtmon), linkmon_read, st);
	if (!st->rtmon_w) {
		snprintf(err, errlen, "link notifications: cannot watch the socket");
		linuxbe_linkmon_close(st);
		return -1;
	}
	return 0;
}

void linuxbe_linkmon_close(struct linuxbe_st *st)
{
	if (st->rtmon_w)
		st->host->fd_unwatch(st->rtmon_w);
	st->rtmon_w = NULL;
	if (st->rtmon)
		mnl_socket_close(st->rtmon);
	st->rtmon = NULL;
}
