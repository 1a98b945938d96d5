/*
 * test_traffic.c - unit tests of the model's traffic generators and header
 * synthesis (agent/model/traffic.c, headers.c).
 *
 * Expected values come from closed forms (rates, IMIX mean 4252/12,
 * exponential mean and variance, duty cycles) and from parsing the
 * synthesized bytes back here with this file's own RFC 1071 sum; one IPv4
 * header is the well-known worked example whose checksum is 0xb861.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/headers.h"
#include "agent/model/model.h"
#include "agent/model/traffic.h"

/* The test's own one's complement sum (RFC 1071), folded, not inverted. */
static unsigned sum16(const uint8_t *p, size_t n, unsigned s)
{
	for (size_t i = 0; i < n; i += 2)
		s += (unsigned)(p[i] << 8) | (i + 1 < n ? p[i + 1] : 0);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

static unsigned rd16(const uint8_t *p)
{
	return (unsigned)(p[0] << 8 | p[1]);
}

/* Check every length and checksum of a synthesized frame of frame_len
 * bytes; returns the offset of the IP header. */
static unsigned check_frame(const uint8_t *h, unsigned hlen, uint32_t frame_len)
{
	unsigned off = 12, et, l4off, l4len, proto;
	uint8_t ph[40];
	unsigned s;

	et = rd16(h + off);
	if (et == 0x8100) {
		off += 4;
		et = rd16(h + off);
	}
	off += 2;
	if (et == 0x0800) {
		ck_assert_uint_eq(h[off] >> 4, 4);
		ck_assert_uint_eq(h[off] & 15, 5);
		ck_assert_uint_eq(rd16(h + off + 2), frame_len - 4 - off);
		ck_assert_uint_eq(sum16(h + off, 20, 0), 0xffff); /* header checksum verifies */
		proto = h[off + 9];
		l4off = off + 20;
		l4len = frame_len - 4 - l4off;
		memcpy(ph, h + off + 12, 8);
		ph[8] = 0;
		ph[9] = (uint8_t)proto;
		ph[10] = (uint8_t)(l4len >> 8);
		ph[11] = (uint8_t)l4len;
		s = sum16(ph, 12, 0);
	} else {
		ck_assert_uint_eq(et, 0x86dd);
		ck_assert_uint_eq(h[off] >> 4, 6);
		ck_assert_uint_eq(rd16(h + off + 4), frame_len - 4 - off - 40);
		proto = h[off + 6];
		l4off = off + 40;
		l4len = frame_len - 4 - l4off;
		memcpy(ph, h + off + 8, 32);
		ph[32] = (uint8_t)(l4len >> 24);
		ph[33] = (uint8_t)(l4len >> 16);
		ph[34] = (uint8_t)(l4len >> 8);
		ph[35] = (uint8_t)l4len;
		ph[36] = ph[37] = ph[38] = 0;
		ph[39] = (uint8_t)proto;
		s = sum16(ph, 40, 0);
	}
	if (proto == 17) {
		ck_assert_uint_eq(hlen, l4off + 8);
		ck_assert_uint_eq(rd16(h + l4off + 4), l4len);
	} else {
		ck_assert_uint_eq(proto, 6);
		ck_assert_uint_eq(hlen, l4off + 20);
		ck_assert_uint_eq(h[l4off + 12] >> 4, 5);
	}
	/* L4 checksum over pseudo-header + L4 header (the payload is zeros) */
	ck_assert_uint_eq(sum16(h + l4off, hlen - l4off, s), 0xffff);
	return off;
}

static void spec_v4(struct model_hdr_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->vlan = -1;
	s->ip_version = 4;
	s->l4 = MODEL_IPPROTO_UDP;
	s->ttl = 64;
}

START_TEST(test_ipv4_worked_example)
{
	/* 4500 0073 0000 4000 4011 b861 c0a8 0001 c0a8 00c7 */
	static const uint8_t want[20] = {0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40,
					 0x00, 0x40, 0x11, 0xb8, 0x61, 0xc0, 0xa8,
					 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};
	struct model_hdr_spec s;
	uint8_t buf[128];
	unsigned n;

	spec_v4(&s);
	memcpy(s.src_ip, (uint8_t[]){192, 168, 0, 1}, 4);
	memcpy(s.dst_ip, (uint8_t[]){192, 168, 0, 199}, 4);
	s.sport = 1234;
	s.dport = 53;
	/* total length 0x73 = 115: frame = 115 + 14 + 4 */
	n = model_hdr_build(&s, 133, buf);
	ck_assert_uint_eq(n, 42);
	ck_assert_uint_eq(rd16(buf + 12), 0x0800);
	ck_assert_mem_eq(buf + 14, want, 20);
	ck_assert_uint_eq(rd16(buf + 34), 1234);
	ck_assert_uint_eq(rd16(buf + 36), 53);
	ck_assert_uint_eq(rd16(buf + 38), 115 - 20);
	check_frame(buf, n, 133);
}
END_TEST

START_TEST(test_vlan_ipv6_tcp)
{
	struct model_hdr_spec s;
	uint8_t buf[128];
	unsigned n, off;

	spec_v4(&s);
	s.vlan = 100;
	s.pcp = 5;
	s.ip_version = 6;
	s.l4 = MODEL_IPPROTO_TCP;
	s.dscp = 46;
	s.src_ip[0] = 0xfd;
	s.src_ip[15] = 1;
	s.dst_ip[0] = 0xfd;
	s.dst_ip[15] = 2;
	s.sport = 40000;
	s.dport = 443;
	s.tcp_seq = 0x01020304;
	ck_assert_uint_eq(model_hdr_size(&s), 18 + 40 + 20);
	ck_assert_uint_eq(model_hdr_min_frame(&s), 82);
	ck_assert_uint_eq(model_hdr_build(&s, 81, buf), 0); /* too short for the headers */
	n = model_hdr_build(&s, 1500, buf);
	ck_assert_uint_eq(n, 78);
	ck_assert_uint_eq(rd16(buf + 12), 0x8100);
	ck_assert_uint_eq(rd16(buf + 14), 5u << 13 | 100);
	ck_assert_uint_eq(rd16(buf + 16), 0x86dd);
	off = check_frame(buf, n, 1500);
	ck_assert_uint_eq(off, 18);
	/* traffic class = DSCP << 2 across the first two bytes */
	ck_assert_uint_eq(((buf[18] & 15) << 4 | buf[19] >> 4) >> 2, 46);
	ck_assert_uint_eq(buf[18 + 7], 64); /* hop limit */
	ck_assert_uint_eq(model_traffic_tc(100, 5, 46), 5);
	ck_assert_uint_eq(model_traffic_tc(-1, 5, 46), 5); /* 46 >> 3 */
	ck_assert_uint_eq(model_traffic_tc(-1, 0, 24), 3);
}
END_TEST

START_TEST(test_min_frames)
{
	struct model_hdr_spec s;
	uint8_t buf[128];

	spec_v4(&s);
	ck_assert_uint_eq(model_hdr_min_frame(&s), 64); /* 42 + 4 < 64 */
	ck_assert_uint_eq(model_hdr_build(&s, 63, buf), 0);
	ck_assert_uint_eq(model_hdr_build(&s, 64, buf), 42);
	check_frame(buf, 42, 64);
	ck_assert_uint_eq(model_hdr_build(&s, 16383, buf), 42);
	check_frame(buf, 42, 16383);
	ck_assert_uint_eq(model_hdr_build(&s, 16384, buf), 0);
}
END_TEST

/* ---- generators ---- */

static struct model_gen_conf base_conf(void)
{
	struct model_gen_conf c;

	model_gen_defaults(&c);
	c.nports = 8;
	c.in_port = 2;
	c.dest_port = 5;
	c.seed = 42;
	return c;
}

static struct model_source make(const struct model_gen_conf *c)
{
	struct model_source s;
	char err[200];

	err[0] = 0;
	ck_assert_msg(model_gen_new(c, &s, err, sizeof(err)) == 0, "model_gen_new: %s", err);
	return s;
}

/* Measured layer-1 rate over n packets: sum of wire bits / last time. */
static double measure_rate(struct model_source *s, unsigned n, uint64_t start_ns)
{
	struct model_pkt p;
	double bits = 0;
	uint64_t last = start_ns, prev = 0;

	for (unsigned i = 0; i < n; i++) {
		ck_assert_int_eq(s->next(s->state, &p), 1);
		ck_assert_uint_ge(p.t_ns, prev);
		prev = p.t_ns;
		bits += (p.len + 20) * 8.0;
		last = p.t_ns;
	}
	return bits / ((last - start_ns) / 1e9);
}

START_TEST(test_rate_constant_and_poisson)
{
	struct model_gen_conf c = base_conf();
	struct model_source s;
	double r;

	/* constant, 40 % of 10G, fixed 1000-byte frames */
	c.rate_bps = 4e9;
	c.size_lo = c.size_hi = 1000;
	s = make(&c);
	r = measure_rate(&s, 100000, 0);
	ck_assert_msg(fabs(r / 4e9 - 1) < 0.01, "constant rate %g", r);
	s.free(s.state);

	/* Poisson, IMIX, 25 Gb/s, starting at 1 ms */
	c.rate_bps = 25e9;
	c.size = MODEL_SIZE_IMIX;
	c.arrival = MODEL_ARRIVAL_POISSON;
	c.start_ns = 1000000;
	s = make(&c);
	r = measure_rate(&s, 300000, 1000000);
	ck_assert_msg(fabs(r / 25e9 - 1) < 0.01, "poisson rate %g", r);
	s.free(s.state);

	/* uniform sizes, constant, 1 Gb/s */
	c.rate_bps = 1e9;
	c.size = MODEL_SIZE_UNIFORM;
	c.size_lo = 64;
	c.size_hi = 1518;
	c.arrival = MODEL_ARRIVAL_CONSTANT;
	c.start_ns = 0;
	s = make(&c);
	r = measure_rate(&s, 100000, 0);
	ck_assert_msg(fabs(r / 1e9 - 1) < 0.01, "uniform-size rate %g", r);
	s.free(s.state);
}
END_TEST

START_TEST(test_sizes)
{
	struct model_gen_conf c = base_conf();
	struct model_source s;
	struct model_pkt p;
	unsigned n = 300000, k[3] = {0, 0, 0}, lo = 100000, hi = 0;
	double sum = 0;

	c.rate_bps = 1e10;
	c.size = MODEL_SIZE_IMIX;
	s = make(&c);
	for (unsigned i = 0; i < n; i++) {
		ck_assert_int_eq(s.next(s.state, &p), 1);
		sum += p.len;
		ck_assert(p.len == 64 || p.len == 576 || p.len == 1500);
		k[p.len == 64 ? 0 : p.len == 576 ? 1 : 2]++;
	}
	s.free(s.state);
	/* 7:4:1 of 64/576/1500: mean 4252/12 = 354.33 */
	ck_assert_msg(fabs(sum / n / (4252.0 / 12) - 1) < 0.01, "imix mean %g", sum / n);
	ck_assert(fabs(k[0] / (double)n - 7.0 / 12) < 0.01);
	ck_assert(fabs(k[1] / (double)n - 4.0 / 12) < 0.01);
	ck_assert(fabs(k[2] / (double)n - 1.0 / 12) < 0.01);
	ck_assert(fabs(model_gen_mean_size(&c) - 4252.0 / 12) < 1e-9);

	c.size = MODEL_SIZE_UNIFORM;
	c.size_lo = 64;
	c.size_hi = 1518;
	s = make(&c);
	sum = 0;
	for (unsigned i = 0; i < n; i++) {
		ck_assert_int_eq(s.next(s.state, &p), 1);
		sum += p.len;
		lo = p.len < lo ? p.len : lo;
		hi = p.len > hi ? p.len : hi;
	}
	s.free(s.state);
	ck_assert_uint_eq(lo, 64);
	ck_assert_uint_eq(hi, 1518);
	ck_assert_msg(fabs(sum / n / 791.0 - 1) < 0.01, "uniform mean %g", sum / n);

	/* a small range: every size 100..109 appears, mean 104.5 */
	c.size_lo = 100;
	c.size_hi = 109;
	s = make(&c);
	{
		unsigned seen[10] = {0};

		sum = 0;
		for (unsigned i = 0; i < 100000; i++) {
			ck_assert_int_eq(s.next(s.state, &p), 1);
			ck_assert(p.len >= 100 && p.len <= 109);
			seen[p.len - 100]++;
			sum += p.len;
		}
		for (unsigned i = 0; i < 10; i++)
			ck_assert_uint_gt(seen[i], 9000);
		ck_assert(fabs(sum / 100000 - 104.5) < 0.05);
	}
	s.free(s.state);
}
END_TEST

START_TEST(test_poisson_gaps)
{
	struct model_gen_conf c = base_conf();
	struct model_source s;
	struct model_pkt p;
	unsigned n = 200000;
	double mean = (64 + 20) * 8.0 / 1e8 * 1e9; /* 6720 ns at 100 Mb/s */
	double s1 = 0, s2 = 0, prev = 0, m, v;

	c.rate_bps = 1e8;
	c.arrival = MODEL_ARRIVAL_POISSON;
	s = make(&c);
	for (unsigned i = 0; i < n; i++) {
		double g;

		ck_assert_int_eq(s.next(s.state, &p), 1);
		g = (double)p.t_ns - prev;
		prev = (double)p.t_ns;
		s1 += g;
		s2 += g * g;
	}
	s.free(s.state);
	m = s1 / n;
	v = s2 / n - m * m;
	ck_assert_msg(fabs(m / mean - 1) < 0.01, "mean gap %g want %g", m, mean);
	/* exponential: variance = mean^2 */
	ck_assert_msg(fabs(v / (mean * mean) - 1) < 0.03, "variance %g want %g", v, mean * mean);
}
END_TEST

/* Link-limited Poisson, IMIX at 90 % of a 10G link: no packet's last bit
 * comes sooner after the one before than its own wire time at 10G
 * ((len + 20) * 0.8 ns; times are whole ns, rounded down, so the gap is
 * at least that rounded down), the rate is 9 Gb/s, and the idle time
 * beyond the wire time is exponential with mean 10 % of the mean gap:
 * (4252 / 12 + 20) * 8 / 9 * 0.1 = 33.27 ns.  Pure Poisson at the same
 * rate does break the link's bound (gaps shorter than the frame). */
START_TEST(test_poisson_link)
{
	struct model_gen_conf c = base_conf();
	struct model_source s;
	struct model_pkt p;
	const unsigned n = 300000;
	double bits = 0, idle = 0, idle2 = 0;
	uint64_t prev = 0, short_gaps = 0;
	char err[200];

	c.size = MODEL_SIZE_IMIX;
	c.rate_bps = 9e9;
	c.link_bps = 1e10;
	c.arrival = MODEL_ARRIVAL_POISSON_LINK;
	s = make(&c);
	for (unsigned i = 0; i < n; i++) {
		ck_assert_int_eq(s.next(s.state, &p), 1);
		uint64_t w10 = (p.len + 20) * 8; /* wire time x 10 ns */
		if (i > 0) {
			uint64_t g = p.t_ns - prev;
			if (g * 10 < w10 - w10 % 10)
				short_gaps++;
			double id = (double)g - (double)w10 / 10;
			idle += id;
			idle2 += id * id;
		}
		bits += (double)w10;
		prev = p.t_ns;
	}
	s.free(s.state);
	ck_assert_uint_eq(short_gaps, 0);
	double rate = bits / ((double)prev / 1e9);
	ck_assert_msg(fabs(rate / 9e9 - 1) < 0.01, "rate %g", rate);
	double mi = idle / (n - 1), want = (4252.0 / 12 + 20) * 8 / 9 * 0.1;
	ck_assert_msg(fabs(mi / want - 1) < 0.03, "mean idle %g want %g", mi, want);
	/* exponential: standard deviation = mean (+ the rounding's, ~0.3 ns) */
	double sd = sqrt(idle2 / (n - 1) - mi * mi);
	ck_assert_msg(fabs(sd / want - 1) < 0.05, "idle sd %g want %g", sd, want);

	/* pure Poisson: gaps shorter than the frame's wire time occur */
	c.arrival = MODEL_ARRIVAL_POISSON;
	s = make(&c);
	prev = 0;
	short_gaps = 0;
	for (unsigned i = 0; i < 10000; i++) {
		ck_assert_int_eq(s.next(s.state, &p), 1);
		if (i > 0 && (p.t_ns - prev) * 10 + 10 < (uint64_t)(p.len + 20) * 8)
			short_gaps++;
		prev = p.t_ns;
	}
	s.free(s.state);
	ck_assert_uint_gt(short_gaps, 1000);

	/* the link rate must be given, and at least the rate */
	c.arrival = MODEL_ARRIVAL_POISSON_LINK;
	c.link_bps = 8e9;
	ck_assert_int_eq(model_gen_new(&c, &s, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "link rate"));
}
END_TEST

START_TEST(test_onoff_duty)
{
	struct model_gen_conf c = base_conf();
	struct model_source s;
	struct model_pkt p;
	uint64_t period = 1000000, on = 250000, phase = 300000, start = 5000;
	double bits = 0;
	uint64_t last = 0;
	unsigned n = 0;

	/* 10G line-rate bursts of 64-byte frames, 1 ms period, 25 % duty */
	c.rate_bps = 1e10;
	c.arrival = MODEL_ARRIVAL_ONOFF;
	c.period_ns = period;
	c.duty = 0.25;
	c.phase_ns = phase;
	c.start_ns = start;
	c.stop_ns = start + phase + 40 * period;
	s = make(&c);
	while (s.next(s.state, &p)) {
		uint64_t rel = p.t_ns - start - phase;

		ck_assert_uint_ge(p.t_ns, start + phase);
		/* every arrival inside an on part (last bit at most at its end) */
		ck_assert_msg(rel % period <= on, "arrival %llu ns into a period",
			      (unsigned long long)(rel % period));
		bits += (p.len + 20) * 8.0;
		last = p.t_ns;
		n++;
	}
	s.free(s.state);
	ck_assert_uint_lt(last, start + phase + 40 * period);
	/* average over whole periods = rate x duty */
	ck_assert_msg(fabs(bits / (40 * period / 1e9) / 2.5e9 - 1) < 0.01, "on/off average %g",
		      bits / (40 * period / 1e9));
	/* packets per on part: 250 us / 67.2 ns = 3720.2 -> 3720 */
	ck_assert_uint_eq(n, 40 * 3720);
}
END_TEST

START_TEST(test_destinations)
{
	struct model_gen_conf c = base_conf();
	struct model_source s;
	struct model_pkt p;
	unsigned cnt[8] = {0}, n = 140000, i;

	c.rate_bps = 1e10;
	c.dest = MODEL_DEST_UNIFORM;
	s = make(&c);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(s.next(s.state, &p), 1);
		ck_assert_uint_lt(p.out_port, 8);
		cnt[p.out_port]++;
	}
	s.free(s.state);
	ck_assert_uint_eq(cnt[2], 0); /* never back to the ingress port */
	for (i = 0; i < 8; i++)
		if (i != 2)
			ck_assert_msg(fabs(cnt[i] / (n / 7.0) - 1) < 0.03, "port %u: %u", i,
				      cnt[i]);

	/* hotspot: 40 % to port 5, the rest uniform over the 7 other ports */
	memset(cnt, 0, sizeof(cnt));
	c.dest = MODEL_DEST_HOTSPOT;
	c.hotspot = 0.4;
	s = make(&c);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(s.next(s.state, &p), 1);
		cnt[p.out_port]++;
	}
	s.free(s.state);
	ck_assert_uint_eq(cnt[2], 0);
	ck_assert_msg(fabs(cnt[5] / (double)n - (0.4 + 0.6 / 7)) < 0.01, "hotspot %u", cnt[5]);
	ck_assert_msg(fabs(cnt[0] / (double)n - 0.6 / 7) < 0.01, "other %u", cnt[0]);

	/* fixed */
	c.dest = MODEL_DEST_FIXED;
	s = make(&c);
	for (i = 0; i < 1000; i++) {
		ck_assert_int_eq(s.next(s.state, &p), 1);
		ck_assert_uint_eq(p.out_port, 5);
		ck_assert_uint_eq(p.in_port, 2);
		ck_assert_uint_eq(p.mc_group, 0);
	}
	s.free(s.state);
}
END_TEST

/* The test's own FNV-1a (32 bits) of n bytes and MurmurHash3's
 * finalizer. */
static uint32_t fnv1a(const uint8_t *b, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 16777619u;
	return h;
}

static uint32_t fmix32(uint32_t h)
{
	h = (h ^ (h >> 16)) * 0x85ebca6bu;
	h = (h ^ (h >> 13)) * 0xc2b2ae35u;
	return h ^ (h >> 16);
}

/*
 * ECMP: a destination set of ports.  The documented hash on two 5-tuples
 * worked by hand (FNV-1a 0xf51f3f72, finalized 0xddcf4558 -> member 3
 * of 4, 2 of 3; 0xcb5fa890, 0xb0545985 -> 2 of 4, 4 of 7).  A generator
 * sending to {32, 33, 34, 35} over 1024 flows: every packet leaves by
 * the member that the test's own hash of its header's 5-tuple picks (so
 * each flow keeps one port), its addresses those of a flow to port 32;
 * the members' flows are binomial (1024, 1/4) within 4 sd, and their
 * packets within 4 sd of what their flows' share predicts.  The same
 * over IPv6 (16-byte addresses) with a set of 3.
 */
static void ecmp_run(uint8_t ip, const uint16_t *to, unsigned nto, unsigned n)
{
	struct model_gen_conf c = base_conf();
	struct model_source s;
	struct model_pkt p;
	unsigned pkts[MODEL_GEN_MAX_TO] = {0}, flows[MODEL_GEN_MAX_TO] = {0};
	int8_t member[1024];
	const unsigned nflows = 1024;
	unsigned bad = 0; /* (per packet, counted: a check assertion costs a
			     write of its location) */

	memset(member, -1, sizeof(member));
	c.nports = 40;
	c.rate_bps = 1e10;
	c.ip_version = ip;
	c.size_lo = c.size_hi = 128;
	c.dest = MODEL_DEST_FIXED;
	c.dest_port = to[0];
	c.n_to = (uint16_t)nto;
	memcpy(c.to, to, nto * sizeof(*to));
	c.nflows = nflows;
	s = make(&c);
	for (unsigned i = 0; i < n; i++) {
		uint8_t t[37];
		unsigned off, al = ip == 6 ? 16 : 4, k, m, f;

		if (s.next(s.state, &p) != 1 || p.hdr == NULL) {
			bad++;
			break;
		}
		off = i < 2000 ? check_frame(p.hdr, p.hdr_len, p.len) : 14u;
		/* addresses, protocol, ports from the header itself */
		memcpy(t, p.hdr + off + (ip == 6 ? 8 : 12), 2 * al);
		t[2 * al] = p.hdr[off + (ip == 6 ? 6 : 9)];
		memcpy(t + 2 * al + 1, p.hdr + off + (ip == 6 ? 40 : 20), 4);
		k = 2 * al + 5;
		m = (unsigned)(((uint64_t)fmix32(fnv1a(t, k)) * nto) >> 32);
		ck_assert_uint_eq(p.out_port, to[m]);
		ck_assert_uint_eq(model_gen_ecmp_member(ip, t, t + al, t[2 * al],
							rd16(t + 2 * al + 1), rd16(t + 2 * al + 3),
							nto),
				  m);
		/* the destination address: port to[0]'s subnet */
		ck_assert_uint_eq(p.hdr[off + (ip == 6 ? 8 + 16 + 7 : 12 + 4 + 2)], to[0]);
		f = (p.flow_id - c.flow_base) % nflows;
		if (member[f] < 0) {
			member[f] = (int8_t)m;
			flows[m]++;
		}
		ck_assert_int_eq(member[f], (int)m);
		pkts[m]++;
	}
	s.free(s.state);
	printf("ECMP over %u ports (IPv%u):", nto, ip);
	for (unsigned m = 0; m < nto; m++) {
		double q = 1.0 / nto, fe = nflows * q, fsd = sqrt(nflows * q * (1 - q));
		double pf = flows[m] / (double)nflows, pe = n * pf, psd = sqrt(n * pf * (1 - pf));

		printf(" port %u %u flows (%.0f +- %.1f) %u packets (%.0f +- %.0f);", to[m],
		       flows[m], fe, fsd, pkts[m], pe, psd);
		ck_assert(fabs(flows[m] - fe) <= 4 * fsd);
		ck_assert(fabs(pkts[m] - pe) <= 4 * psd);
	}
	printf("\n");
}

START_TEST(test_ecmp)
{
	static const uint8_t a[4] = {10, 0, 2, 1}, b[4] = {10, 0, 32, 1};
	static const uint8_t a2[4] = {10, 0, 2, 2}, b2[4] = {10, 0, 32, 2};
	static const uint16_t set4[4] = {32, 33, 34, 35}, set3[3] = {7, 30, 12};

	ck_assert_uint_eq(model_gen_ecmp_member(4, a, b, 17, 49152, 5001, 4), 3);
	ck_assert_uint_eq(model_gen_ecmp_member(4, a, b, 17, 49152, 5001, 3), 2);
	ck_assert_uint_eq(model_gen_ecmp_member(4, a2, b2, 6, 49153, 443, 4), 2);
	ck_assert_uint_eq(model_gen_ecmp_member(4, a2, b2, 6, 49153, 443, 7), 4);
	ecmp_run(4, set4, 4, 200000);
	ecmp_run(6, set3, 3, 100000);
}
END_TEST

/*
 * Exponential sizes: L = lo + G with G geometric, P(G = k) = (1 - q) q^k,
 * q = m / (m + 1), m = mean - lo (the discrete exponential): E[L] =
 * lo + m, Var L = m (m + 1), P(G >= k) = q^k.  lo is the smallest frame
 * the headers fit: 64 for IPv4/UDP, 66 for IPv6/UDP.  400 000 sizes of
 * mean 1000: the mean within 4 sd, the variance within 4 sd (exponential
 * kurtosis 9: sd of the sample variance Var sqrt(8/n)), the tails at m
 * and 3 m within 4 binomial sd; every header's lengths and checksums
 * agree with its frame.
 */
START_TEST(test_exp_sizes)
{
	for (unsigned ip = 4; ip <= 6; ip += 2) {
		struct model_gen_conf c = base_conf();
		struct model_source s;
		struct model_pkt p;
		const unsigned n = 400000;
		double lo = ip == 4 ? 64 : 66, m = 1000 - lo, q = m / (m + 1);
		double s1 = 0, s2 = 0, t1 = 0, t3 = 0;

		c.rate_bps = 1e10;
		c.ip_version = (uint8_t)ip;
		c.size = MODEL_SIZE_EXP;
		c.size_lo = 0;
		c.size_hi = MODEL_FRAME_MAX;
		c.size_mean = 1000;
		c.nflows = 2;
		s = make(&c);
		unsigned bad = 0;

		for (unsigned i = 0; i < n; i++) {
			if (s.next(s.state, &p) != 1) {
				bad++;
				break;
			}
			bad += p.len < lo;
			if (i < 2000 && p.hdr)
				check_frame(p.hdr, p.hdr_len, p.len);
			s1 += p.len;
			s2 += (double)p.len * p.len;
			t1 += p.len - lo >= m;
			t3 += p.len - lo >= 3 * m;
		}
		s.free(s.state);
		ck_assert_uint_eq(bad, 0);
		double mean = s1 / n, var = s2 / n - mean * mean, v = m * (m + 1);
		double p1 = pow(q, ceil(m)), p3 = pow(q, ceil(3 * m));
		printf(
		    "exponential sizes (IPv%u, lo %.0f): mean %.2f (%.0f +- %.2f), variance %.0f "
		    "(%.0f +- %.0f), P(L - lo >= m) %.4f (%.4f), P(>= 3m) %.5f (%.5f)\n",
		    ip, lo, mean, lo + m, sqrt(v / n), var, v, v * sqrt(8.0 / n), t1 / n, p1,
		    t3 / n, p3);
		ck_assert(fabs(mean - (lo + m)) <= 4 * sqrt(v / n));
		ck_assert(fabs(var - v) <= 4 * v * sqrt(8.0 / n));
		ck_assert(fabs(t1 - n * p1) <= 4 * sqrt(n * p1 * (1 - p1)));
		ck_assert(fabs(t3 - n * p3) <= 4 * sqrt(n * p3 * (1 - p3)));
	}
}
END_TEST

/* Sojourns by batch of departures, for the error of their mean. */
#define NBATCH 50
struct soj_batches {
	uint64_t per, n;
	double sum[NBATCH];
};

static void soj_trace(void *arg, const struct model_trace *tr)
{
	struct soj_batches *b = arg;

	if (!tr->departed)
		return;
	unsigned k = (unsigned)(b->n / b->per);
	if (k < NBATCH)
		b->sum[k] += (double)(tr->t_ns - tr->t_arr_ns);
	b->n++;
}

/*
 * Exponential sizes through the switch: Poisson arrivals of sizes of
 * mean 1000 (lo 64) into a port of 8 Gb/s without preamble and gap, so
 * that a frame of L bytes is served in L ns: M/G/1 with S = 64 + G ns.
 * Its mean sojourn is Pollaczek-Khinchine's, T = E[S] + lambda E[S^2] /
 * (2 (1 - rho)), E[S^2] = m (m + 1) + (lo + m)^2; within 4 sd of the
 * batch means and 1.5 %.  M/M/1's 1/(mu - lambda) = E[S] / (1 - rho)
 * is T for E[S^2] = 2 E[S]^2: the 64-byte floor of a frame (service a
 * shifted exponential) takes rho (1 - E[S^2] / (2 E[S]^2)) off it, 3.1 %
 * at rho 0.5 and 4.9 % at 0.8; the measured sojourn shows that gap.
 */
static void exp_queue_run(double rho, uint64_t n)
{
	struct model_config cfg;
	struct model_err err;
	struct model_gen_conf c = base_conf();
	struct model_source s;
	struct soj_batches b;
	char e[200];
	const double lo = 64, m = 936, ES = lo + m, ES2 = m * (m + 1) + ES * ES;
	const double gap = ES / rho; /* ns */

	ck_assert_int_eq(model_config_init(&cfg, 2, 8000000000ULL), 0);
	cfg.ports[1].overhead_bytes = 0;
	cfg.ports[1].ucq[0].shared.mode = MODEL_LIMIT_STATIC;
	cfg.ports[1].ucq[0].shared.cells = 60000;
	cfg.ports[0].pg[0].shared.mode = MODEL_LIMIT_STATIC;
	cfg.ports[0].pg[0].shared.cells = 60000;
	struct model *mo = model_new(&cfg, &err);
	ck_assert_msg(mo != NULL, "%s", err.msg);
	model_config_release(&cfg);
	c.nports = 2;
	c.in_port = 0;
	c.dest = MODEL_DEST_FIXED;
	c.dest_port = 1;
	c.arrival = MODEL_ARRIVAL_POISSON;
	c.size = MODEL_SIZE_EXP;
	c.size_lo = 0;
	c.size_hi = MODEL_FRAME_MAX;
	c.size_mean = ES;
	c.rate_bps = (ES + 20) * 8e9 / gap; /* layer-1 rate: one frame per gap */
	c.max_packets = n;
	c.seed = 99;
	ck_assert_msg(model_gen_new(&c, &s, e, sizeof(e)) == 0, "%s", e);
	ck_assert_int_eq(model_add_source(mo, &s), 0);
	memset(&b, 0, sizeof(b));
	b.per = n / NBATCH;
	model_set_trace(mo, soj_trace, &b);
	ck_assert_int_eq(model_run(mo, MODEL_T_END), 0);
	ck_assert_uint_eq(b.n, n);
	double T = 0, sd = 0;
	for (unsigned k = 0; k < NBATCH; k++)
		T += b.sum[k] / b.per / NBATCH;
	for (unsigned k = 0; k < NBATCH; k++)
		sd += pow(b.sum[k] / b.per - T, 2) / (NBATCH - 1);
	sd = sqrt(sd / NBATCH);
	double lambda = 1 / gap, Tpk = ES + lambda * ES2 / (2 * (1 - rho)), Tmm1 = ES / (1 - rho);
	printf("M/G/1, exponential sizes above 64 B, rho %.1f: mean sojourn %.1f ns +- %.1f; "
	       "Pollaczek-Khinchine %.1f (%+.2f%%), M/M/1 1/(mu - lambda) %.1f (%+.2f%%; the "
	       "floor's share %+.2f%%)\n",
	       rho, T, sd, Tpk, 100 * (T / Tpk - 1), Tmm1, 100 * (T / Tmm1 - 1),
	       100 * (Tpk / Tmm1 - 1));
	ck_assert(fabs(T - Tpk) <= 4 * sd);
	ck_assert(fabs(T / Tpk - 1) < 0.015);
	ck_assert(fabs((T - Tmm1) - (Tpk - Tmm1)) <= 4 * sd);
	model_free(mo);
}

START_TEST(test_exp_sizes_queue)
{
	exp_queue_run(0.5, 1000000);
	exp_queue_run(0.8, 1000000);
}
END_TEST

START_TEST(test_permutation)
{
	static const unsigned sizes[] = {2, 3, 8, 64, 1024};
	uint16_t perm[1024], perm2[1024];

	for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		unsigned n = sizes[k];
		unsigned char seen[1024] = {0};

		model_traffic_permutation(n, 7, perm);
		for (unsigned i = 0; i < n; i++) {
			ck_assert_uint_lt(perm[i], n);
			ck_assert_uint_ne(perm[i], i); /* no port sends to itself */
			ck_assert(!seen[perm[i]]);     /* each port receives once */
			seen[perm[i]] = 1;
		}
	}
	model_traffic_permutation(64, 7, perm);
	model_traffic_permutation(64, 8, perm2);
	ck_assert(memcmp(perm, perm2, 64 * sizeof(*perm)) != 0);
	model_traffic_permutation(64, 7, perm2);
	ck_assert(memcmp(perm, perm2, 64 * sizeof(*perm)) == 0);
}
END_TEST

START_TEST(test_headers_of_packets)
{
	struct model_gen_conf c = base_conf();
	struct model_source s;
	struct model_pkt p;
	uint8_t first[MODEL_HDR_MAX];
	const uint8_t *first_ptr;
	unsigned first_len, i, mc = 0, drops = 0, n = 50000;

	c.rate_bps = 5e9;
	c.size = MODEL_SIZE_UNIFORM;
	c.size_lo = 70;
	c.size_hi = 9000;
	c.dest = MODEL_DEST_UNIFORM;
	c.nflows = 8;
	c.vlan = 10;
	c.pcp = 3;
	c.dscp = 26;
	c.l4 = MODEL_IPPROTO_TCP;
	c.mc_fraction = 0.1;
	c.mc_group = 3;
	c.drop_fraction = 0.05;
	c.drop_reason = 257;
	c.flow_base = 1000;
	s = make(&c);
	ck_assert_int_eq(s.next(s.state, &p), 1);
	first_ptr = p.hdr;
	first_len = p.hdr_len;
	memcpy(first, p.hdr, p.hdr_len);
	for (i = 0; i < n; i++) {
		unsigned off;

		ck_assert_int_eq(s.next(s.state, &p), 1);
		ck_assert_uint_eq(p.hdr_len, 18 + 20 + 20);
		off = check_frame(p.hdr, p.hdr_len, p.len);
		ck_assert_uint_eq(rd16(p.hdr + 14), 3u << 13 | 10);
		ck_assert_uint_eq(p.hdr[off + 1] >> 2, 26);
		ck_assert_uint_eq(p.tc, 3); /* tagged: the PCP */
		ck_assert_uint_eq(p.tos, 26 << 2);
		ck_assert_uint_ge(p.flow_id, 1000);
		ck_assert_uint_lt(p.flow_id, 1000 + model_gen_flow_ids(&c));
		/* source address in the ingress port's subnet 10.0.2.0/24 */
		ck_assert_uint_eq(p.hdr[off + 12], 10);
		ck_assert_uint_eq(p.hdr[off + 14], 2);
		if (p.mc_group) {
			mc++;
			ck_assert_uint_eq(p.mc_group, 3);
			ck_assert_uint_eq(p.hdr[0], 0x01); /* 01:00:5e:35:00:03 */
			ck_assert_uint_eq(p.hdr[2], 0x5e);
			ck_assert_uint_eq(p.hdr[3], 0x35);
			ck_assert_uint_eq(p.hdr[5], 3);
			ck_assert_uint_eq(p.hdr[off + 16], 239);
			ck_assert_uint_eq(p.hdr[off + 19], 3);
		} else {
			ck_assert_uint_eq(p.hdr[0] & 1, 0);
			ck_assert_uint_eq(p.hdr[off + 18], p.out_port); /* 10.0.<out>.h */
		}
		if (p.fwd_drop) {
			drops++;
			ck_assert_uint_eq(p.fwd_drop, 257);
			ck_assert_uint_eq(p.hdr[off + 8], 1); /* TTL 1 */
		} else {
			ck_assert_uint_eq(p.hdr[off + 8], 64);
		}
	}
	ck_assert_msg(fabs(mc / (double)n - 0.1) < 0.01, "multicast %u", mc);
	ck_assert_msg(fabs(drops / (double)n - 0.05) < 0.005, "drops %u", drops);
	/* the first packet's header bytes are still there and unchanged */
	ck_assert_mem_eq(first_ptr, first, first_len);
	ck_assert_uint_gt(model_gen_memory(&s), 0);
	s.free(s.state);
}
END_TEST

START_TEST(test_ipv6_addresses)
{
	struct model_gen_conf c = base_conf();
	struct model_source s;
	struct model_pkt p;

	c.ip_version = 6;
	c.size_lo = c.size_hi = 200;
	s = make(&c);
	ck_assert_int_eq(s.next(s.state, &p), 1);
	check_frame(p.hdr, p.hdr_len, p.len);
	/* fd00:b5:0:2::1 -> fd00:b5:0:5::1 */
	ck_assert_uint_eq(rd16(p.hdr + 14 + 8), 0xfd00);
	ck_assert_uint_eq(rd16(p.hdr + 14 + 10), 0x00b5);
	ck_assert_uint_eq(rd16(p.hdr + 14 + 14), 2);
	ck_assert_uint_eq(rd16(p.hdr + 14 + 38), 1);
	ck_assert_uint_eq(rd16(p.hdr + 14 + 30), 5);
	ck_assert_uint_eq(p.tc, 0);
	s.free(s.state);
}
END_TEST

START_TEST(test_check_errors)
{
	struct model_gen_conf c = base_conf();
	struct model_source s;
	char err[200];

	c.ip_version = 6;
	c.size = MODEL_SIZE_IMIX; /* 64-byte frames cannot carry IPv6 + UDP */
	ck_assert_int_eq(model_gen_new(&c, &s, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "do not fit"));
	c = base_conf();
	c.dest_port = 8;
	ck_assert_int_eq(model_gen_check(&c, err, sizeof(err)), -1);
	c = base_conf();
	c.arrival = MODEL_ARRIVAL_ONOFF;
	c.period_ns = 1000;
	c.duty = 0.01; /* 10 ns on: shorter than one packet */
	ck_assert_int_eq(model_gen_check(&c, err, sizeof(err)), -1);
	c = base_conf();
	c.mc_fraction = 0.5;
	ck_assert_int_eq(model_gen_check(&c, err, sizeof(err)), -1);
}
END_TEST

START_TEST(test_determinism_and_limits)
{
	struct model_gen_conf c = base_conf();
	struct model_source a, b;
	struct model_pkt p, q;
	unsigned n = 0;

	c.arrival = MODEL_ARRIVAL_POISSON;
	c.size = MODEL_SIZE_IMIX;
	c.dest = MODEL_DEST_UNIFORM;
	c.max_packets = 5000;
	a = make(&c);
	b = make(&c);
	while (a.next(a.state, &p)) {
		ck_assert_int_eq(b.next(b.state, &q), 1);
		ck_assert_uint_eq(p.t_ns, q.t_ns);
		ck_assert_uint_eq(p.len, q.len);
		ck_assert_uint_eq(p.out_port, q.out_port);
		n++;
	}
	ck_assert_uint_eq(n, 5000);
	ck_assert_int_eq(b.next(b.state, &q), 0);
	a.free(a.state);
	b.free(b.state);

	/* stop time: nothing at or after it */
	c = base_conf();
	c.stop_ns = 100000;
	a = make(&c);
	n = 0;
	while (a.next(a.state, &p)) {
		ck_assert_uint_lt(p.t_ns, 100000);
		n++;
	}
	/* 1 Gb/s, 64-byte frames: 672 ns each; 100 us holds 148 whole ones */
	ck_assert_uint_eq(n, 148);
	a.free(a.state);
}
END_TEST

START_TEST(test_merge)
{
	struct model_gen_conf c = base_conf();
	struct model_source src[3], m;
	struct model_pkt p;
	unsigned n = 0, per[8] = {0};
	uint64_t prev = 0;

	c.max_packets = 1000;
	c.arrival = MODEL_ARRIVAL_POISSON;
	for (unsigned i = 0; i < 3; i++) {
		c.in_port = (uint16_t)i;
		c.seed = 100 + i;
		src[i] = make(&c);
	}
	ck_assert_int_eq(model_merge_new(src, 3, &m), 0);
	while (m.next(m.state, &p)) {
		ck_assert_uint_ge(p.t_ns, prev);
		prev = p.t_ns;
		per[p.in_port]++;
		n++;
	}
	ck_assert_uint_eq(n, 3000);
	ck_assert_uint_eq(per[0], 1000);
	ck_assert_uint_eq(per[2], 1000);
	m.free(m.state);
}
END_TEST

/* The header bytes of a unicast UDP/IPv4 untagged packet from in_port
 * decode to its destination, flow and length (traffic.h conventions). */
static void check_unicast_v4(const uint8_t *h, unsigned hlen, const struct model_pkt *p,
			     unsigned in_port, uint32_t flow_base, unsigned nflows)
{
	unsigned k = p->flow_id - flow_base, d = k / nflows, f = k % nflows, host = 1 + f % 250;
	const uint8_t mac[6] = {2, 0, 0, (uint8_t)(d >> 8), (uint8_t)d, (uint8_t)host};
	const uint8_t smac[6] = {2, 0, 0, (uint8_t)(in_port >> 8), (uint8_t)in_port, (uint8_t)host};
	const uint8_t dip[4] = {10, (uint8_t)(d >> 8), (uint8_t)d, (uint8_t)host};
	const uint8_t sip[4] = {10, (uint8_t)(in_port >> 8), (uint8_t)in_port, (uint8_t)host};

	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(hlen, 14 + 20 + 8);
	ck_assert_uint_eq(d, p->out_port);
	ck_assert_uint_eq(check_frame(h, hlen, p->len), 14);
	ck_assert_mem_eq(h, mac, 6);
	ck_assert_mem_eq(h + 6, smac, 6);
	ck_assert_mem_eq(h + 14 + 12, sip, 4);
	ck_assert_mem_eq(h + 14 + 16, dip, 4);
	ck_assert_uint_eq(rd16(h + 34), 49152 + k % 16384);
	ck_assert_uint_eq(rd16(h + 36), 5001);
}

/*
 * The reviewer's scenario of issue #3 at generator level: a 1024-port
 * switch, uniform destinations, 64 flows, IMIX.  A full cache would hold
 * 1023 x 64 x 3 headers of 42 bytes (8.2 MB); with a 64 KiB budget it
 * stays within the budget, and every packet's header is still right:
 * cached ones at once, the others (hdr NULL) from model_gen_header.
 */
START_TEST(test_header_budget)
{
	struct model_gen_conf c = base_conf();
	struct model_gen_hdr_stats st;
	struct model_source s;
	struct model_pkt p, old;
	const size_t budget = 64 << 10;
	uint8_t seen[1024] = {0}, first[1024][42];
	const uint8_t *first_ptr[1024] = {0};
	unsigned i, n = 20000, ndest = 0, nnull = 0, d;

	c.nports = 1024;
	c.in_port = 300;
	c.rate_bps = 100e9 * 0.001;
	c.arrival = MODEL_ARRIVAL_POISSON;
	c.dest = MODEL_DEST_UNIFORM;
	c.nflows = 64;
	c.size = MODEL_SIZE_IMIX;
	c.flow_base = 7;
	c.hdr_budget = budget;
	s = make(&c);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(s.next(s.state, &p), 1);
		if (i == 100)
			old = p;
		if (p.hdr == NULL) {
			nnull++;
			check_unicast_v4(model_gen_header(s.state, &p), p.hdr_len, &p, 300, 7, 64);
			continue;
		}
		check_unicast_v4(p.hdr, p.hdr_len, &p, 300, 7, 64);
		d = p.out_port;
		if (!seen[d]) {
			seen[d] = 1;
			ndest++;
			first_ptr[d] = p.hdr;
			memcpy(first[d], p.hdr, 42);
		}
	}
	/* a destination's headers take at least 64 x 3 x 42 = 8064 bytes:
	 * at most 8 of them fit 64 KiB */
	ck_assert_uint_ge(ndest, 1);
	ck_assert_uint_le(ndest, 8);
	/* 20000 packets over 1023 destinations: most go uncached */
	ck_assert_uint_gt(nnull, n / 2);
	model_gen_hdr_stats(&s, &st);
	ck_assert_uint_eq(st.budget, budget);
	ck_assert_uint_le(st.cached_bytes, budget);
	ck_assert_uint_ge(st.cached_bytes, ndest * 8064u);
	ck_assert_uint_eq(st.uncached_pkts, nnull);
	/* the whole generator: the budget, the row pointers of 1025 slots and
	 * a few KB of state */
	ck_assert_uint_lt(model_gen_memory(&s), budget + 1025 * 8 + 16384);
	/* cached headers never move or change */
	for (d = 0; d < 1024; d++)
		if (seen[d])
			ck_assert_mem_eq(first_ptr[d], first[d], 42);
	/* an early packet's header is still found */
	check_unicast_v4(model_gen_header(s.state, &old), old.hdr_len, &old, 300, 7, 64);
	s.free(s.state);

	/* the default budget: 64 MiB over the ports, at least 64 KiB */
	c.hdr_budget = 0;
	s = make(&c);
	model_gen_hdr_stats(&s, &st);
	ck_assert_uint_eq(st.budget, 65536);
	ck_assert_uint_eq(st.cached_bytes, 0);
	s.free(s.state);
	c.nports = 4096;
	s = make(&c);
	model_gen_hdr_stats(&s, &st);
	ck_assert_uint_eq(st.budget, 65536);
	s.free(s.state);
	c.nports = 64;
	c.in_port = 3;
	s = make(&c);
	model_gen_hdr_stats(&s, &st);
	ck_assert_uint_eq(st.budget, 1048576);
	/* 64 ports: 64 x 64 x 3 x 42 bytes, all cached */
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(s.next(s.state, &p), 1);
		check_unicast_v4(p.hdr, p.hdr_len, &p, 3, 7, 64);
	}
	model_gen_hdr_stats(&s, &st);
	ck_assert_uint_eq(st.uncached_pkts, 0);
	ck_assert_uint_ge(st.cached_bytes, 63u * 8064);
	s.free(s.state);
}
END_TEST

static Suite *traffic_suite(void)
{
	Suite *s = suite_create("traffic");
	TCase *h = tcase_create("headers"), *g = tcase_create("generators");

	tcase_add_test(h, test_ipv4_worked_example);
	tcase_add_test(h, test_vlan_ipv6_tcp);
	tcase_add_test(h, test_min_frames);
	tcase_set_timeout(g, 60);
	tcase_add_test(g, test_rate_constant_and_poisson);
	tcase_add_test(g, test_sizes);
	tcase_add_test(g, test_poisson_gaps);
	tcase_add_test(g, test_poisson_link);
	tcase_add_test(g, test_onoff_duty);
	tcase_add_test(g, test_destinations);
	tcase_add_test(g, test_permutation);
	tcase_add_test(g, test_ecmp);
	tcase_add_test(g, test_exp_sizes);
	tcase_add_test(g, test_exp_sizes_queue);
	tcase_add_test(g, test_headers_of_packets);
	tcase_add_test(g, test_ipv6_addresses);
	tcase_add_test(g, test_check_errors);
	tcase_add_test(g, test_determinism_and_limits);
	tcase_add_test(g, test_merge);
	tcase_add_test(g, test_header_budget);
	suite_add_tcase(s, h);
	suite_add_tcase(s, g);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(traffic_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
