/*
 * bench_linux.c - figures of the linux backend (make bench):
 *   1. NET_DM alerts parsed and made into BSF_EV_DROP events: CPU time
 *      per alert from a software alert laid out by hand (64-byte payload,
 *      reason, symbol, input port), and the share of one core that
 *      100 000 alerts/s would take;
 *   2. the qdisc poller on 64 ports x 8 queues: in a network namespace of
 *      its own (needs root) with 64 veth devices of 8 TX queues, each with
 *      an mq root (8 classes, each with a pfifo_fast leaf), the backend
 *      opened on them and polled back to back: CPU (user + system) and
 *      wall time of one poll, and the share of one core at a 10 ms period.
 *      Without root the second figure is skipped, saying so.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <sched.h>
#include <sys/resource.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/net_dropmon.h>

#include "agent/linux/backend_linux.h"
#include "agent/linux/state.h"
#include "agent/linux/tests/nlbuild.h"

static double now_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t h_now(void *arg)
{
	(void)arg;
	return (uint64_t)(now_s(CLOCK_REALTIME) * 1e9);
}

static void h_log(void *arg, int prio, const char *fmt, ...)
{
	va_list ap;

	(void)arg;
	(void)prio;
	va_start(ap, fmt);
	fputs("  ", stdout);
	vprintf(fmt, ap);
	fputs("\n", stdout);
	va_end(ap);
}

static int dummy;
static struct bsf_timer *h_timer_new(void *arg, void (*cb)(void *), void *cbarg)
{
	(void)arg;
	(void)cb;
	(void)cbarg;
	return (struct bsf_timer *)&dummy;
}
static int h_timer_start(struct bsf_timer *t, uint64_t ns, int periodic)
{
	(void)t;
	(void)ns;
	(void)periodic;
	return 0;
}
static void h_timer_free(struct bsf_timer *t)
{
	(void)t;
}
static struct bsf_fd_watch *h_fd_watch(void *arg, int fd, void (*cb)(int, void *), void *cbarg)
{
	(void)arg;
	(void)fd;
	(void)cb;
	(void)cbarg;
	return (struct bsf_fd_watch *)&dummy;
}
static void h_fd_unwatch(struct bsf_fd_watch *w)
{
	(void)w;
}

static struct bsf_host host = {
    .size = sizeof(struct bsf_host),
    .log = h_log,
    .timer_new = h_timer_new,
    .timer_start = h_timer_start,
    .timer_stop = (void (*)(struct bsf_timer *))h_timer_free,
    .timer_free = h_timer_free,
    .fd_watch = h_fd_watch,
    .fd_unwatch = h_fd_unwatch,
    .now_ns = h_now,
};

static void bench_dropmon(void)
{
	static struct nlb b;
	struct genlmsghdr g = {NET_DM_CMD_PACKET_ALERT, 2, 0};
	struct linuxbe_st st;
	struct linuxbe_port ports[2];
	uint8_t payload[64];
	const struct nlmsghdr *m;
	const long n = 2000000;
	double c0, c1;
	long i;
	char err[256];
	struct bsf_event e;
	uint64_t sum = 0;

	memset(payload, 0xab, sizeof payload);
	nlb_start(&b, 0x1c, &g, sizeof g);
	nlb_u16(&b, NET_DM_ATTR_ORIGIN, NET_DM_ORIGIN_SW);
	nlb_u64(&b, NET_DM_ATTR_PC, 0xffffffff81234567ull);
	nlb_str(&b, NET_DM_ATTR_SYMBOL, "__dev_queue_xmit+0xd01/0xf30");
	nlb_nest_start(&b, NET_DM_ATTR_IN_PORT);
	nlb_u32(&b, NET_DM_ATTR_PORT_NETDEV_IFINDEX, 9);
	nlb_nest_end(&b);
	nlb_u64(&b, NET_DM_ATTR_TIMESTAMP, 1700000000123456789ull);
	nlb_u32(&b, NET_DM_ATTR_ORIG_LEN, 1442);
	nlb_u16(&b, NET_DM_ATTR_PROTO, 0x0008);
	nlb_attr(&b, NET_DM_ATTR_PAYLOAD, payload, sizeof payload);
	nlb_str(&b, NET_DM_ATTR_REASON, "QDISC_DROP");
	m = nlb_end(&b);

	memset(&st, 0, sizeof st);
	memset(ports, 0, sizeof ports);
	ports[0].ifindex = 7;
	ports[1].ifindex = 9;
	st.ports = ports;
	st.nports = 2;
	st.host = &host;
	if (linuxbe_conf_parse(&st.conf, NULL, "bench", 1, err, sizeof err) < 0) {
		printf("dropmon: %s\n", err);
		return;
	}
	c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++) {
		struct linuxbe_drop d;

		if (linuxbe_dropmon_parse(m, b.len, &d, err, sizeof err) < 0)
			break;
		bsf_event_init(&e);
		linuxbe_dropmon_event(&st, &d, &e);
		sum += e.reason;
	}
	c1 = now_s(CLOCK_PROCESS_CPUTIME_ID);
	printf("dropmon: %ld alerts (%zu bytes each) parsed into drop events: %.0f ns CPU per "
	       "alert; 100 000 alerts/s = %.2f %% of one core (check %llu)\n",
	       n, b.len, (c1 - c0) / (double)n * 1e9, (c1 - c0) / (double)n * 1e5 * 100.0,
	       (unsigned long long)(sum / (uint64_t)n));
	linuxbe_conf_free(&st.conf);
}

static double tv_s(const struct timeval *a, const struct timeval *b)
{
	return (double)(a->tv_sec - b->tv_sec) + (double)(a->tv_usec - b->tv_usec) * 1e-6;
}

static int sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	return system(cmd);
}

static void bench_qdisc(void)
{
	const struct bsf_backend_ops *ops = linuxbe_ops();
	struct bsf_backend_args args;
	struct linuxbe_st *st;
	const int nports = 64, polls = 2000;
	char err[512];
	double c0, c1, w0, w1;
	struct rusage r0, r1;
	int i, q = 0;

	if (unshare(CLONE_NEWNET) < 0) {
		printf("qdisc poller: skipped (needs root for a network namespace of its own)\n");
		return;
	}
	for (i = 0; i < nports; i++)
		if (sh("ip link add bd%d numtxqueues 8 type veth peer name bp%d && "
		       "ip link set bd%d up && "
		       "tc qdisc add dev bd%d root handle 1: mq",
		       i, i, i, i) != 0) {
			printf("qdisc poller: skipped (cannot create veth devices with mq: ip / tc "
			       "failed)\n");
			return;
		}
	memset(&args, 0, sizeof args);
	args.size = sizeof args;
	args.host = &host;
	args.section_text = "ports = {\"/^bd[0-9]+$/\"}\nsb = off\ndropmon = off\npsample = "
			    "off\ntracepoint = off\npacket = off\n";
	args.section_file = "bench";
	args.section_line = 1;
	st = ops->open(&args, err, sizeof err);
	if (!st) {
		printf("qdisc poller: open failed: %s\n", err);
		return;
	}
	for (i = 0; i < (int)st->nports; i++)
		q += (int)st->ports[i].n_leaves;
	getrusage(RUSAGE_SELF, &r0);
	c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
	w0 = now_s(CLOCK_MONOTONIC);
	for (i = 0; i < polls; i++)
		if (linuxbe_qdisc_poll(st, err, sizeof err) < 0) {
			printf("qdisc poller: poll failed: %s\n", err);
			break;
		}
	c1 = now_s(CLOCK_PROCESS_CPUTIME_ID);
	w1 = now_s(CLOCK_MONOTONIC);
	getrusage(RUSAGE_SELF, &r1);
	printf("qdisc poller: %u ports, %d queues (mq leaves), %d polls: %.0f us CPU and %.0f us "
	       "wall per poll; at a 10 ms period %.2f %% of one core\n",
	       st->nports, q, polls, (c1 - c0) / polls * 1e6, (w1 - w0) / polls * 1e6,
	       (c1 - c0) / polls / 0.010 * 100.0);
	printf("qdisc poller: of which user %.0f us, kernel %.0f us per poll\n",
	       tv_s(&r1.ru_utime, &r0.ru_utime) / polls * 1e6,
	       tv_s(&r1.ru_stime, &r0.ru_stime) / polls * 1e6);
	ops->close(st);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	bench_dropmon();
	bench_qdisc();
	return 0;
}
