# collector-test/local.mk - bsflow-collect, the receiver, decoder and
# checker, and its tests (included by the top Makefile.am).

bin_PROGRAMS += collector-test/bsflow-collect
collector_test_bsflow_collect_SOURCES = \
	collector-test/main.c collector-test/collect.h \
	collector-test/process.c \
	collector-test/input_udp.c collector-test/input_pcap.c \
	collector-test/output.c collector-test/output.h \
	collector-test/print.c collector-test/print.h \
	collector-test/print_own.c \
	collector-test/header.c collector-test/header.h \
	collector-test/checks.c collector-test/checks.h \
	collector-test/pcapw.c collector-test/pcapw.h \
	collector-test/table.c collector-test/table.h
collector_test_bsflow_collect_CFLAGS = $(AM_CFLAGS) $(LIBPCAP_CFLAGS)
collector_test_bsflow_collect_LDADD = proto/libsflow.a $(LIBPCAP_LIBS)

# Tests: hand-made captures decoded exactly (text and JSON), the same
# capture in tshark, damaged datagrams, and the network side (UDP, checks,
# --strict, -w, usage errors).
TESTS += \
	collector-test/tests/decode-pcap.sh \
	collector-test/tests/tshark.sh \
	collector-test/tests/mutate.sh \
	collector-test/tests/udp.sh
EXTRA_DIST += \
	collector-test/tests/decode-pcap.sh \
	collector-test/tests/tshark.sh \
	collector-test/tests/mutate.sh \
	collector-test/tests/udp.sh \
	collector-test/tests/gen-all-structures.py \
	collector-test/tests/send-sflow.py \
	collector-test/tests/data/all-structures.pcap \
	collector-test/tests/data/all-structures.txt \
	collector-test/tests/data/link-sll.pcap \
	collector-test/tests/data/link-sll2.pcap \
	collector-test/tests/data/link-null.pcap

# Unit tests (Check): the output abstraction and the checks.
check_PROGRAMS += collector-test/tests/test_output collector-test/tests/test_checks
TESTS += collector-test/tests/test_output collector-test/tests/test_checks
collector_test_tests_test_output_SOURCES = collector-test/tests/test_output.c \
	collector-test/output.c collector-test/output.h
collector_test_tests_test_output_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
collector_test_tests_test_output_LDADD = $(CHECK_LIBS)
collector_test_tests_test_checks_SOURCES = collector-test/tests/test_checks.c \
	collector-test/checks.c collector-test/checks.h
collector_test_tests_test_checks_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
collector_test_tests_test_checks_LDADD = proto/libsflow.a $(CHECK_LIBS)

# libFuzzer target (configure CC=clang --enable-fuzzing; make fuzz): the
# collector's handling of a datagram (checks, text and JSON printing,
# packet-header decoding, the table), with ASan and UBSan compiled in.  Its
# seed corpus: proto's seeds and the payloads of all-structures.pcap.
FUZZ_COLLECT_CORPUS = \
	collector-test/fuzz/corpus/fuzz_collect/all-structures-0 \
	collector-test/fuzz/corpus/fuzz_collect/all-structures-1 \
	collector-test/fuzz/corpus/fuzz_collect/all-structures-2 \
	collector-test/fuzz/corpus/fuzz_collect/all-structures-3 \
	collector-test/fuzz/corpus/fuzz_collect/all-structures-4 \
	collector-test/fuzz/corpus/fuzz_collect/d1-ipv4-three-samples \
	collector-test/fuzz/corpus/fuzz_collect/d2-ipv6-device \
	collector-test/fuzz/corpus/fuzz_collect/d3-compact \
	collector-test/fuzz/corpus/fuzz_collect/d4-unknown-tags \
	collector-test/fuzz/corpus/fuzz_collect/flows-ipv6 \
	collector-test/fuzz/corpus/fuzz_collect/own-records-ipv4 \
	collector-test/fuzz/corpus/fuzz_collect/port-counters-ipv4
EXTRA_DIST += $(FUZZ_COLLECT_CORPUS) collector-test/fuzz/fuzz_collect.c
if FUZZING
FUZZ_PROGS += collector-test/fuzz/fuzz_collect
collector_test_fuzz_fuzz_collect_SOURCES = collector-test/fuzz/fuzz_collect.c \
	collector-test/checks.c collector-test/output.c collector-test/print.c \
	collector-test/print_own.c collector-test/header.c collector-test/table.c \
	proto/xdr.c proto/sflow_decode.c proto/sflow_drops.c proto/sflow_util.c \
	proto/sflow_own.c proto/sflow_encode.c
collector_test_fuzz_fuzz_collect_CFLAGS = $(AM_CFLAGS) -fsanitize=address,undefined \
	-fno-sanitize-recover=all -fno-omit-frame-pointer -g
collector_test_fuzz_fuzz_collect_LDFLAGS = -fsanitize=fuzzer,address,undefined
endif
