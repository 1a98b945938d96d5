/*
 * test_export.c - the exporter: samples share datagrams, a datagram goes
 * out when the next sample would not fit (at the end of the loop's turn,
 * together with the others finished in it), on export_flush() and from
 * the one-second timer; 200 datagrams filled in one turn all arrive, in
 * sequence; every datagram goes to every collector; sequence
 * numbers count datagrams per (agent, sub-agent) stream and survive a
 * change of size or collectors; samples are numbered per stream and data
 * source (a new agent address numbers from 1, an earlier one goes on); a
 * sample that can never fit is refused;
 * send errors to a closed port are counted, never fatal.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent/addr.h"
#include "agent/export.h"
#include "agent/log.h"
#include "agent/tests/testnet.h"

struct dg {
	size_t len;
	uint32_t seq, nsamples, sub;
	size_t hdr;
};

/* One datagram that is already there (loopback delivers at once). */
static int recv_dg(int fd, struct dg *d)
{
	uint8_t buf[9000];
	ssize_t r = recv(fd, buf, sizeof buf, MSG_DONTWAIT);

	if (r < 0)
		return 0;
	ck_assert_int_ge(r, 28);
	ck_assert_uint_eq(test_be32(buf), 5);
	d->len = (size_t)r;
	d->hdr = test_be32(buf + 4) == 1 ? 28 : 40;
	d->sub = test_be32(buf + d->hdr - 16);
	d->seq = test_be32(buf + d->hdr - 12);
	d->nsamples = test_be32(buf + d->hdr - 4);
	return 1;
}

static struct conf_collector coll(const char *name, unsigned port)
{
	struct conf_collector c;

	memset(&c, 0, sizeof c);
	snprintf(c.name, sizeof c.name, "%s", name);
	snprintf(c.address, sizeof c.address, "127.0.0.1");
	c.port = (uint16_t)port;
	return c;
}

/* A sample of n bytes (n a multiple of 4, >= 8): a tag, the body length,
 * filler; the exporter checks only that framing. */
static void fake_sample(uint8_t *s, size_t n)
{
	uint32_t body = (uint32_t)(n - 8);

	memset(s, 0xab, n);
	s[0] = 0;
	s[1] = 0x0f; /* an own sample type, 0xf00 */
	s[2] = 0x0f;
	s[3] = 0;
	s[4] = (uint8_t)(body >> 24);
	s[5] = (uint8_t)(body >> 16);
	s[6] = (uint8_t)(body >> 8);
	s[7] = (uint8_t)body;
}

static void add(struct export *x, size_t n)
{
	uint8_t s[2048];

	fake_sample(s, n);
	ck_assert_int_eq(export_add(x, s, n), 0);
}

START_TEST(packing_and_sequence)
{
	struct event_base *base = event_base_new();
	struct export *x = export_new(base);
	struct sflow_addr agent;
	struct conf_collector cs[2];
	struct export_collector_stats st;
	unsigned p1, p2;
	int s1 = test_udp_listener(&p1), s2 = test_udp_listener(&p2);
	char err[256];
	struct dg d;
	uint8_t big[512];

	ck_assert_int_eq(bsf_addr_parse("192.0.2.1", &agent), 0);
	ck_assert_int_eq(export_set_agent(x, &agent, 4, 300, err, sizeof err), 0);
	ck_assert_uint_eq(export_sample_room(x), 300 - 28);
	cs[0] = coll("one", p1);
	cs[1] = coll("two", p2);
	export_set_collectors(x, cs, 2);
	ck_assert_uint_eq(export_n_collectors(x), 2);

	/* 28 + 3 * 80 = 268 fits in 300; the fourth sample does not */
	add(x, 80);
	add(x, 80);
	add(x, 80);
	ck_assert_int_eq(recv_dg(s1, &d), 0);
	add(x, 80);
	/* the full datagram is queued, sent at the end of the loop's turn */
	ck_assert_int_eq(recv_dg(s1, &d), 0);
	event_base_loop(base, EVLOOP_NONBLOCK);
	ck_assert_int_eq(recv_dg(s1, &d), 1);
	ck_assert_uint_eq(d.len, 268);
	ck_assert_uint_eq(d.nsamples, 3);
	ck_assert_uint_eq(d.seq, 1);
	ck_assert_uint_eq(d.sub, 4);
	ck_assert_int_eq(recv_dg(s2, &d), 1); /* the same to the other one */
	ck_assert_uint_eq(d.seq, 1);
	ck_assert_uint_eq(d.nsamples, 3);
	/* flush sends the pending one */
	export_flush(x);
	ck_assert_int_eq(recv_dg(s1, &d), 1);
	ck_assert_uint_eq(d.nsamples, 1);
	ck_assert_uint_eq(d.seq, 2);
	ck_assert_int_eq(recv_dg(s2, &d), 1);
	/* nothing pending: nothing sent, no sequence number used */
	export_flush(x);
	ck_assert_int_eq(recv_dg(s1, &d), 0);
	ck_assert_uint_eq(export_sequence(x), 3);
	/* a sample exactly as big as the room fits alone */
	add(x, 272);
	export_flush(x);
	ck_assert_int_eq(recv_dg(s1, &d), 1);
	ck_assert_uint_eq(d.len, 300);
	ck_assert_uint_eq(d.seq, 3);
	ck_assert_int_eq(recv_dg(s2, &d), 1);
	/* one that can never fit is refused, without sending anything */
	fake_sample(big, 276);
	ck_assert_int_eq(export_add(x, big, 276), -1);
	/* and so is one whose framing is wrong */
	big[7] ^= 8;
	ck_assert_int_eq(export_add(x, big, 272), -1);
	export_flush(x);
	ck_assert_int_eq(recv_dg(s1, &d), 0);

	/* a bigger datagram size: the stream and its numbers go on */
	add(x, 80);
	ck_assert_int_eq(export_set_agent(x, &agent, 4, 1400, err, sizeof err), 0);
	ck_assert_int_eq(recv_dg(s1, &d), 1); /* pending data flushed first */
	ck_assert_uint_eq(d.seq, 4);
	ck_assert_int_eq(recv_dg(s2, &d), 1);
	/* drop collector one; two keeps its counters */
	cs[0] = coll("two", p2);
	export_set_collectors(x, cs, 1);
	add(x, 600);
	add(x, 600);
	export_flush(x);
	ck_assert_int_eq(recv_dg(s1, &d), 0);
	ck_assert_int_eq(recv_dg(s2, &d), 1);
	ck_assert_uint_eq(d.seq, 5);
	ck_assert_uint_eq(d.nsamples, 2);
	ck_assert_uint_eq(d.len, 28 + 1200);
	export_collector_stats(x, 0, &st);
	ck_assert_str_eq(st.name, "two");
	ck_assert_uint_eq(st.datagrams, 5);
	ck_assert_uint_eq(st.bytes, 268 + 108 + 300 + 108 + 1228);
	ck_assert_uint_eq(st.errors, 0);

	/* another sub-agent is another stream, numbered from 1; back to the
	 * first one, its numbering goes on */
	ck_assert_int_eq(export_set_agent(x, &agent, 5, 1400, err, sizeof err), 0);
	add(x, 40);
	export_flush(x);
	ck_assert_int_eq(recv_dg(s2, &d), 1);
	ck_assert_uint_eq(d.sub, 5);
	ck_assert_uint_eq(d.seq, 1);
	ck_assert_int_eq(export_set_agent(x, &agent, 4, 1400, err, sizeof err), 0);
	add(x, 40);
	export_flush(x);
	ck_assert_int_eq(recv_dg(s2, &d), 1);
	ck_assert_uint_eq(d.sub, 4);
	ck_assert_uint_eq(d.seq, 6);

	export_free(x);
	event_base_free(base);
	close(s1);
	close(s2);
}
END_TEST

/* A 20-byte expanded sample of type tag from data source type:index,
 * with sequence number 100 (which the exporter replaces). */
static void numbered_sample(uint8_t *s, uint32_t tag, uint32_t type, uint32_t index)
{
	const uint32_t w[5] = {tag, 12, 100, type, index};

	for (int i = 0; i < 5; i++) {
		s[4 * i] = (uint8_t)(w[i] >> 24);
		s[4 * i + 1] = (uint8_t)(w[i] >> 16);
		s[4 * i + 2] = (uint8_t)(w[i] >> 8);
		s[4 * i + 3] = (uint8_t)w[i];
	}
}

/* The sequence numbers of the samples of the next datagram, in order. */
static unsigned recv_seqs(int fd, uint32_t *seq, unsigned max)
{
	uint8_t buf[9000];
	ssize_t r = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
	unsigned n = 0;

	ck_assert_int_gt(r, 28);
	for (size_t off = 28; off + 8 <= (size_t)r && n < max; off += 8 + test_be32(buf + off + 4))
		seq[n++] = test_be32(buf + off + 8);
	return n;
}

/* Agent address A, then B, then A again (sub-agent 0): A's samples go on
 * with A's numbers after B's, which start from 1; each (sample type,
 * data source) has its own numbers; a sample refused does not use one.
 * Before, the producers' own numbers went out: A's jumped by what was
 * sent under B, and collectors saw gaps. */
START_TEST(sample_sequences_per_stream)
{
	struct event_base *base = event_base_new();
	struct export *x = export_new(base);
	struct sflow_addr a, b;
	struct conf_collector cs[1];
	unsigned p1;
	int s1 = test_udp_listener(&p1);
	char err[256];
	uint8_t smp[20], big[1400];
	uint32_t seq[8];

	ck_assert_int_eq(bsf_addr_parse("192.0.2.1", &a), 0);
	ck_assert_int_eq(bsf_addr_parse("192.0.2.2", &b), 0);
	ck_assert_int_eq(export_set_agent(x, &a, 0, 1400, err, sizeof err), 0);
	cs[0] = coll("one", p1);
	export_set_collectors(x, cs, 1);
	/* A: three 0:4 of port 7, one 0:3 of port 7, one 0:4 of port 8 */
	numbered_sample(smp, SFLOW_TAG(0, 4), 0, 7);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(export_add(x, smp, sizeof smp), 0);
	numbered_sample(smp, SFLOW_TAG(0, 3), 0, 7);
	ck_assert_int_eq(export_add(x, smp, sizeof smp), 0);
	numbered_sample(smp, SFLOW_TAG(0, 4), 0, 8);
	ck_assert_int_eq(export_add(x, smp, sizeof smp), 0);
	export_flush(x);
	/* all standard samples: in the order added */
	ck_assert_uint_eq(recv_seqs(s1, seq, 8), 5);
	ck_assert_uint_eq(seq[0], 1);
	ck_assert_uint_eq(seq[1], 2);
	ck_assert_uint_eq(seq[2], 3);
	ck_assert_uint_eq(seq[3], 1); /* 0:3 of port 7 */
	ck_assert_uint_eq(seq[4], 1); /* 0:4 of port 8 */
	/* a refused sample (too big) uses no number */
	memset(big, 0, sizeof big);
	numbered_sample(big, SFLOW_TAG(0, 4), 0, 7);
	big[7] = (uint8_t)(sizeof big - 8);
	big[6] = (uint8_t)((sizeof big - 8) >> 8);
	ck_assert_int_eq(export_add(x, big, sizeof big), -1);
	/* B: its own numbers from 1 */
	ck_assert_int_eq(export_set_agent(x, &b, 0, 1400, err, sizeof err), 0);
	numbered_sample(smp, SFLOW_TAG(0, 4), 0, 7);
	ck_assert_int_eq(export_add(x, smp, sizeof smp), 0);
	ck_assert_int_eq(export_add(x, smp, sizeof smp), 0);
	/* an own event sample (E:1) has its numbers too */
	numbered_sample(smp, SFLOW_TAG(32473, 1), 0, 7);
	ck_assert_int_eq(export_add(x, smp, sizeof smp), 0);
	export_flush(x);
	ck_assert_uint_eq(recv_seqs(s1, seq, 8), 3);
	ck_assert_uint_eq(seq[0], 1);
	ck_assert_uint_eq(seq[1], 2);
	ck_assert_uint_eq(seq[2], 1);
	/* back to A: on from 3 */
	ck_assert_int_eq(export_set_agent(x, &a, 0, 1400, err, sizeof err), 0);
	numbered_sample(smp, SFLOW_TAG(0, 4), 0, 7);
	ck_assert_int_eq(export_add(x, smp, sizeof smp), 0);
	export_flush(x);
	ck_assert_uint_eq(recv_seqs(s1, seq, 8), 1);
	ck_assert_uint_eq(seq[0], 4);
	export_free(x);
	event_base_free(base);
	close(s1);
}
END_TEST

/* 100 datagrams finished in one turn of the loop: the first 64 (a full
 * queue) go out when the 65th is queued, the rest at the end of the
 * turn; all of them arrive, numbered 1..100 in order. */
START_TEST(batches)
{
	struct event_base *base = event_base_new();
	struct export *x = export_new(base);
	struct sflow_addr agent;
	struct conf_collector cs[1];
	struct export_collector_stats st;
	unsigned p1, n = 0;
	int s1 = test_udp_listener(&p1);
	char err[256];
	struct dg d;

	ck_assert_int_eq(bsf_addr_parse("192.0.2.1", &agent), 0);
	ck_assert_int_eq(export_set_agent(x, &agent, 0, 1400, err, sizeof err), 0);
	cs[0] = coll("one", p1);
	export_set_collectors(x, cs, 1);
	/* 1300-byte samples: one a datagram; the 101st finishes the 100th */
	for (int i = 0; i < 101; i++)
		add(x, 1300);
	while (recv_dg(s1, &d))
		ck_assert_uint_eq(d.seq, ++n);
	ck_assert_uint_eq(n, 64);
	event_base_loop(base, EVLOOP_NONBLOCK);
	while (recv_dg(s1, &d)) {
		ck_assert_uint_eq(d.seq, ++n);
		ck_assert_uint_eq(d.nsamples, 1);
	}
	ck_assert_uint_eq(n, 100);
	export_collector_stats(x, 0, &st);
	ck_assert_uint_eq(st.datagrams, 100);
	ck_assert_uint_eq(st.errors, 0);
	export_flush(x);
	ck_assert_int_eq(recv_dg(s1, &d), 1);
	ck_assert_uint_eq(d.seq, 101);
	export_free(x);
	event_base_free(base);
	close(s1);
}
END_TEST

START_TEST(ipv6_agent)
{
	struct event_base *base = event_base_new();
	struct export *x = export_new(base);
	struct sflow_addr agent;
	struct conf_collector c;
	unsigned p;
	int s = test_udp_listener(&p);
	char err[256];
	struct dg d;

	ck_assert_int_eq(bsf_addr_parse("2001:db8::1", &agent), 0);
	ck_assert_int_eq(export_set_agent(x, &agent, 0, 200, err, sizeof err), 0);
	ck_assert_uint_eq(export_sample_room(x), 160);
	c = coll("v6agent", p);
	export_set_collectors(x, &c, 1);
	add(x, 160);
	export_flush(x);
	ck_assert_int_eq(recv_dg(s, &d), 1);
	ck_assert_uint_eq(d.hdr, 40);
	ck_assert_uint_eq(d.len, 200);
	export_free(x);
	event_base_free(base);
	close(s);
}
END_TEST

START_TEST(flush_timer)
{
	/* a pending sample goes out from the loop without export_flush() */
	struct event_base *base = event_base_new();
	struct export *x = export_new(base);
	struct sflow_addr agent;
	struct conf_collector c;
	unsigned p;
	int s = test_udp_listener(&p);
	char err[256];
	struct dg d;

	ck_assert_int_eq(bsf_addr_parse("192.0.2.1", &agent), 0);
	ck_assert_int_eq(export_set_agent(x, &agent, 0, 1400, err, sizeof err), 0);
	c = coll("timer", p);
	export_set_collectors(x, &c, 1);
	add(x, 100);
	ck_assert_int_eq(recv_dg(s, &d), 0);
	/* the only event is the flush timer: the loop ends after it fired,
	 * with nothing left pending (1) */
	ck_assert_int_eq(event_base_dispatch(base), 1);
	ck_assert_int_eq(recv_dg(s, &d), 1);
	ck_assert_uint_eq(d.nsamples, 1);
	ck_assert_uint_eq(d.seq, 1);
	export_free(x);
	event_base_free(base);
	close(s);
}
END_TEST

START_TEST(send_errors)
{
	/* a collector port nobody listens on: ICMP port unreachable comes
	 * back and later sends fail with ECONNREFUSED; counted, not fatal */
	struct event_base *base = event_base_new();
	struct export *x = export_new(base);
	struct sflow_addr agent;
	struct conf_collector c;
	struct export_collector_stats st;
	unsigned p;
	int s = test_udp_listener(&p);
	char err[256];

	close(s); /* now nothing listens on p */
	ck_assert_int_eq(bsf_addr_parse("192.0.2.1", &agent), 0);
	ck_assert_int_eq(export_set_agent(x, &agent, 0, 1400, err, sizeof err), 0);
	c = coll("nobody", p);
	export_set_collectors(x, &c, 1);
	for (int i = 0; i < 10; i++) {
		add(x, 100);
		export_flush(x);
	}
	export_collector_stats(x, 0, &st);
	ck_assert_uint_eq(st.datagrams + st.errors, 10);
	ck_assert_uint_ge(st.errors, 1);
	ck_assert_uint_eq(export_sequence(x), 11);
	export_free(x);
	event_base_free(base);
}
END_TEST

START_TEST(unresolvable)
{
	/* a collector that cannot be resolved is kept and counted */
	struct event_base *base = event_base_new();
	struct export *x = export_new(base);
	struct sflow_addr agent;
	struct conf_collector c;
	struct export_collector_stats st;
	char err[256];

	ck_assert_int_eq(bsf_addr_parse("192.0.2.1", &agent), 0);
	ck_assert_int_eq(export_set_agent(x, &agent, 0, 1400, err, sizeof err), 0);
	c = coll("bad", 6343);
	c.address[0] = '\0'; /* fails at once, without asking DNS */
	export_set_collectors(x, &c, 1);
	add(x, 100);
	export_flush(x);
	export_collector_stats(x, 0, &st);
	ck_assert_uint_eq(st.datagrams, 0);
	ck_assert_uint_eq(st.errors, 1);
	ck_assert_str_eq(st.dest, "(not open)");
	export_free(x);
	event_base_free(base);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("export");
	TCase *tc = tcase_create("export");
	SRunner *sr;
	int nf;

	bsf_log_init("test_export", 0, 1);
	tcase_add_test(tc, packing_and_sequence);
	tcase_add_test(tc, batches);
	tcase_add_test(tc, ipv6_agent);
	tcase_add_test(tc, sample_sequences_per_stream);
	tcase_add_test(tc, flush_timer);
	tcase_add_test(tc, send_errors);
	tcase_add_test(tc, unresolvable);
	tcase_set_timeout(tc, 20);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
