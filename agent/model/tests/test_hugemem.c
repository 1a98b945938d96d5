/*
 * test_hugemem.c - the model's allocator for its large arrays
 * (hugemem.h): zeroed, aligned memory of every size, mapped in whole
 * huge pages from HUGEMEM_MIN bytes on, and its count of mapped bytes;
 * and a model large enough to use it (64 ports, 300 sources added while
 * it runs), which delivers every packet at its time.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "agent/model/hugemem.h"
#include "agent/model/model.h"
#include "agent/model/tests/tsrc.h"

/* Every byte of p[0..n) is zero. */
static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

START_TEST(test_sizes)
{
	/* both sides of the threshold, and a size just over a huge page */
	static const size_t sizes[] = {1,
				       63,
				       64,
				       4097,
				       HUGEMEM_MIN - 1,
				       HUGEMEM_MIN,
				       HUGEMEM_PAGE,
				       HUGEMEM_PAGE + 1,
				       3 * HUGEMEM_PAGE - 5};
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i], asked0, before = hugemem_mapped(&asked0), asked;
		unsigned char *p = hugemem_alloc(n);
		ck_assert_msg(p != NULL, "size %zu", n);
		ck_assert_uint_eq((uintptr_t)p % 64, 0);
		ck_assert_msg(all_zero(p, n), "size %zu not zeroed", n);
		memset(p, 0xa5, n); /* all of it is ours */
		size_t grew = hugemem_mapped(&asked) - before;
#ifdef HUGEMEM_MALLOC_ONLY
		ck_assert_uint_eq(grew, 0);
#else
		if (n < HUGEMEM_MIN) {
			ck_assert_uint_eq(grew, 0);
			ck_assert_uint_eq(asked, asked0);
		} else {
			ck_assert_uint_eq(asked - asked0, n);
			/* whole huge pages, aligned to one */
			ck_assert_uint_eq(grew,
					  (n + HUGEMEM_PAGE - 1) / HUGEMEM_PAGE * HUGEMEM_PAGE);
			ck_assert_uint_eq((uintptr_t)p % HUGEMEM_PAGE, 0);
		}
#endif
		hugemem_free(p, n);
		ck_assert_uint_eq(hugemem_mapped(&asked), before);
		ck_assert_uint_eq(asked, asked0);
	}
	hugemem_free(NULL, 0);
	hugemem_free(NULL, HUGEMEM_PAGE);
	ck_assert_ptr_null(hugemem_alloc(0));
	ck_assert_ptr_null(hugemem_alloc(SIZE_MAX));
	ck_assert_ptr_null(hugemem_alloc(SIZE_MAX / 2 + 1));
}
END_TEST

/* Packet f of source s (300 sources, 20 packets each, 100 bytes, flow id
 * s): in at port s % 64, out at (s + 1) % 64, at 1000 + 50000 f + 16 s ns.  Each
 * egress port takes one packet per 16 x 64 ns at most (its sources are
 * 64 apart), far less than one 100G port sends: nothing waits long and
 * nothing is dropped. */
#define BIG_NSRC 300
#define BIG_NPKT 20
struct big_seen {
	uint32_t n;
	uint8_t count[BIG_NSRC][BIG_NPKT];
	int bad;
};

static void big_cb(void *arg, const struct model_trace *tr)
{
	struct big_seen *w = arg;
	uint32_t s = tr->flow_id;
	uint64_t t0 = 1000 + 16 * (uint64_t)s, f = (tr->t_arr_ns - t0) / 50000;

	w->n++;
	if (s >= BIG_NSRC || tr->t_arr_ns < t0 || (tr->t_arr_ns - t0) % 50000 != 0 ||
	    f >= BIG_NPKT || tr->in_port != s % 64 || tr->out_port != (s + 1) % 64 || !tr->departed)
		w->bad = 1;
	else
		w->count[s][f]++;
}

START_TEST(test_big_model)
{
	struct model_config cfg;
	struct model_stats st;
	struct model_err err;
	static struct big_seen w;

	ck_assert_int_eq(tcfg_simple(&cfg, 64, 100000000000ULL), 0);
	struct model *m = tmodel(&cfg);
	model_config_release(&cfg);
	memset(&w, 0, sizeof(w));
	model_set_trace(m, big_cb, &w);
	for (unsigned s = 0; s < BIG_NSRC; s++) {
		struct tsrc_spec sp = {.in_port = (uint16_t)(s % 64),
				       .out_port = (uint16_t)((s + 1) % 64),
				       .t0_ns = 1000 + 16.0 * s,
				       .gap_dist = TS_CONST,
				       .gap_ns = 50000,
				       .len_dist = TS_CONST,
				       .len = 100,
				       .count = BIG_NPKT,
				       .seed = s,
				       .flow_id = s};
		tadd(m, &sp);
		/* the sources' array grows (and moves) while the earlier
		 * ones hold packets not yet arrived */
		if (s % 50 == 49)
			ck_assert_int_eq(model_advance_to(m, 500 + 16 * (uint64_t)s), 0);
	}
#ifndef HUGEMEM_MALLOC_ONLY
	/* the model's block of per-port arrays (65 ports: over 512 KiB) and
	 * the sources' array (300 x 3200 bytes, room for 512) are in
	 * huge-page mappings */
	ck_assert_uint_ge(hugemem_mapped(NULL), 2 * HUGEMEM_PAGE);
#endif
	ck_assert_int_eq(model_run(m, MODEL_T_END), 0);
	ck_assert_int_eq(w.bad, 0);
	ck_assert_uint_eq(w.n, BIG_NSRC * BIG_NPKT);
	for (unsigned s = 0; s < BIG_NSRC; s++)
		for (unsigned f = 0; f < BIG_NPKT; f++)
			ck_assert_uint_eq(w.count[s][f], 1);
	model_get_stats(m, &st);
	ck_assert_uint_eq(st.arrived, BIG_NSRC * BIG_NPKT);
	ck_assert_uint_eq(st.copies_departed, BIG_NSRC * BIG_NPKT);
	ck_assert_uint_eq(st.ing_dropped + st.copies_dropped, 0);
	ck_assert_msg(model_audit(m, &err) == 0, "audit: %s", err.msg);
	ck_assert(model_idle(m));
	model_free(m);
	ck_assert_uint_eq(hugemem_mapped(NULL), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("hugemem");
	TCase *t = tcase_create("all");

	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_sizes);
	tcase_add_test(t, test_big_model);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
