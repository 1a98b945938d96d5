/*
 * ports.c - which netdevs are the backend's ports (config `ports`): the
 * names given, in their order; the interfaces a "/regex/" matches; or with
 * `auto` the switchdev front-panel ports (IFLA_PHYS_SWITCH_ID), else the
 * physical NICs (a /sys/class/net/NAME/device link, not loopback).  The
 * same rule chooses them again when interfaces come and go while the
 * backend runs (portswap.c): then a name given that is not there, or no
 * port at all, is no error, the ports are what is there.
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

static int add_port(struct linuxbe_portset *set, const struct linuxbe_link *l)
{
	struct linuxbe_port *p;
	unsigned q;

	if (set->nports >= 4096)
		return -1;
	p = &set->ports[set->nports];
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
	set->nports++;
	return 0;
}

/* Does name match the config's "/regex/"?  -1: the regex does not compile. */
static int regex_match(const char *pattern, const char *name)
{
	regex_t re;
	char *body = strndup(pattern + 1, strlen(pattern) - 2);
	int m;

	if (!body || regcomp(&re, body, REG_EXTENDED | REG_NOSUB) != 0) {
		free(body);
		return -1;
	}
	free(body);
	m = regexec(&re, name, 0, NULL, 0) == 0;
	regfree(&re);
	return m;
}

static int is_regex(const struct linuxbe_conf *c)
{
	return !c->ports_auto && c->n_ports == 1 && c->ports[0][0] == '/';
}

int linuxbe_ports_wanted(const struct linuxbe_st *st, const struct linuxbe_link *l)
{
	const struct linuxbe_conf *c = &st->conf;
	unsigned i;

	if (!l->name[0])
		return 0;
	if (c->ports_auto)
		return l->switchdev || is_physical(l);
	if (is_regex(c))
		return regex_match(c->ports[0], l->name) == 1;
	for (i = 0; i < c->n_ports; i++)
		if (strcmp(c->ports[i], l->name) == 0)
			return 1;
	return 0;
}

/* The ports among the links ll[0..n) (sorted by ifindex) by the config's
 * rule.  At open (strict) a name given that is not there, or no port at
 * all, is an error; later the ports are what is there. */
static int choose(struct linuxbe_st *st, const struct linuxbe_link *ll, size_t n, int strict,
		  struct linuxbe_portset *set, char *err, size_t errlen)
{
	const struct linuxbe_conf *c = &st->conf;
	size_t i;
	unsigned k;

	if (c->ports_auto) {
		for (i = 0; i < n; i++)
			if (ll[i].switchdev)
				add_port(set, &ll[i]);
		if (set->nports == 0)
			for (i = 0; i < n; i++)
				if (is_physical(&ll[i]))
					add_port(set, &ll[i]);
		if (set->nports == 0 && strict) {
			snprintf(err, errlen,
				 "%s: linux: ports = auto: no switchdev port and no physical NIC "
				 "found; name the ports (ports = [\"eth0\", ...] or \"/regex/\")",
				 st->cfgfile);
			return -1;
		}
	} else if (is_regex(c)) {
		if (regex_match(c->ports[0], "") < 0) {
			snprintf(err, errlen, "%s: linux: ports = \"%s\": bad regex", st->cfgfile,
				 c->ports[0]);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (regex_match(c->ports[0], ll[i].name) == 1)
				add_port(set, &ll[i]);
		if (set->nports == 0 && strict) {
			snprintf(err, errlen, "%s: linux: ports = \"%s\": no interface matches",
				 st->cfgfile, c->ports[0]);
			return -1;
		}
	} else {
		for (k = 0; k < c->n_ports; k++) {
			for (i = 0; i < n; i++)
				if (strcmp(ll[i].name, c->ports[k]) == 0)
					break;
			if (i < n) {
				add_port(set, &ll[i]);
			} else if (strict) {
				snprintf(err, errlen,
					 "%s: linux: ports = \"%s\": no such interface here",
					 st->cfgfile, c->ports[k]);
				return -1;
			}
		}
	}
	return 0;
}

int linuxbe_ports_scan(struct linuxbe_st *st, int strict, struct linuxbe_portset *set, char *err,
		       size_t errlen)
{
	struct linklist ll = {0};
	char e[256];
	unsigned k;
	int rc = -1;

	memset(set, 0, sizeof *set);
	if (dump_links(st->rt, &ll, e, sizeof e) < 0) {
		snprintf(err, errlen, "cannot list interfaces (RTM_GETLINK): %s", e);
		goto out;
	}
	qsort(ll.l, ll.n, sizeof *ll.l, cmp_ifindex);
	set->ports = calloc(ll.n + 1, sizeof *set->ports);
	if (!set->ports) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (choose(st, ll.l, ll.n, strict, set, err, errlen) < 0)
		goto out;
	/* ifindex -> port, for the per-message lookups of the pollers */
	for (k = 0; k < set->nports; k++)
		if (set->ports[k].ifindex >= set->ifx_n)
			set->ifx_n = set->ports[k].ifindex + 1;
	if (set->ifx_n <= 1u << 20 && (set->ifx_map = calloc(set->ifx_n, sizeof *set->ifx_map)))
		for (k = 0; k < set->nports; k++)
			set->ifx_map[set->ports[k].ifindex] = k + 1;
	set->descs = calloc(set->nports + 1, sizeof *set->descs);
	if (!set->descs) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (k = 0; k < set->nports; k++) {
		struct bsf_port_desc *d = &set->descs[k];
		struct linuxbe_port *p = &set->ports[k];

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
	if (rc < 0)
		linuxbe_portset_free(set);
	return rc;
}

void linuxbe_portset_free(struct linuxbe_portset *set)
{
	free(set->ports);
	free(set->descs);
	free(set->ifx_map);
	memset(set, 0, sizeof *set);
}

void linuxbe_portset_install(struct linuxbe_st *st, struct linuxbe_portset *set)
{
	free(st->ports);
	free(st->descs);
	free(st->ifx_map);
	st->ports = set->ports;
	st->descs = set->descs;
	st->nports = set->nports;
	st->ifx_map = set->ifx_map;
	st->ifx_n = set->ifx_n;
	st->dev.ports = st->descs;
	st->dev.nports = st->nports;
	memset(set, 0, sizeof *set);
}

int linuxbe_ports_discover(struct linuxbe_st *st, char *err, size_t errlen)
{
	struct linuxbe_portset set;

	if (linuxbe_ports_scan(st, 1, &set, err, errlen) < 0)
		return -1;
	linuxbe_portset_install(st, &set);
	return 0;
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
