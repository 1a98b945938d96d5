/*
 * test_checks.c - unit tests of bsflow-collect's sequence checks and
 * summary counters (collector/checks.c), on datagram values built
 * here by hand: in-order numbers, gaps, the 2^32 wrap, resets by number
 * and by uptime, per-source sample sequences (compact and expanded forms
 * sharing one), summary lines, bsflowd's visibility event samples'
 * sequences and the sampler statistics check (seen = passed + rejected);
 * the bound on agents (least recently heard evicted, counted).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/checks.h"

struct rig {
	char *buf;
	size_t len;
	FILE *fp;
	struct collect_checks *c;
	struct collect_rx rx;
};

static void rig_open(struct rig *r)
{
	r->buf = NULL;
	r->len = 0;
	r->fp = open_memstream(&r->buf, &r->len);
	ck_assert_ptr_nonnull(r->fp);
	r->c = collect_checks_new(r->fp, SFLOW_ENT_OWN_DEFAULT);
	ck_assert_ptr_nonnull(r->c);
	memset(&r->rx, 0, sizeof(r->rx));
	r->rx.size = 100;
}

/* The reports so far. */
static const char *rig_text(struct rig *r)
{
	fflush(r->fp);
	return r->buf ? r->buf : "";
}

static void rig_close(struct rig *r)
{
	collect_checks_free(r->c);
	fclose(r->fp);
	free(r->buf);
}

static void dgram(struct sflow_datagram *d, uint32_t seq, uint32_t uptime)
{
	memset(d, 0, sizeof(*d));
	d->version = 5;
	d->agent.type = SFLOW_ADDR_IP4;
	d->agent.a[0] = 192;
	d->agent.a[1] = 0;
	d->agent.a[2] = 2;
	d->agent.a[3] = 1;
	d->sequence_number = seq;
	d->uptime_ms = uptime;
}

START_TEST(datagram_in_order_and_gap)
{
	struct rig r;
	struct sflow_datagram d;

	rig_open(&r);
	dgram(&d, 1, 100);
	collect_checks_datagram(r.c, &r.rx, &d);
	dgram(&d, 2, 200);
	collect_checks_datagram(r.c, &r.rx, &d);
	ck_assert_str_eq(rig_text(&r), "");
	dgram(&d, 4, 300);
	collect_checks_datagram(r.c, &r.rx, &d);
	ck_assert_str_eq(rig_text(&r), "gap datagram agent=192.0.2.1 subAgent=0 expected=3 "
				       "received=4 missing=1\n");
	ck_assert_uint_eq(collect_checks_gaps(r.c), 1);
	/* another sub-agent is another stream */
	dgram(&d, 9, 300);
	d.sub_agent_id = 1;
	collect_checks_datagram(r.c, &r.rx, &d);
	ck_assert_uint_eq(collect_checks_gaps(r.c), 1);
	rig_close(&r);
}
END_TEST

START_TEST(datagram_wrap_and_resets)
{
	struct rig r;
	struct sflow_datagram d;

	rig_open(&r);
	dgram(&d, 0xffffffffu, 100);
	collect_checks_datagram(r.c, &r.rx, &d);
	dgram(&d, 0, 200); /* 2^32 - 1 + 1 wraps to 0: in order */
	collect_checks_datagram(r.c, &r.rx, &d);
	ck_assert_str_eq(rig_text(&r), "");
	dgram(&d, 0, 300); /* the same number again: back by one */
	collect_checks_datagram(r.c, &r.rx, &d);
	ck_assert_str_eq(rig_text(&r), "reset datagram agent=192.0.2.1 subAgent=0 last=0 "
				       "received=0 lastUptime=200 uptime=300\n");
	dgram(&d, 1, 50); /* next number, but the uptime went back */
	collect_checks_datagram(r.c, &r.rx, &d);
	ck_assert_ptr_nonnull(strstr(rig_text(&r), "reset datagram agent=192.0.2.1 subAgent=0 "
						   "last=0 received=1 lastUptime=300 uptime=50\n"));
	ck_assert_uint_eq(collect_checks_gaps(r.c), 0);
	rig_close(&r);
}
END_TEST

START_TEST(sample_sequences)
{
	struct rig r;
	struct sflow_datagram d;
	struct sflow_sample s[3];

	rig_open(&r);
	memset(s, 0, sizeof(s));
	/* compact flow sample 0:1, source 0:3, seq 5 */
	s[0].tag = SFLOW_SAMPLE_FLOW;
	s[0].kind = SFLOW_SMP_FLOW;
	s[0].compact = 1;
	s[0].h.flow.sequence_number = 5;
	s[0].h.flow.source_id_index = 3;
	/* expanded 0:3, same source, seq 6: same sequence, in order */
	s[1].tag = SFLOW_SAMPLE_FLOW_EXP;
	s[1].kind = SFLOW_SMP_FLOW;
	s[1].h.flow.sequence_number = 6;
	s[1].h.flow.source_id_index = 3;
	/* counters of the same source: a sequence of their own */
	s[2].tag = SFLOW_SAMPLE_COUNTERS_EXP;
	s[2].kind = SFLOW_SMP_COUNTERS;
	s[2].h.counters.sequence_number = 100;
	s[2].h.counters.source_id_index = 3;
	dgram(&d, 1, 100);
	d.nsamples = 3;
	d.samples = s;
	collect_checks_datagram(r.c, &r.rx, &d);
	ck_assert_str_eq(rig_text(&r), "");
	/* next datagram: flow seq 9 (7 and 8 missing), counters 101 */
	s[0] = s[1];
	s[0].h.flow.sequence_number = 9;
	s[1] = s[2];
	s[1].h.counters.sequence_number = 101;
	dgram(&d, 2, 200);
	d.nsamples = 2;
	d.samples = s;
	collect_checks_datagram(r.c, &r.rx, &d);
	ck_assert_str_eq(rig_text(&r),
			 "gap sample agent=192.0.2.1 subAgent=0 sampleType=FLOWSAMPLE "
			 "sourceId=0:3 expected=7 received=9 missing=2\n");
	ck_assert_uint_eq(collect_checks_gaps(r.c), 1);
	rig_close(&r);
}
END_TEST

/* One datagram of agent 10.x.y.z (n = x << 16 | y << 8 | z), sequence
 * seq, with one expanded counters sample of source 0:1, sequence seq. */
static void agent_dgram(struct rig *r, uint32_t n, uint32_t seq)
{
	struct sflow_datagram d;
	struct sflow_sample s;

	dgram(&d, seq, 1000 * seq);
	d.agent.a[0] = 10;
	d.agent.a[1] = (uint8_t)(n >> 16);
	d.agent.a[2] = (uint8_t)(n >> 8);
	d.agent.a[3] = (uint8_t)n;
	memset(&s, 0, sizeof(s));
	s.tag = SFLOW_SAMPLE_COUNTERS_EXP;
	s.kind = SFLOW_SMP_COUNTERS;
	s.h.counters.sequence_number = seq;
	s.h.counters.source_id_index = 1;
	d.nsamples = 1;
	d.samples = &s;
	collect_checks_datagram(r->c, &r->rx, &d);
}

/* A flood of agent addresses (spoofed) does not grow the state: at most
 * 8 agents are followed here, the least recently heard go (counted), an
 * agent heard all along keeps its sequences (a gap in them is still
 * seen), and an evicted one heard again starts afresh, no false report. */
START_TEST(agents_bounded)
{
	struct rig r;
	uint32_t seq0 = 0;
	char *sum = NULL;
	size_t sumlen = 0;
	FILE *fp;

	rig_open(&r);
	collect_checks_set_limits(r.c, 8, 64);
	for (uint32_t n = 1; n <= 10000; n++) {
		agent_dgram(&r, 0, ++seq0); /* agent 10.0.0.0, all along */
		agent_dgram(&r, n, 1);
		ck_assert_uint_le(collect_checks_agents(r.c), 8);
		ck_assert_uint_le(collect_checks_sources(r.c), 64);
	}
	ck_assert_str_eq(rig_text(&r), "");
	/* 10001 agents heard, at most 8 kept */
	ck_assert_uint_ge(collect_checks_agents_evicted(r.c), 10001 - 8);
	ck_assert_uint_eq(collect_checks_agents_evicted(r.c) + collect_checks_agents(r.c), 10001);
	/* agent 10.0.0.0 was followed throughout: its gap is seen */
	agent_dgram(&r, 0, seq0 + 2);
	ck_assert_ptr_nonnull(strstr(rig_text(&r), "gap datagram agent=10.0.0.0 "));
	ck_assert_uint_eq(collect_checks_gaps(r.c), 2); /* the datagram's and its sample's */
	/* agent 10.0.0.1, long evicted, again with sequence 7: afresh */
	agent_dgram(&r, 1, 7);
	ck_assert_uint_eq(collect_checks_gaps(r.c), 2);
	fp = open_memstream(&sum, &sumlen);
	collect_checks_summary(r.c, fp);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(sum, "\nagentsEvicted "));
	ck_assert_ptr_nonnull(strstr(sum, "\nsourcesEvicted "));
	free(sum);
	rig_close(&r);
}
END_TEST

START_TEST(summary_lines)
{
	struct rig r;
	struct sflow_datagram d;
	struct sflow_sample s[2];
	struct sflow_record rec[2];
	struct sflow_decode_error err;
	char *sum = NULL;
	size_t sumlen = 0;
	FILE *sf;

	rig_open(&r);
	memset(s, 0, sizeof(s));
	memset(rec, 0, sizeof(rec));
	rec[0].tag = SFLOW_FLOW_EGRESS_QUEUE;
	rec[0].kind = SFLOW_REC_EGRESS_QUEUE;
	rec[0].u.queue = 6;
	rec[1].tag = SFLOW_TAG(0, 999);
	rec[1].kind = SFLOW_REC_UNKNOWN;
	s[0].tag = SFLOW_SAMPLE_FLOW_EXP;
	s[0].kind = SFLOW_SMP_FLOW;
	s[0].h.flow.output_value = 17;
	s[0].nrecords = 2;
	s[0].records = rec;
	s[1].tag = SFLOW_SAMPLE_DISCARD;
	s[1].kind = SFLOW_SMP_DISCARD;
	s[1].h.discard.reason = 259;
	dgram(&d, 1, 100);
	d.nsamples = 2;
	d.samples = s;
	collect_checks_datagram(r.c, &r.rx, &d);
	memset(&err, 0, sizeof(err));
	err.offset = 44;
	snprintf(err.msg, sizeof(err.msg), "offset 44: bad");
	r.rx.src.type = SFLOW_ADDR_IP4;
	r.rx.src.a[0] = 127;
	r.rx.src.a[3] = 1;
	collect_checks_malformed(r.c, &r.rx, &err);
	collect_checks_skipped(r.c, "not_udp");
	collect_checks_skipped(r.c, "not_udp");
	ck_assert_str_eq(rig_text(&r),
			 "malformed datagram source=127.0.0.1 size=100 offset=44 reason=offset 44: "
			 "bad\n");
	ck_assert_uint_eq(collect_checks_malformed_count(r.c), 1);

	sf = open_memstream(&sum, &sumlen);
	collect_checks_summary(r.c, sf);
	fclose(sf);
	ck_assert_ptr_nonnull(strstr(sum, "\ndatagrams 2\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nbytes 200\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nmalformedDatagrams 1\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nskippedFrames 2\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nsamples 2\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nrecords 2\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nunknownTags 1\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nsamples.0:3 1\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nsamples.0:5 1\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nrecords.flow.0:1036 1\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nrecords.flow.0:999.unknown 1\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\ndiscards.259.no_buffer_space 1\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nflowSamples.outputPort.17.queue.6 1\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nskipped.not_udp 2\n"));
	ck_assert(strncmp(sum, "startSummary ", 13) == 0);
	free(sum);
	rig_close(&r);
}
END_TEST

/* bsflowd's visibility event samples (own E:1) have a sequence per data
 * source and one visibility_event record, first; sampler statistics (own
 * E:7) must add up. */

/* An event sample from source 0:12, sequence 1, with its event record. */
static void event_sample(struct sflow_sample *s, struct sflow_record *rec)
{
	memset(s, 0, sizeof(*s));
	memset(rec, 0, sizeof(*rec));
	s->tag = SFLOW_TAG(SFLOW_ENT_OWN_DEFAULT, SFLOW_OWN_SMP_EVENT);
	s->kind = SFLOW_SMP_OWN;
	s->h.own.format = SFLOW_OWN_SMP_EVENT;
	s->h.own.u.event.sequence_number = 1;
	s->h.own.u.event.source_id_index = 12;
	rec->tag = SFLOW_TAG(SFLOW_ENT_OWN_DEFAULT, SFLOW_OWN_VIS_EVENT);
	rec->kind = SFLOW_REC_OWN;
	rec->u.own.format = SFLOW_OWN_VIS_EVENT;
	s->nrecords = 1;
	s->records = rec;
}

/* A datagram (sequence seq, uptime seq * 100) with sample s alone. */
static void feed1(struct rig *r, struct sflow_sample *s, uint32_t seq)
{
	struct sflow_datagram d;

	dgram(&d, seq, seq * 100);
	d.nsamples = 1;
	d.samples = s;
	collect_checks_datagram(r->c, &r->rx, &d);
}

START_TEST(own_event_sequence)
{
	struct rig r;
	struct sflow_sample s;
	struct sflow_record rec[2];

	rig_open(&r);
	event_sample(&s, rec);
	feed1(&r, &s, 1);
	s.h.own.u.event.sequence_number = 2;
	feed1(&r, &s, 2);
	ck_assert_str_eq(rig_text(&r), "");
	s.h.own.u.event.sequence_number = 5;
	feed1(&r, &s, 3);
	ck_assert_str_eq(rig_text(&r), "gap sample agent=192.0.2.1 subAgent=0 "
				       "sampleType=visibility_event_sample sourceId=0:12 "
				       "expected=3 received=5 missing=2\n");
	rig_close(&r);
}
END_TEST

/* Exactly one visibility_event record, the first. */
START_TEST(own_event_records)
{
	struct rig r;
	struct sflow_sample s;
	struct sflow_record rec[2];

	rig_open(&r);
	event_sample(&s, rec);
	feed1(&r, &s, 1);
	ck_assert_str_eq(rig_text(&r), "");
	s.h.own.u.event.sequence_number = 2;
	s.nrecords = 0; /* none */
	feed1(&r, &s, 2);
	ck_assert_str_eq(rig_text(&r), "bad event sample agent=192.0.2.1 subAgent=0 sourceId=0:12 "
				       "sequence=2 visibilityEvents=0 first=no\n");
	ck_assert_uint_eq(collect_checks_own_errors(r.c), 1);
	rig_close(&r);

	rig_open(&r);
	event_sample(&s, rec);
	rec[1] = rec[0]; /* two */
	s.nrecords = 2;
	feed1(&r, &s, 1);
	s.h.own.u.event.sequence_number = 2;
	rec[0].kind = SFLOW_REC_TRANSIT; /* one, not first */
	rec[0].tag = SFLOW_FLOW_TRANSIT;
	feed1(&r, &s, 2);
	ck_assert_str_eq(rig_text(&r), "bad event sample agent=192.0.2.1 subAgent=0 sourceId=0:12 "
				       "sequence=1 visibilityEvents=2 first=yes\n"
				       "bad event sample agent=192.0.2.1 subAgent=0 sourceId=0:12 "
				       "sequence=2 visibilityEvents=1 first=no\n");
	ck_assert_uint_eq(collect_checks_own_errors(r.c), 2);
	rig_close(&r);
}
END_TEST

/* One sampler_stat on the wire: name "x=y" (3 + 1 pad), then the counts. */
static size_t sampler_bytes(uint8_t *p, uint64_t seen, uint64_t passed, uint64_t no_ticket)
{
	size_t n = 0;
	const uint64_t v[] = {seen, passed, 0, 0, 0, 0, no_ticket, 0, 0, 0, 0};

	memset(p, 0, 104 + 4);
	p[3] = 3;
	memcpy(p + 4, "x=y", 3);
	n = 8;
	for (size_t i = 0; i < 11; i++, n += 8)
		for (int b = 0; b < 8; b++)
			p[n + (size_t)b] = (uint8_t)(v[i] >> (56 - 8 * b));
	return n + 4 + 8; /* ticket_batch, consumed_all: 0 */
}

START_TEST(own_sampler_stats)
{
	struct rig r;
	struct sflow_datagram d;
	struct sflow_sample s;
	struct sflow_record rec;
	uint8_t wire[2 * 108];
	size_t n;
	char *sum = NULL;
	size_t sumlen = 0;
	FILE *sf;

	rig_open(&r);
	n = sampler_bytes(wire, 10, 6, 4); /* adds up */
	ck_assert_uint_eq(n, 108);
	n += sampler_bytes(wire + n, 10, 6, 3); /* does not */
	memset(&s, 0, sizeof(s));
	memset(&rec, 0, sizeof(rec));
	rec.tag = SFLOW_TAG(SFLOW_ENT_OWN_DEFAULT, SFLOW_OWN_SAMPLER_STATS);
	rec.kind = SFLOW_REC_OWN;
	rec.u.own.format = SFLOW_OWN_SAMPLER_STATS;
	rec.u.own.u.samplers.n = 2;
	rec.u.own.u.samplers.len = (uint32_t)n;
	rec.u.own.u.samplers.p = wire;
	s.tag = SFLOW_SAMPLE_COUNTERS_EXP;
	s.kind = SFLOW_SMP_COUNTERS;
	s.h.counters.source_id_type = 2;
	s.h.counters.source_id_index = 1;
	s.nrecords = 1;
	s.records = &rec;
	dgram(&d, 1, 100);
	d.nsamples = 1;
	d.samples = &s;
	collect_checks_datagram(r.c, &r.rx, &d);
	ck_assert_str_eq(rig_text(&r), "sampler mismatch agent=192.0.2.1 subAgent=0 sourceId=2:1 "
				       "sampler=x\\x3dy seen=10 passed=6 rejected=3\n");
	ck_assert_uint_eq(collect_checks_own_errors(r.c), 1);
	sf = open_memstream(&sum, &sumlen);
	collect_checks_summary(r.c, sf);
	fclose(sf);
	ck_assert_ptr_nonnull(strstr(sum, "\nsamplerMismatches 1\n"));
	ck_assert_ptr_nonnull(strstr(sum, "\nrecords.counters.32473:7 1\n"));
	free(sum);
	rig_close(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("collect_checks");
	TCase *t = tcase_create("checks");

	tcase_add_test(t, datagram_in_order_and_gap);
	tcase_add_test(t, datagram_wrap_and_resets);
	tcase_add_test(t, sample_sequences);
	tcase_add_test(t, summary_lines);
	tcase_add_test(t, own_event_sequence);
	tcase_add_test(t, own_event_records);
	tcase_add_test(t, own_sampler_stats);
	tcase_add_test(t, agents_bounded);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
