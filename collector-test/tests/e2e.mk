# collector-test/tests/e2e.mk - end-to-end tests of bsflowd (included by the top Makefile.am),
# and the unit tests of bsflowd's own structures and of the sample builder.

# Unit tests: own structures (proto/sflow_own.c) and samples (agent/samples.c).
check_PROGRAMS += proto/tests/test_own agent/tests/test_samples
TESTS += proto/tests/test_own agent/tests/test_samples

proto_tests_test_own_SOURCES = proto/tests/test_own.c
proto_tests_test_own_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
proto_tests_test_own_LDADD = proto/libsflow.a $(CHECK_LIBS)

agent_tests_test_samples_SOURCES = agent/tests/test_samples.c agent/samples.c agent/samples.h
agent_tests_test_samples_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
agent_tests_test_samples_LDADD = proto/libsflow.a $(CHECK_LIBS)

# The per-port table of bsflow-collect --table (collector-test/table.c).
check_PROGRAMS += collector-test/tests/test_table
TESTS += collector-test/tests/test_table
collector_test_tests_test_table_SOURCES = collector-test/tests/test_table.c \
	collector-test/table.c collector-test/table.h
collector_test_tests_test_table_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
collector_test_tests_test_table_LDADD = proto/libsflow.a $(CHECK_LIBS)

# End-to-end: bsflowd with the built-in model on a known scenario, received
# by bsflow-collect and independent decoders (see e2e-lib.sh).
E2E_TESTS = \
	collector-test/tests/e2e-print-own.sh \
	collector-test/tests/e2e-congestion.sh \
	collector-test/tests/e2e-reload.sh \
	collector-test/tests/e2e-collectors.sh \
	collector-test/tests/e2e-tshark.sh \
	collector-test/tests/e2e-sfacctd.sh
TESTS += $(E2E_TESTS)
EXTRA_DIST += $(E2E_TESTS) \
	collector-test/tests/e2e-lib.sh \
	collector-test/tests/e2e-check.py \
	collector-test/tests/e2e-udp2pcap.py \
	collector-test/bench-daemon.sh

# make bench: bsflowd's CPU time and memory exporting 1024 ports x 8 queues.
BENCH_PROGS += collector-test/bench-daemon
collector-test/bench-daemon: $(srcdir)/collector-test/bench-daemon.sh agent/bsflowd
	$(AM_V_GEN)mkdir -p collector-test && \
	sed -e 's|%ABS_TOP_BUILDDIR%|$(abs_top_builddir)|g' \
	    -e 's|%ABS_TOP_SRCDIR%|$(abs_top_srcdir)|g' \
	    $(srcdir)/collector-test/bench-daemon.sh >$@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

# Visibility events and samplers end to end (issue 6).
TESTS += collector-test/tests/e2e-visibility.sh
EXTRA_DIST += collector-test/tests/e2e-visibility.sh collector-test/tests/e2e-visibility-check.py
