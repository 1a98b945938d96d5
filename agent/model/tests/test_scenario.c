/*
 * test_scenario.c - unit tests of the `model` config section
 * (agent/model/scenario.c): good files parse into the expected switch and
 * generators, each kind of bad value is reported with the file name, the
 * right line and the key, other top-level sections are skipped, the
 * compiled-in demo equals etc/scenarios/demo.conf, and every example in
 * etc/scenarios/ parses and builds a model.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/model/model.h"
#include "agent/model/scenario.h"

static const char *srcdir(void)
{
	const char *s = getenv("top_srcdir");

	return s && *s ? s : MODEL_TEST_SRCDIR;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static const char good[] =
    "# a full example\n"			    /* 1 */
    "sflow { collector x { address = 1 } }\n"	    /* 2 */
    "model {\n"					    /* 3 */
    "  seed = 9\n"				    /* 4 */
    "  ports = 16\n"				    /* 5 */
    "  speed = 25G\n"				    /* 6 */
    "  cell_size = 208\n"			    /* 7 */
    "  buffer = 4M\n"				    /* 8 */
    "  unicast_queues = 4\n"			    /* 9 */
    "  multicast_queues = 2\n"			    /* 10 */
    "  alpha = 0.5\n"				    /* 11 */
    "  scheduler = dwrr\n"			    /* 12 */
    "  weights = {1, 2, 3, 4}\n"		    /* 13 */
    "  lossless = {3}\n"			    /* 14 */
    "  headroom = 40K\n"			    /* 15 */
    "  xoff = 100K\n"				    /* 16 */
    "  xon = 50K\n"				    /* 17 */
    "  pfc_delay = 2us\n"			    /* 18 */
    "  sampling_rate = 512\n"			    /* 19 */
    "  duration = 150ms\n"			    /* 20 */
    "  port 2 { speed = 100G name = \"uplink\" }\n" /* 21 */
    "  wred { ports = {1-2} queues = {1} min = 10K max = 40K probability = 5% }\n"
    "  mc_group 1 { ports = {4, 5, 6} }\n" /* 23 */
    "  traffic burst {\n"		   /* 24 */
    "    ports = {8-11}\n"		   /* 25 */
    "    destination = incast\n"	   /* 26 */
    "    to = 2\n"			   /* 27 */
    "    rate = 100%\n"			   /* 28 */
    "    arrival = onoff\n"		   /* 29 */
    "    period = 1ms\n"		   /* 30 */
    "    duty = 10%\n"			   /* 31 */
    "    size = 64-1518\n"		   /* 32 */
    "    vlan = 10\n"			   /* 33 */
    "    pcp = 3\n"			   /* 34 */
    "  }\n"				   /* 35 */
    "  traffic perm { ports = {0-7} destination = permutation rate = 5G\n"
    "    ip = 6 protocol = tcp size = 200 dscp = 40 multicast = 1% mc_group = 1\n"
    "    drop = 2% drop_reason = 269 flows = 3 }\n" /* 38 */
    "}\n"
    "other_section { a = 1 }\n";

START_TEST(test_good)
{
	struct model_scenario sc;
	char err[512];
	unsigned i, seen[16] = {0};

	ck_assert_msg(model_scenario_parse_text(good, "good.conf", NULL, &sc, err, sizeof(err)) ==
			  0,
		      "%s", err);
	ck_assert_uint_eq(sc.cfg.nports, 16);
	ck_assert_uint_eq(sc.cfg.seed, 9);
	ck_assert_uint_eq(sc.cfg.cell_bytes, 208);
	ck_assert_uint_eq(sc.cfg.total_cells, 4 * 1048576 / 208);
	ck_assert_uint_eq(sc.cfg.ports[0].speed_bps, 25000000000ull);
	ck_assert_uint_eq(sc.cfg.ports[2].speed_bps, 100000000000ull);
	ck_assert_str_eq(sc.cfg.ports[2].name, "uplink");
	ck_assert_uint_eq(sc.cfg.ports[0].n_ucq, 4);
	ck_assert_uint_eq(sc.cfg.ports[0].n_mcq, 2);
	ck_assert_uint_eq(sc.cfg.ports[0].tc_to_ucq[7], 3);
	ck_assert_uint_eq(sc.cfg.ports[0].tc_to_ucq[1], 0);
	ck_assert_uint_eq(sc.cfg.ports[5].ucq[0].sched, MODEL_SCHED_DWRR);
	ck_assert_uint_eq(sc.cfg.ports[5].ucq[3].weight, 4);
	ck_assert(sc.cfg.ports[5].ucq[0].shared.alpha == 0.5);
	ck_assert_uint_eq(sc.cfg.ports[5].pg[3].lossless, 1);
	ck_assert_uint_eq(sc.cfg.ports[5].pg[3].headroom_cells, (40 * 1024 + 207) / 208);
	ck_assert_uint_eq(sc.cfg.ports[5].pg[2].lossless, 0);
	ck_assert_uint_eq(sc.cfg.ports[5].pfc_delay_ns, 2000);
	ck_assert_uint_eq(sc.cfg.ports[5].sampling_rate, 512);
	ck_assert_uint_eq(sc.cfg.ports[1].ucq[1].wred.enabled, 1);
	ck_assert_uint_eq(sc.cfg.ports[1].ucq[1].wred.min_bytes, 10240);
	ck_assert(sc.cfg.ports[1].ucq[1].wred.max_prob == 0.05);
	ck_assert_uint_eq(sc.cfg.ports[1].ucq[0].wred.enabled, 0);
	ck_assert_uint_eq(sc.cfg.ports[3].ucq[1].wred.enabled, 0);
	ck_assert_uint_eq(sc.cfg.n_mc_groups, 1);
	ck_assert_uint_eq(sc.cfg.mc_groups[0].nports, 3);
	ck_assert_uint_eq(sc.cfg.mc_groups[0].ports[2], 6);
	ck_assert_uint_eq(sc.duration_ns, 150000000);
	ck_assert_uint_eq(sc.ntraffic, 2);
	ck_assert_uint_eq(sc.ngen, 4 + 8);

	/* incast: the group 8..11 all send to port 2, bursts in phase */
	for (i = 0; i < 4; i++) {
		const struct model_gen_conf *g = &sc.gen[i];

		ck_assert_uint_eq(g->in_port, 8 + i);
		ck_assert_uint_eq(g->dest, MODEL_DEST_INCAST);
		ck_assert_uint_eq(g->dest_port, 2);
		ck_assert(g->rate_bps == 25e9);
		ck_assert_uint_eq(g->arrival, MODEL_ARRIVAL_ONOFF);
		ck_assert_uint_eq(g->period_ns, 1000000);
		ck_assert(g->duty == 0.1);
		ck_assert_uint_eq(g->phase_ns, sc.gen[0].phase_ns);
		ck_assert_uint_eq(g->size, MODEL_SIZE_UNIFORM);
		ck_assert_int_eq(g->vlan, 10);
		ck_assert_uint_eq(g->pcp, 3);
	}
	/* permutation over ports 0..7: a derangement of the group */
	for (i = 4; i < 12; i++) {
		const struct model_gen_conf *g = &sc.gen[i];

		ck_assert_uint_eq(g->in_port, i - 4);
		ck_assert_uint_lt(g->dest_port, 8);
		ck_assert_uint_ne(g->dest_port, g->in_port);
		ck_assert_uint_eq(seen[g->dest_port]++, 0);
		ck_assert(g->rate_bps == 5e9);
		ck_assert_uint_eq(g->ip_version, 6);
		ck_assert_uint_eq(g->l4, 6);
		ck_assert_uint_eq(g->dscp, 40);
		ck_assert_uint_eq(g->mc_group, 1);
		ck_assert(g->mc_fraction == 0.01);
		ck_assert_uint_eq(g->drop_reason, 269);
		ck_assert_uint_eq(g->nflows, 3);
		/* flow ids of generators do not overlap */
		ck_assert_uint_ge(g->flow_base,
				  sc.gen[i - 1].flow_base + model_gen_flow_ids(&sc.gen[i - 1]));
	}

	/* the model builds and its sources run: incast packets hit port 2 */
	{
		struct model *m = model_scenario_build(&sc, err, sizeof(err));

		ck_assert_msg(m != NULL, "%s", err);
		model_run(m, 2000000);
		model_free(m);
	}
	for (i = 0; i < 4; i++) {
		struct model_source s;
		struct model_pkt p;

		ck_assert_int_eq(model_gen_new(&sc.gen[i], &s, err, sizeof(err)), 0);
		for (unsigned k = 0; k < 1000; k++) {
			ck_assert_int_eq(s.next(s.state, &p), 1);
			ck_assert_uint_eq(p.out_port, 2);
			ck_assert_uint_eq(p.in_port, 8 + i);
			ck_assert_uint_eq(p.tc, 3);
			ck_assert_uint_lt(p.t_ns % 1000000, 100001);
		}
		s.free(s.state);
	}
	model_scenario_free(&sc);

	/* --seed replaces the file's seed */
	{
		struct model_scenario_opts o = {1, 77};

		ck_assert_int_eq(
		    model_scenario_parse_text(good, "good.conf", &o, &sc, err, sizeof(err)), 0);
		ck_assert_uint_eq(sc.cfg.seed, 77);
		model_scenario_free(&sc);
	}
}
END_TEST

/* Port sections over ranges, applied in order: port 4-6 then port 5. */
START_TEST(test_port_ranges)
{
	static const char text[] = "model {\n"
				   "  ports = 8\n"
				   "  speed = 10G\n"
				   "  port 4-6 { speed = 100G sampling_rate = 64 }\n"
				   "  port 5 { speed = 25G }\n"
				   "}\n";
	static const uint64_t want[8] = {10, 10, 10, 10, 100, 25, 100, 10};
	struct model_scenario sc;
	char err[512];

	ck_assert_msg(model_scenario_parse_text(text, "r.conf", NULL, &sc, err, sizeof(err)) == 0,
		      "%s", err);
	for (unsigned i = 0; i < 8; i++) {
		ck_assert_uint_eq(sc.cfg.ports[i].speed_bps, want[i] * 1000000000ULL);
		ck_assert_uint_eq(sc.cfg.ports[i].sampling_rate, i >= 4 && i <= 6 ? 64 : 0);
	}
	model_scenario_free(&sc);
}
END_TEST

/* A destination set (ECMP): to = {4-6} on a fixed and an incast
 * section; a single port stays one (there with exponential sizes). */
START_TEST(test_to_set)
{
	static const char text[] =
	    "model {\n"
	    "  ports = 8\n"
	    "  traffic a { ports = {0-1}  destination = fixed  to = {4-6} }\n"
	    "  traffic b { ports = {2}  destination = incast  to = {7, 3} }\n"
	    "  traffic c { ports = {3}  destination = fixed  to = 5\n"
	    "              size = exponential  size_mean = 1000 }\n"
	    "}\n";
	struct model_scenario sc;
	char err[512];

	ck_assert_msg(model_scenario_parse_text(text, "t.conf", NULL, &sc, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_uint_eq(sc.ngen, 4);
	for (unsigned i = 0; i < 2; i++) {
		ck_assert_uint_eq(sc.gen[i].n_to, 3);
		ck_assert_uint_eq(sc.gen[i].dest_port, 4);
		ck_assert(sc.gen[i].to[0] == 4 && sc.gen[i].to[1] == 5 && sc.gen[i].to[2] == 6);
	}
	ck_assert(sc.gen[2].n_to == 2 && sc.gen[2].to[0] == 7 && sc.gen[2].to[1] == 3);
	ck_assert(sc.gen[3].n_to == 0 && sc.gen[3].dest_port == 5);
	ck_assert(sc.gen[3].size == MODEL_SIZE_EXP && sc.gen[3].size_mean == 1000);
	struct model *m = model_scenario_build(&sc, err, sizeof(err));
	ck_assert_msg(m != NULL, "%s", err);
	model_free(m);
	model_scenario_free(&sc);
}
END_TEST

/* A bad value on line `line` of a small file; the error must name the
 * file, the line and the key. */
static const struct bad {
	const char *body; /* the model section's inside; line 2 onwards */
	int line;
	const char *key;
} bads[] = {
    {"ports = 0\n", 2, "ports"},
    /* a port section's number: FILE:LINE too, the
     * line of its first key */
    {"ports = 4\nport 9 {\n speed = 1G\n}\n", 4,
     "port \"9\": not a port number or range; allowed: 0..3"},
    {"ports = 4\nport 2-1 {\n speed = 1G\n}\n", 4, "port \"2-1\": not a port number or range"},
    {"ports = 4\nport 1-4 {\n speed = 1G\n}\n", 4, "port \"1-4\": not a port number or range"},
    {"ports = 4\nport 1-2 {\n name = \"up\"\n}\n", 4, "name"},
    /* queue, mc_queue and pg sections, per-port keys (scenario_qos.c) */
    {"port 2 {\n queue 9 {\n  alpha = 1\n }\n}\n", 4, "port \"2\": queue \"9\": not a queue"},
    {"pg 2 {\n headroom = 10K\n}\n", 3, "pg \"2\": headroom, xoff or xon"},
    {"pg 3 {\n lossless = yes\n xoff = 4K\n xon = 8K\n}\n", 5, "xon"},
    {"mc_queue 0 {\n min = 1K\n}\n", 3, "mc_queue \"0\""},
    {"queue 0 {\n alpha = 1\n limit = 10K\n}\n", 4, "limit"},
    {"queue 0 {\n weight = 0\n}\n", 3, "weight"},
    {"pg 1 {\n lossless = maybe\n}\n", 3, "lossless"},
    {"port 1 {\n weights = {1,1,1,1,1,1,1,1,1}\n}\n", 3, "weights"},
    {"port 1 {\n scheduler = wfq\n}\n", 3, "scheduler"},
    {"dwrr_count = bytes\n", 2, "dwrr_count"},
    {"wred {\n min = 1K\n max = 2K\n gain = 16\n}\n", 5, "gain"},
    {"wred {\n min = 1K\n max = 2K\n ecn = maybe\n}\n", 5, "ecn"},
    {"traffic t {\n ports = {1}\n ecn = ect2\n}\n", 4, "ecn"},
    {"dwrr_quantum = 32\n", 2, "dwrr_quantum"},
    {"port 1 {\n xoff = 4K\n xon = 8K\n}\n", 4, "xon"},
    {"xoff = 4K\nport 1 {\n xon = 8K\n}\n", 4, "xon"},
    /* minimums and headroom that leave no shared buffer: the buffer key's
     * line, or without it the model section's (its first value's) */
    {"queue 0 {\n min = 1G\n}\n", 3, "buffer"},
    {"pg 0 {\n min = 1G\n}\n", 3, "buffer"},
    {"port 1 {\n queue_min = 1G\n}\n", 3, "buffer"},
    {"buffer = 1M\nport 1-7 {\n lossless = {3}\n headroom = 512K\n}\n", 2, "buffer"},
    {"ports = 5000\n", 2, "ports"},
    {"ports = eight\n", 2, "ports"},
    {"\nspeed = 500M\n", 3, "speed"},
    {"speed = 1T\n", 2, "speed"},
    {"speed = fast\n", 2, "speed"},
    {"unicast_queues = 0\n", 2, "unicast_queues"},
    {"unicast_queues = 9\n", 2, "unicast_queues"},
    {"multicast_queues = 9\n", 2, "multicast_queues"},
    {"cell_size = 10\n", 2, "cell_size"},
    {"alpha = 0\n", 2, "alpha"},
    {"alpha = -1\n", 2, "alpha"},
    {"buffer = 10X\n", 2, "buffer"},
    {"buffer = 100\n", 2, "buffer"},
    {"buffer = 20K\n", 2, "buffer"},
    {"buffer = 64G\n", 2, "buffer"},
    {"cell_size = 64\n\nbuffer = 32G\n", 4, "buffer"},
    {"weights = {1, 0}\n", 2, "weights"},
    {"scheduler = wfq\n", 2, "scheduler"},
    {"lossless = {8}\n", 2, "lossless"},
    {"xoff = 10K\nxon = 20K\n", 3, "xon"},
    {"pfc_delay = \"3 parsecs\"\n", 2, "pfc_delay"},
    {"duration = -1s\n", 2, "duration"},
    {"wred {\n queues = {1}\n min = 40K\n max = 10K\n}\n", 5, "max"},
    {"wred {\n queues = {9}\n min = 1K\n max = 10K\n}\n", 3, "queues"},
    {"wred {\n min = 1K\n max = 10K\n probability = 150%\n}\n", 5, "probability"},
    {"mc_group 1 {\n ports = {1, 99}\n}\n", 3, "ports"},
    {"traffic t {\n ports = {1}\n rate = 150%\n}\n", 4, "rate"},
    {"traffic t {\n ports = {1}\n\n rate = 20G\n}\n", 5, "rate"},
    {"traffic t {\n ports = {1}\n rate = lots\n}\n", 4, "rate"},
    {"traffic t {\n ports = {9}\n}\n", 3, "ports"},
    {"traffic t {\n ports = {1-2, 2}\n}\n", 3, "ports"},
    {"traffic t {\n ports = {1}\n size = 10\n}\n", 4, "size"},
    {"traffic t {\n ports = {1}\n size = 2000-100\n}\n", 4, "size"},
    {"traffic t {\n ports = {1}\n size = 1500\n size_mean = 800\n}\n", 5, "size_mean"},
    {"traffic t {\n ports = {1}\n size = exponential\n}\n", 4, "size_mean"},
    {"traffic t {\n ports = {1}\n size = exponential\n size_mean = 64\n}\n", 5, "size_mean"},
    {"traffic t {\n ports = {1}\n arrival = bursty\n}\n", 4, "arrival"},
    {"traffic t {\n ports = {1}\n arrival = onoff\n period = 1ms\n duty = 2\n}\n", 6, "duty"},
    {"traffic t {\n ports = {1}\n arrival = onoff\n duty = 0.5\n}\n", 4, "period"},
    {"traffic t {\n ports = {1}\n destination = fixed\n to = 8\n}\n", 5, "to"},
    {"traffic t {\n ports = {1}\n destination = incast\n to = 1\n}\n", 5, "to"},
    {"traffic t {\n ports = {1}\n destination = everywhere\n}\n", 4, "destination"},
    {"traffic t {\n ports = {1}\n destination = fixed\n}\n", 4, "to"},
    {"traffic t {\n ports = {1}\n destination = hotspot\n to = {2-3}\n}\n", 5, "to"},
    {"traffic t {\n ports = {1}\n destination = incast\n to = {2, 1}\n}\n", 5, "to"},
    {"traffic t {\n ports = {1}\n destination = fixed\n to = {2, 2}\n}\n", 5, "to"},
    {"traffic t {\n ports = {1}\n mc_group = 1\n}\n", 4, "mc_group"},
    {"traffic t {\n ports = {1}\n drop = 1%\n drop_reason = lost\n}\n", 5, "drop_reason"},
    {"traffic t {\n ports = {1}\n vlan = 5000\n}\n", 4, "vlan"},
    {"traffic t {\n ports = {1}\n pcp = 3\n}\n", 4, "pcp"},
    {"traffic t {\n ports = {1}\n dscp = 64\n}\n", 4, "dscp"},
    {"traffic t {\n ports = {1}\n ip = 5\n}\n", 4, "ip"},
    {"traffic t {\n ports = {1}\n flows = 0\n}\n", 4, "flows"},
    {"traffic t {\n ports = {1}\n start = 2s\n stop = 1s\n}\n", 5, "stop"},
    {"replay r {\n file = \"x.pcap\"\n vlan_ports = {\"100-3\"}\n}\n", 4, "vlan_ports"},
    {"replay r {\n file = \"x.pcap\"\n egress_map = {\"10.0.0.0/33=1\"}\n}\n", 4, "egress_map"},
    {"replay r {\n file = \"x.pcap\"\n time_scale = 0\n}\n", 4, "time_scale"},
    {"replay r {\n file = \"x.pcap\"\n ingress_ports = {0-8}\n}\n", 4, "ingress_ports"},
};

START_TEST(test_bad_values)
{
	const struct bad *b = &bads[_i];
	struct model_scenario sc;
	char text[1024], err[512], want[64];

	/* line 1: "model {", then the body; 8 ports by default */
	snprintf(text, sizeof(text), "model {\n%s}\n", b->body);
	ck_assert_int_eq(model_scenario_parse_text(text, "bad.conf", NULL, &sc, err, sizeof(err)),
			 -1);
	snprintf(want, sizeof(want), "bad.conf:%d: ", b->line);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "case %d: want '%s...', got '%s'", _i,
		      want, err);
	ck_assert_msg(strstr(err, b->key) != NULL, "case %d: key %s not in '%s'", _i, b->key, err);
	model_scenario_free(&sc);
}
END_TEST

/* The model's counters (model_buffer_fits): cells + 65536 must stay
 * below 2^(64 - bit length of cells x cell_bytes). */
START_TEST(test_buffer_limit)
{
	struct model_scenario sc;
	char err[512];

	/* 16 GiB = 2^34 bytes (bit length 35): fewer than 2^29 - 65536 cells */
	ck_assert_int_eq(model_buffer_fits(1u << 28, 64), 1);
	ck_assert_int_eq(model_buffer_fits(1u << 29, 32), 0);
	ck_assert_int_eq(model_buffer_fits(1u << 26, 256), 1);
	/* 64 GiB = 2^36 (bit length 37): fewer than 2^27 - 65536 cells */
	ck_assert_int_eq(model_buffer_fits(1u << 28, 256), 0);
	ck_assert_int_eq(model_buffer_fits(1u << 26, 1024), 1);
	/* just below 64 GiB (bit length 36): fewer than 2^28 - 65536 cells */
	ck_assert_int_eq(model_buffer_fits((1u << 28) - 1, 256), 0);
	ck_assert_int_eq(model_buffer_fits((1u << 28) - 65536, 256), 0);
	ck_assert_int_eq(model_buffer_fits((1u << 28) - 65537, 256), 1);
	/* a scenario of 64G with 1 KiB cells is read */
	ck_assert_int_eq(model_scenario_parse_text("model {\ncell_size = 1024\nbuffer = 64G\n}\n",
						   "big.conf", NULL, &sc, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(sc.cfg.total_cells, 1u << 26);
	model_scenario_free(&sc);
}
END_TEST

START_TEST(test_syntax_and_files)
{
	struct model_scenario sc;
	char err[512];

	/* unknown key: libconfuse reports it; we fail */
	ck_assert_int_eq(model_scenario_parse_text("model {\n  colour = blue\n}\n", "x.conf", NULL,
						   &sc, err, sizeof(err)),
			 -1);
	ck_assert_str_eq(err, "x.conf:2: model: colour: unknown key; allowed: the keys of "
			      "bsflowd.conf(5)");
	model_scenario_free(&sc);
	/* no model section */
	ck_assert_int_eq(
	    model_scenario_parse_text("sflow { a = 1 }\n", "y.conf", NULL, &sc, err, sizeof(err)),
	    -1);
	ck_assert_ptr_nonnull(strstr(err, "no model section"));
	model_scenario_free(&sc);
	/* missing file */
	ck_assert_int_eq(
	    model_scenario_parse_file("/nonexistent/z.conf", NULL, &sc, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/z.conf"));
	model_scenario_free(&sc);
	/* other sections, with braces in strings and comments, are skipped and
	 * line numbers still count them */
	ck_assert_int_eq(model_scenario_parse_text("a { b = \"}\" /* } */ c { d = 1 } }\n"
						   "# model {\n"
						   "model_x { e = \"{\" }\n"
						   "model {\n"
						   "  ports = 4\n"
						   "  speed = 7\n"
						   "}\n"
						   "z { model { ports = 1 } }\n",
						   "s.conf", NULL, &sc, err, sizeof(err)),
			 -1);
	ck_assert_msg(strncmp(err, "s.conf:6: model: speed = 7: ", 28) == 0, "%s", err);
	model_scenario_free(&sc);
	/* a replay file name is relative to the config file's directory */
	{
		FILE *f = fopen("test_scenario_tmp.conf", "w");

		ck_assert_ptr_nonnull(f);
		fputs("model { replay r { file = \"cap.pcap\" } }\n", f);
		fclose(f);
		ck_assert_int_eq(model_scenario_parse_file("./test_scenario_tmp.conf", NULL, &sc,
							   err, sizeof(err)),
				 0);
		ck_assert_str_eq(sc.replay[0].rc.file, "./cap.pcap");
		/* opening the missing capture fails with the config line */
		{
			struct model *m = model_scenario_build(&sc, err, sizeof(err));

			ck_assert_ptr_null(m);
			ck_assert_ptr_nonnull(strstr(err, "./test_scenario_tmp.conf:1:"));
			ck_assert_ptr_nonnull(strstr(err, "cap.pcap"));
		}
		model_scenario_free(&sc);
		remove("test_scenario_tmp.conf");
	}
}
END_TEST

START_TEST(test_demo_matches_file)
{
	char path[1024];
	char *text;

	snprintf(path, sizeof(path), "%s/etc/scenarios/demo.conf", srcdir());
	text = read_file(path);
	ck_assert_msg(strcmp(text, model_demo_scenario) == 0,
		      "etc/scenarios/demo.conf and model_demo_scenario (scenario.c) differ");
	free(text);
}
END_TEST

START_TEST(test_examples_parse)
{
	char dir[1024], path[1300], err[512];
	struct dirent *e;
	unsigned n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/etc/scenarios", srcdir());
	d = opendir(dir);
	ck_assert_msg(d != NULL, "cannot open %s", dir);
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);
		struct model_scenario sc;
		struct model_err me;
		struct model *m;

		if (l < 6 || strcmp(e->d_name + l - 5, ".conf") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		ck_assert_msg(model_scenario_parse_file(path, NULL, &sc, err, sizeof(err)) == 0,
			      "%s", err);
		m = model_new(&sc.cfg, &me);
		ck_assert_msg(m != NULL, "%s: %s", path, me.msg);
		if (sc.nreplay == 0) {
			/* generators only: add them and run a little */
			ck_assert_msg(model_scenario_add_sources(&sc, m, err, sizeof(err)) == 0,
				      "%s: %s", path, err);
			model_run(m, 100000);
		}
		model_free(m);
		model_scenario_free(&sc);
		n++;
	}
	closedir(d);
	ck_assert_uint_ge(n, 4);
	/* the built-in demo too */
	{
		struct model_scenario sc;

		ck_assert_int_eq(model_scenario_parse_text(model_demo_scenario, "demo", NULL, &sc,
							   err, sizeof(err)),
				 0);
		ck_assert_uint_eq(sc.cfg.nports, 8);
		model_scenario_free(&sc);
	}
}
END_TEST

static Suite *scenario_suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *t = tcase_create("scenario");

	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_good);
	tcase_add_test(t, test_port_ranges);
	tcase_add_test(t, test_to_set);
	tcase_add_loop_test(t, test_bad_values, 0, (int)(sizeof(bads) / sizeof(bads[0])));
	tcase_add_test(t, test_buffer_limit);
	tcase_add_test(t, test_syntax_and_files);
	tcase_add_test(t, test_demo_matches_file);
	tcase_add_test(t, test_examples_parse);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(scenario_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
