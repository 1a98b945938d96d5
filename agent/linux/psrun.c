/*
 * psrun.c - the psample source at run time: join the psample "packets"
 * group and turn each sample of group psample_group (ingress) or
 * psample_group + 1 (egress, hsflowd's convention) into a BSF_EV_SAMPLE:
 * in/out port, 1-in-N rate, OUT_TC -> queue (>= 8: multicast queue
 * OUT_TC - 8, the mlxsw layout), OUT_TC_OCC -> depth, LATENCY -> transit,
 * TIMESTAMP, original size + FCS, header bytes.  Gaps in a group's
 * sequence count as lost samples of the port of the next sample.
 *
 * install_samplers = yes: put a clsact qdisc and an ingress `matchall
 * action sample rate N group G trunc H` filter on every port that has a
 * sampling rate, and remove them at close (the clsact only if this
 * backend created it).  By default stay passive (SONiC, Cumulus and DENT
 * configure sampling themselves).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/tc_act/tc_sample.h>

#include "agent/linux/nl.h"
#include "agent/linux/state.h"

#define SAMPLER_PRIO 49152u /* our filter's preference, so we remove only ours */

static uint32_t port_by_u16(const struct linuxbe_st *st, uint32_t ifx)
{
	uint32_t i;

	if (ifx == UINT32_MAX)
		return UINT32_MAX;
	for (i = 0; i < st->nports; i++)
		if ((st->ports[i].ifindex & 0xffffu) == ifx)
			return i;
	return UINT32_MAX;
}

static void ps_read(int fd, void *arg)
{
	struct linuxbe_st *st = arg;
	static char buf[1 << 16];
	ssize_t n;
	const struct nlmsghdr *h;
	int left, any = 0;

	(void)fd;
	for (int round = 0; round < 256; round++) {
		n = mnl_socket_recvfrom(st->ps, buf, sizeof buf);
		if (n < 0) {
			if (errno == ENOBUFS)
				st->ps_unknown_port++;
			break;
		}
		left = (int)n;
		for (h = (const struct nlmsghdr *)buf; mnl_nlmsg_ok(h, left);
		     h = mnl_nlmsg_next(h, &left)) {
			struct linuxbe_sample s;
			struct bsf_event *e;
			char e2[256];
			unsigned g;
			uint32_t in, out, len;

			if (h->nlmsg_type < NLMSG_MIN_TYPE)
				continue;
			if (linuxbe_psample_parse(h, h->nlmsg_len, &s, e2, sizeof e2) < 0) {
				if (st->src_errors[LINUXBE_SRC_PSAMPLE]++ == 0)
					linuxbe_log(st, LOG_WARNING, "%s (logged once)", e2);
				continue;
			}
			if (s.group == st->conf.psample_group)
				g = 0;
			else if (s.group == st->conf.psample_group + 1)
				g = 1;
			else
				continue; /* another program's group */
			in = port_by_u16(st, s.iifindex);
			out = port_by_u16(st, s.oifindex);
			if (s.has_seq) {
				if (st->ps_have_seq[g] && s.seq != st->ps_last_seq[g] + 1) {
					uint32_t gap = s.seq - st->ps_last_seq[g] - 1;
					uint32_t p = g == 0 ? in : out;

					if (p != UINT32_MAX)
						st->ports[p].sample_drops += gap;
					else
						st->ps_unknown_port += gap;
				}
				st->ps_last_seq[g] = s.seq;
				st->ps_have_seq[g] = 1;
			}
			e = linuxbe_evq_slot(st, BSF_EV_SAMPLE);
			if (!e) {
				uint32_t p = g == 0 ? in : out;

				if (p != UINT32_MAX)
					st->ports[p].sample_drops++;
				continue;
			}
			e->in_port = in;
			e->out_port = out;
			e->sampling_rate = s.rate;
			if (s.out_tc != UINT32_MAX) {
				e->multicast = s.out_tc >= 8;
				e->queue = s.out_tc >= 8 ? s.out_tc - 8 : s.out_tc;
				e->tc = e->queue < 8 ? e->queue : UINT32_MAX;
			}
			e->depth_bytes = s.out_tc_occ != BSF_UNKNOWN ? s.out_tc_occ : 0;
			e->transit_ns = s.latency_ns != BSF_UNKNOWN ? s.latency_ns : 0;
			e->t_ns = s.t_ns != BSF_UNKNOWN ? s.t_ns : st->host->now_ns(st->host->arg);
			e->frame_len = s.orig_size != UINT32_MAX ? s.orig_size + 4 : s.data_len + 4;
			len = s.data_len;
			if (len > BSF_HDR_MAX)
				len = BSF_HDR_MAX;
			if (len > st->conf.header_bytes)
				len = st->conf.header_bytes;
			memcpy(e->hdr, s.data, len);
			e->hdr_len = len;
			any = 1;
		}
	}
	if (any && st->host->events_ready)
		st->host->events_ready(st->host->arg);
}

/* ---- install_samplers: clsact + matchall action sample ---- */

static int tc_req(struct linuxbe_st *st, uint16_t type, uint16_t flags, uint32_t ifindex,
		  uint32_t parent, uint32_t handle, uint32_t info, const char *kind, uint32_t rate,
		  char *err, size_t errlen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct tcmsg *tcm;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	tcm = mnl_nlmsg_put_extra_header(nlh, sizeof *tcm);
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = (int)ifindex;
	tcm->tcm_parent = parent;
	tcm->tcm_handle = handle;
	tcm->tcm_info = info;
	if (kind)
		mnl_attr_put_strz(nlh, TCA_KIND, kind);
	if (rate) {
		struct nlattr *opt = mnl_attr_nest_start(nlh, TCA_OPTIONS);
		struct nlattr *acts = mnl_attr_nest_start(nlh, TCA_MATCHALL_ACT);
		struct nlattr *a1 = mnl_attr_nest_start(nlh, 1);
		struct nlattr *aopt;
		struct tc_sample parms;

		mnl_attr_put_strz(nlh, TCA_ACT_KIND, "sample");
		aopt = mnl_attr_nest_start(nlh, TCA_ACT_OPTIONS);
		memset(&parms, 0, sizeof parms);
		parms.action = TC_ACT_PIPE;
		mnl_attr_put(nlh, TCA_SAMPLE_PARMS, sizeof parms, &parms);
		mnl_attr_put_u32(nlh, TCA_SAMPLE_RATE, rate);
		mnl_attr_put_u32(nlh, TCA_SAMPLE_PSAMPLE_GROUP, st->conf.psample_group);
		mnl_attr_put_u32(nlh, TCA_SAMPLE_TRUNC_SIZE, st->conf.header_bytes);
		mnl_attr_nest_end(nlh, aopt);
		mnl_attr_nest_end(nlh, a1);
		mnl_attr_nest_end(nlh, acts);
		mnl_attr_nest_end(nlh, opt);
	}
	return linuxbe_nl_exchange(st->rt, nlh, NULL, NULL, err, errlen);
}

static int install(struct linuxbe_st *st, char *err, size_t errlen)
{
	uint32_t p;
	unsigned n = 0;

	for (p = 0; p < st->nports; p++) {
		struct linuxbe_port *pt = &st->ports[p];
		int rc;

		if (!pt->sampling_rate || pt->sampler_on)
			continue;
		rc = tc_req(st, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL, pt->ifindex, TC_H_CLSACT,
			    TC_H_MAKE(TC_H_CLSACT, 0), 0, "clsact", 0, err, errlen);
		if (rc < 0 && rc != -EEXIST)
			return -1;
		pt->sampler_clsact = rc == 0;
		rc = tc_req(st, RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_EXCL, pt->ifindex,
			    TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS), 0,
			    TC_H_MAKE(SAMPLER_PRIO << 16, htons(ETH_P_ALL)), "matchall",
			    pt->sampling_rate, err, errlen);
		if (rc < 0)
			return -1;
		pt->sampler_on = 1;
		n++;
	}
	return (int)n;
}

static void uninstall(struct linuxbe_st *st)
{
	uint32_t p;
	char e[256];

	for (p = 0; p < st->nports; p++) {
		struct linuxbe_port *pt = &st->ports[p];

		if (pt->sampler_on)
			tc_req(st, RTM_DELTFILTER, 0, pt->ifindex,
			       TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS), 0,
			       TC_H_MAKE(SAMPLER_PRIO << 16, htons(ETH_P_ALL)), NULL, 0, e,
			       sizeof e);
		if (pt->sampler_clsact)
			tc_req(st, RTM_DELQDISC, 0, pt->ifindex, TC_H_CLSACT,
			       TC_H_MAKE(TC_H_CLSACT, 0), 0, NULL, 0, e, sizeof e);
		pt->sampler_on = pt->sampler_clsact = 0;
	}
}

int linuxbe_psample_open(struct linuxbe_st *st, char *why, size_t whylen)
{
	uint16_t fam;
	uint32_t grp;
	char e[256];
	int rc, n = 0;

	if (!st->genl && !(st->genl = linuxbe_nl_open(NETLINK_GENERIC, e, sizeof e))) {
		snprintf(why, whylen, "psample absent (%s)", e);
		return -1;
	}
	rc = linuxbe_genl_resolve(st->genl, "psample", &fam, "packets", &grp, e, sizeof e);
	if (rc == -ENOENT) {
		snprintf(why, whylen, "psample absent (no psample family)");
		return -1;
	}
	if (rc < 0) {
		snprintf(why, whylen, "psample absent (resolving psample: %s)", e);
		return -1;
	}
	st->ps = linuxbe_nl_open(NETLINK_GENERIC, e, sizeof e);
	if (!st->ps) {
		snprintf(why, whylen, "psample absent (%s)", e);
		return -1;
	}
	linuxbe_nl_listener(st->ps, 8 << 20);
	if (mnl_socket_setsockopt(st->ps, NETLINK_ADD_MEMBERSHIP, &grp, sizeof grp) < 0) {
		if (errno == EPERM)
			snprintf(why, whylen,
				 "psample needs CAP_NET_ADMIN (joining the packets group)");
		else
			snprintf(why, whylen, "psample absent (joining packets: %s)",
				 strerror(errno));
		linuxbe_psample_close(st);
		return -1;
	}
	if (st->conf.install_samplers) {
		n = install(st, e, sizeof e);
		if (n < 0) {
			snprintf(why, whylen,
				 "psample: cannot install samplers (clsact + matchall "
				 "action sample): %s",
				 e);
			linuxbe_psample_close(st);
			return -1;
		}
	}
	st->ps_w = st->host->fd_watch(st->host->arg, mnl_socket_get_fd(st->ps), ps_read, st);
	if (!st->ps_w) {
		snprintf(why, whylen, "psample absent (cannot watch its socket)");
		linuxbe_psample_close(st);
		return -1;
	}
	if (st->conf.install_samplers)
		snprintf(why, whylen, "psample group %u, samplers installed on %d port%s",
			 st->conf.psample_group, n, n == 1 ? "" : "s");
	else
		snprintf(why, whylen,
			 "psample group %u (passive: sampling configured by the "
			 "platform)",
			 st->conf.psample_group);
	return 0;
}

int linuxbe_psample_ports(struct linuxbe_st *st, char *why, size_t whylen)
{
	char e[256];

	if (!st->conf.install_samplers || install(st, e, sizeof e) >= 0)
		return 0;
	snprintf(why, whylen, "cannot install samplers (clsact + matchall action sample): %s", e);
	return -1;
}

void linuxbe_psample_close(struct linuxbe_st *st)
{
	if (st->ps_w)
		st->host->fd_unwatch(st->ps_w);
	st->ps_w = NULL;
	uninstall(st);
	linuxbe_nl_close(st->ps);
	st->ps = NULL;
}
