/*
 * test_linux_bpfk.c - which kernels the bpf source's object can load on,
 * from their BTF (linuxbe_bpf_kernel_check), on BTF built here for each
 * kernel generation (libbpf's BTF writer), with the tracepoints' typedefs
 * as the kernel declares them (btf_trace_NAME: a pointer to a function
 * of the tracepoint's data and its arguments):
 *   - no qdisc:qdisc_enqueue tracepoint (before Linux 5.14): refused,
 *     saying so;
 *   - kfree_skb(skb, location) without a reason (5.14 to 5.16): loads
 *     without its drop program, saying why;
 *   - kfree_skb with its reason but no QDISC_DROP among the reasons
 *     (5.17): the same;
 *   - the reason and QDISC_DROP (5.18 and later, with the rx_sk argument
 *     of 6.x too): everything;
 *   - this machine's kernel BTF, when it has one: the enqueue tracepoint
 *     and the drops (the bpf e2e tests run here).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "agent/linux/bpf/bpfint.h"

/* The enum skb_drop_reason, with QDISC_DROP or not; its type id. */
static int add_reasons(struct btf *b, int qdrop)
{
	int id = btf__add_enum(b, "skb_drop_reason", 4);

	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(btf__add_enum_value(b, "SKB_DROP_REASON_NOT_SPECIFIED", 2), 0);
	if (qdrop)
		ck_assert_int_eq(btf__add_enum_value(b, "SKB_DROP_REASON_QDISC_DROP", 64), 0);
	return id;
}

/* typedef void (*btf_trace_NAME)(void *, args...) with nargs arguments of
 * types args[] */
static void add_tp(struct btf *b, const char *name, const int *args, int nargs, int voidp)
{
	char tn[64];
	int fp = btf__add_func_proto(b, 0), ptr, i;

	ck_assert_int_gt(fp, 0);
	ck_assert_int_eq(btf__add_func_param(b, "", voidp), 0);
	for (i = 0; i < nargs; i++)
		ck_assert_int_eq(btf__add_func_param(b, "", args[i]), 0);
	ptr = btf__add_ptr(b, fp);
	ck_assert_int_gt(ptr, 0);
	snprintf(tn, sizeof tn, "btf_trace_%s", name);
	ck_assert_int_gt(btf__add_typedef(b, tn, ptr), 0);
}

/* A kernel's BTF: enqueue 0/1 (its tracepoint), kfree 2 or 3 (or 4)
 * arguments, qdrop 0/1 (the reason QDISC_DROP); NULL-free, checked. */
static struct btf *kernel(int enqueue, int kfree_args, int reasons, int qdrop)
{
	struct btf *b = btf__new_empty();
	int voidp, skb, skbp, q, qp, txq, txqp, in, sk, skp, reason = 0;

	ck_assert_ptr_nonnull(b);
	voidp = btf__add_ptr(b, 0);
	in = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	skb = btf__add_struct(b, "sk_buff", 0);
	skbp = btf__add_ptr(b, skb);
	q = btf__add_struct(b, "Qdisc", 0);
	qp = btf__add_ptr(b, q);
	txq = btf__add_struct(b, "netdev_queue", 0);
	txqp = btf__add_ptr(b, txq);
	sk = btf__add_struct(b, "sock", 0);
	skp = btf__add_ptr(b, sk);
	ck_assert(voidp > 0 && in > 0 && skbp > 0 && qp > 0 && txqp > 0 && skp > 0);
	if (reasons)
		reason = add_reasons(b, qdrop);
	{
		int deq[4] = {qp, txqp, in, skbp}, enq[3] = {qp, txqp, skbp};
		int kf[4] = {skbp, voidp, reason, skp};

		add_tp(b, "qdisc_dequeue", deq, 4, voidp);
		if (enqueue)
			add_tp(b, "qdisc_enqueue", enq, 3, voidp);
		add_tp(b, "kfree_skb", kf, kfree_args, voidp);
	}
	return b;
}

static void check(struct btf *b, int rc, int drops, const char *says)
{
	char why[200] = "";
	int d = -1;

	ck_assert_int_eq(linuxbe_bpf_kernel_check(b, &d, why, sizeof why), rc);
	if (rc == 0)
		ck_assert_int_eq(d, drops);
	if (says)
		ck_assert_msg(strstr(why, says) != NULL, "'%s' lacks '%s'", why, says);
	else
		ck_assert_str_eq(why, "");
	btf__free(b);
}

START_TEST(test_generations)
{
	/* before 5.14: no enqueue tracepoint */
	check(kernel(0, 2, 0, 0), -1, 0, "qdisc:qdisc_enqueue tracepoint: Linux 5.14");
	/* 5.14 .. 5.16: kfree_skb(skb, location) */
	check(kernel(1, 2, 0, 0), 0, 0, "lacks the drop reason QDISC_DROP: Linux 5.18");
	/* 5.17: the reason, without QDISC_DROP */
	check(kernel(1, 3, 1, 0), 0, 0, "Linux 5.18");
	/* 5.18 .. 6.10, and 6.11 on with rx_sk */
	check(kernel(1, 3, 1, 1), 0, 1, NULL);
	check(kernel(1, 4, 1, 1), 0, 1, NULL);
	/* a third argument of another type than the reason enum */
	{
		struct btf *b = btf__new_empty();
		int voidp = btf__add_ptr(b, 0), in = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
		int args[3] = {voidp, voidp, in}, enq[3] = {voidp, voidp, voidp};
		int deq[4] = {voidp, voidp, in, voidp};

		add_reasons(b, 1);
		add_tp(b, "qdisc_enqueue", enq, 3, voidp);
		add_tp(b, "qdisc_dequeue", deq, 4, voidp);
		add_tp(b, "kfree_skb", args, 3, voidp);
		check(b, 0, 0, "Linux 5.18");
	}
}
END_TEST

START_TEST(test_this_kernel)
{
	struct btf *b;

	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		printf("no kernel BTF here: this kernel not checked\n");
		return;
	}
	b = btf__load_vmlinux_btf();
	ck_assert_ptr_nonnull(b);
	check(b, 0, 1, NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("linux_bpfk");
	TCase *tc = tcase_create("kernels");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_generations);
	tcase_add_test(tc, test_this_kernel);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
