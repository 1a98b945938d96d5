/*
 * ports.c - which netdevs are the backend's ports (config `ports`): the
 * names given, in their order; the interfaces a "/regex/" matches; or with
 * `auto` the switchdev front-panel ports (IFLA_PHYS_SWITCH_ID), else the
 * physical NICs (a /sys/class/net/NAME/device link, not loopback).  Ports
 * are fixed at open(): one that appears later is logged with "reload".
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "agent/linux/nl.h"
#include "agent/linux/state.h"

struct linklist {
	struct linuxbe_link *l;
	size_t n, cap;
};

static int link_cb(const struct nlmsghdr *nlh, size_t len, void *arg, char *err, size_t errlen)
{
	struct linklist *ll = arg;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return 0;
	if (ll->n == ll->cap) {
		size_t cap = ll->cap ? ll->cap * 2 : 64;
		struct linuxbe_link *l = realloc(ll->l, cap * sizeof *l);

		if (!l) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		ll->l = l;
		ll->cap = cap;
	}
	if (linuxbe_link_parse(nlh, len, &ll->l[ll->n], err, errlen) < 0)
		return -1;
	ll->n++;
	return 0;
}

static int dump_links(struct mnl_socket *rt, struct linklist *ll, char *err, size_t errlen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof *ifi);
	ifi->ifi_family = AF_UNSPEC;
	return linuxbe_nl_exchange(rt, nlh, link_cb, ll, err, errlen) < 0 ? -1 : 0;
}

static int is_physical(const struct linuxbe_link *l)
{
	char path[PATH_MAX];

	if ((l->flags & IFF_LOOPBACK) || l->type != ARPHRD_ETHER)
		return 0;
	snprintf(path, sizeof path, "/sys/class/net/%s/device", l->name);
	return access(path, F_OK) == 0;
}

static uint64_t sysfs_speed(const char *name)
{
	char path[PATH_MAX];
	FILE *f;
	long mbps = -1;

	snprintf(path, sizeof path, "/sys/class/net/%s/speed", name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%ld", &mbps) != 1)
		mbps = -1;
	fclose(f);
	return mbps > 0 ? (uint64_t)mbps * 1000000u : 0;
}

static int cmp_ifindex(const void *a, const void *b)
{
	const struct linuxbe_link *x = a, *y = b;

	return x->ifindex < y->ifindex ? -1 : x->ifindex > y->ifindex;
}

static int add_port(struct linuxbe_st *st, const struct linuxbe_link *l)
{
	struct linuxbe_port *p;
	unsigned q;

	if (st->nports >= 4096)
		return -1;
	p = &st->ports[st->nports];
	memset(p, 0, sizeof *p);
	p->ifindex = l->ifindex;
	snprintf(p->name, sizeof p->name, "%s", l->name);
	p->txqlen = l->txqlen;
	p->admin_up = (l->flags & IFF_UP) != 0;
	p->oper_up = l->operstate == UINT32_MAX ? (l->flags & IFF_RUNNING) != 0
						: l->operstate == 6 /* IF_OPER_UP */;
	p->dl_port = UINT32_MAX;
	p->egress_alloc = BSF_UNKNOWN;
	p->sb_egress_alloc = p->sb_ingress_alloc = BSF_UNKNOWN;
	for (q = 0; q < BSF_MAX_QUEUES; q++)
		p->sb_uc_alloc[q] = p->sb_mc_alloc[q] = BSF_UNKNOWN;
	for (q = 0; q < BSF_MAX_PGS; q++)
		p->sb_pg_alloc[q] = BSF_UNKNOWN;
	st->nports++;
	return 0;
}

int linuxbe_ports_discover(struct linuxbe_st *st, char *err, size_t errlen)
{
	struct linklist ll = {0};
	const struct linuxbe_conf *c = &st->conf;
	char e[256];
	size_t i;
	unsigned k;
	int rc = -1;

	if (dump_links(st->rt, &ll, e, sizeof e) < 0) {
		snprintf(err, errlen, "cannot list interfaces (RTM_GETLINK): %s", e);
		goto out;
	}
	qsort(ll.l, ll.n, sizeof *ll.l, cmp_ifindex);
	st->ports = calloc(ll.n + 1, sizeof *st->ports);
	if (!st->ports) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (c->ports_auto) {
		for (i = 0; i < ll.n; i++)
			if (ll.l[i].switchdev)
				add_port(st, &ll.l[i]);
		if (st->nports == 0)
			for (i = 0; i < ll.n; i++)
				if (is_physical(&ll.l[i]))
					add_port(st, &ll.l[i]);
		if (st->nports == 0) {
			snprintf(err, errlen,
				 "%s: linux: ports = auto: no switchdev port and no physical NIC "
				 "found; name the ports (ports = [\"eth0\", ...] or \"/regex/\")",
				 st->cfgfile);
			goto out;
		}
	} else if (c->n_ports == 1 && c->ports[0][0] == '/') {
		regex_t re;
		char *body = strndup(c->ports[0] + 1, strlen(c->ports[0]) - 2);

		if (!body || regcomp(&re, body, REG_EXTENDED | REG_NOSUB) != 0) {
			free(body);
			snprintf(err, errlen, "%s: linux: ports = \"%s\": bad regex", st->cfgfile,
				 c->ports[0]);
			goto out;
		}
		free(body);
		for (i = 0; i < ll.n; i++)
			if (regexec(&re, ll.l[i].name, 0, NULL, 0) == 0)
				add_port(st, &ll.l[i]);
		regfree(&re);
		if (st->nports == 0) {
			snprintf(err, errlen, "%s: linux: ports = \"%s\": no interface matches",
				 st->cfgfile, c->ports[0]);
			goto out;
		}
	} else {
		for (k = 0; k < c->n_ports; k++) {
			for (i = 0; i < ll.n; i++)
				if (strcmp(ll.l[i].name, c->ports[k]) == 0)
					break;
			if (i == ll.n) {
				snprintf(err, errlen,
					 "%s: linux: ports = \"%s\": no such interface here",
					 st->cfgfile, c->ports[k]);
				goto out;
			}
			add_port(st, &ll.l[i]);
		}
	}
	/* ifindex -> port, for the per-message lookups of the pollers */
	for (k = 0; k < st->nports; k++)
		if (st->ports[k].ifindex >= st->ifx_n)
			st->ifx_n = st->ports[k].ifindex + 1;
	if (st->ifx_n <= 1u << 20 && (st->ifx_map = calloc(st->ifx_n, sizeof *st->ifx_map)))
		for (k = 0; k < st->nports; k++)
			st->ifx_map[st->ports[k].ifindex] = k + 1;
	st->descs = calloc(st->nports, sizeof *st->descs);
	if (!st->descs) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (k = 0; k < st->nports; k++) {
		struct bsf_port_desc *d = &st->descs[k];
		struct linuxbe_port *p = &st->ports[k];

		d->size = sizeof *d;
		d->ifindex = p->ifindex;
		snprintf(d->name, sizeof d->name, "%s", p->name);
		d->speed_bps = sysfs_speed(p->name);
		d->n_uc_queues = 1;
		d->oper_up = (uint8_t)p->oper_up;
		p->desc = d;
	}
	rc = 0;
out:
	free(ll.l);
	return rc;
}

uint32_t linuxbe_port_by_ifindex(const struct linuxbe_st *st, uint32_t ifindex)
{
	uint32_t i;

	if (st->ifx_map)
		return ifindex < st->ifx_n && st->ifx_map[ifindex] ? st->ifx_map[ifindex] - 1
								   : UINT32_MAX;
	for (i = 0; i < st->nports; i++)
		if (st->ports[i].ifindex == ifindex)
			return i;
	return UINT32_MAX;
}
