/*
 * dmrun.c - the drop monitor source at run time: resolve the NET_DM
 * family, join its "events" group, configure packet mode and start
 * software and hardware drop reporting (or, if another program already
 * runs the monitor, listen passively and never stop it), turn each alert
 * into a BSF_EV_DROP, and count what is lost (the kernel's per-CPU queue
 * drops from NET_DM_CMD_STATS_GET, ENOBUFS on our socket).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/net_dropmon.h>

#include "agent/linux/nl.h"
#include "agent/linux/state.h"

int linuxbe_dropmon_event(struct linuxbe_st *st, const struct linuxbe_drop *d, struct bsf_event *e)
{
	uint32_t n;

	e->type = BSF_EV_DROP;
	linuxbe_st_reason(st, d->reason, d->trap_group, d->trap_name, &e->reason, &e->stage);
	e->in_port = d->in_ifindex != UINT32_MAX && d->in_ifindex != 0
			 ? linuxbe_port_by_ifindex(st, d->in_ifindex)
			 : UINT32_MAX;
	e->t_ns = d->t_ns != BSF_UNKNOWN ? d->t_ns : st->host->now_ns(st->host->arg);
	e->frame_len = d->orig_len != UINT32_MAX ? d->orig_len + 4 : 0; /* + FCS */
	n = d->payload_len;
	if (n > BSF_HDR_MAX)
		n = BSF_HDR_MAX;
	if (n > st->conf.header_bytes)
		n = st->conf.header_bytes;
	if (n)
		memcpy(e->hdr, d->payload, n);
	e->hdr_len = n;
	snprintf(e->function, sizeof e->function, "%s", d->symbol);
	snprintf(e->reason_name, sizeof e->reason_name, "%s", d->reason);
	snprintf(e->trap_group, sizeof e->trap_group, "%s", d->trap_group);
	snprintf(e->trap_name, sizeof e->trap_name, "%s", d->trap_name);
	return 0;
}

static void dm_read(int fd, void *arg)
{
	struct linuxbe_st *st = arg;
	static char buf[1 << 16];
	ssize_t n;
	const struct nlmsghdr *h;
	int left, any = 0;

	(void)fd;
	for (int round = 0; round < 256; round++) {
		n = mnl_socket_recvfrom(st->dm, buf, sizeof buf);
		if (n < 0) {
			if (errno == ENOBUFS)
				st->dm_sock_lost++; /* at least one alert */
			break;
		}
		left = (int)n;
		for (h = (const struct nlmsghdr *)buf; mnl_nlmsg_ok(h, left);
		     h = mnl_nlmsg_next(h, &left)) {
			struct linuxbe_drop d;
			struct bsf_event *e;
			char e2[256];

			if (h->nlmsg_type != st->dm_family)
				continue;
			if (linuxbe_dropmon_parse(h, h->nlmsg_len, &d, e2, sizeof e2) < 0) {
				if (st->src_errors[LINUXBE_SRC_DROPMON]++ == 0)
					linuxbe_log(st, LOG_WARNING, "%s (logged once)", e2);
				continue;
			}
			e = linuxbe_evq_slot(st, BSF_EV_DROP);
			if (!e)
				continue;
			linuxbe_dropmon_event(st, &d, e);
			any = 1;
		}
	}
	if (any && st->host->events_ready)
		st->host->events_ready(st->host->arg);
}

static int dm_cmd(struct linuxbe_st *st, uint8_t cmd, int hw, char *err, size_t errlen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = linuxbe_genl_req(buf, st->dm_family, cmd, 2, 0);

	if (cmd == NET_DM_CMD_CONFIG) {
		mnl_attr_put_u8(nlh, NET_DM_ATTR_ALERT_MODE, NET_DM_ALERT_MODE_PACKET);
		mnl_attr_put_u32(nlh, NET_DM_ATTR_TRUNC_LEN, st->conf.header_bytes);
		mnl_attr_put_u32(nlh, NET_DM_ATTR_QUEUE_LEN, 1000);
	} else if (cmd == NET_DM_CMD_START || cmd == NET_DM_CMD_STOP) {
		mnl_attr_put(nlh, NET_DM_ATTR_SW_DROPS, 0, NULL);
		if (hw)
			mnl_attr_put(nlh, NET_DM_ATTR_HW_DROPS, 0, NULL);
	}
	return linuxbe_nl_exchange(st->genl, nlh, NULL, NULL, err, errlen);
}

static int stats_cb(const struct nlmsghdr *nlh, size_t len, void *arg, char *err, size_t errlen)
{
	return linuxbe_dropmon_stats_parse(nlh, len, arg, err, errlen);
}

static void dm_stats(void *arg)
{
	struct linuxbe_st *st = arg;
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = linuxbe_genl_req(buf, st->dm_family, NET_DM_CMD_STATS_GET, 2, 0);
	uint64_t v = 0;
	char e[256];

	if (linuxbe_nl_exchange(st->genl, nlh, stats_cb, &v, e, sizeof e) < 0)
		return; /* needs CAP_NET_ADMIN on some kernels: lost alerts stay ours only */
	if (!st->dm_have_base) {
		st->dm_stats_base = v;
		st->dm_have_base = 1;
	}
	st->dm_kernel_lost = v >= st->dm_stats_base ? v - st->dm_stats_base : 0;
}

int linuxbe_dropmon_open(struct linuxbe_st *st, char *why, size_t whylen)
{
	uint32_t grp;
	char e[256];
	const char *mode;
	int rc, hw = 1;

	if (!st->genl && !(st->genl = linuxbe_nl_open(NETLINK_GENERIC, e, sizeof e))) {
		snprintf(why, whylen, "dropmon absent (%s)", e);
		return -1;
	}
	rc = linuxbe_genl_resolve(st->genl, "NET_DM", &st->dm_family, "events", &grp, e, sizeof e);
	if (rc == -ENOENT) {
		snprintf(why, whylen,
			 "dropmon absent (no NET_DM family: kernel without drop_monitor, or not "
			 "the initial network namespace)");
		return -1;
	}
	if (rc < 0) {
		snprintf(why, whylen, "dropmon absent (resolving NET_DM: %s)", e);
		return -1;
	}
	st->dm = linuxbe_nl_open(NETLINK_GENERIC, e, sizeof e);
	if (!st->dm) {
		snprintf(why, whylen, "dropmon absent (%s)", e);
		return -1;
	}
	linuxbe_nl_listener(st->dm, 4 << 20);
	if (mnl_socket_setsockopt(st->dm, NETLINK_ADD_MEMBERSHIP, &grp, sizeof grp) < 0) {
		if (errno == EPERM)
			snprintf(why, whylen,
				 "dropmon needs CAP_SYS_ADMIN (joining the NET_DM events group)");
		else
			snprintf(why, whylen, "dropmon absent (joining NET_DM events: %s)",
				 strerror(errno));
		linuxbe_dropmon_close(st);
		return -1;
	}
	rc = dm_cmd(st, NET_DM_CMD_CONFIG, 0, e, sizeof e);
	if (rc == 0) {
		rc = dm_cmd(st, NET_DM_CMD_START, hw, e, sizeof e);
		if (rc < 0 && rc != -EAGAIN && rc != -EBUSY) {
			hw = 0; /* no hardware traps here: software drops only */
			rc = dm_cmd(st, NET_DM_CMD_START, hw, e, sizeof e);
		}
	}
	if (rc == 0) {
		st->dm_started = 1;
		mode = hw ? "active, software and hardware drops" : "active, software drops";
	} else if (rc == -EBUSY || rc == -EAGAIN) {
		mode = "passive: another program runs the monitor";
	} else if (rc == -EPERM) {
		mode = "passive: starting it needs CAP_NET_ADMIN";
	} else {
		mode = "passive";
	}
	st->dm_w = st->host->fd_watch(st->host->arg, mnl_socket_get_fd(st->dm), dm_read, st);
	if (!st->dm_w) {
		snprintf(why, whylen, "dropmon absent (cannot watch its socket)");
		linuxbe_dropmon_close(st);
		return -1;
	}
	st->dm_stats_timer = st->host->timer_new(st->host->arg, dm_stats, st);
	if (st->dm_stats_timer)
		st->host->timer_start(st->dm_stats_timer, 1000000000u, 1);
	snprintf(why, whylen, "dropmon %s (header %u bytes)", mode, st->conf.header_bytes);
	return 0;
}

void linuxbe_dropmon_close(struct linuxbe_st *st)
{
	char e[256];

	if (st->dm_stats_timer)
		st->host->timer_free(st->dm_stats_timer);
	st->dm_stats_timer = NULL;
	if (st->dm_w)
		st->host->fd_unwatch(st->dm_w);
	st->dm_w = NULL;
	if (st->dm_started && st->genl)
		dm_cmd(st, NET_DM_CMD_STOP, 1, e, sizeof e); /* only what we started */
	st->dm_started = 0;
	linuxbe_nl_close(st->dm);
	st->dm = NULL;
}
