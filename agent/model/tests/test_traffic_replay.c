/*
 * test_traffic_replay.c - unit tests of the pcap replay source
 * (agent/model/replay.c).
 *
 * Each test writes a small capture with libpcap's pcap_dump from frames
 * built by hand here, replays it and checks the documented rules: ports
 * by FNV-1a of the source MAC / destination IP (the test has its own
 * FNV-1a, checked against the published vectors), the VLAN and prefix
 * maps, timestamps kept or rescaled, loops, header bytes kept, the
 * destination MAC class and the batch interface, and clear errors for
 * bad files.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/model/model.h"
#include "agent/model/replay.h"

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
	uint32_t h = 0x811c9dc5u;

	while (n--) {
		h ^= *p++;
		h *= 0x01000193u;
	}
	return h;
}

struct frame {
	uint8_t b[400];
	unsigned len;
	uint64_t ts_ns;
};

/* Ethernet [+ tag] + IPv4 + UDP, frame of len bytes without FCS. */
static void mk_ipv4(struct frame *f, const uint8_t src_mac[6], int vlan, uint8_t pcp,
		    const uint8_t dst_ip[4], uint8_t dscp, unsigned len, uint64_t ts_ns)
{
	unsigned o = 12;

	memset(f, 0, sizeof(*f));
	memcpy(f->b, (uint8_t[]){0x02, 0, 0, 0, 0, 0x99}, 6);
	memcpy(f->b + 6, src_mac, 6);
	if (vlan >= 0) {
		f->b[12] = 0x81;
		f->b[13] = 0x00;
		f->b[14] = (uint8_t)(pcp << 5 | (vlan >> 8));
		f->b[15] = (uint8_t)vlan;
		o = 16;
	}
	f->b[o] = 0x08;
	f->b[o + 1] = 0x00;
	o += 2;
	f->b[o] = 0x45;
	f->b[o + 1] = (uint8_t)(dscp << 2);
	f->b[o + 2] = (uint8_t)((len - o) >> 8);
	f->b[o + 3] = (uint8_t)(len - o);
	f->b[o + 8] = 64;
	f->b[o + 9] = 17;
	memcpy(f->b + o + 12, (uint8_t[]){192, 0, 2, 1}, 4);
	memcpy(f->b + o + 16, dst_ip, 4);
	f->b[o + 20] = 0x30;
	f->b[o + 21] = 0x39; /* sport 12345 */
	f->b[o + 22] = 0x00;
	f->b[o + 23] = 0x35; /* dport 53 */
	f->len = len;
	f->ts_ns = ts_ns;
}

static void write_pcap(const char *path, int dlt, const struct frame *fr, unsigned n, unsigned snap)
{
	pcap_t *p = pcap_open_dead_with_tstamp_precision(dlt, 65535, PCAP_TSTAMP_PRECISION_NANO);
	pcap_dumper_t *d;

	ck_assert_ptr_nonnull(p);
	d = pcap_dump_open(p, path);
	ck_assert_ptr_nonnull(d);
	for (unsigned i = 0; i < n; i++) {
		struct pcap_pkthdr h;

		memset(&h, 0, sizeof(h));
		h.ts.tv_sec = (time_t)(fr[i].ts_ns / 1000000000u);
		h.ts.tv_usec = (suseconds_t)(fr[i].ts_ns % 1000000000u); /* ns precision */
		h.len = fr[i].len;
		h.caplen = fr[i].len < snap ? fr[i].len : snap;
		pcap_dump((u_char *)d, &h, fr[i].b);
	}
	pcap_dump_close(d);
	pcap_close(p);
}

static char *tmp_path(const char *tag)
{
	static char buf[4][256];
	static unsigned k;
	char *p = buf[k++ % 4];
	const char *dir = getenv("TMPDIR");

	snprintf(p, 256, "%s/test_traffic_replay_%ld_%s.pcap", dir ? dir : "/tmp", (long)getpid(),
		 tag);
	return p;
}

static const uint8_t mac_a[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
static const uint8_t mac_b[6] = {0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee};
static const uint8_t ip_x[4] = {10, 1, 2, 3};
static const uint8_t ip_y[4] = {10, 9, 8, 7};

START_TEST(test_fnv_vectors)
{
	/* published FNV-1a 32-bit test vectors */
	ck_assert_uint_eq(model_replay_hash("", 0), 0x811c9dc5u);
	ck_assert_uint_eq(model_replay_hash("a", 1), 0xe40c292cu);
	ck_assert_uint_eq(model_replay_hash("foobar", 6), 0xbf9cf968u);
	ck_assert_uint_eq(fnv1a((const uint8_t *)"foobar", 6), 0xbf9cf968u);
}
END_TEST

START_TEST(test_rules)
{
	struct frame fr[5];
	struct model_replay_conf c;
	struct model_source s;
	struct model_pkt p;
	struct model_replay_vlan vm[1] = {{100, 6}};
	char err[300];
	const char *path = tmp_path("rules");
	unsigned nports = 8, in_a, out_x, out_y, i;

	mk_ipv4(&fr[0], mac_a, -1, 0, ip_x, 24, 100, 1000000000ull);
	mk_ipv4(&fr[1], mac_b, -1, 0, ip_y, 46, 1514, 1000002000ull);
	mk_ipv4(&fr[2], mac_a, 100, 5, ip_y, 0, 300, 1000005000ull);
	mk_ipv4(&fr[3], mac_a, -1, 0, ip_x, 0, 60, 1000004000ull); /* time goes back */
	mk_ipv4(&fr[4], mac_b, 200, 2, ip_x, 8, 400, 1000010000ull);
	write_pcap(path, DLT_EN10MB, fr, 5, 65535);

	model_replay_defaults(&c);
	c.file = path;
	c.nports = (uint16_t)nports;
	c.vlan_map = vm;
	c.n_vlan_map = 1;
	memset(&s, 0xa5, sizeof(s)); /* every member is set, none left as found */
	ck_assert_msg(model_replay_new(&c, &s, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(model_replay_count(&s), 5);
	/* the promises: ports and groups as configured, times in order
	 * (frame 3's goes back and is clamped, below) */
	ck_assert_uint_eq(s.ports, nports);
	ck_assert_uint_eq(s.groups, 0);
	ck_assert_uint_eq(s.ordered, 1);

	in_a = fnv1a(mac_a, 6) % nports;
	out_x = fnv1a(ip_x, 4) % nports;
	out_y = fnv1a(ip_y, 4) % nports;

	/* frame 0: untagged, DSCP 24 -> tc 3 */
	ck_assert_int_eq(s.next(s.state, &p), 1);
	ck_assert_uint_eq(p.t_ns, 0);
	ck_assert_uint_eq(p.len, 104); /* + FCS */
	ck_assert_uint_eq(p.in_port, in_a);
	ck_assert_uint_eq(p.out_port, out_x != in_a ? out_x : (out_x + 1) % nports);
	ck_assert_uint_eq(p.tc, 3);
	ck_assert_uint_eq(p.tos, 24 << 2);
	ck_assert_uint_eq(p.hdr_len, 100);
	ck_assert_mem_eq(p.hdr, fr[0].b, 100);
	ck_assert_uint_eq(p.mc_group, 0);
	ck_assert_uint_eq(p.fwd_drop, 0);

	/* frame 1: 1514 bytes, only 256 header bytes kept */
	ck_assert_int_eq(s.next(s.state, &p), 1);
	ck_assert_uint_eq(p.t_ns, 2000);
	ck_assert_uint_eq(p.len, 1518);
	ck_assert_uint_eq(p.in_port, fnv1a(mac_b, 6) % nports);
	ck_assert_uint_eq(p.tc, 46 >> 3);
	ck_assert_uint_eq(p.hdr_len, MODEL_HDR_MAX);
	ck_assert_mem_eq(p.hdr, fr[1].b, MODEL_HDR_MAX);
	(void)out_y;

	/* frame 2: VLAN 100 -> port 6 by the map; PCP 5 -> tc 5 */
	ck_assert_int_eq(s.next(s.state, &p), 1);
	ck_assert_uint_eq(p.t_ns, 5000);
	ck_assert_uint_eq(p.in_port, 6);
	ck_assert_uint_eq(p.out_port, out_y != 6 ? out_y : (out_y + 1) % nports);
	ck_assert_uint_eq(p.tc, 5);

	/* frame 3: earlier than frame 2: kept at frame 2's time; 60 -> 64 bytes */
	ck_assert_int_eq(s.next(s.state, &p), 1);
	ck_assert_uint_eq(p.t_ns, 5000);
	ck_assert_uint_eq(p.len, 64);

	/* frame 4: VLAN 200 not in the map -> hashed source MAC; PCP 2 */
	ck_assert_int_eq(s.next(s.state, &p), 1);
	ck_assert_uint_eq(p.t_ns, 10000);
	ck_assert_uint_eq(p.in_port, fnv1a(mac_b, 6) % nports);
	ck_assert_uint_eq(p.tc, 2);

	ck_assert_int_eq(s.next(s.state, &p), 0);
	s.free(s.state);

	/* explicit port lists, a prefix map, time scale 2, start 1 ms, 3 loops */
	{
		static const uint16_t ins[] = {3, 4};
		static const uint16_t outs[] = {0, 1, 2};
		struct model_replay_prefix pm[2];
		uint64_t t[15];
		unsigned n = 0;

		memset(pm, 0, sizeof(pm));
		pm[0].family = 4;
		pm[0].plen = 8;
		pm[0].addr[0] = 10;
		pm[0].port = 7;
		pm[1].family = 4;
		pm[1].plen = 16;
		memcpy(pm[1].addr, (uint8_t[]){10, 9, 0, 0}, 4);
		pm[1].port = 5;
		model_replay_defaults(&c);
		c.file = path;
		c.nports = (uint16_t)nports;
		c.in_ports = ins;
		c.n_in_ports = 2;
		c.out_ports = outs;
		c.n_out_ports = 3;
		c.egress_map = pm;
		c.n_egress_map = 1; /* first only: 10/8 -> 7 */
		c.time_scale = 2;
		c.start_ns = 1000000;
		c.loops = 3;
		ck_assert_msg(model_replay_new(&c, &s, err, sizeof(err)) == 0, "%s", err);
		while (s.next(s.state, &p)) {
			ck_assert_uint_lt(n, 15);
			t[n++] = p.t_ns;
			ck_assert_uint_eq(
			    p.in_port, ins[fnv1a(n % 5 == 2 || n % 5 == 0 ? mac_b : mac_a, 6) % 2]);
			ck_assert_uint_eq(p.out_port, 7);
		}
		s.free(s.state);
		ck_assert_uint_eq(n, 15);
		ck_assert_uint_eq(t[0], 1000000);
		ck_assert_uint_eq(t[1], 1001000);
		ck_assert_uint_eq(t[4], 1005000);
		/* loop period: span 5000 + mean gap 5000/4 = 6250 ns (scaled) */
		ck_assert_uint_eq(t[5], 1006250);
		ck_assert_uint_eq(t[10], 1012500);
		ck_assert_uint_eq(t[14], 1017500);

		/* longest prefix wins: 10.9/16 -> 5 for ip_y, 10/8 -> 7 for ip_x */
		model_replay_defaults(&c);
		c.file = path;
		c.nports = (uint16_t)nports;
		c.egress_map = pm;
		c.n_egress_map = 2;
		ck_assert_msg(model_replay_new(&c, &s, err, sizeof(err)) == 0, "%s", err);
		for (i = 0; s.next(s.state, &p); i++)
			ck_assert_uint_eq(p.out_port, i == 1 || i == 2 ? 5 : 7);
		s.free(s.state);
	}
	unlink(path);
}
END_TEST

START_TEST(test_multicast_and_snaplen)
{
	struct frame fr[2];
	struct model_replay_conf c;
	struct model_source s;
	struct model_pkt p;
	char err[300];
	const char *path = tmp_path("mc");

	mk_ipv4(&fr[0], mac_a, -1, 0, ip_x, 0, 200, 5);
	fr[0].b[0] = 0x01; /* group destination MAC 01:00:00:00:00:99 */
	mk_ipv4(&fr[1], mac_a, -1, 0, ip_x, 0, 200, 10);
	write_pcap(path, DLT_EN10MB, fr, 2, 40); /* capture truncated to 40 bytes */
	model_replay_defaults(&c);
	c.file = path;
	c.nports = 4;
	c.mc_group = 2;
	ck_assert_msg(model_replay_new(&c, &s, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(s.next(s.state, &p), 1);
	ck_assert_uint_eq(p.mc_group, 2);
	ck_assert_uint_eq(p.len, 204);
	ck_assert_uint_eq(p.hdr_len, 40);
	ck_assert_mem_eq(p.hdr, fr[0].b, 40);
	ck_assert_int_eq(s.next(s.state, &p), 1);
	ck_assert_uint_eq(p.mc_group, 0);
	s.free(s.state);
	unlink(path);
}
END_TEST

/* The destination MAC's class comes with each packet (a capture shorter
 * than a MAC: unicast, as it has no group), the batch interface gives
 * the sequence next() gives, and the model counts the classes so. */
START_TEST(test_cast_and_batch)
{
	struct frame fr[4];
	struct model_replay_conf c;
	struct model_source s, s2;
	struct model_pkt p, b[8];
	struct model_config cfg;
	struct model_if_counters ic;
	struct model_err me;
	struct model *m;
	char err[300];
	const char *path = tmp_path("cast"), *runt = tmp_path("runt");
	static const uint8_t want[2][4] = {
	    {MODEL_CAST_UNICAST, MODEL_CAST_MULTICAST, MODEL_CAST_BROADCAST, MODEL_CAST_UNICAST},
	    {MODEL_CAST_UNICAST, MODEL_CAST_UNICAST, MODEL_CAST_UNICAST, MODEL_CAST_UNICAST}};
	unsigned k, loop;

	for (k = 0; k < 4; k++)
		mk_ipv4(&fr[k], mac_a, -1, 0, ip_x, 0, 200, 100 * k);
	fr[1].b[0] = 0x01;	  /* group */
	memset(fr[2].b, 0xff, 6); /* broadcast */
	memset(fr[3].b, 0xff, 6); /* fe:ff:ff:ff:ff:ff: unicast */
	fr[3].b[0] = 0xfe;
	write_pcap(path, DLT_EN10MB, fr, 4, 400);
	write_pcap(runt, DLT_EN10MB, fr, 4, 4); /* 4 bytes captured */
	model_replay_defaults(&c);
	c.nports = 4;
	c.loops = 2;
	for (int r = 0; r < 2; r++) {
		c.file = r ? runt : path;
		c.mc_group = r ? 1 : 0;
		ck_assert_msg(model_replay_new(&c, &s, err, sizeof(err)) == 0, "%s", err);
		ck_assert_msg(model_replay_new(&c, &s2, err, sizeof(err)) == 0, "%s", err);
		ck_assert_ptr_nonnull(s.next_batch);
		ck_assert_uint_eq(s.ports, 4);
		ck_assert_uint_eq(s.groups, c.mc_group);
		/* 8 packets (two loops) in batches of up to 3 */
		for (loop = 0, k = 0; k < 8; k += loop) {
			loop = s2.next_batch(s2.state, b, 3);
			ck_assert_uint_eq(loop, k < 6 ? 3 : 2);
			for (unsigned i = 0; i < loop; i++) {
				ck_assert_int_eq(s.next(s.state, &p), 1);
				ck_assert_uint_eq(p.cast, want[r][(k + i) % 4]);
				ck_assert_uint_eq(b[i].cast, p.cast);
				ck_assert_uint_eq(b[i].t_ns, p.t_ns);
				ck_assert_uint_eq(b[i].flow_id, p.flow_id);
				ck_assert_uint_eq(b[i].in_port, p.in_port);
				ck_assert_uint_eq(b[i].out_port, p.out_port);
				ck_assert_uint_eq(b[i].hdr_len, p.hdr_len);
				ck_assert_mem_eq(b[i].hdr, p.hdr, p.hdr_len);
			}
		}
		ck_assert_int_eq(s.next(s.state, &p), 0);
		ck_assert_uint_eq(s2.next_batch(s2.state, b, 3), 0);
		s.free(s.state);
		/* through the model: in_ucast 4, in_mcast 2, in_bcast 2 over
		 * the ingress ports (the runt: 8 unicast) */
		ck_assert_int_eq(model_config_init(&cfg, 4, 10000000000ULL), 0);
		cfg.n_mc_groups = 1;
		cfg.mc_groups = calloc(1, sizeof(*cfg.mc_groups));
		ck_assert_ptr_nonnull(cfg.mc_groups);
		cfg.mc_groups[0].nports = 4;
		for (k = 0; k < 4; k++)
			cfg.mc_groups[0].ports[k] = (uint16_t)k;
		m = model_new(&cfg, &me);
		ck_assert_msg(m != NULL, "%s", me.msg);
		model_config_release(&cfg);
		ck_assert_msg(model_replay_new(&c, &s, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(model_add_source(m, &s), 0);
		ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
		{
			uint64_t uc = 0, mc = 0, bc = 0;

			for (k = 0; k < 4; k++) {
				ck_assert_int_eq(model_read_counters(m, k, &ic), 0);
				uc += ic.in_ucast;
				mc += ic.in_mcast;
				bc += ic.in_bcast;
			}
			ck_assert_uint_eq(uc, r ? 8 : 4);
			ck_assert_uint_eq(mc, r ? 0 : 2);
			ck_assert_uint_eq(bc, r ? 0 : 2);
		}
		model_free(m);
		s2.free(s2.state);
	}
	unlink(path);
	unlink(runt);
}
END_TEST

START_TEST(test_bad_files)
{
	struct model_replay_conf c;
	struct model_source s;
	struct frame fr[2];
	char err[400];
	const char *path = tmp_path("bad");
	FILE *f;

	model_replay_defaults(&c);
	c.nports = 4;

	/* missing */
	c.file = "/nonexistent/dir/capture.pcap";
	ck_assert_int_eq(model_replay_new(&c, &s, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/dir/capture.pcap"));

	/* not a capture */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("this is not a pcap file, just some text\n", f);
	fclose(f);
	c.file = path;
	ck_assert_int_eq(model_replay_new(&c, &s, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, path));

	/* no packets */
	write_pcap(path, DLT_EN10MB, fr, 0, 65535);
	ck_assert_int_eq(model_replay_new(&c, &s, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, path));
	ck_assert_ptr_nonnull(strstr(err, "no packets"));

	/* not Ethernet */
	mk_ipv4(&fr[0], mac_a, -1, 0, ip_x, 0, 100, 0);
	write_pcap(path, DLT_RAW, fr, 1, 65535);
	ck_assert_int_eq(model_replay_new(&c, &s, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, path));
	ck_assert_ptr_nonnull(strstr(err, "not Ethernet"));

	/* truncated in the middle of the second record */
	mk_ipv4(&fr[1], mac_b, -1, 0, ip_y, 0, 300, 10);
	write_pcap(path, DLT_EN10MB, fr, 2, 65535);
	ck_assert_int_eq(truncate(path, 24 + 16 + 100 + 16 + 50), 0);
	ck_assert_int_eq(model_replay_new(&c, &s, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, path));
	ck_assert_ptr_nonnull(strstr(err, "after 1 packets"));

	/* bad configuration */
	write_pcap(path, DLT_EN10MB, fr, 2, 65535);
	c.time_scale = 0;
	ck_assert_int_eq(model_replay_new(&c, &s, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "time scale"));
	unlink(path);
}
END_TEST

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *t = tcase_create("replay");

	tcase_add_test(t, test_fnv_vectors);
	tcase_add_test(t, test_rules);
	tcase_add_test(t, test_multicast_and_snaplen);
	tcase_add_test(t, test_bad_files);
	tcase_add_test(t, test_cast_and_batch);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(replay_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
