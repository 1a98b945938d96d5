/*
 * test_output.c - unit tests of bsflow-collect's output abstraction
 * (collector-test/output.c): the exact text and JSON it writes for
 * scalars, strings that need escaping, arrays, nesting, prefixes and
 * addresses.  Expected strings are written by hand from output.h's rules.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector-test/output.h"

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
