/*
 * addr.c - agent address parsing and the `auto` choice (see addr.h for the
 * documented preference order).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "agent/addr.h"

enum bsf_addr_class bsf_addr_classify(const struct sflow_addr *a)
{
	const uint8_t *b = a->a;

	if (a->type == SFLOW_ADDR_IP4) {
		if (b[0] == 0 || b[0] >= 224) /* this-network, multicast, reserved */
			return BSF_ADDR_UNUSABLE;
		if (b[0] == 127)
			return BSF_ADDR_LOOPBACK;
		if (b[0] == 169 && b[1] == 254)
			return BSF_ADDR_LINKLOCAL;
		if (b[0] == 10 || (b[0] == 172 && (b[1] & 0xf0) == 16) ||
		    (b[0] == 192 && b[1] == 168) || (b[0] == 100 && (b[1] & 0xc0) == 64))
			return BSF_ADDR_PRIVATE;
		return BSF_ADDR_GLOBAL;
	}
	if (a->type == SFLOW_ADDR_IP6) {
		static const uint8_t loop[16] = {[15] = 1};
		static const uint8_t zero[16];

		if (memcmp(b, zero, 16) == 0 || b[0] == 0xff)
			return BSF_ADDR_UNUSABLE;
		if (memcmp(b, loop, 16) == 0)
			return BSF_ADDR_LOOPBACK;
		if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
			return BSF_ADDR_LINKLOCAL;
		if ((b[0] & 0xfe) == 0xfc)
			return BSF_ADDR_PRIVATE;
		/* IPv4-mapped addresses are not interface addresses */
		if (memcmp(b, zero, 10) == 0 && b[10] == 0xff && b[11] == 0xff)
			return BSF_ADDR_UNUSABLE;
		return BSF_ADDR_GLOBAL;
	}
	return BSF_ADDR_UNUSABLE;
}

/* <0 when x is preferred to y */
static int cand_cmp(const struct bsf_addr_cand *x, const struct bsf_addr_cand *y)
{
	int cx = bsf_addr_classify(&x->addr), cy = bsf_addr_classify(&y->addr);
	size_t n;

	if (cx != cy)
		return cy - cx;
	if ((x->up != 0) != (y->up != 0))
		return x->up ? -1 : 1;
	if (x->addr.type != y->addr.type)
		return x->addr.type == SFLOW_ADDR_IP4 ? -1 : 1;
	n = x->addr.type == SFLOW_ADDR_IP4 ? 4 : 16;
	return memcmp(x->addr.a, y->addr.a, n);
}

int bsf_addr_choose(const struct bsf_addr_cand *c, size_t n)
{
	int best = -1;

	for (size_t i = 0; i < n; i++) {
		if (bsf_addr_classify(&c[i].addr) == BSF_ADDR_UNUSABLE)
			continue;
		if (best < 0 || cand_cmp(&c[i], &c[best]) < 0)
			best = (int)i;
	}
	return best;
}

int bsf_addr_parse(const char *s, struct sflow_addr *out)
{
	memset(out, 0, sizeof *out);
	if (inet_pton(AF_INET, s, out->a) == 1) {
		out->type = SFLOW_ADDR_IP4;
		return 0;
	}
	if (inet_pton(AF_INET6, s, out->a) == 1) {
		out->type = SFLOW_ADDR_IP6;
		return 0;
	}
	return -1;
}

int bsf_addr_auto(struct sflow_addr *out, char *err, size_t errlen)
{
	struct ifaddrs *ifa, *p;
	struct bsf_addr_cand cand[256];
	size_t n = 0;
	int best;

	if (getifaddrs(&ifa) < 0) {
		snprintf(err, errlen, "agent address auto: getifaddrs: %s", strerror(errno));
		return -1;
	}
	for (p = ifa; p && n < sizeof cand / sizeof cand[0]; p = p->ifa_next) {
		struct bsf_addr_cand *c = &cand[n];

		if (!p->ifa_addr)
			continue;
		memset(c, 0, sizeof *c);
		if (p->ifa_addr->sa_family == AF_INET) {
			const struct sockaddr_in *sin = (const void *)p->ifa_addr;

			c->addr.type = SFLOW_ADDR_IP4;
			memcpy(c->addr.a, &sin->sin_addr, 4);
		} else if (p->ifa_addr->sa_family == AF_INET6) {
			const struct sockaddr_in6 *sin6 = (const void *)p->ifa_addr;

			c->addr.type = SFLOW_ADDR_IP6;
			memcpy(c->addr.a, &sin6->sin6_addr, 16);
		} else {
			continue;
		}
		c->up = (p->ifa_flags & IFF_UP) != 0;
		n++;
	}
	freeifaddrs(ifa);
	best = bsf_addr_choose(cand, n);
	if (best < 0) {
		snprintf(err, errlen,
			 "agent address auto: the host has no usable IPv4 or IPv6 "
			 "address; set agent { address = ... }");
		return -1;
	}
	*out = cand[best].addr;
	return 0;
}
