/*
 * bench_compare.c - the encode workload of make bench-compare: the same port
 * counter samples (generic 0:1 and ethernet 0:2 interface counters, in
 * expanded 0:4 samples) packed into 1400-byte datagrams with a discarding
 * send (libsflow encodes each straight into the datagram), once through libsflow and once through
 * hsflowd's src/sflow library, which make bench-compare compiles from HSFLOW_SRC at bench time
 * (this file only calls its public API; none of its code is in this tree).
 *
 * First both datagram streams are compared byte for byte (uptime 0 on both
 * sides), then the two encoders run in turn, about 0.2 s each, PAIRS times;
 * each pair gives a ratio, and the median rates and ratio are printed.
 * Not a test: nothing here passes or fails on a number.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

#include "proto/sflow_encode.h"
#include "sflow_api.h"

#define PAIRS 7
#define ROUND 0.2
#define DGRAM 1400
#define BATCH 256

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile uint32_t sink;
static uint64_t sent_dgrams, sent_bytes;

/* The first datagram of each side, for the byte comparison. */
static uint8_t first[2][DGRAM];
static size_t first_len[2];
static int capture = -1; /* which side records its first datagram, or -1 */

static void consume(int side, const uint8_t *p, size_t len)
{
	if (capture == side && first_len[side] == 0 && len <= DGRAM) {
		memcpy(first[side], p, len);
		first_len[side] = len;
	}
	sink += p[len - 1];
	sent_dgrams++;
	sent_bytes += len;
}

/* The counter values of sample i, the same on both sides. */
#define IF_INDEX(i) (1 + ((i)&1023))

/* ---- libsflow */

static struct sflow_dgram_builder builder;
static uint32_t ours_seq, ours_sample_seq;

/* Encoded straight into the datagram being built (sflow_builder_open). */
static void ours_encode(struct sflow_w *w, uint32_t i, uint32_t seq)
{
	struct sflow_sample_enc s;
	struct sflow_counters_sample h = {seq, SFLOW_DS_IFINDEX, IF_INDEX(i)};
	struct sflow_if_counters ifc = {
	    IF_INDEX(i), 6, 100000000000ull, 1,	    3,	   1000ull * i, i, i + 1, i + 2, 0,
	    0,		 0, 2000ull * i,     i + 3, i + 4, i + 5,	0, 0,	  0};
	struct sflow_eth_counters eth = {0};

	sflow_enc_counters_begin(w, &s, &h);
	sflow_enc_if_counters(w, &s, &ifc);
	sflow_enc_eth_counters(w, &s, &eth);
	sflow_enc_sample_end(w, &s);
}

static void ours_sample(uint32_t i)
{
	struct sflow_w w;
	size_t len;

	++ours_sample_seq;
	sflow_builder_open(&builder, &w);
	ours_encode(&w, i, ours_sample_seq);
	if (sflow_builder_commit(&builder, &w) == SFLOW_ERR_FULL) {
		const uint8_t *out = sflow_builder_finish(&builder, ++ours_seq, 0, &len);

		consume(0, out, len);
		sflow_builder_open(&builder, &w);
		ours_encode(&w, i, ours_sample_seq);
		sflow_builder_commit(&builder, &w);
	}
}

static void ours_init(void)
{
	struct sflow_addr agent = {SFLOW_ADDR_IP4, {192, 0, 2, 1}};

	sflow_builder_init(&builder, &agent, 0, DGRAM, 0);
	ours_seq = 0;
	ours_sample_seq = 0;
}

/* ---- hsflowd's library */

static SFLAgent agent;
static SFLPoller *poller;

static void hs_send(void *magic, struct iovec *iov, int iovcnt)
{
	static uint8_t flat[SFLOW_DGRAM_MAX];
	size_t len = 0;
	int k;

	(void)magic;
	if (iovcnt == 1) {
		consume(1, iov[0].iov_base, iov[0].iov_len);
		return;
	}
	for (k = 0; k < iovcnt && len + iov[k].iov_len <= sizeof flat; k++) {
		memcpy(flat + len, iov[k].iov_base, iov[k].iov_len);
		len += iov[k].iov_len;
	}
	consume(1, flat, len);
}

static uint64_t hs_now(void *magic)
{
	(void)magic;
	return 0;
}

static void hs_sample(uint32_t i)
{
	SFL_COUNTERS_SAMPLE_TYPE cs;
	SFLCounters_sample_element gen, eth;

	memset(&cs, 0, sizeof cs);
	memset(&gen, 0, sizeof gen);
	memset(&eth, 0, sizeof eth);
	gen.tag = SFLCOUNTERS_GENERIC;
	gen.counterBlock.generic.ifIndex = IF_INDEX(i);
	gen.counterBlock.generic.ifType = 6;
	gen.counterBlock.generic.ifSpeed = 100000000000ull;
	gen.counterBlock.generic.ifDirection = 1;
	gen.counterBlock.generic.ifStatus = 3;
	gen.counterBlock.generic.ifInOctets = 1000ull * i;
	gen.counterBlock.generic.ifInUcastPkts = i;
	gen.counterBlock.generic.ifInMulticastPkts = i + 1;
	gen.counterBlock.generic.ifInBroadcastPkts = i + 2;
	gen.counterBlock.generic.ifOutOctets = 2000ull * i;
	gen.counterBlock.generic.ifOutUcastPkts = i + 3;
	gen.counterBlock.generic.ifOutMulticastPkts = i + 4;
	gen.counterBlock.generic.ifOutBroadcastPkts = i + 5;
	eth.tag = SFLCOUNTERS_ETHERNET;
	/* the list is built at its head: ethernet first so generic leads */
	SFLADD_ELEMENT(&cs, &eth);
	SFLADD_ELEMENT(&cs, &gen);
	poller->dsi.ds_index = IF_INDEX(i);
	sfl_poller_writeCountersSample(poller, &cs);
}

static void hs_init(void)
{
	SFLAddress a;
	SFLDataSource_instance dsi;
	SFLReceiver *rcv;
	time_t t = time(NULL);

	memset(&a, 0, sizeof a);
	a.type = SFLADDRESSTYPE_IP_V4;
	memcpy(&a.address.ip_v4, (uint8_t[]){192, 0, 2, 1}, 4);
	sfl_agent_init(&agent, &a, 0, t, t, NULL, NULL, NULL, NULL, NULL);
	rcv = sfl_agent_addReceiver(&agent);
	sfl_receiver_set_sFlowRcvrOwner(rcv, "bench");
	sfl_receiver_set_sFlowRcvrTimeout(rcv, 0xFFFFFFFF);
	sfl_receiver_set_sFlowRcvrMaximumDatagramSize(rcv, DGRAM);
	/* these rebuild the receiver's datagram with the size above */
	sfl_agent_init_sfdg_nowFn(&agent, hs_now);
	sfl_agent_init_sfdg_sendFn(&agent, hs_send);
	SFL_DS_SET(dsi, SFL_DSCLASS_IFINDEX, 1, 0);
	poller = sfl_agent_addPoller(&agent, &dsi, NULL, NULL);
	sfl_poller_set_sFlowCpReceiver(poller, 1);
}

/* ---- the comparison */

/* Samples per second of one side over about `secs` seconds. */
static double run(int side, double secs)
{
	uint64_t n = 0;
	uint32_t i = 0;
	double t0 = now(), t;

	do {
		for (int k = 0; k < BATCH; k++, i++) {
			if (side == 0)
				ours_sample(i);
			else
				hs_sample(i);
		}
		n += BATCH;
		t = now() - t0;
	} while (t < secs);
	return (double)n / t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(void)
{
	double a[PAIRS], b[PAIRS], r[PAIRS], ma, mb, mr;
	size_t k;

	ours_init();
	hs_init();
	/* the same 64 samples on each side: the first full datagrams */
	for (int side = 0; side < 2; side++) {
		capture = side;
		for (uint32_t i = 0; i < 64 && first_len[side] == 0; i++)
			side == 0 ? ours_sample(i) : hs_sample(i);
	}
	capture = -1;
	for (k = 0; k < first_len[0] && k < first_len[1] && first[0][k] == first[1][k]; k++)
		;
	if (first_len[0] && first_len[0] == first_len[1] && k == first_len[0])
		printf("encode: first datagrams byte-identical (%zu bytes)\n", first_len[0]);
	else
		printf("encode: first datagrams DIFFER at byte %zu (lengths %zu and %zu)\n", k,
		       first_len[0], first_len[1]);
	run(0, ROUND); /* warm-up */
	run(1, ROUND);
	for (int p = 0; p < PAIRS; p++) {
		a[p] = run(0, ROUND);
		b[p] = run(1, ROUND);
		r[p] = a[p] / b[p];
	}
	ma = median(a, PAIRS);
	mb = median(b, PAIRS);
	mr = median(r, PAIRS); /* sorts r: r[0] is the smallest ratio */
	printf("encode 0:1+0:2 samples into %d-byte datagrams, median of %d pairs:\n", DGRAM,
	       PAIRS);
	printf("  bsflowd proto     %.2f M samples/s\n", ma / 1e6);
	printf("  hsflowd src/sflow %.2f M samples/s\n", mb / 1e6);
	printf("  ratio bsflowd/hsflowd %.2f (min %.2f, max %.2f)\n", mr, r[0], r[PAIRS - 1]);
	return (int)(sink & 0);
}
