/* agent/tests/testnet.h - what the daemon's socket tests share: a UDP
 * listener on a free port of 127.0.0.1, and a big-endian 32-bit read of
 * what it receives.  Header-only (static inline), for Check tests. */
/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BSF_TESTNET_H
#define BSF_TESTNET_H

#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

/* A UDP socket bound to 127.0.0.1 on a port the kernel picks (*port). */
static inline int test_udp_listener(unsigned *port)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof sin;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	ck_assert_int_ge(fd, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	*port = ntohs(sin.sin_port);
	return fd;
}

static inline uint32_t test_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

#endif
