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
 * then the ratios of encode and decode to memcpy from short rounds of the
 * three taken in turn (the median of 15 such triples).
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

/* Each round runs about `secs` seconds and returns MB/s of datagram
 * bytes; *per_s is its datagrams a second (or samples for encode). */

/* Encode port samples into full datagrams. */
static double encode_round(double secs, double *per_s, size_t *sample_len)
{
	struct sflow_addr agent = {SFLOW_ADDR_IP4, {192, 0, 2, 1}};
	uint8_t scratch[512];
	uint64_t samples = 0, bytes = 0;
	static uint32_t seq, i;
	double t0, t;
	size_t n = 0, len;

	sflow_builder_init(&builder, &agent, 0, SFLOW_DGRAM_DEFAULT, 0);
	t0 = now();
	do {
		for (int k = 0; k < BATCH; k++, i++) {
			n = encode_port_sample(scratch, sizeof scratch, i);
			if (sflow_builder_add(&builder, scratch, n) == SFLOW_ERR_FULL) {
				const uint8_t *out = sflow_builder_finish(&builder, ++seq, i, &len);

				sink += out[len - 1];
				bytes += len;
				if (sflow_builder_add(&builder, scratch, n) != SFLOW_OK)
					exit(1);
			}
			samples++;
		}
		t = now() - t0;
	} while (t < secs);
	*per_s = samples / t;
	if (sample_len)
		*sample_len = n;
	return bytes / t / 1e6;
}

/* Decode and free the kept datagram. */
static double decode_round(double secs, double *per_s)
{
	uint64_t count = 0;
	double t0, t;

	t0 = now();
	do {
		for (int k = 0; k < BATCH; k++) {
			struct sflow_datagram d;
			struct sflow_decode_error err;

			if (sflow_decode(dgram, dgram_len, NULL, &d, &err) != SFLOW_OK) {
				fprintf(stderr, "bench_proto: decode failed: %s\n", err.msg);
				exit(1);
			}
			sink +=
			    d.samples[d.nsamples - 1].records[2].u.bst_port.egress_queue_uc_pc[7];
			sflow_datagram_free(&d);
			count++;
		}
		t = now() - t0;
	} while (t < secs);
	*per_s = count / t;
	return count * dgram_len / t / 1e6;
}

/* Copy the kept datagram. */
static double memcpy_round(double secs, double *per_s)
{
	static uint8_t dst[SFLOW_DGRAM_MAX];
	uint64_t count = 0;
	double t0, t;

	t0 = now();
	do {
		for (int k = 0; k < BATCH * 16; k++) {
			memcpy(dst, dgram, dgram_len);
			/* make every copy observable */
			sink += dst[count % dgram_len];
			count++;
		}
		t = now() - t0;
	} while (t < secs);
	*per_s = count / t;
	return count * dgram_len / t / 1e6;
}

/* Keep one full datagram for decode and memcpy (a builder started afresh:
 * its fields are its own). */
static void keep_datagram(void)
{
	struct sflow_addr agent = {SFLOW_ADDR_IP4, {192, 0, 2, 1}};
	uint8_t scratch[512];
	const uint8_t *out;
	size_t n, len;

	sflow_builder_init(&builder, &agent, 0, SFLOW_DGRAM_DEFAULT, 0);
	for (uint32_t i = 0;; i++) {
		n = encode_port_sample(scratch, sizeof scratch, i);
		if (sflow_builder_add(&builder, scratch, n) != SFLOW_OK)
			break;
	}
	out = sflow_builder_finish(&builder, 1, 1, &len);
	memcpy(dgram, out, len);
	dgram_len = len;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#define PAIRS 15

int main(void)
{
	double enc, dec, cpy, per_s, samples_s, re[PAIRS], rd[PAIRS];
	size_t n = 0;

	keep_datagram();
	enc = encode_round(1.0, &samples_s, &n);
	printf("encode: %.0f samples/s, %.1f MB/s of datagrams (full %zu-byte datagrams, sample "
	       "%zu bytes)\n",
	       samples_s, enc, dgram_len, n);
	dec = decode_round(1.0, &per_s);
	printf("decode: %.0f datagrams/s, %.1f MB/s (%zu-byte datagrams)\n", per_s, dec, dgram_len);
	cpy = memcpy_round(1.0, &per_s);
	printf("memcpy: %.0f datagrams/s, %.1f MB/s (same %zu bytes)\n", per_s, cpy, dgram_len);
	/* the ratios from rounds of 0.1 s taken in turn, so that the machine's
	 * load moves the two sides of a pair alike */
	for (int i = 0; i < PAIRS; i++) {
		double e = encode_round(0.1, &per_s, NULL), d = decode_round(0.1, &per_s);
		double c = memcpy_round(0.1, &per_s);

		re[i] = e / c;
		rd[i] = d / c;
	}
	qsort(re, PAIRS, sizeof re[0], cmp_double);
	qsort(rd, PAIRS, sizeof rd[0], cmp_double);
	printf("ratio to memcpy of the same bytes, median of %d paired rounds: encode %.3f "
	       "(min %.3f, max %.3f), decode %.3f (min %.3f, max %.3f); against hsflowd and "
	       "sflowtool: make bench-compare\n",
	       PAIRS, re[PAIRS / 2], re[0], re[PAIRS - 1], rd[PAIRS / 2], rd[0], rd[PAIRS - 1]);
	return 0;
}
