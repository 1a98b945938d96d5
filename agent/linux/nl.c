/*
 * nl.c - the linux backend's netlink plumbing (see nl.h): libmnl sockets,
 * request / dump exchanges that report the kernel's errors, and generic
 * netlink family and group resolution through nlctrl.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "agent/linux/linuxbe.h"
#include "agent/linux/nl.h"

struct mnl_socket *linuxbe_nl_open(int bus, char *err, size_t errlen)
{
	struct mnl_socket *nl = mnl_socket_open(bus);
	int one = 1;

	if (!nl) {
		snprintf(err, errlen, "netlink socket: %s", strerror(errno));
		return NULL;
	}
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		snprintf(err, errlen, "netlink bind: %s", strerror(errno));
		mnl_socket_close(nl);
		return NULL;
	}
	/* extended ACKs: the kernel's own message on errors (best effort) */
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof one);
	return nl;
}

void linuxbe_nl_listener(struct mnl_socket *nl, int bytes)
{
	int fd = mnl_socket_get_fd(nl);

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof bytes) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
}

void linuxbe_nl_close(struct mnl_socket *nl)
{
	if (nl)
		mnl_socket_close(nl);
}

static uint32_t next_seq(void)
{
	static uint32_t seq;

	if (seq == 0)
		seq = (uint32_t)time(NULL);
	return ++seq;
}

int linuxbe_nl_exchange(struct mnl_socket *nl, struct nlmsghdr *req, linuxbe_nl_cb cb, void *arg,
			char *err, size_t errlen)
{
	static char buf[1 << 16];
	uint32_t portid = mnl_socket_get_portid(nl);
	uint32_t seq = next_seq();

	req->nlmsg_seq = seq;
	req->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	if (mnl_socket_sendto(nl, req, req->nlmsg_len) < 0) {
		snprintf(err, errlen, "netlink send: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof buf);
		const struct nlmsghdr *h;
		size_t left;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "netlink receive: %s", strerror(errno));
			return errno == ENOBUFS ? -ENOBUFS : -1;
		}
		left = (size_t)n;
		for (h = (const struct nlmsghdr *)buf; mnl_nlmsg_ok(h, (int)left);
		     h = mnl_nlmsg_next(h, (int *)&left)) {
			if (h->nlmsg_seq != seq || h->nlmsg_pid != portid)
				continue; /* a stale reply or a notification */
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(h);

				if (h->nlmsg_len < mnl_nlmsg_size(sizeof *e)) {
					snprintf(err, errlen, "netlink: truncated error message");
					return -1;
				}
				if (e->error == 0)
					return 0; /* the ACK */
				snprintf(err, errlen, "%s", strerror(-e->error));
				return e->error;
			}
			if (cb && cb(h, h->nlmsg_len, arg, err, errlen) < 0)
				return -1;
			if (!(h->nlmsg_flags & NLM_F_MULTI) && !(req->nlmsg_flags & NLM_F_DUMP) &&
			    !(req->nlmsg_flags & NLM_F_ACK))
				return 0;
		}
	}
}

struct nlmsghdr *linuxbe_genl_req(void *buf, uint16_t family, uint8_t cmd, uint8_t version,
				  uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof *g);
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

struct resolve {
	const char *group;
	uint16_t id;
	uint32_t group_id;
	int have_id, have_group;
};

static int resolve_cb(const struct nlmsghdr *nlh, size_t len, void *arg, char *err, size_t errlen)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct resolve *r = arg;

	if (linuxbe_msg_table(nlh, len, GENL_HDRLEN, tb, CTRL_ATTR_MAX, err, errlen) < 0)
		return -1;
	if (tb[CTRL_ATTR_FAMILY_ID] && linuxbe_attr_u16(tb[CTRL_ATTR_FAMILY_ID], &r->id,
							"CTRL_ATTR_FAMILY_ID", err, errlen) == 0)
		r->have_id = 1;
	if (r->group && tb[CTRL_ATTR_MCAST_GROUPS]) {
		const struct nlattr *grp;

		mnl_attr_for_each_nested(grp, tb[CTRL_ATTR_MCAST_GROUPS])
		{
			const struct nlattr *g[CTRL_ATTR_MCAST_GRP_MAX + 1];
			char name[64] = "";
			char e2[100];

			if (linuxbe_attr_table(mnl_attr_get_payload(grp),
					       mnl_attr_get_payload_len(grp), g,
					       CTRL_ATTR_MCAST_GRP_MAX, e2, sizeof e2) < 0)
				continue;
			if (!g[CTRL_ATTR_MCAST_GRP_NAME] || !g[CTRL_ATTR_MCAST_GRP_ID])
				continue;
			linuxbe_attr_str(g[CTRL_ATTR_MCAST_GRP_NAME], name, sizeof name);
			if (strcmp(name, r->group) == 0 &&
			    linuxbe_attr_u32(g[CTRL_ATTR_MCAST_GRP_ID], &r->group_id,
					     "CTRL_ATTR_MCAST_GRP_ID", e2, sizeof e2) == 0)
				r->have_group = 1;
		}
	}
	return 0;
}

int linuxbe_genl_resolve(struct mnl_socket *nl, const char *name, uint16_t *id, const char *group,
			 uint32_t *group_id, char *err, size_t errlen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = linuxbe_genl_req(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0);
	struct resolve r;
	int rc;

	memset(&r, 0, sizeof r);
	r.group = group;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	rc = linuxbe_nl_exchange(nl, nlh, resolve_cb, &r, err, errlen);
	if (rc < 0)
		return rc == -1 ? -EIO : rc;
	if (!r.have_id)
		return -ENOENT;
	*id = r.id;
	if (group) {
		if (!r.have_group) {
			snprintf(err, errlen, "family %s has no group %s", name, group);
			return -ENOENT;
		}
		*group_id = r.group_id;
	}
	return 0;
}
