/*
 * gen_corpus.c - the seed corpus of the fuzz_decode target.
 *
 * Builds a few valid datagrams: the hand-written vectors of the unit tests
 * (IPv4 and IPv6 agents, compact forms, unknown tags) and some built with
 * the encoder and the builder (full datagrams of port counter samples,
 * flow and discard samples behind an IPv6 agent, bsflowd's own records,
 * its drop records).
 *
 *   gen_corpus -w DIR   write them into DIR (proto/fuzz/corpus/fuzz_decode)
 *   gen_corpus          as a test: each must decode, and each must equal
 *                       the file committed under $top_srcdir, so the corpus
 *                       follows the code (exit 1 naming the stale file)
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_encode.h"
#include "proto/tests/vectors.h"

#define CORPUS_DIR "proto/fuzz/corpus/fuzz_decode"

struct seed {
	const char *name;
	uint8_t buf[SFLOW_DGRAM_MAX];
	size_t len;
};

static struct sflow_dgram_builder builder;

static void copy_seed(struct seed *s, const char *name, const uint8_t *p, size_t n)
{
	s->name = name;
	memcpy(s->buf, p, n);
	s->len = n;
}

static int add(const uint8_t *sample, const struct sflow_w *w)
{
	if (w->err != SFLOW_OK) {
		fprintf(stderr, "gen_corpus: encode: %s\n", sflow_strerror(w->err));
		exit(1);
	}
	return sflow_builder_add(&builder, sample, w->len);
}

static void finish(struct seed *s, const char *name, uint32_t seq)
{
	const uint8_t *out = sflow_builder_finish(&builder, seq, 1000 * seq, &s->len);

	if (!out) {
		fprintf(stderr, "gen_corpus: %s: empty\n", name);
		exit(1);
	}
	s->name = name;
	memcpy(s->buf, out, s->len);
}

/* Port counter samples (0:1 + 0:2 + 0:1005 + 4413:2 with 8 + 8 queues)
 * until the 1400-byte datagram is full. */
static void port_counters(struct seed *s)
{
	struct sflow_addr agent = {SFLOW_ADDR_IP4, {192, 0, 2, 10}};
	uint8_t scratch[512];
	uint32_t port;

	sflow_builder_init(&builder, &agent, 0, SFLOW_DGRAM_DEFAULT, 0);
	for (port = 1;; port++) {
		struct sflow_w w;
		struct sflow_sample_enc e;
		struct sflow_counters_sample h = {port * 3, SFLOW_DS_IFINDEX, port};
		struct sflow_if_counters ifc = {port,
						6,
						100000000000ull,
						1,
						3,
						123456789ull * port,
						1,
						2,
						3,
						4,
						5,
						0xFFFFFFFFu,
						987654321ull * port,
						6,
						7,
						8,
						9,
						10,
						0};
		struct sflow_eth_counters eth = {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 3};
		struct sflow_bst_port bp = {1500, -1,
					    9000, 0,
					    8,	  {0, 10, 20, 30, 40, 50, 60, 10000},
					    8,	  {1, 2, 3, 4, 5, 6, 7, -1}};
		char name[16];

		snprintf(name, sizeof name, "Ethernet%u", port);
		sflow_w_init(&w, scratch, sizeof scratch);
		sflow_enc_counters_begin(&w, &e, &h);
		sflow_enc_if_counters(&w, &e, &ifc);
		sflow_enc_eth_counters(&w, &e, &eth);
		sflow_enc_port_name(&w, &e, name);
		sflow_enc_bst_port(&w, &e, &bp);
		sflow_enc_sample_end(&w, &e);
		if (add(scratch, &w) != SFLOW_OK)
			break;
	}
	finish(s, "port-counters-ipv4", 10);
}

/* Flow and discard samples behind an IPv6 agent. */
static void flows_ipv6(struct seed *s)
{
	struct sflow_addr agent = {SFLOW_ADDR_IP6,
				   {0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x42}};
	uint8_t scratch[512], frame[128];
	struct sflow_w w;
	struct sflow_sample_enc e;
	struct sflow_flow_sample fh = {1, 0, 3, 4096, 409600, 0, 0, 3, 0, 7};
	struct sflow_discard_sample dh = {1, 0, 7, 0, 3, 7, 259};
	struct sflow_sampled_header sh = {SFLOW_HEADER_PROTO_ETHERNET, 1518, 4, 0, frame};
	struct sflow_ext_switch sw = {100, 0, 100, 5};
	size_t i;

	for (i = 0; i < sizeof frame; i++)
		frame[i] = (uint8_t)(i * 7 + 1);
	sflow_builder_init(&builder, &agent, 1, SFLOW_DGRAM_DEFAULT, 0);

	sh.header_length = 128;
	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_enc_flow_begin(&w, &e, &fh);
	sflow_enc_sampled_header(&w, &e, &sh);
	sflow_enc_ext_switch(&w, &e, &sw);
	sflow_enc_egress_queue(&w, &e, 5);
	sflow_enc_transit(&w, &e, 2500000);
	sflow_enc_queue_depth(&w, &e, 1 << 20);
	sflow_enc_timestamp(&w, &e, 1750000000000000000ull);
	sflow_enc_bst_egress_queue(&w, &e, 5);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);

	sh.header_length = 61; /* padded */
	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_enc_discard_begin(&w, &e, &dh);
	sflow_enc_sampled_header(&w, &e, &sh);
	sflow_enc_egress_queue(&w, &e, 5);
	sflow_enc_queue_depth(&w, &e, 0xFFFFFFFFFull);
	sflow_enc_function(&w, &e, "mmu_admission");
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);

	finish(s, "flows-ipv6", 20);
}

/* A device sample (4413:1, then E:7 sampler_stats with two samplers) and
 * a port sample carrying bsflowd's own records next to the standard ones:
 * E:1 port_buffers (four 32-byte buffers) and E:2 queue_buffers (2
 * unicast, 0 multicast buffers); then two visibility event samples (own
 * sample type E:1): a high-delay event with a sampled header and the
 * standard queue, delay, depth and time records, and a port congestion
 * end; last a 0:5 of a sampled drop carrying the drop's own
 * visibility_event record (type drop). */
static void own_records(struct seed *s)
{
	struct sflow_addr agent = {SFLOW_ADDR_IP4, {198, 51, 100, 1}};
	uint8_t scratch[512];
	struct sflow_w w;
	struct sflow_sample_enc e;
	struct sflow_counters_sample dev = {5, SFLOW_DS_ENTITY, 1};
	struct sflow_counters_sample port = {6, SFLOW_DS_IFINDEX, 1};
	struct sflow_bst_device bd = {2500, 0};
	size_t m;
	int i, j;

	static const struct sflow_own_sampler_stat samplers[2] = {
	    {"drops", 1000, 600, 10, 20, 30, 40, 200, 50, 40, 10, -3, 512, 7},
	    {"delay-hot-port-7", 77, 70, 0, 0, 0, 0, 7, 0, 0, 0, 64, 64, 1},
	};
	struct sflow_own_event_sample evs = {1, SFLOW_DS_IFINDEX, 7, 2, 3, 7};
	struct sflow_own_vis_event delay = {SFLOW_OWN_VIS_HIGH_DELAY,
					    SFLOW_OWN_VIS_FLAG_MULTICAST,
					    2,
					    3,
					    42,
					    11,
					    11,
					    5,
					    0,
					    98304,
					    250000,
					    0,
					    UINT64_MAX,
					    0};
	struct sflow_own_vis_event cend = {SFLOW_OWN_VIS_CONGESTION_END,
					   SFLOW_OWN_VIS_FLAG_PORT_SCOPE,
					   0,
					   0,
					   0,
					   12,
					   12,
					   SFLOW_OWN_UNKNOWN32,
					   0,
					   1024,
					   SFLOW_OWN_UNKNOWN32,
					   2097152,
					   1750000000000000000ull,
					   1500000};
	struct sflow_discard_sample drop = {3, SFLOW_DS_ENTITY, 1, 4, 2, 7, 259};
	struct sflow_own_vis_event dropev = {
	    SFLOW_OWN_VIS_DROP, 0, 0, 0, 0, 10, 10, 5, 259, 65536, 0, 0, UINT64_MAX, 0};
	uint8_t frame[64];
	struct sflow_sampled_header sh = {SFLOW_HEADER_PROTO_ETHERNET, 1518, 4, 64, frame};

	for (i = 0; i < (int)sizeof frame; i++)
		frame[i] = (uint8_t)(i * 5 + 3);
	sflow_builder_init(&builder, &agent, 0, SFLOW_DGRAM_DEFAULT, 0);
	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_enc_counters_begin(&w, &e, &dev);
	sflow_enc_bst_device(&w, &e, &bd);
	sflow_own_enc_sampler_stats(&w, &e, SFLOW_ENT_OWN_DEFAULT, samplers, 2);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);

	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_enc_counters_begin(&w, &e, &port);
	sflow_enc_port_name(&w, &e, "swp1");
	m = sflow_enc_record_begin(&w, &e, SFLOW_TAG(SFLOW_ENT_OWN_DEFAULT, 1));
	for (i = 0; i < 4; i++) {
		for (j = 0; j < 5; j++)
			sflow_w_u32(&w, (uint32_t)(100 * i + j));
		sflow_w_i32(&w, 2000 + i);
		sflow_w_u64(&w, 1750000000000000000ull + (uint64_t)i);
	}
	sflow_enc_record_end(&w, m);
	m = sflow_enc_record_begin(&w, &e, SFLOW_TAG(SFLOW_ENT_OWN_DEFAULT, 2));
	sflow_w_u32(&w, 2);
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 5; j++)
			sflow_w_u32(&w, (uint32_t)(10 * i + j + 1));
		sflow_w_i32(&w, -1);
		sflow_w_u64(&w, UINT64_MAX);
	}
	sflow_w_u32(&w, 0);
	sflow_enc_record_end(&w, m);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);

	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_own_enc_event_begin(&w, &e, SFLOW_ENT_OWN_DEFAULT, &evs);
	sflow_own_enc_vis_event(&w, &e, SFLOW_ENT_OWN_DEFAULT, &delay);
	sflow_enc_sampled_header(&w, &e, &sh);
	sflow_enc_egress_queue(&w, &e, 5);
	sflow_enc_transit(&w, &e, 250000);
	sflow_enc_queue_depth(&w, &e, 98304);
	sflow_enc_timestamp(&w, &e, 1750000000000000000ull);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);

	evs.sequence_number = 2;
	evs.input = 0;
	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_own_enc_event_begin(&w, &e, SFLOW_ENT_OWN_DEFAULT, &evs);
	sflow_own_enc_vis_event(&w, &e, SFLOW_ENT_OWN_DEFAULT, &cend);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);

	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_enc_discard_begin(&w, &e, &drop);
	sflow_enc_sampled_header(&w, &e, &sh);
	sflow_enc_egress_queue(&w, &e, 5);
	sflow_enc_queue_depth(&w, &e, 65536);
	sflow_enc_timestamp(&w, &e, 1750000000000000000ull);
	sflow_enc_function(&w, &e, "egress_admission");
	sflow_own_enc_vis_event(&w, &e, SFLOW_ENT_OWN_DEFAULT, &dropev);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);
	finish(s, "own-records-ipv4", 30);
}

/* A port's and the device's counters samples with the drop records
 * E:10 queue_drops and E:11 drop_counters. */
static void own_drops(struct seed *s)
{
	struct sflow_addr agent = {SFLOW_ADDR_IP4, {198, 51, 100, 2}};
	uint8_t scratch[1024];
	struct sflow_w w;
	struct sflow_sample_enc e;
	struct sflow_counters_sample dev = {7, SFLOW_DS_ENTITY, 1};
	struct sflow_counters_sample port = {8, SFLOW_DS_IFINDEX, 5};
	struct sflow_bst_device bd = {100, 0};
	static const struct sflow_own_qdrop uc[3] = {{1, 1500}, {0, 0}, {UINT64_MAX, UINT64_MAX}};
	static const struct sflow_own_qdrop mc[1] = {{7, 448}};
	static const struct sflow_own_drop_counter pc[2] = {
	    {"DEBUG_0", "RX_LEGIT", 0, 293, 12, "SMAC_EQUALS_DMAC"},
	    {"DEBUG_1", "", 1, UINT32_MAX, 3, "L3_ANY,EGRESS_VLAN_FILTER"},
	};
	static const struct sflow_own_drop_counter sc[1] = {
	    {"DEBUG_2", "SWITCH_RX", 0, 257, 99, "TTL"},
	};

	sflow_builder_init(&builder, &agent, 0, SFLOW_DGRAM_DEFAULT, 0);
	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_enc_counters_begin(&w, &e, &port);
	sflow_enc_port_name(&w, &e, "Ethernet16");
	sflow_own_enc_queue_drops(&w, &e, SFLOW_ENT_OWN_DEFAULT, uc, 3, mc, 1);
	sflow_own_enc_drop_counters(&w, &e, SFLOW_ENT_OWN_DEFAULT, pc, 2);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);
	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_enc_counters_begin(&w, &e, &dev);
	sflow_enc_bst_device(&w, &e, &bd);
	sflow_own_enc_drop_counters(&w, &e, SFLOW_ENT_OWN_DEFAULT, sc, 1);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);
	finish(s, "own-drops-ipv4", 31);
}

/* A port sample carrying E:12 sojourn_histograms: queue 0 with buckets
 * 20..25, queue 1 with two unmeasured packets and none measured. */
static void own_sojourn(struct seed *s)
{
	struct sflow_addr agent = {SFLOW_ADDR_IP4, {198, 51, 100, 2}};
	uint8_t scratch[512];
	struct sflow_w w;
	struct sflow_sample_enc e;
	struct sflow_counters_sample port = {1, SFLOW_DS_IFINDEX, 4};
	struct sflow_own_sojourn h[2];

	memset(h, 0, sizeof h);
	h[0].first = 20;
	h[0].n = 6;
	for (uint32_t k = 0; k < 6; k++)
		h[0].counts[k] = 1000u >> k;
	h[1].queue = 1;
	h[1].unmeasured = 2;
	sflow_builder_init(&builder, &agent, 0, SFLOW_DGRAM_DEFAULT, 0);
	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_enc_counters_begin(&w, &e, &port);
	sflow_enc_port_name(&w, &e, "eth0");
	sflow_own_enc_sojourns(&w, &e, SFLOW_ENT_OWN_DEFAULT, h, 2);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);
	finish(s, "own-sojourn-ipv4", 40);
}

/* The switch model's own records: a device sample with E:8
 * ingress_arbitration and E:9 flow_regions (two regions), a port sample
 * with E:8 and E:13 queue_ecn (4 unicast, 1 multicast queue), and a 0:5
 * of a drop by a flow region with its E:2 flow_region_drop record. */
static void model_records(struct seed *s)
{
	struct sflow_addr agent = {SFLOW_ADDR_IP4, {198, 51, 100, 2}};
	uint8_t scratch[1024], frame[64];
	struct sflow_w w;
	struct sflow_sample_enc e;
	struct sflow_counters_sample dev = {2, SFLOW_DS_ENTITY, 1};
	struct sflow_counters_sample port = {3, SFLOW_DS_IFINDEX, 4};
	struct sflow_own_iarb ia = {
	    100, 20, 1,	 {5, 0, 0, 0, 0, 15, 0}, 3, 123456, 1, 128, 8192, 156, 10000, 47, 47, 47,
	    87,	 90, 130};
	struct sflow_own_region rg[2] = {
	    {0, 2097152, 2097152, 2097152, 10000, 10000, 1, 0, 100, 40, 0},
	    {1, 1048576, 1200000, 2097152, 5000, 5722, 0, 1, 7, 0, 2}};
	static const uint64_t uc[4] = {0, 12, 0x100000000ull, 3}, mc[1] = {1};
	struct sflow_discard_sample drop = {4, SFLOW_DS_ENTITY, 1, 0, 1, 0, 259};
	struct sflow_own_region_drop rd = {
	    0, SFLOW_OWN_REGION_BOUND, 0, 12500, 28, 9000, 2621440, 2097152};
	struct sflow_sampled_header sh = {SFLOW_HEADER_PROTO_ETHERNET, 1518, 4, 64, frame};

	for (size_t i = 0; i < sizeof frame; i++)
		frame[i] = (uint8_t)(i * 3 + 1);
	sflow_builder_init(&builder, &agent, 0, SFLOW_DGRAM_DEFAULT, 0);
	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_enc_counters_begin(&w, &e, &dev);
	sflow_own_enc_iarb(&w, &e, SFLOW_ENT_OWN_DEFAULT, &ia);
	sflow_own_enc_flow_regions(&w, &e, SFLOW_ENT_OWN_DEFAULT, 0, 2, rg, 2);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);

	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_enc_counters_begin(&w, &e, &port);
	sflow_own_enc_iarb(&w, &e, SFLOW_ENT_OWN_DEFAULT, &ia);
	sflow_own_enc_queue_ecn(&w, &e, SFLOW_ENT_OWN_DEFAULT, uc, 4, mc, 1);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);

	sflow_w_init(&w, scratch, sizeof scratch);
	sflow_enc_discard_begin(&w, &e, &drop);
	sflow_enc_sampled_header(&w, &e, &sh);
	sflow_enc_timestamp(&w, &e, 1750000000000000000ull);
	sflow_enc_function(&w, &e, "ingress_admission");
	sflow_own_enc_region_drop(&w, &e, SFLOW_ENT_OWN_DEFAULT, &rd);
	sflow_enc_sample_end(&w, &e);
	add(scratch, &w);
	finish(s, "model-records-ipv4", 40);
}

static struct seed seeds[10];

static size_t make_all(void)
{
	copy_seed(&seeds[0], "d1-ipv4-three-samples", vec_d1, sizeof vec_d1);
	copy_seed(&seeds[1], "d2-ipv6-device", vec_d2, sizeof vec_d2);
	copy_seed(&seeds[2], "d3-compact", vec_d3, sizeof vec_d3);
	copy_seed(&seeds[3], "d4-unknown-tags", vec_d4, sizeof vec_d4);
	port_counters(&seeds[4]);
	flows_ipv6(&seeds[5]);
	own_records(&seeds[6]);
	own_drops(&seeds[7]);
	own_sojourn(&seeds[8]);
	model_records(&seeds[9]);
	return 10;
}

static int write_all(const char *dir, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char path[1024];
		FILE *f;

		snprintf(path, sizeof path, "%s/%s", dir, seeds[i].name);
		f = fopen(path, "wb");
		if (!f || fwrite(seeds[i].buf, 1, seeds[i].len, f) != seeds[i].len ||
		    fclose(f) != 0) {
			perror(path);
			return 1;
		}
		printf("%s: %zu bytes\n", path, seeds[i].len);
	}
	return 0;
}

static int check_all(size_t n)
{
	const char *top = getenv("top_srcdir");
	int bad = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		struct sflow_datagram d;
		struct sflow_decode_error err;
		uint32_t j, k;

		if (sflow_decode(seeds[i].buf, seeds[i].len, NULL, &d, &err) != SFLOW_OK) {
			fprintf(stderr, "gen_corpus: %s does not decode: %s\n", seeds[i].name,
				err.msg);
			bad = 1;
			continue;
		}
		for (j = 0; j < d.nsamples; j++)
			for (k = 0; k < d.samples[j].nrecords; k++)
				if (SFLOW_TAG_ENTERPRISE(d.samples[j].records[k].tag) ==
					SFLOW_ENT_OWN_DEFAULT &&
				    d.samples[j].records[k].kind != SFLOW_REC_OWN) {
					fprintf(stderr,
						"gen_corpus: %s: own record %u not decoded\n",
						seeds[i].name, d.samples[j].records[k].tag & 0xFFF);
					bad = 1;
				}
		sflow_datagram_free(&d);
		if (top && *top) {
			char path[1024];
			static uint8_t file[SFLOW_DGRAM_MAX + 1];
			size_t got;
			FILE *f;

			snprintf(path, sizeof path, "%s/%s/%s", top, CORPUS_DIR, seeds[i].name);
			f = fopen(path, "rb");
			got = f ? fread(file, 1, sizeof file, f) : 0;
			if (f)
				fclose(f);
			if (!f || got != seeds[i].len || memcmp(file, seeds[i].buf, got) != 0) {
				fprintf(stderr,
					"gen_corpus: %s is missing or stale: run "
					"proto/fuzz/gen_corpus -w $(top_srcdir)/%s\n",
					path, CORPUS_DIR);
				bad = 1;
			}
		}
	}
	if (!bad)
		printf("gen_corpus: %zu seeds decode%s\n", n,
		       top && *top ? " and match the committed corpus" : "");
	return bad;
}

int main(int argc, char **argv)
{
	size_t n = make_all();

	if (argc == 3 && strcmp(argv[1], "-w") == 0)
		return write_all(argv[2], n);
	if (argc != 1) {
		fprintf(stderr, "usage: gen_corpus [-w dir]\n");
		return 2;
	}
	return check_all(n);
}
