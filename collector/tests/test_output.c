/*
 * test_output.c - unit tests of bsflow-collect's output abstraction
 * (collector/output.c): the exact text and JSON it writes for
 * scalars, strings that need escaping, arrays, nesting, prefixes and
 * addresses.  Expected strings are written by hand from output.h's rules.
 * Then bsflowd's own visibility structures (event sample, event record,
 * sampler statistics) printed by name in text and JSON, and the sampler
 * statistics check, by running the bsflow-collect program
 * ($top_builddir/collector/bsflow-collect) on a capture written here
 * by hand.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collector/output.h"

struct cap {
	char *buf;
	size_t len;
	FILE *fp;
	struct collect_out o;
};

static void cap_open(struct cap *c, enum collect_fmt fmt)
{
	c->buf = NULL;
	c->len = 0;
	c->fp = open_memstream(&c->buf, &c->len);
	ck_assert_ptr_nonnull(c->fp);
	collect_out_init(&c->o, fmt, c->fp);
}

/* Closes the stream; the caller frees c->buf. */
static const char *cap_text(struct cap *c)
{
	collect_out_flush(&c->o); /* items outside a whole datagram */
	fclose(c->fp);
	return c->buf;
}

START_TEST(text_scalars)
{
	struct cap c;
	struct sflow_addr a4 = {.type = SFLOW_ADDR_IP4, .a = {192, 0, 2, 1}};
	const uint8_t hex[] = {0x00, 0xab, 0x10};

	cap_open(&c, COLLECT_FMT_TEXT);
	collect_out_begin_datagram(&c.o);
	collect_out_u32(&c.o, "a", 4294967295u);
	collect_out_u64(&c.o, "b", 18446744073709551615ull);
	collect_out_i64(&c.o, "c", -1);
	collect_out_str(&c.o, "d", "x y");
	collect_out_tag(&c.o, "e", (4413u << 12) | 2);
	collect_out_addr(&c.o, "f", &a4);
	collect_out_hex(&c.o, "g", hex, 3);
	collect_out_end_datagram(&c.o);
	ck_assert_str_eq(cap_text(&c), "startDatagram =================================\n"
				       "a 4294967295\n"
				       "b 18446744073709551615\n"
				       "c -1\n"
				       "d x y\n"
				       "e 4413:2\n"
				       "f 192.0.2.1\n"
				       "g 00-AB-10\n"
				       "endDatagram   =================================\n");
	free(c.buf);
}
END_TEST

START_TEST(text_arrays_prefix_markers)
{
	struct cap c;
	const int32_t v[] = {10000, -1};

	cap_open(&c, COLLECT_FMT_TEXT);
	collect_out_begin_datagram(&c.o);
	collect_out_begin_array(&c.o, "samples");
	collect_out_begin_object(&c.o, NULL);
	collect_out_text(&c.o, "startSample ----");
	collect_out_i32_array(&c.o, "q", v, 2);
	collect_out_begin_array(&c.o, "elements");
	collect_out_set_prefix(&c.o, "discarded_");
	collect_out_begin_object(&c.o, NULL);
	collect_out_u32(&c.o, "k", 1);
	collect_out_end_object(&c.o);
	collect_out_set_prefix(&c.o, NULL);
	collect_out_end_array(&c.o);
	collect_out_text(&c.o, "endSample ----");
	collect_out_end_object(&c.o);
	collect_out_end_array(&c.o);
	collect_out_end_datagram(&c.o);
	ck_assert_str_eq(cap_text(&c), "startDatagram =================================\n"
				       "startSample ----\n"
				       "q.0 10000\n"
				       "q.1 -1\n"
				       "discarded_k 1\n"
				       "endSample ----\n"
				       "endDatagram   =================================\n");
	free(c.buf);
}
END_TEST

START_TEST(text_escapes)
{
	struct cap c;

	cap_open(&c, COLLECT_FMT_TEXT);
	collect_out_strn(&c.o, "s", "a\nb\\c\xff", 6);
	ck_assert_str_eq(cap_text(&c), "s a\\x0ab\\x5cc\\xff\n");
	free(c.buf);
}
END_TEST

START_TEST(json_shape)
{
	struct cap c;
	const int32_t v[] = {1, -2};

	cap_open(&c, COLLECT_FMT_JSON);
	collect_out_begin_datagram(&c.o);
	collect_out_u64(&c.o, "big", 9007199254740993ull);
	collect_out_begin_array(&c.o, "samples");
	collect_out_begin_object(&c.o, NULL);
	collect_out_text(&c.o, "startSample ----"); /* text only: nothing */
	collect_out_str(&c.o, "t", "0:3");
	collect_out_begin_array(&c.o, "elements");
	collect_out_end_array(&c.o);
	collect_out_i32_array(&c.o, "q", v, 2);
	collect_out_end_object(&c.o);
	collect_out_begin_object(&c.o, NULL);
	collect_out_end_object(&c.o);
	collect_out_end_array(&c.o);
	collect_out_i64(&c.o, "neg", -5);
	collect_out_end_datagram(&c.o);
	ck_assert_str_eq(cap_text(&c), "{\"big\":9007199254740993,\"samples\":[{\"t\":\"0:3\","
				       "\"elements\":[],\"q\":[1,-2]},{}],\"neg\":-5}\n");
	free(c.buf);
}
END_TEST

START_TEST(json_escapes_and_prefix)
{
	struct cap c;
	struct sflow_addr a6 = {.type = SFLOW_ADDR_IP6,
				.a = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}};
	struct sflow_addr none = {.type = 0};

	cap_open(&c, COLLECT_FMT_JSON);
	collect_out_begin_datagram(&c.o);
	collect_out_strn(&c.o, "s", "q\"b\\n\n\t\x01\x7f\xe9", 10);
	collect_out_set_prefix(&c.o, "p_");
	collect_out_addr(&c.o, "a", &a6);
	collect_out_set_prefix(&c.o, "");
	collect_out_addr(&c.o, "u", &none);
	collect_out_end_datagram(&c.o);
	ck_assert_str_eq(cap_text(&c),
			 "{\"s\":\"q\\\"b\\\\n\\n\\t\\u0001\\u007f\\u00e9\","
			 "\"p_a\":\"2001:0db8:0000:0000:0000:0000:0000:0001\",\"u\":\"-\"}\n");
	free(c.buf);
}
END_TEST

START_TEST(nesting_overflow)
{
	struct cap c;
	int i;

	cap_open(&c, COLLECT_FMT_JSON);
	collect_out_begin_datagram(&c.o); /* depth 1 */
	for (i = 0; i < COLLECT_OUT_MAXDEPTH + 3; i++)
		collect_out_begin_array(&c.o, i == 0 ? "x" : NULL);
	collect_out_u32(&c.o, NULL, 7); /* inside ignored levels: dropped */
	for (i = 0; i < COLLECT_OUT_MAXDEPTH + 3; i++)
		collect_out_end_array(&c.o);
	collect_out_u32(&c.o, "after", 1);
	collect_out_end_datagram(&c.o);
	/* 15 arrays opened (16 levels with the datagram), 4 ignored */
	{
		char want[256] = "{\"x\":";
		for (i = 0; i < COLLECT_OUT_MAXDEPTH - 1; i++)
			strcat(want, "[");
		for (i = 0; i < COLLECT_OUT_MAXDEPTH - 1; i++)
			strcat(want, "]");
		strcat(want, ",\"after\":1}\n");
		ck_assert_str_eq(cap_text(&c), want);
	}
	free(c.buf);
}
END_TEST

START_TEST(hand_formatting)
{
	/* the digits, pairs and addresses output.c writes without printf,
	 * values at the edges of their types */
	struct cap c;
	struct sflow_addr a4 = {.type = SFLOW_ADDR_IP4, .a = {0, 10, 100, 255}};
	struct sflow_addr a6 = {.type = SFLOW_ADDR_IP6, .a = {0x20, 0x01, 0x0d, 0xb8}};
	const char *got;

	a6.a[15] = 0x0a;
	cap_open(&c, COLLECT_FMT_JSON);
	collect_out_begin_datagram(&c.o);
	collect_out_u32(&c.o, "a", 0);
	collect_out_i64(&c.o, "b", INT64_MIN);
	collect_out_i64(&c.o, "c", INT64_MAX);
	collect_out_u32_pair(&c.o, "d", 0, 4294967295u);
	collect_out_str_u32(&c.o, "e", "dropCode ", 258);
	collect_out_addr(&c.o, "f", &a4);
	collect_out_addr(&c.o, "g", &a6);
	collect_out_end_datagram(&c.o);
	got = cap_text(&c);
	ck_assert_str_eq(got, "{\"a\":0,\"b\":-9223372036854775808,\"c\":9223372036854775807,"
			      "\"d\":\"0:4294967295\",\"e\":\"dropCode 258\","
			      "\"f\":\"0.10.100.255\","
			      "\"g\":\"2001:0db8:0000:0000:0000:0000:0000:000a\"}\n");
	free(c.buf);

	cap_open(&c, COLLECT_FMT_TEXT);
	collect_out_begin_datagram(&c.o);
	collect_out_u32_pair(&c.o, "d", 7, 10);
	collect_out_str_u32(&c.o, "e", "multiple ", 0);
	collect_out_end_datagram(&c.o);
	got = cap_text(&c);
	ck_assert_str_eq(got, "startDatagram =================================\n"
			      "d 7:10\ne multiple 0\n"
			      "endDatagram   =================================\n");
	free(c.buf);
}
END_TEST

START_TEST(long_values)
{
	/* values longer than one piece output.c reserves at a time (hex bytes
	 * and strings are written in pieces of 1024 input bytes), and more
	 * than its 64 KiB buffer in one datagram: the expected text is built
	 * here byte by byte from output.h's rules. */
	enum { NH = 25000, NS = 3001 };
	static uint8_t hex[NH];
	static char str[NS];
	static char want[NH * 3 + NS * 6 + 256];
	const char *got;
	size_t w = 0;
	struct cap c;

	for (size_t i = 0; i < NH; i++)
		hex[i] = (uint8_t)(i * 7 + 3);
	for (size_t i = 0; i < NS; i++)
		str[i] = i % 10 == 9 ? '"' : (char)('a' + i % 26);
	cap_open(&c, COLLECT_FMT_JSON);
	collect_out_begin_datagram(&c.o);
	collect_out_hex(&c.o, "h", hex, NH);
	collect_out_strn(&c.o, "s", str, NS);
	collect_out_u64(&c.o, "n", 10000000000000000000ull);
	collect_out_u64(&c.o, "m", 4294967296ull);
	collect_out_u64(&c.o, "z", 100000000ull);
	collect_out_end_datagram(&c.o);
	got = cap_text(&c);
	w += (size_t)sprintf(want + w, "{\"h\":\"");
	for (size_t i = 0; i < NH; i++)
		w += (size_t)sprintf(want + w, "%s%02X", i ? "-" : "", hex[i]);
	w += (size_t)sprintf(want + w, "\",\"s\":\"");
	for (size_t i = 0; i < NS; i++)
		w += (size_t)sprintf(want + w, str[i] == '"' ? "\\\"" : "%c", str[i]);
	sprintf(want + w, "\",\"n\":10000000000000000000,\"m\":4294967296,\"z\":100000000}\n");
	ck_assert_uint_eq(strlen(got), strlen(want));
	ck_assert_str_eq(got, want);
	free(c.buf);

	/* text: control characters as \xNN, 4 bytes out for each in */
	for (size_t i = 0; i < NS; i++)
		str[i] = i % 2 ? '\t' : 'x';
	cap_open(&c, COLLECT_FMT_TEXT);
	collect_out_strn(&c.o, "t", str, NS);
	got = cap_text(&c);
	w = (size_t)sprintf(want, "t ");
	for (size_t i = 0; i < NS; i++)
		w += (size_t)sprintf(want + w, i % 2 ? "\\x09" : "x");
	sprintf(want + w, "\n");
	ck_assert_str_eq(got, want);
	free(c.buf);
}
END_TEST

/* Strings are copied eight bytes at a time while nothing in them needs an
 * escape: each kind of byte that does, at every offset in a word, in both
 * shapes; the expected text follows output.h's rules byte by byte. */
START_TEST(escapes_at_every_offset)
{
	static const unsigned char special[] = {'"',  '\\', '\n', 0x01, 0x1f,
						0x7f, 0x80, 0xe9, 0xff};
	char str[40], want[400], *w;
	struct cap c;

	for (size_t k = 0; k < sizeof special; k++)
		for (size_t at = 0; at < 24; at++) {
			for (int json = 0; json < 2; json++) {
				for (size_t i = 0; i < sizeof str; i++)
					str[i] = (char)('A' + i % 26);
				str[at] = (char)special[k];
				cap_open(&c, json ? COLLECT_FMT_JSON : COLLECT_FMT_TEXT);
				collect_out_strn(&c.o, "s", str, sizeof str);
				w = want + sprintf(want, json ? "\"s\":\"" : "s ");
				for (size_t i = 0; i < sizeof str; i++) {
					unsigned char b = (unsigned char)str[i];

					if (json && (b == '"' || b == '\\'))
						w += sprintf(w, "\\%c", b);
					else if (json && b == '\n')
						w += sprintf(w, "\\n");
					else if (json && (b < 0x20 || b >= 0x7f))
						w += sprintf(w, "\\u00%02x", b);
					else if (!json && (b < 0x20 || b >= 0x7f || b == '\\'))
						w += sprintf(w, "\\x%02x", b);
					else
						*w++ = (char)b;
				}
				sprintf(w, json ? "\"" : "\n");
				ck_assert_str_eq(cap_text(&c), want);
				free(c.buf);
			}
		}
}
END_TEST

START_TEST(batch_writes_on_flush)
{
	/* batch: a whole datagram stays buffered until collect_out_flush */
	struct cap c;

	cap_open(&c, COLLECT_FMT_JSON);
	c.o.batch = 1;
	collect_out_begin_datagram(&c.o);
	collect_out_u32(&c.o, "a", 1);
	collect_out_end_datagram(&c.o);
	fflush(c.fp);
	ck_assert_uint_eq(c.len, 0);
	collect_out_flush(&c.o);
	ck_assert_uint_eq(c.len, 8);
	ck_assert_str_eq(cap_text(&c), "{\"a\":1}\n");
	free(c.buf);
}
END_TEST

START_TEST(unknown_body)
{
	struct cap c;
	const uint8_t b[] = {0xde, 0xad};

	cap_open(&c, COLLECT_FMT_TEXT);
	collect_out_unknown_body(&c.o, 2, b);
	collect_out_unknown_body(&c.o, 0, NULL);
	ck_assert_str_eq(cap_text(&c), "unknownLength 2\nunknownBytes DE-AD\nunknownLength 0\n");
	free(c.buf);
}
END_TEST

/* ---- bsflowd's own visibility structures printed by name, through the
 * bsflow-collect program (print.c, print_own.c, checks.c) on a capture
 * written here word by word from the XDR in proto/sflow_own.h. */

struct bytes {
	uint8_t b[1024];
	size_t n;
};

static void bw(struct bytes *v, uint32_t x)
{
	v->b[v->n++] = (uint8_t)(x >> 24);
	v->b[v->n++] = (uint8_t)(x >> 16);
	v->b[v->n++] = (uint8_t)(x >> 8);
	v->b[v->n++] = (uint8_t)x;
}

static void bw16(struct bytes *v, uint16_t x)
{
	v->b[v->n++] = (uint8_t)(x >> 8);
	v->b[v->n++] = (uint8_t)x;
}

static void ble32(struct bytes *v, uint32_t x)
{
	for (int i = 0; i < 4; i++)
		v->b[v->n++] = (uint8_t)(x >> (8 * i));
}

/* E = 32473: data_format E:f is 0x07ED9000 | f */
#define OWN(f) (0x07ED9000u | (f))

/*
 * One datagram (IPv4 agent 192.0.2.1, sequence 1, uptime 1000, 2 samples):
 *   E:1 visibility_event_sample, 8 + 120: seq 7, source 0:12, drops 3,
 *       input 5, output 12, 2 records:
 *       E:1 visibility_event 8 + 72: forensics, flags 2 (last), event_id
 *           17, own_id 21, queue 4, reason 259, depth 98304, delay 250000,
 *           peak 0, peak_time unknown, duration 0
 *       0:1036 egress queue 8 + 4: 4
 *   0:4 counters, 8 + 16 + 8 + body: seq 9, source 2:1, 1 record:
 *       E:7 sampler_stats: the given words
 */
static size_t own_datagram(struct bytes *d, const uint32_t *e7, size_t e7_words)
{
	d->n = 0;
	bw(d, 5), bw(d, 1), bw(d, 0xC0000201), bw(d, 0), bw(d, 1), bw(d, 1000), bw(d, 2);
	bw(d, OWN(1)), bw(d, 120); /* 24 + 4 + 80 + 12 */
	bw(d, 7), bw(d, 0), bw(d, 12), bw(d, 3), bw(d, 5), bw(d, 12), bw(d, 2);
	bw(d, OWN(1)), bw(d, 72);
	bw(d, 3), bw(d, 2), bw(d, 0), bw(d, 0), bw(d, 0); /* type .. tag */
	bw(d, 0), bw(d, 17), bw(d, 0), bw(d, 21);	  /* event_id, own_id */
	bw(d, 4), bw(d, 259), bw(d, 98304), bw(d, 250000), bw(d, 0);
	bw(d, 0xFFFFFFFF), bw(d, 0xFFFFFFFF), bw(d, 0), bw(d, 0);
	bw(d, 1036), bw(d, 4), bw(d, 4);
	bw(d, 4), bw(d, (uint32_t)(16 + 8 + 4 * e7_words));
	bw(d, 9), bw(d, 2), bw(d, 1), bw(d, 1);
	bw(d, OWN(7)), bw(d, (uint32_t)(4 * e7_words));
	for (size_t i = 0; i < e7_words; i++)
		bw(d, e7[i]);
	return d->n;
}

/* E:7 with "agg" (3 + 1 pad) and "port-hi-12" (10 + 2 pad) */
static const uint32_t E7_GOOD[] = {
    2,		3,	    0x61676700,				   /* count; "agg" */
    0,		1000,	    0,		600,	    0, 10,  0, 20, /* seen, passed, not_eligible,
								      duplicate */
    0,		30,	    0,		40,	    0, 200, 0, 50, /* limiter, recurrent, no_ticket,
								      probability */
    0,		40,	    0,		10,			   /* flow_filter, downstream */
    0xFFFFFFFF, 0xFFFFFFFD, 512,	0,	    7, /* ticket_balance -3, batch, consumed_all */
    10,		0x706F7274, 0x2D68692D, 0x31320000,    /* "port-hi-12" */
    1,		0,	    0,		0xFFFFFFFF,    /* seen 2^32, passed 2^32 - 1 */
    0,		0,	    0,		0,	    0, 0,   0, 0,  0, 1, /* .. no_ticket 1 */
    0,		0,	    0,		0,	    0, 0, /* probability .. downstream */
    0,		64,	    64,		0,	    0,	  /* ticket_balance, batch, consumed_all */
};

/* E:7 with one sampler "a b" whose seen 10 is not passed 3 + no_ticket 5 */
static const uint32_t E7_BAD[] = {
    1, 3,  0x61206200,		      /* count; "a b" */
    0, 10, 0,	       3,	      /* seen, passed */
    0, 0,  0,	       0, 0, 0, 0, 0, /* not_eligible .. recurrent */
    0, 5,			      /* no_ticket */
    0, 0,  0,	       0, 0, 0,	      /* probability .. downstream */
    0, 0,  0,	       0, 0,	      /* ticket_balance, batch, consumed_all */
};

/* The datagram in a pcap file (Ethernet, IPv4, UDP to port 6343). */
static void write_pcap(const char *path, const struct bytes *dg)
{
	struct bytes f = {.n = 0};
	FILE *fp;

	ble32(&f, 0xa1b2c3d4);
	f.b[f.n++] = 2, f.b[f.n++] = 0, f.b[f.n++] = 4, f.b[f.n++] = 0;
	ble32(&f, 0), ble32(&f, 0), ble32(&f, 65535), ble32(&f, 1);
	ble32(&f, 1700000000), ble32(&f, 0);
	ble32(&f, (uint32_t)(14 + 20 + 8 + dg->n)), ble32(&f, (uint32_t)(14 + 20 + 8 + dg->n));
	for (int i = 0; i < 12; i++)
		f.b[f.n++] = (uint8_t)(i < 6 ? 2 : 4);
	bw16(&f, 0x0800);
	bw(&f, 0x45000000u | (uint32_t)(20 + 8 + dg->n)); /* IPv4, total length */
	bw(&f, 0x00010000), bw(&f, 0x40110000);		  /* id 1; ttl 64, UDP */
	bw(&f, 0x0A000001), bw(&f, 0x0A000002);		  /* 10.0.0.1 -> .2 */
	bw16(&f, 50000), bw16(&f, 6343), bw16(&f, (uint16_t)(8 + dg->n)), bw16(&f, 0);
	fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(f.b, 1, f.n, fp), f.n);
	ck_assert_uint_eq(fwrite(dg->b, 1, dg->n, fp), dg->n);
	ck_assert_int_eq(fclose(fp), 0);
}

struct run {
	char *out; /* standard output */
	char *err; /* standard error */
	int status;
};

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ch;

	ck_assert_ptr_nonnull(fp);
	while ((ch = getc(fp)) != EOF)
		putc(ch, m);
	fclose(m);
	fclose(fp);
	return buf;
}

/* bsflow-collect -r <the datagram> with args. */
static void run_collect(const struct bytes *dg, const char *args, struct run *r)
{
	const char *top = getenv("top_builddir");
	char bin[1024], dir[] = "/tmp/bsfc-out.XXXXXX", pcap[1100], out[1100], err[1100];
	char cmd[8192];

	snprintf(bin, sizeof bin, "%s/collector/bsflow-collect", top && *top ? top : ".");
	ck_assert_msg(access(bin, X_OK) == 0, "%s not built", bin);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(pcap, sizeof pcap, "%s/in.pcap", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(err, sizeof err, "%s/err", dir);
	write_pcap(pcap, dg);
	snprintf(cmd, sizeof cmd, "TZ=UTC '%s' -r '%s' %s >'%s' 2>'%s'", bin, pcap, args, out, err);
	int st = system(cmd);
	ck_assert(st != -1 && WIFEXITED(st));
	r->status = WEXITSTATUS(st);
	r->out = slurp(out);
	r->err = slurp(err);
	unlink(pcap), unlink(out), unlink(err), rmdir(dir);
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

START_TEST(own_visibility_text)
{
	struct bytes d;
	struct run r;
	const char *want = "samplesInPacket 2\n"
			   "startSample ----------------------\n"
			   "sampleType_tag 32473:1\n"
			   "sampleType visibility_event_sample\n"
			   "sampleSequenceNo 7\n"
			   "sourceId 0:12\n"
			   "dropEvents 3\n"
			   "inputPort 5\n"
			   "outputPort 12\n"
			   "flowBlock_tag 32473:1\n"
			   "bsf_record visibility_event\n"
			   "bsf_event_type forensics\n"
			   "bsf_event_type_code 3\n"
			   "bsf_event_flags 2\n"
			   "bsf_level 0\n"
			   "bsf_severity 0\n"
			   "bsf_tag 0\n"
			   "bsf_event_id 17\n"
			   "bsf_own_id 21\n"
			   "bsf_queue 4\n"
			   "bsf_reason 259\n"
			   "bsf_reason_name no_buffer_space\n"
			   "bsf_depth_bytes 98304\n"
			   "bsf_delay_ns 250000\n"
			   "bsf_peak_bytes 0\n"
			   "bsf_peak_time_ns 18446744073709551615\n"
			   "bsf_duration_ns 0\n"
			   "flowBlock_tag 0:1036\n"
			   "extendedType egress_queue\n"
			   "egress_queue_id 4\n"
			   "endSample   ----------------------\n"
			   "startSample ----------------------\n"
			   "sampleType_tag 0:4\n"
			   "sampleType COUNTERSSAMPLE\n"
			   "sampleSequenceNo 9\n"
			   "sourceId 2:1\n"
			   "counterBlock_tag 32473:7\n"
			   "bsf_record sampler_stats\n"
			   "bsf_sampler_count 2\n"
			   "bsf_sampler_0_name agg\n"
			   "bsf_sampler_0_seen 1000\n"
			   "bsf_sampler_0_passed 600\n"
			   "bsf_sampler_0_rejected_not_eligible 10\n"
			   "bsf_sampler_0_rejected_duplicate 20\n"
			   "bsf_sampler_0_rejected_limiter 30\n"
			   "bsf_sampler_0_rejected_recurrent 40\n"
			   "bsf_sampler_0_rejected_no_ticket 200\n"
			   "bsf_sampler_0_rejected_probability 50\n"
			   "bsf_sampler_0_rejected_flow_filter 40\n"
			   "bsf_sampler_0_rejected_downstream 10\n"
			   "bsf_sampler_0_ticket_balance -3\n"
			   "bsf_sampler_0_ticket_batch 512\n"
			   "bsf_sampler_0_consumed_all 7\n"
			   "bsf_sampler_1_name port-hi-12\n"
			   "bsf_sampler_1_seen 4294967296\n"
			   "bsf_sampler_1_passed 4294967295\n"
			   "bsf_sampler_1_rejected_not_eligible 0\n"
			   "bsf_sampler_1_rejected_duplicate 0\n"
			   "bsf_sampler_1_rejected_limiter 0\n"
			   "bsf_sampler_1_rejected_recurrent 0\n"
			   "bsf_sampler_1_rejected_no_ticket 1\n"
			   "bsf_sampler_1_rejected_probability 0\n"
			   "bsf_sampler_1_rejected_flow_filter 0\n"
			   "bsf_sampler_1_rejected_downstream 0\n"
			   "bsf_sampler_1_ticket_balance 64\n"
			   "bsf_sampler_1_ticket_batch 64\n"
			   "bsf_sampler_1_consumed_all 0\n"
			   "endSample   ----------------------\n"
			   "endDatagram   =================================\n";

	own_datagram(&d, E7_GOOD, sizeof E7_GOOD / sizeof E7_GOOD[0]);
	ck_assert_uint_eq(d.n, 28 + 128 + 8 + 16 + 8 + 228);
	run_collect(&d, "--strict", &r);
	ck_assert_int_eq(r.status, 0);
	const char *p = strstr(r.out, "samplesInPacket ");
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p, want);
	ck_assert_ptr_nonnull(strstr(r.err, "\nsamplerMismatches 0\n"));
	ck_assert_ptr_nonnull(strstr(r.err, "\nsamples.32473:1 1\n"));
	ck_assert_ptr_nonnull(strstr(r.err, "\nrecords.own.32473:1 1\n"));
	ck_assert_ptr_nonnull(strstr(r.err, "\nrecords.counters.32473:7 1\n"));
	ck_assert_ptr_nonnull(strstr(r.err, "\nunknownTags 0\n"));
	run_free(&r);

	/* under another enterprise number: an unknown sample, its bytes */
	run_collect(&d, "-e 4242 --no-summary", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "sampleType_tag 32473:1\nsampleType UNKNOWN\n"
					    "unknownLength 120\n"));
	ck_assert_ptr_nonnull(strstr(r.out, "counterBlock_tag 32473:7\nunknownLength 228\n"));
	run_free(&r);
}
END_TEST

START_TEST(own_visibility_json)
{
	struct bytes d;
	struct run r;
	static const char *const keys[] = {
	    "\"sampleType_tag\":\"32473:1\",\"sampleType\":\"visibility_event_sample\","
	    "\"sampleSequenceNo\":7,\"sourceId\":\"0:12\",\"dropEvents\":3,\"inputPort\":5,"
	    "\"outputPort\":12,\"elements\":[{\"flowBlock_tag\":\"32473:1\","
	    "\"bsf_record\":\"visibility_event\",\"bsf_event_type\":\"forensics\","
	    "\"bsf_event_type_code\":3,\"bsf_event_flags\":2,",
	    "\"bsf_event_id\":17,\"bsf_own_id\":21,\"bsf_queue\":4,\"bsf_reason\":259,"
	    "\"bsf_reason_name\":\"no_buffer_space\",\"bsf_depth_bytes\":98304,"
	    "\"bsf_delay_ns\":250000,\"bsf_peak_bytes\":0,"
	    "\"bsf_peak_time_ns\":18446744073709551615,\"bsf_duration_ns\":0}",
	    "{\"counterBlock_tag\":\"32473:7\",\"bsf_record\":\"sampler_stats\","
	    "\"bsf_sampler_count\":2,\"bsf_sampler_0_name\":\"agg\",\"bsf_sampler_0_seen\":1000,",
	    "\"bsf_sampler_0_ticket_balance\":-3,\"bsf_sampler_0_ticket_batch\":512,"
	    "\"bsf_sampler_0_consumed_all\":7,\"bsf_sampler_1_name\":\"port-hi-12\","
	    "\"bsf_sampler_1_seen\":4294967296,\"bsf_sampler_1_passed\":4294967295,",
	    "\"bsf_sampler_1_rejected_no_ticket\":1,",
	};

	own_datagram(&d, E7_GOOD, sizeof E7_GOOD / sizeof E7_GOOD[0]);
	run_collect(&d, "-j --no-summary", &r);
	ck_assert_int_eq(r.status, 0);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		ck_assert_msg(strstr(r.out, keys[i]), "JSON lacks %s", keys[i]);
	/* one line */
	ck_assert_ptr_eq(strchr(r.out, '\n'), r.out + strlen(r.out) - 1);
	run_free(&r);
}
END_TEST

/*
 * One datagram with one 0:5 discarded_packet, 8 + 124: seq 11, source
 * 2:1, drops 4, input 3, output 7, reason 259, 2 records:
 *     0:1040 extended_queue 8 + 4: 65536
 *     E:1 visibility_event 8 + 72: drop, flags 0, event_id = own_id =
 *         2^33 + 1, queue 3, reason 259, depth 65536, delay, peak 0,
 *         peak_time unknown, duration 0
 */
static void drop_datagram(struct bytes *d)
{
	d->n = 0;
	bw(d, 5), bw(d, 1), bw(d, 0xC0000201), bw(d, 0), bw(d, 1), bw(d, 1000), bw(d, 1);
	bw(d, 5), bw(d, 124); /* 28 + 4 + 12 + 80 */
	bw(d, 11), bw(d, 2), bw(d, 1), bw(d, 4), bw(d, 3), bw(d, 7), bw(d, 259), bw(d, 2);
	bw(d, 1040), bw(d, 4), bw(d, 65536);
	bw(d, OWN(1)), bw(d, 72);
	bw(d, 1), bw(d, 0), bw(d, 0), bw(d, 0), bw(d, 0); /* type .. tag */
	bw(d, 2), bw(d, 1), bw(d, 2), bw(d, 1);		  /* event_id, own_id */
	bw(d, 3), bw(d, 259), bw(d, 65536), bw(d, 0), bw(d, 0);
	bw(d, 0xFFFFFFFF), bw(d, 0xFFFFFFFF), bw(d, 0), bw(d, 0);
}

START_TEST(own_drop_in_discard)
{
	struct bytes d;
	struct run r;
	const char *want = "discarded_flowBlock_tag 32473:1\n"
			   "discarded_bsf_record visibility_event\n"
			   "discarded_bsf_event_type drop\n"
			   "discarded_bsf_event_type_code 1\n"
			   "discarded_bsf_event_flags 0\n"
			   "discarded_bsf_level 0\n"
			   "discarded_bsf_severity 0\n"
			   "discarded_bsf_tag 0\n"
			   "discarded_bsf_event_id 8589934593\n"
			   "discarded_bsf_own_id 8589934593\n"
			   "discarded_bsf_queue 3\n"
			   "discarded_bsf_reason 259\n"
			   "discarded_bsf_reason_name no_buffer_space\n"
			   "discarded_bsf_depth_bytes 65536\n"
			   "discarded_bsf_delay_ns 0\n"
			   "discarded_bsf_peak_bytes 0\n"
			   "discarded_bsf_peak_time_ns 18446744073709551615\n"
			   "discarded_bsf_duration_ns 0\n"
			   "endSample   ----------------------\n";

	drop_datagram(&d);
	ck_assert_uint_eq(d.n, 28 + 132);
	run_collect(&d, "--strict", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "sampleType_tag 0:5\n"));
	ck_assert_msg(strstr(r.out, want), "%s", r.out);
	ck_assert_ptr_nonnull(strstr(r.err, "\nunknownTags 0\n"));
	run_free(&r);
	/* JSON: the same keys */
	run_collect(&d, "-j --no-summary", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.out, "{\"discarded_flowBlock_tag\":\"32473:1\","
					    "\"discarded_bsf_record\":\"visibility_event\","
					    "\"discarded_bsf_event_type\":\"drop\","
					    "\"discarded_bsf_event_type_code\":1,"));
	ck_assert_ptr_nonnull(strstr(r.out, "\"discarded_bsf_event_id\":8589934593,"));
	run_free(&r);
	/* another enterprise: an unknown record, its bytes */
	run_collect(&d, "-e 4242 --no-summary", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(
	    strstr(r.out, "discarded_flowBlock_tag 32473:1\ndiscarded_unknownLength 72\n"));
	run_free(&r);
}
END_TEST

START_TEST(own_sampler_mismatch)
{
	struct bytes d;
	struct run r;

	own_datagram(&d, E7_BAD, sizeof E7_BAD / sizeof E7_BAD[0]);
	run_collect(&d, "-q", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_ptr_nonnull(strstr(r.err, "sampler mismatch agent=192.0.2.1 subAgent=0 "
					    "sourceId=2:1 sampler=a\\x20b seen=10 passed=3 "
					    "rejected=5\n"));
	ck_assert_ptr_nonnull(strstr(r.err, "\nsamplerMismatches 1\n"));
	run_free(&r);
	/* --strict: exit 2, after printing the datagram */
	run_collect(&d, "--strict --no-summary", &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_ptr_nonnull(strstr(r.out, "bsf_sampler_0_name a b\n"));
	ck_assert_ptr_nonnull(strstr(r.err, "--strict: bsflowd's own structures failed a check"));
	run_free(&r);
}
END_TEST

/* A port's counters sample (seq 4, source 0:9) with E:10 queue_drops (1
 * unicast queue: 2 packets of 3000 bytes; 1 multicast queue unknown) and
 * E:11 drop_counters (DEBUG_0 "RX_TTL", ingress, ttl_exceeded 257, 5
 * packets, reasons "TTL"). */
START_TEST(own_drops_text)
{
	struct bytes d = {.n = 0};
	struct run r;
	const char *want = "samplesInPacket 1\n"
			   "startSample ----------------------\n"
			   "sampleType_tag 0:4\n"
			   "sampleType COUNTERSSAMPLE\n"
			   "sampleSequenceNo 4\n"
			   "sourceId 0:9\n"
			   "counterBlock_tag 32473:10\n"
			   "bsf_record queue_drops\n"
			   "bsf_queue_drop_uc_count 1\n"
			   "bsf_queue_drop_uc_0_packets 2\n"
			   "bsf_queue_drop_uc_0_bytes 3000\n"
			   "bsf_queue_drop_mc_count 1\n"
			   "bsf_queue_drop_mc_0_packets 18446744073709551615\n"
			   "bsf_queue_drop_mc_0_bytes 18446744073709551615\n"
			   "counterBlock_tag 32473:11\n"
			   "bsf_record drop_counters\n"
			   "bsf_drop_counter_count 1\n"
			   "bsf_drop_counter_0_name DEBUG_0\n"
			   "bsf_drop_counter_0_alias RX_TTL\n"
			   "bsf_drop_counter_0_direction ingress\n"
			   "bsf_drop_counter_0_reason 257\n"
			   "bsf_drop_counter_0_reason_name ttl_exceeded\n"
			   "bsf_drop_counter_0_packets 5\n"
			   "bsf_drop_counter_0_reasons TTL\n"
			   "endSample   ----------------------\n"
			   "endDatagram   =================================\n";

	bw(&d, 5), bw(&d, 1), bw(&d, 0xC0000201), bw(&d, 0), bw(&d, 1), bw(&d, 1000), bw(&d, 1);
	bw(&d, 4), bw(&d, 16 + 8 + 40 + 8 + 52);
	bw(&d, 4), bw(&d, 0), bw(&d, 9), bw(&d, 2);
	bw(&d, OWN(10)), bw(&d, 40);
	bw(&d, 1), bw(&d, 0), bw(&d, 2), bw(&d, 0), bw(&d, 3000);
	bw(&d, 1), bw(&d, 0xFFFFFFFF), bw(&d, 0xFFFFFFFF), bw(&d, 0xFFFFFFFF), bw(&d, 0xFFFFFFFF);
	bw(&d, OWN(11)), bw(&d, 52);
	bw(&d, 1);
	bw(&d, 7), bw(&d, 0x44454255), bw(&d, 0x475F3000); /* "DEBUG_0" */
	bw(&d, 6), bw(&d, 0x52585F54), bw(&d, 0x544C0000); /* "RX_TTL" */
	bw(&d, 0), bw(&d, 257), bw(&d, 0), bw(&d, 5);
	bw(&d, 3), bw(&d, 0x54544C00); /* "TTL" */
	run_collect(&d, "--strict", &r);
	ck_assert_msg(r.status == 0, "%s", r.err);
	const char *p = strstr(r.out, "samplesInPacket ");
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p, want);
	ck_assert_ptr_nonnull(strstr(r.err, "\nrecords.counters.32473:10 1\n"));
	ck_assert_ptr_nonnull(strstr(r.err, "\nrecords.counters.32473:11 1\n"));
	run_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("collect_output");
	TCase *t = tcase_create("output");

	tcase_add_test(t, text_scalars);
	tcase_add_test(t, text_arrays_prefix_markers);
	tcase_add_test(t, text_escapes);
	tcase_add_test(t, json_shape);
	tcase_add_test(t, json_escapes_and_prefix);
	tcase_add_test(t, nesting_overflow);
	tcase_add_test(t, unknown_body);
	tcase_add_test(t, hand_formatting);
	tcase_add_test(t, long_values);
	tcase_add_test(t, escapes_at_every_offset);
	tcase_add_test(t, batch_writes_on_flush);
	suite_add_tcase(s, t);
	TCase *own = tcase_create("own_structures");
	tcase_add_test(own, own_visibility_text);
	tcase_add_test(own, own_drops_text);
	tcase_add_test(own, own_visibility_json);
	tcase_add_test(own, own_drop_in_discard);
	tcase_add_test(own, own_sampler_mismatch);
	tcase_set_timeout(own, 60);
	suite_add_tcase(s, own);
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
