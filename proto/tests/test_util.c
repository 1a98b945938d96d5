/*
 * test_util.c - the drop reason table (every entry of sflow_drops.txt,
 * code -> name and name -> code), the BST percentage helper against closed
 * forms (including values whose 10000 * used needs more than 64 bits),
 * and the tag text and structure names.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "proto/sflow_decode.h"
#include "proto/sflow_drops.h"

/* The drop_reason enumeration of sflow_drops.txt (October 2020), typed in
 * from the spec, in order. */
static const struct {
	uint32_t code;
	const char *name;
} spec_drops[] = {
    {0, "net_unreachable"},
    {1, "host_unreachable"},
    {2, "protocol_unreachable"},
    {3, "port_unreachable"},
    {4, "frag_needed"},
    {5, "src_route_failed"},
    {6, "dst_net_unknown"},
    {7, "dst_host_unknown"},
    {8, "src_host_isolated"},
    {9, "dst_net_prohibited"},
    {10, "dst_host_prohibited"},
    {11, "dst_net_tos_unreachable"},
    {12, "dst_host_tos_unreacheable"}, /* sic, as in the spec */
    {13, "comm_admin_prohibited"},
    {14, "host_precedence_violation"},
    {15, "precedence_cutoff"},
    {256, "unknown"},
    {257, "ttl_exceeded"},
    {258, "acl"},
    {259, "no_buffer_space"},
    {260, "red"},
    {261, "traffic_shaping"},
    {262, "pkt_too_big"},
    {263, "src_mac_is_multicast"},
    {264, "vlan_tag_mismatch"},
    {265, "ingress_vlan_filter"},
    {266, "ingress_spanning_tree_filter"},
    {267, "port_list_is_empty"},
    {268, "port_loopback_filter"},
    {269, "blackhole_route"},
    {270, "non_ip"},
    {271, "uc_dip_over_mc_dmac"},
    {272, "dip_is_loopback_address"},
    {273, "sip_is_mc"},
    {274, "sip_is_loopback_address"},
    {275, "ip_header_corrupted"},
    {276, "ipv4_sip_is_limited_bc"},
    {277, "ipv6_mc_dip_reserved_scope"},
    {278, "ipv6_mc_dip_interface_local_scope"},
    {279, "unresolved_neigh"},
    {280, "mc_reverse_path_forwarding"},
    {281, "non_routable_packet"},
    {282, "decap_error"},
    {283, "overlay_smac_is_mc"},
    {284, "unknown_l2"},
    {285, "unknown_l3"},
    {286, "unknown_l3_exception"},
    {287, "unknown_buffer"},
    {288, "unknown_tunnel"},
    {289, "unknown_l4"},
    {290, "sip_is_unspecified"},
    {291, "mlag_port_isolation"},
    {292, "blackhole_arp_neigh"},
    {293, "src_mac_is_dmac"},
    {294, "dmac_is_reserved"},
    {295, "sip_is_class_e"},
    {296, "mc_dmac_mismatch"},
    {297, "sip_is_dip"},
    {298, "dip_is_local_network"},
    {299, "dip_is_link_local"},
    {300, "overlay_smac_is_dmac"},
    {301, "egress_vlan_filter"},
    {302, "uc_reverse_path_forwarding"},
    {303, "split_horizon"},
};

#define NSPEC (sizeof spec_drops / sizeof spec_drops[0])

START_TEST(drops_every_entry)
{
	size_t i;

	ck_assert_uint_eq(NSPEC, 16 + 48);
	ck_assert_uint_eq(sflow_drop_count(), NSPEC);
	for (i = 0; i < NSPEC; i++) {
		uint32_t code = 0xDEAD;
		const char *name = NULL;

		ck_assert_ptr_nonnull(sflow_drop_name(spec_drops[i].code));
		ck_assert_str_eq(sflow_drop_name(spec_drops[i].code), spec_drops[i].name);
		ck_assert_int_eq(sflow_drop_code(spec_drops[i].name, &code), 0);
		ck_assert_uint_eq(code, spec_drops[i].code);
		sflow_drop_entry((unsigned)i, &code, &name);
		ck_assert_uint_eq(code, spec_drops[i].code);
		ck_assert_str_eq(name, spec_drops[i].name);
	}
}
END_TEST

START_TEST(drops_not_in_table)
{
	uint32_t code = 7, c;
	const char *name = "x";

	for (c = 16; c < 256; c++)
		ck_assert_ptr_null(sflow_drop_name(c));
	ck_assert_ptr_null(sflow_drop_name(304));
	ck_assert_ptr_null(sflow_drop_name(0xFFFFFFFFu));
	ck_assert_int_eq(sflow_drop_code("no_such_reason", &code), -1);
	ck_assert_uint_eq(code, 7);
	ck_assert_int_eq(sflow_drop_code("", &code), -1);
	ck_assert_int_eq(sflow_drop_code("No_Buffer_Space", &code), -1);
	ck_assert_int_eq(sflow_drop_code(NULL, &code), -1);
	sflow_drop_entry(sflow_drop_count(), &code, &name);
	ck_assert_uint_eq(code, 0);
	ck_assert_ptr_null(name);
}
END_TEST

START_TEST(drops_enum_matches)
{
	ck_assert_str_eq(sflow_drop_name(SFLOW_DROP_NET_UNREACHABLE), "net_unreachable");
	ck_assert_str_eq(sflow_drop_name(SFLOW_DROP_UNKNOWN), "unknown");
	ck_assert_str_eq(sflow_drop_name(SFLOW_DROP_TTL_EXCEEDED), "ttl_exceeded");
	ck_assert_str_eq(sflow_drop_name(SFLOW_DROP_ACL), "acl");
	ck_assert_str_eq(sflow_drop_name(SFLOW_DROP_NO_BUFFER_SPACE), "no_buffer_space");
	ck_assert_str_eq(sflow_drop_name(SFLOW_DROP_RED), "red");
	ck_assert_str_eq(sflow_drop_name(SFLOW_DROP_TRAFFIC_SHAPING), "traffic_shaping");
	ck_assert_str_eq(sflow_drop_name(SFLOW_DROP_PKT_TOO_BIG), "pkt_too_big");
	ck_assert_str_eq(sflow_drop_name(SFLOW_DROP_BLACKHOLE_ROUTE), "blackhole_route");
	ck_assert_str_eq(sflow_drop_name(SFLOW_DROP_UNKNOWN_BUFFER), "unknown_buffer");
}
END_TEST

START_TEST(percentage_closed_forms)
{
	const uint64_t two63 = 0x8000000000000000ull;

	/* unknown */
	ck_assert_int_eq(sflow_percentage(0, 0), -1);
	ck_assert_int_eq(sflow_percentage(5, 0), -1);
	ck_assert_int_eq(sflow_percentage(UINT64_MAX, 100), -1);
	ck_assert_int_eq(sflow_percentage(1, UINT64_MAX), -1);
	/* exact and rounded down */
	ck_assert_int_eq(sflow_percentage(0, 100), 0);
	ck_assert_int_eq(sflow_percentage(1, 100), 100);
	ck_assert_int_eq(sflow_percentage(1, 3), 3333);
	ck_assert_int_eq(sflow_percentage(2, 3), 6666);
	ck_assert_int_eq(sflow_percentage(1, 10000), 1);
	ck_assert_int_eq(sflow_percentage(1, 10001), 0);
	ck_assert_int_eq(sflow_percentage(9999, 10000), 9999);
	ck_assert_int_eq(sflow_percentage(99999, 100000), 9999);
	ck_assert_int_eq(sflow_percentage(5, 5), 10000);
	/* clamped */
	ck_assert_int_eq(sflow_percentage(6, 5), 10000);
	ck_assert_int_eq(sflow_percentage(UINT64_MAX - 1, 1), 10000);
	/* 10000 * used beyond 64 bits */
	ck_assert_int_eq(sflow_percentage(two63, UINT64_MAX - 1), 5000);
	ck_assert_int_eq(sflow_percentage(two63 - 2, UINT64_MAX - 1), 4999);
	ck_assert_int_eq(sflow_percentage(3 * (two63 >> 3), two63 >> 1), 7500);
	ck_assert_int_eq(sflow_percentage((two63 >> 3) + 1, 3 * (two63 >> 3)), 3333);
	ck_assert_int_eq(sflow_percentage(UINT64_MAX - 2, UINT64_MAX - 1), 9999);
	/* at the 64-bit boundary of the fast path: 1844674407370955 * 10000
	 * fits, 1844674407370956 * 10000 does not; both over 2 * that */
	ck_assert_int_eq(sflow_percentage(1844674407370955ull, 3689348814741910ull), 5000);
	ck_assert_int_eq(sflow_percentage(1844674407370956ull, 3689348814741912ull), 5000);
	ck_assert_int_eq(sflow_percentage(1844674407370956ull, 3689348814741913ull), 4999);
}
END_TEST

START_TEST(address_text)
{
	struct sflow_addr a;
	char buf[64];

	memset(&a, 0, sizeof a);
	a.type = SFLOW_ADDR_IP4;
	a.a[0] = 192;
	a.a[2] = 2;
	a.a[3] = 1;
	ck_assert_str_eq(sflow_addr_str(&a, buf, sizeof buf), "192.0.2.1");
	memset(&a, 0, sizeof a);
	a.type = SFLOW_ADDR_IP6;
	a.a[0] = 0x20;
	a.a[1] = 0x01;
	a.a[2] = 0x0d;
	a.a[3] = 0xb8;
	a.a[15] = 1;
	ck_assert_str_eq(sflow_addr_str(&a, buf, sizeof buf), "2001:db8::1");
	a.type = 7;
	ck_assert_str_eq(sflow_addr_str(&a, buf, sizeof buf), "unknown");
}
END_TEST

START_TEST(tag_text_and_names)
{
	char buf[32];

	ck_assert_str_eq(sflow_tag_str(SFLOW_TAG(4413, 2), buf, sizeof buf), "4413:2");
	ck_assert_str_eq(sflow_tag_str(SFLOW_TAG(0, 1005), buf, sizeof buf), "0:1005");
	ck_assert_str_eq(sflow_tag_str(0xFFFFFFFFu, buf, sizeof buf), "1048575:4095");
	ck_assert_str_eq(sflow_tag_str(SFLOW_TAG(4413, 2), buf, 3), "44");
	ck_assert_str_eq(sflow_tag_str(1, NULL, 0), "");
	ck_assert_uint_eq(SFLOW_TAG(4413, 2), 0x0113D002u);
	ck_assert_uint_eq(SFLOW_TAG(32473, 1), 0x07ED9001u);

	ck_assert_str_eq(sflow_sample_name(SFLOW_TAG(0, 1)), "flow_sample");
	ck_assert_str_eq(sflow_sample_name(SFLOW_TAG(0, 2)), "counters_sample");
	ck_assert_str_eq(sflow_sample_name(SFLOW_TAG(0, 3)), "flow_sample_expanded");
	ck_assert_str_eq(sflow_sample_name(SFLOW_TAG(0, 4)), "counters_sample_expanded");
	ck_assert_str_eq(sflow_sample_name(SFLOW_TAG(0, 5)), "discarded_packet");
	ck_assert_ptr_null(sflow_sample_name(SFLOW_TAG(0, 6)));

	/* the same number names different structures in different samples */
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_COUNTERS_EXP, SFLOW_TAG(0, 1)),
			 "if_counters");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_FLOW_EXP, SFLOW_TAG(0, 1)),
			 "sampled_header");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_COUNTERS, SFLOW_TAG(4413, 1)),
			 "bst_device_buffers");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_DISCARD, SFLOW_TAG(4413, 1)),
			 "extended_bst_egress_queue");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_COUNTERS_EXP, SFLOW_TAG(0, 2)),
			 "ethernet_counters");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_COUNTERS_EXP, SFLOW_TAG(0, 1005)),
			 "port_name");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_COUNTERS_EXP, SFLOW_TAG(4413, 2)),
			 "bst_port_buffers");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_FLOW, SFLOW_TAG(0, 1001)),
			 "extended_switch");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_DISCARD, SFLOW_TAG(0, 1036)),
			 "extended_egress_queue");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_DISCARD, SFLOW_TAG(0, 1038)),
			 "extended_function");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_FLOW_EXP, SFLOW_TAG(0, 1039)),
			 "extended_transit");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_FLOW_EXP, SFLOW_TAG(0, 1040)),
			 "extended_queue");
	ck_assert_str_eq(sflow_record_name(SFLOW_SAMPLE_FLOW_EXP, SFLOW_TAG(0, 1043)),
			 "extended_timestamp");
	ck_assert_ptr_null(sflow_record_name(SFLOW_SAMPLE_COUNTERS_EXP, SFLOW_TAG(0, 1039)));
	ck_assert_ptr_null(sflow_record_name(SFLOW_SAMPLE_FLOW_EXP, SFLOW_TAG(0, 2)));
}
END_TEST

static Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("drops");

	tcase_add_test(tc, drops_every_entry);
	tcase_add_test(tc, drops_not_in_table);
	tcase_add_test(tc, drops_enum_matches);
	suite_add_tcase(s, tc);
	tc = tcase_create("helpers");
	tcase_add_test(tc, percentage_closed_forms);
	tcase_add_test(tc, tag_text_and_names);
	tcase_add_test(tc, address_text);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(util_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
