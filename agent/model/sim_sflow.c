/*
 * sim_sflow.c - bsflow-sim --sflow / --sflow-to (sim_sflow.h): bsflowd's
 * daemon modules driven on the model's virtual clock; each datagram the
 * exporter sends is written to a pcap (Ethernet, IPv4 or IPv6, UDP) and/or
 * sent to a UDP destination, paced or not.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <errno.h>
#include <event2/event.h>
#include <netdb.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "agent/addr.h"
#include "agent/daemon.h"
#include "agent/export.h"
#include "agent/log.h"
#include "agent/model/backend_model.h"
#include "agent/model/headers.h"
#include "agent/model/sim_sflow.h"
#include "agent/poller.h"
#include "proto/sflow.h"

#define ETH_HDR	 14
#define MAX_HDRS 62 /* Ethernet + IPv6 + UDP */

struct sim_sflow {
	struct event_base *base;
	struct bsf_daemon d;
	int d_init;
	struct model *m;
	void *raw;    /* the model backend's state */
	uint64_t now; /* the daemon's clock (bsf_clock_virtual) */
	/* the capture */
	pcap_t *dead;
	pcap_dumper_t *dump;
	struct model_hdr_spec hs; /* its Ethernet, IP and UDP headers */
	int have_src;		  /* hs's source is the datagrams' agent */
	int write_error;
	/* --sflow-to */
	int fd;
	double speed;
	uint64_t wall0_mono; /* CLOCK_MONOTONIC at virtual 0 */
	struct sim_sflow_stats st;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The daemon's log lines: warnings and errors to stderr; the line about
 * the collectors, which bsflow-sim leaves out on purpose, is dropped. */
static void log_sink(void *arg, int priority, const char *line)
{
	(void)arg;
	if (priority > LOG_WARNING || strstr(line, "no collector configured"))
		return;
	fprintf(stderr, "bsflow-sim: %s\n", line);
}

/* Sleep until virtual time v is due on the wall clock at s->speed. */
static void pace(struct sim_sflow *s, uint64_t v)
{
	uint64_t due = s->wall0_mono + (uint64_t)((double)v / s->speed);
	uint64_t now = mono_ns();
	struct timespec ts;

	if (due <= now)
		return;
	ts.tv_sec = (time_t)((due - now) / 1000000000u);
	ts.tv_nsec = (long)((due - now) % 1000000000u);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The capture's IP source: the datagram's agent address (its header:
 * version, address type 1 (IPv4) or 2 (IPv6), address). */
static void take_agent(struct sim_sflow *s, const uint8_t *d, size_t len)
{
	uint32_t type;

	if (len < 24)
		return;
	type = (uint32_t)d[4] << 24 | (uint32_t)d[5] << 16 | (uint32_t)d[6] << 8 | d[7];
	if (type == SFLOW_ADDR_IP4 && s->hs.ip_version == 4)
		memcpy(s->hs.src_ip, d + 8, 4);
	else if (type == SFLOW_ADDR_IP6 && s->hs.ip_version == 6)
		memcpy(s->hs.src_ip, d + 8, 16);
	s->have_src = 1;
}

static void write_pcap(struct sim_sflow *s, const uint8_t *d, size_t len)
{
	uint8_t frame[MAX_HDRS + SFLOW_DGRAM_MAX];
	unsigned hl;
	struct pcap_pkthdr ph;
	uint64_t w = bsf_wall_ns();

	if (!s->have_src)
		take_agent(s, d, len);
	/* headers for the frame, its FCS counted but not captured */
	hl = model_hdr_build(&s->hs, (uint32_t)(model_hdr_size(&s->hs) + len + MODEL_ETH_FCS),
			     frame);
	if (hl == 0 || hl + len > sizeof frame) {
		s->write_error = 1;
		return;
	}
	memcpy(frame + hl, d, len);
	/* the UDP checksum over the payload (headers.c made it for zeros) */
	{
		uint8_t *udp = frame + hl - 8;
		uint16_t c = (uint16_t)(udp[6] << 8 | udp[7]);
		uint32_t sum = (uint16_t)~c;

		sum = model_inet_sum(d, len, sum);
		c = model_inet_csum_fin(sum);
		if (c == 0)
			c = 0xffff;
		udp[6] = (uint8_t)(c >> 8);
		udp[7] = (uint8_t)c;
	}
	memset(&ph, 0, sizeof ph);
	ph.ts.tv_sec = (time_t)(w / 1000000000u);
	ph.ts.tv_usec = (suseconds_t)(w % 1000000000u / 1000u);
	ph.caplen = ph.len = (bpf_u_int32)(hl + len);
	pcap_dump((u_char *)s->dump, &ph, frame);
}

/* The exporter's tap: every datagram bsflowd would send. */
static void on_datagram(void *arg, const uint8_t *d, size_t len)
{
	struct sim_sflow *s = arg;

	s->st.datagrams++;
	s->st.bytes += len;
	if (s->dump)
		write_pcap(s, d, len);
	if (s->fd >= 0) {
		if (s->speed > 0)
			pace(s, s->now);
		if (send(s->fd, d, len, MSG_NOSIGNAL) != (ssize_t)len) {
			s->st.send_errors++;
			s->st.send_errno = errno;
		}
	}
}

/* "HOST", "HOST:PORT", "[V6]:PORT" into host and port (default 6343).
 * 0, or -1. */
static int split_hostport(const char *arg, char *host, size_t hostlen, char *port, size_t portlen)
{
	const char *colon;
	size_t n;

	snprintf(port, portlen, "6343");
	if (arg[0] == '[') {
		const char *end = strchr(arg, ']');

		if (!end || (end[1] != '\0' && end[1] != ':'))
			return -1;
		n = (size_t)(end - arg - 1);
		if (end[1] == ':')
			snprintf(port, portlen, "%s", end + 2);
		arg++;
	} else {
		colon = strchr(arg, ':');
		if (colon && strchr(colon + 1, ':'))
			colon = NULL; /* a bare IPv6 address */
		n = colon ? (size_t)(colon - arg) : strlen(arg);
		if (colon)
			snprintf(port, portlen, "%s", colon + 1);
	}
	if (n == 0 || n >= hostlen || !port[0] || strspn(port, "0123456789") != strlen(port) ||
	    atoi(port) < 1 || atoi(port) > 65535)
		return -1;
	memcpy(host, arg, n);
	host[n] = '\0';
	return 0;
}

static int open_dest(struct sim_sflow *s, const char *to, struct sflow_addr *dst, uint16_t *dport,
		     char *err, size_t errlen)
{
	char host[256], port[16];
	struct addrinfo hints, *res = NULL, *ai;
	int r;

	if (split_hostport(to, host, sizeof host, port, sizeof port) < 0) {
		snprintf(err, errlen, "--sflow-to %s: not HOST:PORT (e.g. 127.0.0.1:6343)", to);
		return -1;
	}
	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_DGRAM;
	r = getaddrinfo(host, port, &hints, &res);
	if (r != 0) {
		snprintf(err, errlen, "--sflow-to %s: %s", to, gai_strerror(r));
		return -1;
	}
	for (ai = res; ai && s->fd < 0; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);

		if (fd < 0)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
			close(fd);
			continue;
		}
		s->fd = fd;
		memset(dst, 0, sizeof *dst);
		if (ai->ai_family == AF_INET) {
			const struct sockaddr_in *sa = (const void *)ai->ai_addr;
			dst->type = SFLOW_ADDR_IP4;
			memcpy(dst->a, &sa->sin_addr, 4);
		} else {
			const struct sockaddr_in6 *sa = (const void *)ai->ai_addr;
			dst->type = SFLOW_ADDR_IP6;
			memcpy(dst->a, &sa->sin6_addr, 16);
		}
		*dport = (uint16_t)atoi(port);
	}
	freeaddrinfo(res);
	if (s->fd < 0) {
		snprintf(err, errlen, "--sflow-to %s: cannot open a socket to it: %s", to,
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* The capture's headers: from the agent (its address family; the address
 * itself is taken from the first datagram) to dst, port dport. */
static void set_headers(struct sim_sflow *s, const struct sflow_addr *agent,
			const struct sflow_addr *dst, uint16_t dport)
{
	static const uint8_t smac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
	static const uint8_t dmac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x02};
	char ab[64];

	memset(&s->hs, 0, sizeof s->hs);
	memcpy(s->hs.src_mac, smac, 6);
	memcpy(s->hs.dst_mac, dmac, 6);
	s->hs.vlan = -1;
	s->hs.ip_version = agent->type == SFLOW_ADDR_IP6 ? 6 : 4;
	s->hs.l4 = MODEL_IPPROTO_UDP;
	s->hs.ttl = 64;
	s->hs.sport = 6343;
	s->hs.dport = dport;
	if ((dst->type == SFLOW_ADDR_IP6) == (s->hs.ip_version == 6)) {
		memcpy(s->hs.dst_ip, dst->a, 16);
	} else if (s->hs.ip_version == 4) {
		static const uint8_t lo4[4] = {127, 0, 0, 1};
		memcpy(s->hs.dst_ip, lo4, 4);
	} else {
		s->hs.dst_ip[15] = 1; /* ::1 */
	}
	{
		struct sflow_addr a;

		memset(&a, 0, sizeof a);
		a.type = s->hs.ip_version == 6 ? SFLOW_ADDR_IP6 : SFLOW_ADDR_IP4;
		memcpy(a.a, s->hs.dst_ip, 16);
		snprintf(s->st.dest, sizeof s->st.dest, "%s port %u",
			 bsf_addr_str(&a, ab, sizeof ab), dport);
	}
}

struct model *sim_sflow_model(struct sim_sflow *s)
{
	return s->m;
}

struct sim_sflow *sim_sflow_new(const char *file, const struct model_scenario_opts *so,
				const struct sim_sflow_opts *o, char *err, size_t errlen)
{
	struct sim_sflow *s = calloc(1, sizeof *s);
	struct conf *c = NULL;
	struct sflow_addr agent, dst;
	uint16_t dport = CONF_DEFAULT_PORT;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->fd = -1;
	s->speed = o->speed;
	memset(&dst, 0, sizeof dst);
	dst.type = SFLOW_ADDR_IP4;
	dst.a[0] = 127;
	dst.a[3] = 1;
	c = conf_load_file(file, err, errlen);
	if (!c)
		goto fail;
	if (c->backend != CONF_BACKEND_MODEL) {
		snprintf(err, errlen, "%s:%d: --sflow runs the model backend, not backend %s", file,
			 c->backend_line, conf_backend_name(c));
		goto fail;
	}
	/* the capture's destination: --sflow-to, else the file's first
	 * collector if it is an address, else 127.0.0.1 port 6343 */
	if (o->to) {
		if (open_dest(s, o->to, &dst, &dport, err, errlen) < 0)
			goto fail;
	} else if (c->n_collectors > 0 && bsf_addr_parse(c->collectors[0].address, &dst) == 0) {
		dport = c->collectors[0].port;
	}
	/* the datagrams go to the capture and --sflow-to only */
	c->n_collectors = 0;
	if (strcmp(c->agent_address, "auto") == 0 ? bsf_addr_auto(&agent, err, errlen) < 0
						  : bsf_addr_parse(c->agent_address, &agent) < 0) {
		if (strcmp(c->agent_address, "auto") != 0)
			snprintf(err, errlen, "%s: agent address %s: not an IP address", file,
				 c->agent_address);
		goto fail;
	}
	set_headers(s, &agent, &dst, dport);
	if (o->pcap) {
		s->dead = pcap_open_dead(DLT_EN10MB, 65535);
		s->dump = s->dead ? pcap_dump_open(s->dead, o->pcap) : NULL;
		if (!s->dump) {
			snprintf(err, errlen, "--sflow %s: %s", o->pcap,
				 s->dead ? pcap_geterr(s->dead) : "out of memory");
			goto fail;
		}
	}

	/* the daemon, on virtual time from 0 */
	bsf_log_set_sink(log_sink, s);
	bsf_clock_virtual(&s->now,
			  o->epoch_ns ? o->epoch_ns : bsf_wall_ns() / 1000000000u * 1000000000u);
	s->wall0_mono = mono_ns();
	s->base = event_base_new();
	if (!s->base || bsf_daemon_init(&s->d, s->base, file, 1) < 0) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	s->d_init = 1;
	/* the polls' stagger from the seed: the same file and seed send the
	 * same datagrams (but for the times and the agent address) */
	poller_set_seed(s->d.poller, (so && so->set_seed ? so->seed : 1) ^ 0x5bd1e995u);
	export_set_tap(s->d.x, on_datagram, s);
	bsf_backend_model_set_opts(so);
	if (bsf_daemon_apply(&s->d, c, err, errlen) < 0)
		goto fail;
	c = NULL; /* the daemon's now */
	s->raw = s->d.be.raw_st;
	s->m = bsf_backend_model_of(s->raw);
	return s;
fail:
	conf_free(c);
	sim_sflow_free(s);
	return NULL;
}

/* Everything due at the clock: the events the backend has, what they
 * held back, the polls, the flush. */
static void run_due(struct sim_sflow *s)
{
	bsf_events_drain(&s->d.events);
	bsf_visx_flush_held(&s->d.vis);
	poller_run_due(s->d.poller);
	bsf_visx_flush_held(&s->d.vis);
	if (export_flush_due(s->d.x) <= s->now)
		export_flush(s->d.x);
}

int sim_sflow_advance_to(struct sim_sflow *s, uint64_t t_ns)
{
	while (s->now < t_ns) {
		uint64_t to = t_ns, due;

		if (s->now + SIM_SFLOW_STEP_NS < to)
			to = s->now + SIM_SFLOW_STEP_NS;
		if ((due = poller_next_due(s->d.poller)) < to)
			to = due > s->now ? due : s->now;
		if ((due = export_flush_due(s->d.x)) < to)
			to = due > s->now ? due : s->now;
		/* the model, its event ring read whenever it fills */
		while (bsf_backend_model_run_to(s->raw, to)) {
			s->now = model_now(s->m);
			bsf_events_drain(&s->d.events);
		}
		s->now = to;
		run_due(s);
		if (s->write_error)
			return -1;
	}
	return s->write_error ? -1 : 0;
}

int sim_sflow_finish(struct sim_sflow *s, struct sim_sflow_stats *st, char *err, size_t errlen)
{
	int rc = 0;

	bsf_daemon_flush(&s->d);
	if (s->dump) {
		if (pcap_dump_flush(s->dump) < 0 || s->write_error) {
			snprintf(err, errlen, "--sflow: cannot write the capture");
			rc = -1;
		}
		pcap_dump_close(s->dump);
		s->dump = NULL;
	}
	*st = s->st;
	return rc;
}

void sim_sflow_free(struct sim_sflow *s)
{
	if (!s)
		return;
	if (s->d_init)
		bsf_daemon_fini(&s->d);
	bsf_backend_model_set_opts(NULL);
	bsf_clock_virtual(NULL, 0);
	bsf_log_set_sink(NULL, NULL);
	if (s->dump)
		pcap_dump_close(s->dump);
	if (s->dead)
		pcap_close(s->dead);
	if (s->base)
		event_base_free(s->base);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}
