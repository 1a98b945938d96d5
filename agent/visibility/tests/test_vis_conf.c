/*
 * test_vis_conf.c - the `visibility` config section parsed from text with
 * cfg_parse_buf: every key, the defaults, each kind of bad value with its
 * exact "FILE:LINE: ..." message, sampler references (unknown member,
 * cycle, rate manager rules), and a pipeline built from a config and
 * driven with packet events (drops rate limited by a ticket sampler,
 * forensics, delay levels, congestion asking for a port sample).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <string.h>

#include "agent/backend.h"
#include "agent/confval.h"
#include "agent/visibility/vis_backend.h"
#include "agent/visibility/vis_conf.h"
#include "agent/visibility/vis_pipeline.h"

static char err[512];

static const char full[] = "visibility {\n"				      /* 1 */
			   "  seed = 7\n"				      /* 2 */
			   "  drops = yes\n"				      /* 3 */
			   "  drop_reasons = {259, 260}\n"		      /* 4 */
			   "  forensics = true\n"			      /* 5 */
			   "  forensics_scope = port\n"			      /* 6 */
			   "  forensics_ports = {1}\n"			      /* 7 */
			   "  eligible {\n"				      /* 8 */
			   "    traffic_classes = {3, 4}\n"		      /* 9 */
			   "    events = {drop, delay}\n"		      /* 10 */
			   "  }\n"					      /* 11 */
			   "  delay_profile \"default\" {\n"		      /* 12 */
			   "    thresholds = {200ns, 300ns, -1}\n"	      /* 13 */
			   "    tags = {10, 20, 30}\n"			      /* 14 */
			   "    severities = {1, 2, 3}\n"		      /* 15 */
			   "    queues = {0, 1}\n"			      /* 16 */
			   "  }\n"					      /* 17 */
			   "  congestion \"q\" {\n"			      /* 18 */
			   "    high = 100000\n"			      /* 19 */
			   "    low = 20000\n"				      /* 20 */
			   "  }\n"					      /* 21 */
			   "  congestion \"p\" {\n"			      /* 22 */
			   "    scope = port\n"				      /* 23 */
			   "    ports = {0, 2-4}\n"			      /* 24 */
			   "    high = 300K\n"				      /* 25 */
			   "  }\n"					      /* 26 */
			   "  sampler \"port0\" {\n"			      /* 27 */
			   "    ports = {0}\n"				      /* 28 */
			   "    tickets = 256\n"			      /* 29 */
			   "    period = 1s\n"				      /* 30 */
			   "  }\n"					      /* 31 */
			   "  sampler \"port1\" {\n"			      /* 32 */
			   "    ports = {1}\n"				      /* 33 */
			   "    tickets = 256\n"			      /* 34 */
			   "    cap = 300\n"				      /* 35 */
			   "    floor = -10\n"				      /* 36 */
			   "    batch_jitter = 3\n"			      /* 37 */
			   "    flow_filter = true\n"			      /* 38 */
			   "    flow_hashes = 2\n"			      /* 39 */
			   "    flow_bits = 1024\n"			      /* 40 */
			   "    flow_reset = 500ms\n"			      /* 41 */
			   "    flow_reset_on = {delay_end, forensics_end}\n" /* 42 */
			   "  }\n"					      /* 43 */
			   "  sampler \"agg\" {\n"			      /* 44 */
			   "    type = aggregate\n"			      /* 45 */
			   "    members = {\"port0\", \"port1\"}\n"	      /* 46 */
			   "    tickets = 512\n"			      /* 47 */
			   "    dedup = true\n"				      /* 48 */
			   "    dedup_window = 10us\n"			      /* 49 */
			   "    rate_manager = true\n"			      /* 50 */
			   "    rate_levels = {64, 128, 256, 384, 512}\n"     /* 51 */
			   "    rate_policy = step\n"			      /* 52 */
			   "  }\n"					      /* 53 */
			   "  sampler \"p55\" {\n"			      /* 54 */
			   "    probability = 55%\n"			      /* 55 */
			   "    limit = 1\n"				      /* 56 */
			   "    after = 2\n"				      /* 57 */
			   "    limit_period = 2s\n"			      /* 58 */
			   "    limit_key = flow\n"			      /* 59 */
			   "    protocol = 17\n"			      /* 60 */
			   "    dst_ports = {4791}\n"			      /* 61 */
			   "  }\n"					      /* 62 */
			   "  sampler \"k5\" {\n"			      /* 63 */
			   "    first = 5\n"				      /* 64 */
			   "    of = 100\n"				      /* 65 */
			   "  }\n"					      /* 66 */
			   "  sampler \"chain\" {\n"			      /* 67 */
			   "    type = all\n"				      /* 68 */
			   "    members = {p55, k5}\n"			      /* 69 */
			   "  }\n"					      /* 70 */
			   "  sample_drops = agg\n"			      /* 71 */
			   "  sample_delay = chain\n"			      /* 72 */
			   "}\n";

START_TEST(full_config)
{
	struct vis_config vc;
	const struct vis_sampler_conf *c;

	ck_assert_msg(vis_conf_parse_text(full, "t.conf", &vc, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(vc.enabled, 1);
	ck_assert_uint_eq(vc.seed, 7);
	ck_assert_int_eq(vc.drops, 1);
	ck_assert_uint_eq(vc.drop_reasons.n, 2);
	ck_assert_uint_eq(vis_set_nth(&vc.drop_reasons, 1), 260);
	ck_assert_int_eq(vc.forensics, 1);
	ck_assert_int_eq(vc.forensics_port_scope, 1);
	ck_assert_uint_eq(vc.forensics_ports.n, 1);
	ck_assert_int_eq(vc.has_eligibility, 1);
	ck_assert_uint_eq(vc.eligibility.tcs.n, 2);
	ck_assert_uint_eq(vc.eligibility.events, (1u << VIS_EV_DROP) | (1u << VIS_EV_HIGH_DELAY));
	ck_assert_uint_eq(vc.n_delay, 1);
	ck_assert_uint_eq(vc.delay[0].profile.n, 3);
	ck_assert_int_eq(vc.delay[0].profile.lv[0].threshold_ns, 200);
	ck_assert_int_eq(vc.delay[0].profile.lv[1].threshold_ns, 300);
	ck_assert_int_eq(vc.delay[0].profile.lv[2].threshold_ns, -1);
	ck_assert_uint_eq(vc.delay[0].profile.lv[1].tag, 20);
	ck_assert_uint_eq(vc.delay[0].profile.lv[2].severity, 3);
	ck_assert_uint_eq(vc.delay[0].queues.n, 2);
	ck_assert_uint_eq(vc.n_congestion, 2);
	ck_assert_int_eq(vc.congestion[0].port_scope, 0);
	ck_assert_uint_eq(vc.congestion[0].high, 100000);
	ck_assert_uint_eq(vc.congestion[0].low, 20000);
	ck_assert_int_eq(vc.congestion[1].port_scope, 1);
	ck_assert_uint_eq(vc.congestion[1].ports.n, 4);
	ck_assert_uint_eq(vis_set_nth(&vc.congestion[1].ports, 3), 4);
	ck_assert_uint_eq(vc.congestion[1].high, 300 * 1024);
	ck_assert_uint_eq(vc.congestion[1].low, 150 * 1024); /* default: high / 2 */
	ck_assert_uint_eq(vc.n_samplers, 6);
	c = &vc.samplers[1].c;
	ck_assert_str_eq(c->name, "port1");
	ck_assert_uint_eq(c->tickets, 256);
	ck_assert_uint_eq(c->cap, 300);
	ck_assert_int_eq(c->floor, -10);
	ck_assert_uint_eq(c->batch_jitter, 3);
	ck_assert_uint_eq(c->period_ns, 1000000000ULL);
	ck_assert_int_eq(c->flow_filter, 1);
	ck_assert_uint_eq(c->flow_hashes, 2);
	ck_assert_uint_eq(c->flow_bits, 1024);
	ck_assert_uint_eq(c->flow_reset_ns, 500000000ULL);
	ck_assert_int_eq(c->flow_reset_on_delay_end, 1);
	ck_assert_int_eq(c->flow_reset_on_forensics_end, 1);
	c = &vc.samplers[2].c;
	ck_assert_uint_eq(c->kind, VIS_NODE_AGGREGATE);
	ck_assert_uint_eq(vc.samplers[2].n_members, 2);
	ck_assert_str_eq(vc.samplers[2].members[1], "port1");
	ck_assert_int_eq(c->dedup, 1);
	ck_assert_uint_eq(c->dedup_window_ns, 10000);
	ck_assert_int_eq(c->rate_manager, 1);
	ck_assert_uint_eq(c->n_rate_levels, 5);
	ck_assert_uint_eq(c->rate_levels[4], 512);
	ck_assert_uint_eq(c->rate_policy, VIS_RATE_STEP);
	c = &vc.samplers[3].c;
	ck_assert(c->probability > 0.5499 && c->probability < 0.5501);
	ck_assert_uint_eq(c->limit, 1);
	ck_assert_uint_eq(c->after, 2);
	ck_assert_uint_eq(c->limit_period_ns, 2000000000ULL);
	ck_assert_int_eq(c->limit_by_flow, 1);
	ck_assert_int_eq(c->match.proto, 17);
	ck_assert_uint_eq(vis_set_nth(&c->match.dports, 0), 4791);
	ck_assert_uint_eq(vc.samplers[4].c.first, 5);
	ck_assert_uint_eq(vc.samplers[4].c.of, 100);
	ck_assert_uint_eq(vc.samplers[5].c.kind, VIS_NODE_CHAIN_ALL);
	ck_assert_str_eq(vc.route[VIS_EV_DROP], "agg");
	ck_assert_str_eq(vc.route[VIS_EV_HIGH_DELAY], "chain");
	ck_assert_str_eq(vc.route[VIS_EV_FORENSICS], "");
	/* different samplers get different seeds */
	ck_assert_uint_ne(vc.samplers[0].c.seed, vc.samplers[1].c.seed);
	vis_config_release(&vc);
}
END_TEST

START_TEST(defaults)
{
	struct vis_config vc;

	ck_assert_int_eq(vis_conf_parse_text("", "t.conf", &vc, err, sizeof err), 0);
	ck_assert_int_eq(vc.enabled, 0);
	vis_config_release(&vc);
	ck_assert_int_eq(vis_conf_parse_text("visibility {\n}\n", "t.conf", &vc, err, sizeof err),
			 0);
	ck_assert_int_eq(vc.enabled, 0);
	vis_config_release(&vc);
	ck_assert_int_eq(vis_conf_parse_text("visibility {\n enable = false\n}\n", "t.conf", &vc,
					     err, sizeof err),
			 0);
	ck_assert_int_eq(vc.enabled, 0);
	vis_config_release(&vc);
	ck_assert_int_eq(vis_conf_parse_text("visibility {\n forensics = on\n}\n", "t.conf", &vc,
					     err, sizeof err),
			 0);
	ck_assert_int_eq(vc.enabled, 1);
	ck_assert_int_eq(vc.drops, 1);
	ck_assert_int_eq(vc.forensics, 1);
	ck_assert_int_eq(vc.has_eligibility, 0);
	ck_assert_uint_eq(vc.n_samplers, 0);
	vis_config_release(&vc);
}
END_TEST

static void bad(const char *text, const char *want)
{
	struct vis_config vc;

	err[0] = 0;
	ck_assert_int_eq(vis_conf_parse_text(text, "t.conf", &vc, err, sizeof err), -1);
	ck_assert_str_eq(err, want);
	vis_config_release(&vc);
}

START_TEST(errors)
{
	bad("visibility {\n sampler x {\n  probability = 1.5\n }\n}\n",
	    "t.conf:3: visibility: sampler \"x\": probability = 1.5: out of range; allowed: 0..1 "
	    "or a percentage 0%..100%");
	bad("visibility {\n sampler x {\n  every = 0\n }\n}\n",
	    "t.conf:3: visibility: sampler \"x\": every = 0: out of range; allowed: 1..4294967295");
	bad("visibility {\n sampler x {\n  first = 5\n }\n}\n",
	    "t.conf:3: visibility: sampler \"x\": first = 5: first and of go together");
	bad("visibility {\n sampler x {\n  first = 6\n  of = 5\n }\n}\n",
	    "t.conf:3: visibility: sampler \"x\": first = 6: more than of; allowed: 1..5 (of)");
	bad("visibility {\n sampler x {\n  tickets = 10\n  period = \"3 days\"\n }\n}\n",
	    "t.conf:4: visibility: sampler \"x\": period = \"3 days\": not a time; allowed: 1ms "
	    "and up, a number with ns, us, ms or s (a bare number is seconds)");
	bad("visibility {\n sampler x {\n  period = 1s\n }\n}\n",
	    "t.conf:3: visibility: sampler \"x\": period = 1s: needs tickets");
	bad("visibility {\n sampler x {\n  tickets = 10\n  cap = 5\n }\n}\n",
	    "t.conf:4: visibility: sampler \"x\": cap = 5: below tickets; allowed: 10 (tickets) "
	    "and up");
	bad("visibility {\n sampler x {\n  flow_bits = 1000\n }\n}\n",
	    "t.conf:3: visibility: sampler \"x\": flow_bits = 1000: not a power of two; allowed: "
	    "64, 128, .. 16777216");
	bad("visibility {\n sampler x {\n  type = chain\n }\n}\n",
	    "t.conf:3: visibility: sampler \"x\": type = chain: unknown word; allowed: sampler, "
	    "all, any, aggregate");
	bad("visibility {\n sampler x {\n  type = all\n }\n}\n",
	    "t.conf:3: visibility: sampler \"x\": members: missing (type = all)");
	bad("visibility {\n sampler x {\n  type = all\n  members = {y}\n }\n}\n",
	    "t.conf:4: visibility: sampler \"x\": members = y: no sampler named \"y\"");
	bad("visibility {\n sampler x {\n  type = all\n  members = {y}\n }\n"
	    " sampler y {\n  type = any\n  members = {x}\n }\n}\n",
	    "t.conf:3: visibility: sampler \"x\": members: is its own member (a cycle)");
	bad("visibility {\n sampler x {\n  tickets = 5\n  rate_manager = yes\n }\n}\n",
	    "t.conf:4: visibility: sampler \"x\": rate_manager = yes: needs type = aggregate and "
	    "tickets");
	bad("visibility {\n sampler c {\n  tickets = 5\n  period = 2s\n }\n"
	    " sampler a {\n  type = aggregate\n  members = {c}\n  tickets = 10\n"
	    "  rate_manager = yes\n }\n}\n",
	    "t.conf:8: visibility: sampler \"a\": members = c: \"c\" needs tickets and the "
	    "aggregate's period for the rate manager");
	bad("visibility {\n sampler x {\n  probability = 0.5\n  every = 3\n }\n}\n",
	    "t.conf:4: visibility: sampler \"x\": probability, every and first/of exclude each "
	    "other");
	bad("visibility {\n sampler x {\n  events = {drops}\n }\n}\n",
	    "t.conf:3: visibility: sampler \"x\": events = drops: unknown word; allowed: drop, "
	    "delay, forensics, congestion");
	bad("visibility {\n sample_drops = nope\n}\n",
	    "t.conf:2: visibility: sample_drops = nope: no sampler named \"nope\"");
	bad("visibility {\n delay_profile d {\n  thresholds = {1us, 2us, 3us, 4us, 5us}\n }\n}\n",
	    "t.conf:3: visibility: delay_profile \"d\": thresholds = 5us: too many levels; "
	    "allowed: 1..4 levels");
	bad("visibility {\n delay_profile d {\n  thresholds = {1us, 2us}\n  tags = {1}\n }\n}\n",
	    "t.conf:4: visibility: delay_profile \"d\": tags = 1: 1 tags for 2 thresholds; "
	    "allowed: one per threshold");
	bad("visibility {\n delay_profile d {\n  queues = {1}\n }\n}\n",
	    "t.conf:3: visibility: delay_profile \"d\": thresholds: missing");
	/* levels rise (-1 levels aside): 5us then 2us is refused, also past
	 * a -1; equal too */
	bad("visibility {\n delay_profile d {\n  thresholds = {5us, 2us}\n }\n}\n",
	    "t.conf:3: visibility: delay_profile \"d\": thresholds = 2us: level 2 is not above "
	    "level 1; allowed: rising times");
	bad("visibility {\n delay_profile d {\n  thresholds = {5us, -1, 5us}\n }\n}\n",
	    "t.conf:3: visibility: delay_profile \"d\": thresholds = 5us: level 3 is not above "
	    "level 1; allowed: rising times");
	/* traffic classes are 0..7 */
	bad("visibility {\n sampler s {\n  traffic_classes = {8}\n }\n}\n",
	    "t.conf:3: visibility: sampler \"s\": traffic_classes = 8: out of range; allowed: "
	    "0..7");
	bad("visibility {\n congestion c {\n  high = 10\n  low = 20\n }\n}\n",
	    "t.conf:4: visibility: congestion \"c\": low = 20: above high; allowed: 0..10 bytes "
	    "(high)");
	bad("visibility {\n congestion c {\n  scope = port\n  queues = {1}\n  high = 10\n }\n}\n",
	    "t.conf:4: visibility: congestion \"c\": queues = 1: not with scope = port; allowed: "
	    "queues with scope = queue");
	bad("visibility {\n congestion c {\n  high = 10X\n }\n}\n",
	    "t.conf:3: visibility: congestion \"c\": high = 10X: not a size; allowed: 0..1T bytes, "
	    "suffix K, M, G or T (powers of 1024)");
	bad("visibility {\n forensics_ports = {5-2}\n}\n",
	    "t.conf:2: visibility: forensics_ports = 5-2: not a range (A above B); allowed: A-B "
	    "with A <= B in 0..65535");
	bad("visibility {\n forensics = maybe\n}\n",
	    "t.conf:2: visibility: forensics = maybe: not a boolean; allowed: yes or no (true, "
	    "false, on, off, 1, 0)");
	bad("visibility {\n eligible {\n  ports = {70000}\n }\n}\n",
	    "t.conf:3: visibility: eligible: ports = 70000: out of range; allowed: 0..65535");
	/* a key libconfuse does not know: its message, in the one wording */
	bad("visibility {\n colour = red\n}\n",
	    "t.conf:2: visibility: colour: unknown key; allowed: the keys of bsflowd.conf(5)");
}
END_TEST

/* Section-wide errors carry a line; limits on queues, names, nesting,
 * sampler count, flow-filter memory, periods, routes (issue #6). */
START_TEST(errors_limits)
{
	char text[40000];
	size_t n;

	bad("visibility {\n congestion c {\n  low = 10\n }\n}\n",
	    "t.conf:3: visibility: congestion \"c\": high: missing");
	bad("visibility {\n sampler \"a b\" {\n  every = 2\n }\n}\n",
	    "t.conf:3: visibility: sampler \"a b\": bad name; allowed: 1..31 ASCII letters, "
	    "digits, _ and -");
	bad("visibility {\n delay_profile \"d.1\" {\n  thresholds = {1us}\n }\n}\n",
	    "t.conf:3: visibility: delay_profile \"d.1\": bad name; allowed: 1..31 ASCII letters, "
	    "digits, _ and -");
	bad("visibility {\n sampler abcdefghijabcdefghijabcdefghijab {\n  every = 2\n }\n}\n",
	    "t.conf:3: visibility: sampler \"abcdefghijabcdefghijabcdefghijab\": bad name; "
	    "allowed: 1..31 ASCII letters, digits, _ and -");
	bad("visibility {\n sampler x {\n  queues = {32}\n }\n}\n",
	    "t.conf:3: visibility: sampler \"x\": queues = 32: out of range; allowed: 0..31");
	bad("visibility {\n forensics_queues = {0-40}\n}\n",
	    "t.conf:2: visibility: forensics_queues = 0-40: out of range; allowed: 0..31");
	bad("visibility {\n congestion c {\n  high = 10\n  queues = {99}\n }\n}\n",
	    "t.conf:4: visibility: congestion \"c\": queues = 99: out of range; allowed: 0..31");
	bad("visibility {\n delay_profile d {\n  thresholds = {1us}\n  queues = {31, 32}\n }\n}\n",
	    "t.conf:4: visibility: delay_profile \"d\": queues = 32: out of range; allowed: 0..31");
	bad("visibility {\n eligible {\n  queues = {1024}\n }\n}\n",
	    "t.conf:3: visibility: eligible: queues = 1024: out of range; allowed: 0..31");
	bad("visibility {\n sampler x {\n  events = {delay}\n }\n sample_drops = x\n}\n",
	    "t.conf:5: visibility: sample_drops = x: sampler \"x\" can never pass drop events (its "
	    "events or reasons exclude them)");
	bad("visibility {\n drop_reasons = {259}\n sampler x {\n  reasons = {260}\n }\n"
	    " sample_forensics = x\n}\n",
	    "t.conf:6: visibility: sample_forensics = x: sampler \"x\" can never pass forensics "
	    "events (its events or reasons exclude them)");
	/* an "all" chain with one member that never sees congestion */
	bad("visibility {\n sampler a {\n  events = {drop}\n }\n sampler b {\n  every = 2\n }\n"
	    " sampler c {\n  type = all\n  members = {b, a}\n }\n sample_congestion = c\n}\n",
	    "t.conf:12: visibility: sample_congestion = c: sampler \"c\" can never pass congestion "
	    "events (its events or reasons exclude them)");
	bad("visibility {\n sampler x {\n  dedup = yes\n  dedup_window = 0\n }\n}\n",
	    "t.conf:4: visibility: sampler \"x\": dedup_window = 0: out of range; allowed: 1ns and "
	    "up");
	bad("visibility {\n sampler x {\n  tickets = 10\n  period = 999us\n }\n}\n",
	    "t.conf:4: visibility: sampler \"x\": period = 999us: out of range; allowed: 1ms and "
	    "up");
	bad("visibility {\n sampler x {\n  tickets = 10\n  period = 10ms\n"
	    "  period_jitter = 5001us\n }\n}\n",
	    "t.conf:5: visibility: sampler \"x\": period_jitter = 5001us: more than half the "
	    "period; allowed: 0..period/2");
	bad("visibility {\n sampler x {\n  flow_filter = yes\n  flow_reset = 999us\n }\n}\n",
	    "t.conf:4: visibility: sampler \"x\": flow_reset = 999us: out of range; allowed: 0 "
	    "(never) or 1ms and up");
	bad("visibility {\n sampler x {\n  flow_filter = yes\n  flow_reset_after = 63\n }\n}\n",
	    "t.conf:4: visibility: sampler \"x\": flow_reset_after = 63: out of range; allowed: 0 "
	    "(never) or 64 and up");
	bad("visibility {\n sampler x {\n  limit = 2\n  limit_key = flow\n  limit_period = 0\n"
	    " }\n}\n",
	    "t.conf:5: visibility: sampler \"x\": limit_period = 0: 0 with limit_key = flow; "
	    "allowed: more than 0");
	/* 257 samplers: sampler i starts on line 2 + 3i, its key on 3 + 3i */
	n = (size_t)snprintf(text, sizeof text, "visibility {\n");
	for (int i = 0; i < 257; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
				      " sampler s%d {\n  every = 2\n }\n", i);
	snprintf(text + n, sizeof text - n, "}\n");
	bad(text,
	    "t.conf:771: visibility: sampler \"s256\": too many samplers; allowed: at most 256");
	/* 16 samplers of 16 MiB of flow filter (8 banks of 2^24 bits) fit in
	 * 256 MiB, the 17th does not; sampler i's flow_filter is line 3 + 5i */
	n = (size_t)snprintf(text, sizeof text, "visibility {\n");
	for (int i = 0; i < 17; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
				      " sampler f%d {\n  flow_filter = yes\n  flow_hashes = 8\n"
				      "  flow_bits = 16777216\n }\n",
				      i);
	snprintf(text + n, sizeof text - n, "}\n");
	bad(text, "t.conf:83: visibility: sampler \"f16\": flow_filter = yes: the flow filters of "
		  "all samplers take too much; allowed: 256M in all");
	/* chains nested 17 deep: s0 (lines 2-4), then sk on lines 4k+1..4k+4
	 * with members on 4k+3; s16's members are on line 67 */
	n = (size_t)snprintf(text, sizeof text, "visibility {\n sampler s0 {\n  every = 2\n }\n");
	for (int k = 1; k <= 16; k++)
		n += (size_t)snprintf(text + n, sizeof text - n,
				      " sampler s%d {\n  type = all\n  members = {s%d}\n }\n", k,
				      k - 1);
	snprintf(text + n, sizeof text - n, "}\n");
	bad(text, "t.conf:67: visibility: sampler \"s16\": members = s15: chains and aggregates "
		  "nest more than 16 levels deep (the bottom sampler counts)");
}
END_TEST

/* What the limits still accept: 16 levels, a jitter of half the period,
 * 1 ms periods, 64 checks, queue 31, default_rate. */
START_TEST(limits_accepted)
{
	struct vis_config vc;
	char text[4000];
	size_t n;

	n = (size_t)snprintf(text, sizeof text, "visibility {\n sampler s0 {\n  every = 2\n }\n");
	for (int k = 1; k <= 15; k++)
		n += (size_t)snprintf(text + n, sizeof text - n,
				      " sampler s%d {\n  type = all\n  members = {s%d}\n }\n", k,
				      k - 1);
	snprintf(text + n, sizeof text - n,
		 " sampler t_1-X {\n  tickets = 4\n  period = 1ms\n  period_jitter = 500us\n"
		 "  queues = {31}\n  flow_filter = yes\n  flow_reset = 1ms\n"
		 "  flow_reset_after = 64\n }\n default_rate = 5\n}\n");
	ck_assert_msg(vis_conf_parse_text(text, "t.conf", &vc, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(vc.n_samplers, 17);
	ck_assert_uint_eq(vc.default_rate, 5);
	vis_config_release(&vc);
	ck_assert_int_eq(vis_conf_parse_text("visibility {\n forensics = yes\n}\n", "t.conf", &vc,
					     err, sizeof err),
			 0);
	ck_assert_uint_eq(vc.default_rate, 100);
	vis_config_release(&vc);
	bad("visibility {\n forensics = yes\n}\nvisibility {\n forensics = no\n}\n",
	    "t.conf:5: visibility: a second visibility section");
	bad("visibility {\n default_rate = -1\n}\n",
	    "t.conf:2: visibility: default_rate = -1: out of range; allowed: 0..2147483647");
}
END_TEST

/* The one time grammar (confval.h): what the visibility section always
 * accepted, and the model section's spellings (a decimal point, a blank
 * before the unit, any case) too. */
START_TEST(durations)
{
	uint64_t ns;

	ck_assert_int_eq(conf_parse_time("2", &ns), 0); /* seconds */
	ck_assert_uint_eq(ns, 2000000000ULL);
	ck_assert_int_eq(conf_parse_time("250ns", &ns), 0);
	ck_assert_uint_eq(ns, 250);
	ck_assert_int_eq(conf_parse_time("10us", &ns), 0);
	ck_assert_uint_eq(ns, 10000);
	ck_assert_int_eq(conf_parse_time("5ms", &ns), 0);
	ck_assert_uint_eq(ns, 5000000);
	ck_assert_int_eq(conf_parse_time("2s", &ns), 0);
	ck_assert_uint_eq(ns, 2000000000ULL);
	ck_assert_int_eq(conf_parse_time("2 s", &ns), 0);
	ck_assert_uint_eq(ns, 2000000000ULL);
	ck_assert_int_eq(conf_parse_time("1.5MS", &ns), 0);
	ck_assert_uint_eq(ns, 1500000);
	ck_assert_int_eq(conf_parse_time("-1", &ns), -1);
	ck_assert_int_eq(conf_parse_time("1h", &ns), -1);
	ck_assert_int_eq(conf_parse_time(" 1s", &ns), -1);
	ck_assert_int_eq(conf_parse_time("0x10", &ns), -1);
	ck_assert_int_eq(conf_parse_time("inf", &ns), -1);
	ck_assert_int_eq(conf_parse_time("99999999999999999999s", &ns), -1);
}
END_TEST

/* ---- a pipeline from a config ---- */

struct out {
	unsigned n[VIS_EV_NTYPES];
	unsigned port_samples;
	uint32_t last_port;
	uint64_t forensic_id;
};

static void on_event(void *arg, const struct vis_event *ev)
{
	struct out *o = arg;

	o->n[ev->type]++;
	if (ev->type == VIS_EV_FORENSICS)
		o->forensic_id = ev->event_id;
}

static void on_port(void *arg, uint32_t port, uint64_t t_ns)
{
	struct out *o = arg;

	(void)t_ns;
	o->port_samples++;
	o->last_port = port;
}

static const char pipe_text[] = "visibility {\n"
				"  forensics = yes\n"
				"  delay_profile all {\n"
				"    thresholds = {200ns, 300ns}\n"
				"  }\n"
				"  congestion q {\n"
				"    high = 5000\n"
				"    low = 1000\n"
				"  }\n"
				"  sampler drops {\n"
				"    tickets = 10\n"
				"    period = 1s\n"
				"  }\n"
				"  sampler k5 {\n"
				"    first = 5\n"
				"    of = 100\n"
				"  }\n"
				"  sample_drops = drops\n"
				"  sample_delay = k5\n"
				"}\n";

static void pe_init(struct vis_pkt_event *pe, uint32_t type, uint64_t t, uint32_t port, uint64_t id,
		    uint64_t depth)
{
	memset(pe, 0, sizeof(*pe));
	pe->type = type;
	pe->t_ns = t;
	pe->port = port;
	pe->in_port = VIS_NONE;
	pe->pkt_id = id;
	pe->tail_id = VIS_ID_NONE;
	pe->depth_bytes = depth;
	pe->delay_ns = UINT64_MAX;
	pe->reason = 259;
	pe->flow_hash = id + 1;
}

START_TEST(pipeline_from_config)
{
	struct vis_config vc;
	struct vis_pipeline *p;
	struct vis_pipeline_stats st;
	struct vis_pkt_event pe;
	struct out o;
	struct vis_pipeline_cbs cbs = {.event = on_event, .port_sample = on_port, .arg = &o};

	memset(&o, 0, sizeof o);
	ck_assert_msg(vis_conf_parse_text(pipe_text, "p.conf", &vc, err, sizeof err) == 0, "%s",
		      err);
	p = vis_pipeline_new(&vc, 4, 8, &cbs, err, sizeof err);
	ck_assert_msg(p != NULL, "%s", err);
	vis_config_release(&vc);

	/* 5 packets queue up on port 2 (the 5th crosses 5000 bytes) */
	for (uint64_t id = 1; id <= 5; id++) {
		pe_init(&pe, VIS_PKT_ENQUEUE, id, 2, id, id * 1200);
		vis_pipeline_feed(p, &pe);
	}
	ck_assert_uint_eq(o.port_samples, 1);
	ck_assert_uint_eq(o.last_port, 2);
	ck_assert_uint_eq(o.n[VIS_EV_CONGESTION_START], 1);
	/* 30 drops within a second: 10 tickets */
	for (uint64_t i = 0; i < 30; i++) {
		pe_init(&pe, VIS_PKT_DROP, 100 + i, 2, 0, 6000);
		vis_pipeline_feed(p, &pe);
	}
	ck_assert_uint_eq(o.n[VIS_EV_DROP], 10);
	ck_assert_uint_eq(vis_pipeline_drops_lost(p), 20);
	/* the 5 depart with 250 ns of delay: 5 forensics (no sampler), and
	 * 5 high-delay level 1 of which k5 passes all (first 5 of 100) */
	for (uint64_t id = 1; id <= 5; id++) {
		pe_init(&pe, VIS_PKT_DEQUEUE, 200 + id, 2, id, (5 - id) * 1200);
		pe.delay_ns = 250;
		vis_pipeline_feed(p, &pe);
	}
	ck_assert_uint_eq(o.n[VIS_EV_FORENSICS], 5);
	ck_assert_uint_eq(o.n[VIS_EV_HIGH_DELAY], 5);
	ck_assert_uint_eq(o.n[VIS_EV_CONGESTION_END], 1);
	ck_assert_uint_eq(o.n[VIS_EV_DELAY_END], 0);
	/* 100 more high-delay departures: only 5 more pass k5 */
	for (uint64_t id = 6; id < 106; id++) {
		pe_init(&pe, VIS_PKT_ENQUEUE, 300 + id, 1, id, 100);
		vis_pipeline_feed(p, &pe);
		pe_init(&pe, VIS_PKT_DEQUEUE, 301 + id, 1, id, 0);
		pe.delay_ns = 350;
		vis_pipeline_feed(p, &pe);
	}
	ck_assert_uint_eq(o.n[VIS_EV_HIGH_DELAY], 5 + 5);
	vis_pipeline_get_stats(p, &st);
	ck_assert_uint_eq(st.raised[VIS_EV_DROP], 30);
	ck_assert_uint_eq(st.raised[VIS_EV_HIGH_DELAY], 105);
	ck_assert_uint_eq(st.sampled_out[VIS_EV_HIGH_DELAY], 95);
	ck_assert_uint_eq(st.port_samples, 1);
	/* every sampler's statistics add up */
	for (size_t i = 0; i < vis_pipeline_n_samplers(p); i++) {
		struct vis_sampler_stats ss;
		uint64_t sum = 0;
		vis_sampler_get_stats(vis_pipeline_sampler(p, i), &ss);
		for (int r = 1; r < VIS_REJ_N; r++)
			sum += ss.rejected[r];
		ck_assert_uint_eq(ss.seen, ss.passed + sum);
	}
	ck_assert_ptr_nonnull(vis_pipeline_sampler_by_name(p, "k5"));
	vis_pipeline_free(p);
}
END_TEST

/* ---- congestion ends follow their starts; the implicit box ---- */

struct seq {
	uint32_t type[16];
	uint64_t dur[16];
	unsigned n;
	unsigned no_ticket;
};

static void seq_event(void *arg, const struct vis_event *ev)
{
	struct seq *q = arg;

	if (q->n < 16) {
		q->type[q->n] = ev->type;
		q->dur[q->n] = ev->duration_ns;
	}
	q->n++;
}

static void seq_rejected(void *arg, const struct vis_event *ev, int reason)
{
	struct seq *q = arg;

	(void)ev;
	if (reason == VIS_REJ_NO_TICKET)
		q->no_ticket++;
}

/* Four episodes (depth 100 at 1000k ns, 10 at 1000k + 500 ns) through a
 * 1-in-2 sampler: it sees the starts only and passes the 2nd and 4th;
 * their ends (duration 500) pass with them, the ends of the 1st and 3rd
 * are rejected with them. */
START_TEST(pipeline_congestion_end_follows_start)
{
	static const char text[] = "visibility {\n congestion q {\n  high = 100\n  low = 50\n"
				   " }\n sampler c {\n  every = 2\n }\n"
				   " sample_congestion = c\n}\n";
	struct vis_config vc;
	struct vis_pipeline *p;
	struct vis_pipeline_stats st;
	struct vis_sampler_stats ss;
	struct seq q;
	struct vis_pipeline_cbs cbs = {.event = seq_event, .rejected = seq_rejected, .arg = &q};

	memset(&q, 0, sizeof q);
	ck_assert_msg(vis_conf_parse_text(text, "c.conf", &vc, err, sizeof err) == 0, "%s", err);
	p = vis_pipeline_new(&vc, 1, 1, &cbs, err, sizeof err);
	ck_assert_msg(p != NULL, "%s", err);
	vis_config_release(&vc);
	for (uint64_t k = 1; k <= 4; k++) {
		vis_pipeline_depth(p, 0, 0, 100, 1000 * k);
		vis_pipeline_depth(p, 0, 0, 10, 1000 * k + 500);
	}
	ck_assert_uint_eq(q.n, 4);
	ck_assert_uint_eq(q.type[0], VIS_EV_CONGESTION_START);
	ck_assert_uint_eq(q.type[1], VIS_EV_CONGESTION_END);
	ck_assert_uint_eq(q.dur[1], 500);
	ck_assert_uint_eq(q.type[2], VIS_EV_CONGESTION_START);
	ck_assert_uint_eq(q.type[3], VIS_EV_CONGESTION_END);
	ck_assert_uint_eq(q.dur[3], 500);
	vis_pipeline_get_stats(p, &st);
	ck_assert_uint_eq(st.sampled_out[VIS_EV_CONGESTION_START], 2);
	ck_assert_uint_eq(st.sampled_out[VIS_EV_CONGESTION_END], 2);
	ck_assert_uint_eq(st.ends_of_rejected, 2);
	vis_sampler_get_stats(vis_pipeline_sampler_by_name(p, "c"), &ss);
	ck_assert_uint_eq(ss.seen, 4);
	ck_assert_uint_eq(ss.passed, 2);
	vis_pipeline_free(p);
}
END_TEST

/* No sampler for high delay, default_rate = 3: of 10 high-delay events in
 * each of two seconds, 3 a second pass; the other 14 are no_ticket.  With
 * default_rate = 0 all 20 pass. */
START_TEST(pipeline_default_rate)
{
	static const char *const texts[] = {
	    "visibility {\n delay_profile d {\n  thresholds = {100ns}\n }\n default_rate = 3\n}\n",
	    "visibility {\n delay_profile d {\n  thresholds = {100ns}\n }\n default_rate = 0\n}\n"};
	static const unsigned want_passed[] = {6, 20};

	for (int c = 0; c < 2; c++) {
		struct vis_config vc;
		struct vis_pipeline *p;
		struct vis_pipeline_stats st;
		struct vis_pkt_event pe;
		struct seq q;
		struct vis_pipeline_cbs cbs = {
		    .event = seq_event, .rejected = seq_rejected, .arg = &q};

		memset(&q, 0, sizeof q);
		ck_assert_msg(vis_conf_parse_text(texts[c], "d.conf", &vc, err, sizeof err) == 0,
			      "%s", err);
		p = vis_pipeline_new(&vc, 1, 1, &cbs, err, sizeof err);
		ck_assert_msg(p != NULL, "%s", err);
		vis_config_release(&vc);
		for (uint64_t id = 1; id <= 20; id++) {
			uint64_t t = (id > 10 ? 1000000000ULL : 0) + 1000 + id * 10;
			pe_init(&pe, VIS_PKT_ENQUEUE, t, 0, id, 100);
			vis_pipeline_feed(p, &pe);
			pe_init(&pe, VIS_PKT_DEQUEUE, t + 1, 0, id, 0);
			pe.delay_ns = 200;
			vis_pipeline_feed(p, &pe);
		}
		vis_pipeline_get_stats(p, &st);
		ck_assert_uint_eq(st.raised[VIS_EV_HIGH_DELAY], 20);
		ck_assert_uint_eq(st.passed[VIS_EV_HIGH_DELAY], want_passed[c]);
		ck_assert_uint_eq(st.sampled_out[VIS_EV_HIGH_DELAY], 20 - want_passed[c]);
		ck_assert_uint_eq(q.no_ticket, 20 - want_passed[c]);
		vis_pipeline_free(p);
	}
}
END_TEST

/* A backend event converts into a packet event. */
START_TEST(from_backend_event)
{
	struct bsf_event be;
	struct vis_pkt_event pe;
	static const uint8_t hdr[] = {0x02, 0,	  0,	0, 0, 1, 0x02, 0, 0, 0,	 0,    2,
				      0x86, 0xdd, 0x60, 0, 0, 0, 0,    8, 6, 64, 0x20, 0x01};

	memset(&be, 0, sizeof be);
	be.type = BSF_EV_DROP;
	be.reason = 259;
	be.stage = BSF_STAGE_EGRESS_ADMISSION;
	be.in_port = 1;
	be.out_port = 3;
	be.queue = 5;
	be.frame_len = 9000;
	be.t_ns = 123;
	be.depth_bytes = 4096;
	memcpy(be.hdr, hdr, sizeof hdr);
	be.hdr_len = sizeof hdr;
	ck_assert_int_eq(vis_pkt_from_bsf(&be, &pe), 0);
	ck_assert_uint_eq(pe.type, VIS_PKT_DROP);
	ck_assert_uint_eq(pe.port, 3);
	ck_assert_uint_eq(pe.queue, 5);
	ck_assert_uint_eq(pe.in_port, 1);
	ck_assert_uint_eq(pe.reason, 259);
	ck_assert_uint_eq(pe.stage, BSF_STAGE_EGRESS_ADMISSION);
	ck_assert_uint_eq(pe.frame_len, 9000);
	ck_assert_uint_eq(pe.depth_bytes, 4096);
	ck_assert_uint_eq(pe.flags, VIS_PKTF_PARTIAL);
	ck_assert_uint_eq(pe.mc_id, 0);
	ck_assert_ptr_eq(pe.hdr, be.hdr);
	be.type = BSF_EV_SAMPLE;
	be.transit_ns = 777;
	be.multicast = 1;
	ck_assert_int_eq(vis_pkt_from_bsf(&be, &pe), 0);
	ck_assert_uint_eq(pe.type, VIS_PKT_DEQUEUE);
	ck_assert_uint_eq(pe.delay_ns, 777);
	ck_assert_uint_ne(pe.mc_id, 0);
	be.type = 99;
	ck_assert_int_eq(vis_pkt_from_bsf(&be, &pe), -1);
}
END_TEST

/* The example of bsflowd.conf(5), VISIBILITY SECTION. */
START_TEST(manual_example)
{
	static const char text[] = "visibility {\n"
				   "\tforensics = yes\n"
				   "\tdelay_profile default {\n"
				   "\t\tthresholds = {20us, 100us}\n"
				   "\t}\n"
				   "\tcongestion queues {\n"
				   "\t\thigh = 512K\n"
				   "\t\tlow = 128K\n"
				   "\t}\n"
				   "\tsampler port0 {\n"
				   "\t\tports = {0}\n"
				   "\t\ttickets = 256\n"
				   "\t\tperiod = 1s\n"
				   "\t}\n"
				   "\tsampler port1 {\n"
				   "\t\tports = {1}\n"
				   "\t\ttickets = 256\n"
				   "\t\tperiod = 1s\n"
				   "\t}\n"
				   "\tsampler all_ports {\n"
				   "\t\ttype = aggregate\n"
				   "\t\tmembers = {port0, port1}\n"
				   "\t\ttickets = 512\n"
				   "\t\tperiod = 1s\n"
				   "\t\tdedup = yes\n"
				   "\t\trate_manager = yes\n"
				   "\t}\n"
				   "\tsample_drops = all_ports\n"
				   "}\n";
	struct vis_config vc;
	struct vis_pipeline *p;

	ck_assert_msg(vis_conf_parse_text(text, "man", &vc, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(vc.enabled, 1);
	ck_assert_int_eq(vc.delay[0].profile.lv[0].threshold_ns, 20000);
	ck_assert_uint_eq(vc.congestion[0].high, 512 * 1024);
	ck_assert_uint_eq(vc.n_samplers, 3);
	p = vis_pipeline_new(&vc, 2, 8, NULL, err, sizeof err);
	ck_assert_msg(p != NULL, "%s", err);
	vis_pipeline_free(p);
	vis_config_release(&vc);
}
END_TEST

/* Snapshot mode: only the first packet of each flow in a forensics
 * snapshot passes, and the flow filter restarts with each snapshot. */
START_TEST(pipeline_snapshot_flows)
{
	static const char text[] = "visibility {\n"
				   "  forensics = yes\n"
				   "  sampler snap {\n"
				   "    flow_filter = yes\n"
				   "    flow_reset_on = {forensics_end}\n"
				   "  }\n"
				   "  sample_forensics = snap\n"
				   "}\n";
	struct vis_config vc;
	struct vis_pipeline *p;
	struct vis_pkt_event pe;
	struct out o;
	struct vis_pipeline_cbs cbs = {.event = on_event, .arg = &o};
	uint64_t id = 0;

	memset(&o, 0, sizeof o);
	ck_assert_msg(vis_conf_parse_text(text, "s.conf", &vc, err, sizeof err) == 0, "%s", err);
	p = vis_pipeline_new(&vc, 1, 1, &cbs, err, sizeof err);
	ck_assert_msg(p != NULL, "%s", err);
	vis_config_release(&vc);
	for (int round = 0; round < 2; round++) {
		uint64_t first = id + 1;
		/* flows A A B B queue up, a drop, then they leave */
		for (int i = 0; i < 4; i++) {
			id++;
			pe_init(&pe, VIS_PKT_ENQUEUE, 10 * id, 0, id, 100);
			pe.flow_hash = i < 2 ? 0xa : 0xb;
			vis_pipeline_feed(p, &pe);
		}
		pe_init(&pe, VIS_PKT_DROP, 10 * id + 1, 0, 0, 400);
		vis_pipeline_feed(p, &pe);
		for (uint64_t d = first; d <= id; d++) {
			pe_init(&pe, VIS_PKT_DEQUEUE, 10 * id + 2 + d, 0, d, 0);
			pe.flow_hash = d - first < 2 ? 0xa : 0xb;
			vis_pipeline_feed(p, &pe);
		}
		ck_assert_uint_eq(o.n[VIS_EV_FORENSICS], 2 * (unsigned)(round + 1));
	}
	ck_assert_uint_eq(o.n[VIS_EV_DROP], 2);
	vis_pipeline_free(p);
}
END_TEST

/* Lists are kept as merged ranges: wide ranges such as {0-1023} or
 * {1024-65535} are one range each, items in any order merge when they
 * touch or overlap, 64 separate ranges are accepted and 65 are an error
 * naming the item that starts the 65th (by value); an aggregate hierarchy by
 * groups of ports on a 1024-port switch builds and routes by group. */
START_TEST(set_ranges)
{
	static const char text[] = "visibility {\n"			 /* 1 */
				   "  forensics = yes\n"		 /* 2 */
				   "  forensics_ports = {0-99}\n"	 /* 3 */
				   "  drop_reasons = {250-259}\n"	 /* 4 */
				   "  sampler g0 {\n"			 /* 5 */
				   "    ports = {0-511}\n"		 /* 6 */
				   "    tickets = 100\n"		 /* 7 */
				   "    period = 1s\n"			 /* 8 */
				   "  }\n"				 /* 9 */
				   "  sampler g1 {\n"			 /* 10 */
				   "    ports = {512-1023}\n"		 /* 11 */
				   "    tickets = 100\n"		 /* 12 */
				   "    period = 1s\n"			 /* 13 */
				   "  }\n"				 /* 14 */
				   "  sampler all {\n"			 /* 15 */
				   "    type = aggregate\n"		 /* 16 */
				   "    members = {g0, g1}\n"		 /* 17 */
				   "    tickets = 150\n"		 /* 18 */
				   "    period = 1s\n"			 /* 19 */
				   "    rate_manager = yes\n"		 /* 20 */
				   "  }\n"				 /* 21 */
				   "  sampler eph {\n"			 /* 22 */
				   "    src_ports = {1024-65535}\n"	 /* 23 */
				   "    reasons = {259-300}\n"		 /* 24 */
				   "    queues = {4-7, 0-3, 9, 8, 2}\n"	 /* 25 */
				   "    dst_ports = {80, 443, 79, 81}\n" /* 26 */
				   "  }\n"				 /* 27 */
				   "  sample_drops = all\n"		 /* 28 */
				   "  sample_forensics = eph\n"		 /* 29 */
				   "}\n";
	struct vis_config vc;
	struct vis_pipeline *p;
	struct vis_event ev;
	struct vis_sampler *g0, *g1;
	const struct vis_match *m;
	static const uint32_t ports[] = {0, 511, 512, 1023, 1024};
	char big[1200];
	size_t n;

	ck_assert_msg(vis_conf_parse_text(text, "r.conf", &vc, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(vc.forensics_ports.n, 100);
	ck_assert_uint_eq(vc.forensics_ports.nr, 1);
	m = &vc.samplers[0].c.match;
	ck_assert_uint_eq(m->ports.n, 512);
	m = &vc.samplers[1].c.match;
	ck_assert_uint_eq(m->ports.n, 512);
	ck_assert_int_eq(vis_set_has(&m->ports, 511), 0);
	ck_assert_int_eq(vis_set_has(&m->ports, 512), 1);
	ck_assert_int_eq(vis_set_has(&m->ports, 1023), 1);
	ck_assert_int_eq(vis_set_has(&m->ports, 1024), 0);
	m = &vc.samplers[3].c.match;
	ck_assert_uint_eq(m->sports.n, 65536 - 1024);
	ck_assert_uint_eq(m->sports.nr, 1);
	ck_assert_int_eq(vis_set_has(&m->sports, 1023), 0);
	ck_assert_int_eq(vis_set_has(&m->sports, 1024), 1);
	ck_assert_int_eq(vis_set_has(&m->sports, 65535), 1);
	ck_assert_uint_eq(m->queues.nr, 1); /* 0-9 */
	ck_assert_uint_eq(m->queues.n, 10);
	ck_assert_uint_eq(m->dports.nr, 2); /* 79-81, 443 */
	ck_assert_uint_eq(m->dports.n, 4);
	ck_assert_uint_eq(vis_set_nth(&m->dports, 0), 79);
	ck_assert_uint_eq(vis_set_nth(&m->dports, 3), 443);

	/* 1024 ports x 8 queues: forensics on ports 0-99 only; groups */
	p = vis_pipeline_new(&vc, 1024, 8, NULL, err, sizeof err);
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_uint_eq(vis_pipeline_watches(p, 0, 0) & VIS_WATCH_FORENSICS, VIS_WATCH_FORENSICS);
	ck_assert_uint_eq(vis_pipeline_watches(p, 99, 7) & VIS_WATCH_FORENSICS,
			  VIS_WATCH_FORENSICS);
	ck_assert_uint_eq(vis_pipeline_watches(p, 100, 0) & VIS_WATCH_FORENSICS, 0);
	ck_assert_uint_eq(vis_pipeline_watches(p, 1023, 0) & VIS_WATCH_FORENSICS, 0);
	g0 = vis_pipeline_sampler_by_name(p, "g0");
	g1 = vis_pipeline_sampler_by_name(p, "g1");
	ck_assert_ptr_nonnull(g0);
	ck_assert_ptr_nonnull(g1);
	for (size_t i = 0; i < sizeof ports / sizeof ports[0]; i++) {
		memset(&ev, 0, sizeof ev);
		ev.type = VIS_EV_DROP;
		ev.port = ports[i];
		ev.in_port = VIS_NONE;
		ev.reason = 259;
		ck_assert_int_eq(vis_sampler_offer(g0, &ev, 1, NULL), ports[i] < 512);
		ck_assert_int_eq(vis_sampler_offer(g1, &ev, 1, NULL),
				 ports[i] >= 512 && ports[i] < 1024);
	}
	vis_pipeline_free(p);
	vis_config_release(&vc);

	/* 64 separate ranges fit: 0, 2, .. 126, here written backwards */
	n = (size_t)snprintf(big, sizeof big, "visibility {\n sampler x {\n  ports = {");
	for (int v = 126; v >= 0; v -= 2)
		n += (size_t)snprintf(big + n, sizeof big - n, "%d%s", v, v ? ", " : "}\n");
	snprintf(big + n, sizeof big - n, " }\n}\n");
	ck_assert_msg(vis_conf_parse_text(big, "t.conf", &vc, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(vc.samplers[0].c.match.ports.nr, 64);
	ck_assert_uint_eq(vc.samplers[0].c.match.ports.n, 64);
	vis_config_release(&vc);
	/* 65 are not: 128 starts the 65th */
	n = (size_t)snprintf(big, sizeof big, "visibility {\n sampler x {\n  ports = {");
	for (int v = 128; v >= 0; v -= 2)
		n += (size_t)snprintf(big + n, sizeof big - n, "%d%s", v, v ? ", " : "}\n");
	snprintf(big + n, sizeof big - n, " }\n}\n");
	bad(big, "t.conf:3: visibility: sampler \"x\": ports = 128: too many ranges; allowed: at "
		 "most 64 separate ranges");
	/* ... unless a range joins them: the count is the merged set's */
	n = (size_t)snprintf(big, sizeof big, "visibility {\n sampler x {\n  ports = {");
	for (int v = 128; v >= 0; v -= 2)
		n += (size_t)snprintf(big + n, sizeof big - n, "%d, ", v);
	snprintf(big + n, sizeof big - n, "1-199}\n }\n}\n");
	ck_assert_msg(vis_conf_parse_text(big, "t.conf", &vc, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(vc.samplers[0].c.match.ports.nr, 1);
	ck_assert_uint_eq(vc.samplers[0].c.match.ports.n, 200);
	vis_config_release(&vc);
	/* the same limit in the section's own lists, on the item's line */
	n = (size_t)snprintf(big, sizeof big, "visibility {\n forensics_ports = {\n");
	for (int v = 0; v <= 128; v += 2)
		n += (size_t)snprintf(big + n, sizeof big - n, "%d%s", v, v < 128 ? ",\n" : "}\n");
	snprintf(big + n, sizeof big - n, "}\n");
	bad(big, "t.conf:67: visibility: forensics_ports = 128: too many ranges; allowed: at most "
		 "64 separate ranges");
	/* formerly refused at 65 values, now plain ranges */
	ck_assert_int_eq(vis_conf_parse_text("visibility {\n forensics_ports = {0-64}\n"
					     " sampler s {\n  src_ports = {1024-65535}\n }\n}\n",
					     "t.conf", &vc, err, sizeof err),
			 0);
	ck_assert_uint_eq(vc.forensics_ports.n, 65);
	vis_config_release(&vc);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vis_conf");
	TCase *tc = tcase_create("conf");

	tcase_add_test(tc, full_config);
	tcase_add_test(tc, defaults);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, errors_limits);
	tcase_add_test(tc, limits_accepted);
	tcase_add_test(tc, pipeline_congestion_end_follows_start);
	tcase_add_test(tc, pipeline_default_rate);
	tcase_add_test(tc, durations);
	tcase_add_test(tc, pipeline_from_config);
	tcase_add_test(tc, from_backend_event);
	tcase_add_test(tc, manual_example);
	tcase_add_test(tc, pipeline_snapshot_flows);
	tcase_add_test(tc, set_ranges);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
