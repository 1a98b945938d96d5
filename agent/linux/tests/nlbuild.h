/*
 * nlbuild.h - a tiny netlink message builder for the linux backend's unit
 * tests and fuzz seeds: messages are laid out by hand from the kernel's
 * UAPI definitions (struct nlmsghdr, struct nlattr, 4-byte alignment), so
 * the fixtures do not depend on the code under test or on libmnl.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef BSFLOWD_LINUX_TESTS_NLBUILD_H
#define BSFLOWD_LINUX_TESTS_NLBUILD_H

#include <stdint.h>
#include <string.h>

#include <linux/netlink.h>

struct nlb {
	uint8_t buf[8192];
	size_t len;	/* bytes used */
	size_t nest[8]; /* offsets of open nests */
	unsigned nnest;
};

#define NLB_ALIGN(n) (((n) + 3u) & ~(size_t)3u)

/* Start a message of type with a fixed header (hdr, hdrlen bytes). */
static inline void nlb_start(struct nlb *b, uint16_t type, const void *hdr, size_t hdrlen)
{
	struct nlmsghdr h;

	memset(b, 0, sizeof *b);
	memset(&h, 0, sizeof h);
	h.nlmsg_type = type;
	memcpy(b->buf, &h, sizeof h);
	b->len = sizeof h;
	memcpy(b->buf + b->len, hdr, hdrlen);
	b->len += NLB_ALIGN(hdrlen);
}

static inline void nlb_attr(struct nlb *b, uint16_t type, const void *data, size_t n)
{
	struct nlattr a;

	a.nla_len = (uint16_t)(sizeof a + n);
	a.nla_type = type;
	memcpy(b->buf + b->len, &a, sizeof a);
	memcpy(b->buf + b->len + sizeof a, data, n);
	b->len += NLB_ALIGN(sizeof a + n);
}

static inline void nlb_u8(struct nlb *b, uint16_t t, uint8_t v)
{
	nlb_attr(b, t, &v, 1);
}
static inline void nlb_u16(struct nlb *b, uint16_t t, uint16_t v)
{
	nlb_attr(b, t, &v, 2);
}
static inline void nlb_u32(struct nlb *b, uint16_t t, uint32_t v)
{
	nlb_attr(b, t, &v, 4);
}
static inline void nlb_u64(struct nlb *b, uint16_t t, uint64_t v)
{
	nlb_attr(b, t, &v, 8);
}
static inline void nlb_str(struct nlb *b, uint16_t t, const char *s)
{
	nlb_attr(b, t, s, strlen(s) + 1);
}
static inline void nlb_flag(struct nlb *b, uint16_t t)
{
	nlb_attr(b, t, "", 0);
}
static inline void nlb_nest_start(struct nlb *b, uint16_t t)
{
	struct nlattr a = {0, (uint16_t)(t | NLA_F_NESTED)};

	b->nest[b->nnest++] = b->len;
	memcpy(b->buf + b->len, &a, sizeof a);
	b->len += sizeof a;
}
static inline void nlb_nest_end(struct nlb *b)
{
	size_t off = b->nest[--b->nnest];
	uint16_t n = (uint16_t)(b->len - off);

	memcpy(b->buf + off, &n, sizeof n);
}
/* Finish: write the total length into the header; returns the message. */
static inline const struct nlmsghdr *nlb_end(struct nlb *b)
{
	uint32_t n = (uint32_t)b->len;

	memcpy(b->buf, &n, sizeof n);
	return (const struct nlmsghdr *)(const void *)b->buf;
}

#endif
