/*
 * udpblast.c - the UDP sender of the linux backend's bpf benchmark
 * (bench-bpf.sh): SIZE-byte datagrams to DST:PORT for SECONDS, in batches
 * of sendmmsg(2), as fast as the socket takes them or paced at PPS a
 * second, from a socket of SO_PRIORITY PRIO when given (an htb root puts
 * the packets of a priority that names one of its leaf classes, major <<
 * 16 | minor, into that class); prints the datagrams the kernel accepted
 * and their rate.  A
 * C sender, so that the sender is not what limits the packet rate (a
 * python one tops out near 200 000 a second).  With -l, the receiving
 * end instead: binds ADDR:PORT and reads (recvmmsg) until killed.
 *
 *   udpblast DST PORT SECONDS SIZE [PPS [PRIO]]
 *   udpblast -l ADDR PORT
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int usage(void)
{
	fprintf(stderr, "usage: udpblast DST PORT SECONDS SIZE [PPS [PRIO]]\n"
			"       udpblast -l ADDR PORT\n");
	return 2;
}

/* the receiving end: read everything, forever */
static int sink(const char *addr, const char *port)
{
	static char rbuf[BATCH][2048];
	struct mmsghdr msg[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_in a;
	int fd, rcvbuf = 1 << 24, i;

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)atoi(port));
	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1)
		return usage();
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		perror("udpblast -l");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
	memset(msg, 0, sizeof msg);
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = rbuf[i];
		iov[i].iov_len = sizeof rbuf[i];
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	for (;;)
		if (recvmmsg(fd, msg, BATCH, 0, NULL) < 0 && errno != EINTR) {
			perror("udpblast -l: recvmmsg");
			return 1;
		}
}

int main(int argc, char **argv)
{
	static char buf[65536];
	struct mmsghdr msg[BATCH];
	struct iovec iov[BATCH];
	struct sockaddr_in dst;
	uint64_t t0, t, end, sent = 0, refused = 0;
	double secs, pps = 0;
	int fd, size, sndbuf = 1 << 22, i;

	if (argc == 4 && strcmp(argv[1], "-l") == 0)
		return sink(argv[2], argv[3]);
	if (argc < 5 || argc > 7)
		return usage();
	memset(&dst, 0, sizeof dst);
	dst.sin_family = AF_INET;
	dst.sin_port = htons((uint16_t)atoi(argv[2]));
	secs = atof(argv[3]);
	size = atoi(argv[4]);
	if (argc >= 6)
		pps = atof(argv[5]);
	if (inet_pton(AF_INET, argv[1], &dst.sin_addr) != 1 || secs <= 0 || size < 0 ||
	    size > (int)sizeof buf || pps < 0)
		return usage();
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("udpblast: socket");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
	if (argc == 7) {
		int prio = (int)strtol(argv[6], NULL, 0);

		if (setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &prio, sizeof prio) < 0) {
			perror("udpblast: SO_PRIORITY");
			return 1;
		}
	}
	if (connect(fd, (struct sockaddr *)&dst, sizeof dst) < 0) {
		perror("udpblast: connect");
		return 1;
	}
	memset(buf, 'x', sizeof buf);
	memset(msg, 0, sizeof msg);
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = buf;
		iov[i].iov_len = (size_t)size;
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	t0 = now_ns();
	end = t0 + (uint64_t)(secs * 1e9);
	while ((t = now_ns()) < end) {
		uint64_t due = BATCH;
		int n;

		if (pps > 0) {
			due = (uint64_t)((double)(t - t0) * pps / 1e9) + 1;
			due = due > sent ? due - sent : 0;
			if (!due) {
				struct timespec ts = {0, 20000};

				nanosleep(&ts, NULL);
				continue;
			}
			if (due > BATCH)
				due = BATCH;
		}
		n = sendmmsg(fd, msg, (unsigned)due, 0);
		if (n > 0)
			sent += (uint64_t)n;
		else if (errno == ENOBUFS || errno == EAGAIN)
			refused++;
		else if (n < 0) {
			perror("udpblast: sendmmsg");
			return 1;
		}
	}
	t = now_ns();
	printf("%llu %.0f\n", (unsigned long long)sent, (double)sent * 1e9 / (double)(t - t0));
	if (refused)
		fprintf(stderr, "udpblast: %llu batches refused (ENOBUFS)\n",
			(unsigned long long)refused);
	close(fd);
	return 0;
}
