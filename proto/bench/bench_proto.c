/*
 * bench_proto.c - throughput of libsflow, printed as plain lines (make bench).
 *
 * Three measurements of about one second each, on the sample bsflowd sends
 * most: a port counter sample with generic (0:1) and ethernet (0:2)
 * interface counters and BST port buffers (4413:2) with 8 unicast and 8
 * multicast queues (276 bytes; 4 fit a 1400-byte datagram):
 *   encode  samples encoded and packed into full 1400-byte datagrams
 *   decode  those full datagrams decoded and freed
 *   memcpy  the same datagram bytes copied, to read the two against the
 *           machine's memory bandwidth
 * Not a test: nothing here passes or fails on a number.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"

#define BATCH 256

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct sflow_dgram_builder builder;
static double encode_mbs, decode_mbs; /* MB/s, for the ratios to memcpy */
static uint8_t dgram[SFLOW_DGRAM_MAX];
static size_t dgram_len;
static volatile uint32_t sink;

static size_t encode_port_sample(uint8_t *buf, size_t cap, uint32_t i)
{
	struct sflow_w w;
	struct sflow_sample_enc s;
	struct sflow_counters_sample h = {i, SFLOW_DS_IFINDEX, 1 + (i & 63)};
	struct sflow_if_counters ifc = {
	    1 + (i & 63), 6, 100000000000ull, 1,     3, 1000ull * i, i, i + 1, i + 2, 0, 0, 0,
	    2000ull * i,  i, i + 1,	      i + 2, 0, 0,	     0};
	struct sflow_eth_counters eth = {0};
	struct sflow_bst_port bp = {(int32_t)(i % 10001), -1, 5000, 0, 8, {0}, 8, {0}};
	int q;

	for (q = 0; q < 8; q++) {
		bp.egress_queue_uc_pc[q] = (int32_t)((i + (uint32_t)q) % 10001);
		bp.egress_queue_mc_pc[q] = q;
	}
	sflow_w_init(&w, buf, cap);
	sflow_enc_counters_begin(&w, &s, &h);
	sflow_enc_if_counters(&w, &s, &ifc);
	sflow_enc_eth_counters(&w, &s, &eth);
	sflow_enc_bst_port(&w, &s, &bp);
	sflow_enc_sample_end(&w, &s);
	if (w.err != SFLOW_OK) {
		fprintf(stderr, "bench_proto: encode failed: %s\n", sflow_strerror(w.err));
		exit(1);
	}
	return w.len;
}

static void bench_encode(void)
{
	struct sflow_addr agent = {SFLOW_ADDR_IP4, {192, 0, 2, 1}};
	uint8_t scratch[512];
	uint64_t samples = 0, bytes = 0, dgrams = 0;
	uint32_t seq = 0, i = 0;
	double t0, t;
	size_t n, len;

	sflow_builder_init(&builder, &agent, 0, SFLOW_DGRAM_DEFAULT, 0);
	t0 = now();
	do {
		int k;

		for (k = 0; k < BATCH; k++, i++) {
			n = encode_port_sample(scratch, sizeof scratch, i);
			if (sflow_builder_add(&builder, scratch, n) == SFLOW_ERR_FULL) {
				const uint8_t *out = sflow_builder_finish(&builder, ++seq, i, &len);

				sink += out[len - 1];
				bytes += len;
				dgrams++;
				if (sflow_builder_add(&builder, scratch, n) != SFLOW_OK)
					exit(1);
			}
			samples++;
		}
		t = now() - t0;
	} while (t < 1.0);
	encode_mbs = bytes / t / 1e6;
	printf("encode: %.0f samples/s, %.1f MB/s of datagrams (%llu datagrams of %zu bytes, "
	       "sample %zu bytes)\n",
	       samples / t, bytes / t / 1e6, (unsigned long long)dgrams,
	       dgrams ? (size_t)(bytes / dgrams) : 0, n);

	/* keep one full datagram for the other two measurements (a builder
	 * started afresh: its fields are its own) */
	sflow_builder_init(&builder, &agent, 0, SFLOW_DGRAM_DEFAULT, 0);
	for (i = 0;; i++) {
		n = encode_port_sample(scratch, sizeof scratch, i);
		if (sflow_builder_add(&builder, scratch, n) != SFLOW_OK)
			break;
	}
	{
		const uint8_t *out = sflow_builder_finish(&builder, 1, 1, &len);

		memcpy(dgram, out, len);
		dgram_len = len;
	}
}

static void bench_decode(void)
{
	uint64_t count = 0;
	double t0, t;
	uint32_t samples = 0;

	t0 = now();
	do {
		int k;

		for (k = 0; k < BATCH; k++) {
			struct sflow_datagram d;
			struct sflow_decode_error err;

			if (sflow_decode(dgram, dgram_len, NULL, &d, &err) != SFLOW_OK) {
				fprintf(stderr, "bench_proto: decode failed: %s\n", err.msg);
				exit(1);
			}
			samples = d.nsamples;
			sink +=
			    d.samples[d.nsamples - 1].records[2].u.bst_port.egress_queue_uc_pc[7];
			sflow_datagram_free(&d);
			count++;
		}
		t = now() - t0;
	} while (t < 1.0);
	decode_mbs = count * dgram_len / t / 1e6;
	printf("decode: %.0f datagrams/s, %.0f samples/s, %.1f MB/s (%zu-byte datagrams of %u "
	       "samples)\n",
	       count / t, count * samples / t, count * dgram_len / t / 1e6, dgram_len, samples);
}

static void bench_memcpy(void)
{
	static uint8_t dst[SFLOW_DGRAM_MAX];
	uint64_t count = 0;
	double t0, t;

	t0 = now();
	do {
		int k;

		for (k = 0; k < BATCH * 16; k++) {
			memcpy(dst, dgram, dgram_len);
			/* make every copy observable */
			sink += dst[count % dgram_len];
			count++;
		}
		t = now() - t0;
	} while (t < 1.0);
	printf("memcpy: %.0f datagrams/s, %.1f MB/s (same %zu bytes)\n", count / t,
	       count * dgram_len / t / 1e6, dgram_len);
	printf("ratios to memcpy of the same bytes: encode %.3f, decode %.3f (hsflowd and "
	       "sflowtool: make bench-compare)\n",
	       encode_mbs / (count * dgram_len / t / 1e6),
	       decode_mbs / (count * dgram_len / t / 1e6));
}

int main(void)
{
	bench_encode();
	bench_decode();
	bench_memcpy();
	return 0;
}
