/*
 * attr.c - netlink attribute tables for the linux backend's parsers:
 * bounds-checked walking of a message's attributes (a short or overlong
 * attribute is an error, not a silent stop) and typed reads that check
 * the payload's length.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include "agent/linux/linuxbe.h"

int linuxbe_attr_table(const void *buf, size_t len, const struct nlattr **tb, unsigned max,
		       char *err, size_t errlen)
{
	const uint8_t *p = buf;
	size_t off = 0;

	memset(tb, 0, (max + 1) * sizeof *tb);
	while (off < len) {
		const struct nlattr *a = (const struct nlattr *)(p + off);
		uint16_t alen, type;

		if (len - off < sizeof(struct nlattr)) {
			snprintf(err, errlen, "truncated attribute header at byte %zu of %zu", off,
				 len);
			return -1;
		}
		alen = a->nla_len;
		type = a->nla_type & NLA_TYPE_MASK;
		if (alen < sizeof(struct nlattr) || alen > len - off) {
			snprintf(err, errlen,
				 "attribute %u at byte %zu claims %u bytes, %zu remain", type, off,
				 alen, len - off);
			return -1;
		}
		if (type <= max)
			tb[type] = a;
		off += MNL_ALIGN(alen);
	}
	return 0;
}

int linuxbe_msg_table(const struct nlmsghdr *nlh, size_t len, size_t hdrlen,
		      const struct nlattr **tb, unsigned max, char *err, size_t errlen)
{
	size_t off = MNL_NLMSG_HDRLEN + MNL_ALIGN(hdrlen);

	if (len < sizeof *nlh || nlh->nlmsg_len < sizeof *nlh || nlh->nlmsg_len > len) {
		snprintf(err, errlen, "truncated netlink message (%zu bytes, header says %u)", len,
			 len >= sizeof *nlh ? nlh->nlmsg_len : 0);
		return -1;
	}
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + hdrlen) {
		snprintf(err, errlen,
			 "netlink message of %u bytes shorter than its %zu-byte header",
			 nlh->nlmsg_len, MNL_NLMSG_HDRLEN + hdrlen);
		return -1;
	}
	if (off > nlh->nlmsg_len)
		off = nlh->nlmsg_len;
	return linuxbe_attr_table((const uint8_t *)nlh + off, nlh->nlmsg_len - off, tb, max, err,
				  errlen);
}

static int attr_read(const struct nlattr *a, void *v, size_t n, const char *what, char *err,
		     size_t errlen)
{
	if (mnl_attr_get_payload_len(a) < n) {
		snprintf(err, errlen, "attribute %s: %u bytes, %zu expected", what,
			 (unsigned)mnl_attr_get_payload_len(a), n);
		return -1;
	}
	memcpy(v, mnl_attr_get_payload(a), n);
	return 0;
}

int linuxbe_attr_u8(const struct nlattr *a, uint8_t *v, const char *what, char *err, size_t errlen)
{
	return attr_read(a, v, sizeof *v, what, err, errlen);
}

int linuxbe_attr_u16(const struct nlattr *a, uint16_t *v, const char *what, char *err,
		     size_t errlen)
{
	return attr_read(a, v, sizeof *v, what, err, errlen);
}

int linuxbe_attr_u32(const struct nlattr *a, uint32_t *v, const char *what, char *err,
		     size_t errlen)
{
	return attr_read(a, v, sizeof *v, what, err, errlen);
}

int linuxbe_attr_u64(const struct nlattr *a, uint64_t *v, const char *what, char *err,
		     size_t errlen)
{
	return attr_read(a, v, sizeof *v, what, err, errlen);
}

void linuxbe_attr_str(const struct nlattr *a, char *dst, size_t dstlen)
{
	size_t n = mnl_attr_get_payload_len(a);
	const char *s = mnl_attr_get_payload(a);

	if (dstlen == 0)
		return;
	if (n >= dstlen)
		n = dstlen - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	dst[strnlen(dst, n)] = '\0';
}
