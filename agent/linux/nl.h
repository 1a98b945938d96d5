/*
 * nl.h - the linux backend's netlink plumbing over libmnl: sockets, one
 * request-and-replies exchange (a dump or an acknowledged command) with
 * error reporting, generic netlink family and multicast group resolution.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUX_NL_H
#define BSFLOWD_LINUX_NL_H

#include <stddef.h>
#include <stdint.h>

struct mnl_socket;
struct nlmsghdr;

/* Called for each reply message of an exchange; 0 to go on, -1 to stop
 * (the exchange then returns -1 with err as the callback left it). */
typedef int (*linuxbe_nl_cb)(const struct nlmsghdr *nlh, size_t len, void *arg, char *err,
			     size_t errlen);

/* A bound socket of bus (NETLINK_ROUTE, NETLINK_GENERIC), non-blocking
 * off; NULL + err. */
struct mnl_socket *linuxbe_nl_open(int bus, char *err, size_t errlen);
void linuxbe_nl_close(struct mnl_socket *nl);
/* A socket that listens to a multicast group: non-blocking (its reader
 * drains it in a loop) with a receive buffer of bytes (forced past
 * rmem_max where CAP_NET_ADMIN allows). */
void linuxbe_nl_listener(struct mnl_socket *nl, int bytes);

/* Send req (its nlmsg_seq is set here) and read replies until NLMSG_DONE
 * or the ACK; cb (may be NULL) sees every data message.  0, or -errno
 * from the kernel's NLMSG_ERROR (err says which request failed), or -1 for
 * another failure. */
int linuxbe_nl_exchange(struct mnl_socket *nl, struct nlmsghdr *req, linuxbe_nl_cb cb, void *arg,
			char *err, size_t errlen);

/* Generic netlink: the id of family name and, if group is not NULL, the id
 * of its multicast group.  0, -ENOENT if the family (or group) does not
 * exist here, or another negative errno. */
int linuxbe_genl_resolve(struct mnl_socket *nl, const char *name, uint16_t *id, const char *group,
			 uint32_t *group_id, char *err, size_t errlen);

/* Start a generic netlink request in buf (MNL_SOCKET_BUFFER_SIZE bytes). */
struct nlmsghdr *linuxbe_genl_req(void *buf, uint16_t family, uint8_t cmd, uint8_t version,
				  uint16_t flags);

#endif
