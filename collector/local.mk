# collector/local.mk - bsflow-collect, the receiver, decoder and
# checker, and its tests (included by the top Makefile.am).  Its modules are
# one library, built once and linked by the program and its unit tests.
#
# SPDX-License-Identifier: BSD-2-Clause

bin_PROGRAMS += collector/bsflow-collect
noinst_LIBRARIES += collector/libcollect.a
collector_libcollect_a_SOURCES = \
	collector/collect.h \
	collector/process.c \
	collector/input_udp.c collector/input_pcap.c \
	collector/output.c collector/output.h \
	collector/print.c collector/print.h \
	collector/print_own.c \
	collector/header.c collector/header.h \
	collector/checks.c collector/checks.h \
	collector/pcapw.c collector/pcapw.h \
	collector/table.c collector/table.h \
	collector/prometheus.c collector/prometheus.h \
	collector/httpd.c collector/httpd.h \
	collector/lines.c collector/lines.h \
	collector/forward.c collector/forward.h \
	collector/filter.c collector/filter.h
collector_libcollect_a_CFLAGS = $(AM_CFLAGS) $(LIBPCAP_CFLAGS)
collector_bsflow_collect_SOURCES = collector/main.c
collector_bsflow_collect_CFLAGS = $(AM_CFLAGS) $(LIBPCAP_CFLAGS)
collector_bsflow_collect_LDADD = collector/libcollect.a proto/libsflow.a $(LIBPCAP_LIBS) -lpthread

# Tests: hand-made captures decoded exactly (text and JSON), the same
# capture in tshark, damaged datagrams, and the network side (UDP, checks,
# --strict, -w, usage errors); a capture of the demo printed as before the
# output layer's rewrite (output-unchanged.sh).
TESTS += \
	collector/tests/decode-pcap.sh \
	collector/tests/tshark.sh \
	collector/tests/mutate.sh \
	collector/tests/udp.sh \
	collector/tests/lines.sh \
	collector/tests/output-unchanged.sh
EXTRA_DIST += \
	collector/tests/decode-pcap.sh \
	collector/tests/tshark.sh \
	collector/tests/mutate.sh \
	collector/tests/udp.sh \
	collector/tests/lines.sh \
	collector/tests/output-unchanged.sh \
	collector/tests/gen-all-structures.py \
	collector/tests/send-sflow.py \
	collector/tests/data/all-structures.pcap \
	collector/tests/data/all-structures.txt \
	collector/tests/data/all-structures.json \
	collector/tests/data/demo-3s.pcap \
	collector/tests/data/demo-3s.txt.gz \
	collector/tests/data/demo-3s.json.gz \
	collector/tests/data/link-sll.pcap \
	collector/tests/data/link-sll2.pcap \
	collector/tests/data/link-null.pcap

# Unit tests (Check): the output abstraction, the checks, the per-port
# table of --table.
COLLECT_UNIT_TESTS = collector/tests/test_output collector/tests/test_checks \
	collector/tests/test_table collector/tests/test_prometheus
check_PROGRAMS += $(COLLECT_UNIT_TESTS)
TESTS += $(COLLECT_UNIT_TESTS)
COLLECT_TEST_LIBS = collector/libcollect.a proto/libsflow.a $(LIBPCAP_LIBS) $(CHECK_LIBS) -lpthread
collector_tests_test_output_SOURCES = collector/tests/test_output.c
collector_tests_test_output_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
collector_tests_test_output_LDADD = $(COLLECT_TEST_LIBS)
collector_tests_test_checks_SOURCES = collector/tests/test_checks.c
collector_tests_test_checks_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
collector_tests_test_checks_LDADD = $(COLLECT_TEST_LIBS)
collector_tests_test_table_SOURCES = collector/tests/test_table.c
collector_tests_test_table_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
collector_tests_test_table_LDADD = $(COLLECT_TEST_LIBS)
collector_tests_test_prometheus_SOURCES = collector/tests/test_prometheus.c
collector_tests_test_prometheus_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
collector_tests_test_prometheus_LDADD = $(COLLECT_TEST_LIBS)

# libFuzzer target (configure CC=clang --enable-fuzzing; make fuzz): the
# collector's handling of a datagram (checks, text and JSON printing,
# packet-header decoding, the filters, the -l/-g lines, -w/-W's pcap and
# pcapng, the table, the Prometheus series), with ASan and UBSan compiled
# in.  Its seed corpus: proto's seeds, the payloads of all-structures.pcap,
# and three datagrams made by hand for the output layer's reservations: a
# 60000-byte unknown record of every byte value (hex in pieces across the
# buffer's end), a 0:5 with 5000-byte strings of bytes to escape in both
# shapes (0:1038, 0:1041, 0:1042) and a header, and a sample of 700
# records with 100 more samples (the decoder's record pool).
FUZZ_COLLECT_CORPUS = \
	collector/fuzz/corpus/fuzz_collect/all-structures-0 \
	collector/fuzz/corpus/fuzz_collect/all-structures-1 \
	collector/fuzz/corpus/fuzz_collect/all-structures-2 \
	collector/fuzz/corpus/fuzz_collect/all-structures-3 \
	collector/fuzz/corpus/fuzz_collect/all-structures-4 \
	collector/fuzz/corpus/fuzz_collect/big-unknown-record \
	collector/fuzz/corpus/fuzz_collect/d1-ipv4-three-samples \
	collector/fuzz/corpus/fuzz_collect/d2-ipv6-device \
	collector/fuzz/corpus/fuzz_collect/d3-compact \
	collector/fuzz/corpus/fuzz_collect/d4-unknown-tags \
	collector/fuzz/corpus/fuzz_collect/flows-ipv6 \
	collector/fuzz/corpus/fuzz_collect/long-strings-discard \
	collector/fuzz/corpus/fuzz_collect/many-records \
	collector/fuzz/corpus/fuzz_collect/model-records-ipv4 \
	collector/fuzz/corpus/fuzz_collect/own-drops-ipv4 \
	collector/fuzz/corpus/fuzz_collect/own-records-ipv4 \
	collector/fuzz/corpus/fuzz_collect/own-sojourn-ipv4 \
	collector/fuzz/corpus/fuzz_collect/port-counters-ipv4
EXTRA_DIST += $(FUZZ_COLLECT_CORPUS) collector/fuzz/fuzz_collect.c
if FUZZING
FUZZ_PROGS += collector/fuzz/fuzz_collect
collector_fuzz_fuzz_collect_SOURCES = collector/fuzz/fuzz_collect.c \
	collector/checks.c collector/output.c collector/print.c \
	collector/print_own.c collector/header.c collector/table.c \
	collector/filter.c collector/lines.c collector/pcapw.c \
	collector/prometheus.c \
	proto/xdr.c proto/sflow_decode.c proto/sflow_drops.c proto/sflow_util.c \
	proto/sflow_own.c proto/sflow_encode.c
collector_fuzz_fuzz_collect_CFLAGS = $(AM_CFLAGS) $(LIBPCAP_CFLAGS) \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
collector_fuzz_fuzz_collect_LDFLAGS = -fsanitize=fuzzer,address,undefined
collector_fuzz_fuzz_collect_LDADD = $(LIBPCAP_LIBS) -lpthread
endif
