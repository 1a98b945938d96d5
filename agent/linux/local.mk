# agent/linux/local.mk - the linux backend (backend = linux): a library of
# its sources (parsers, netlink helpers, pollers, the backend's ops), its
# unit tests with hand-built netlink fixtures, its fuzz target, benchmark
# and end-to-end tests.  Included by the top Makefile.am before
# agent/local.mk, which links agent/linux/liblinuxbe.a into bsflowd.

noinst_LIBRARIES += agent/linux/liblinuxbe.a
LINUXBE_PARSE_SOURCES = \
	agent/linux/linuxbe.h \
	agent/linux/attr.c \
	agent/linux/link.c \
	agent/linux/qdisc.c \
	agent/linux/dropmon.c \
	agent/linux/psample.c \
	agent/linux/sb.c \
	agent/linux/reasons.c \
	agent/linux/peaks.c \
	agent/linux/tpformat.c agent/linux/tracepoint.h
agent_linux_liblinuxbe_a_SOURCES = $(LINUXBE_PARSE_SOURCES) \
	agent/linux/nl.c agent/linux/nl.h \
	agent/linux/linuxcfg.c agent/linux/linuxcfg.h \
	agent/linux/state.h \
	agent/linux/ports.c \
	agent/linux/linkrun.c \
	agent/linux/ethtool.c \
	agent/linux/qpoll.c \
	agent/linux/dmrun.c \
	agent/linux/psrun.c \
	agent/linux/sbrun.c \
	agent/linux/tracepoint.c \
	agent/linux/packet.c \
	agent/linux/backend_linux.c agent/linux/backend_linux.h
agent_linux_liblinuxbe_a_CFLAGS = $(AM_CFLAGS) $(LIBMNL_CFLAGS) $(LIBCONFUSE_CFLAGS)

LINUXBE_LIBS = agent/linux/liblinuxbe.a $(LIBMNL_LIBS) $(LIBCONFUSE_LIBS)

check_PROGRAMS += agent/linux/tests/test_linux_parse
TESTS += agent/linux/tests/test_linux_parse
agent_linux_tests_test_linux_parse_SOURCES = agent/linux/tests/test_linux_parse.c \
	agent/linux/tests/nlbuild.h
agent_linux_tests_test_linux_parse_CFLAGS = $(AM_CFLAGS) $(LIBMNL_CFLAGS) $(CHECK_CFLAGS)
agent_linux_tests_test_linux_parse_LDADD = $(LINUXBE_LIBS) proto/libsflow.a $(CHECK_LIBS) -lm

check_PROGRAMS += agent/linux/tests/test_linux_conf
TESTS += agent/linux/tests/test_linux_conf
agent_linux_tests_test_linux_conf_SOURCES = agent/linux/tests/test_linux_conf.c
agent_linux_tests_test_linux_conf_CFLAGS = $(AM_CFLAGS) $(LIBMNL_CFLAGS) $(LIBCONFUSE_CFLAGS) \
	$(CHECK_CFLAGS)
agent_linux_tests_test_linux_conf_LDADD = $(LINUXBE_LIBS) proto/libsflow.a $(CHECK_LIBS) -lm

check_PROGRAMS += agent/linux/tests/test_linux_qdisc
TESTS += agent/linux/tests/test_linux_qdisc
agent_linux_tests_test_linux_qdisc_SOURCES = agent/linux/tests/test_linux_qdisc.c
agent_linux_tests_test_linux_qdisc_CFLAGS = $(AM_CFLAGS) $(LIBMNL_CFLAGS) $(LIBCONFUSE_CFLAGS) \
	$(CHECK_CFLAGS)
agent_linux_tests_test_linux_qdisc_LDADD = $(LINUXBE_LIBS) proto/libsflow.a $(CHECK_LIBS) -lm

# End-to-end: network namespaces with a veth pair and an htb tree (runs
# here as root); netdevsim + drop monitor + psample (skips where absent).
LINUXBE_E2E = agent/linux/tests/e2e-linux-qdisc.sh agent/linux/tests/e2e-linux-netdevsim.sh \
	agent/linux/tests/e2e-linux-reload.sh
TESTS += $(LINUXBE_E2E)
EXTRA_DIST += $(LINUXBE_E2E) agent/linux/tests/e2e-linux-check.py agent/linux/tests/blast.py

# libFuzzer target over the parsers (configure CC=clang --enable-fuzzing;
# make fuzz), with its seed messages laid out by hand from the UAPI.
LINUXBE_CORPUS = \
	agent/linux/fuzz/corpus/fuzz_linux/netdm-sw-alert \
	agent/linux/fuzz/corpus/fuzz_linux/netdm-hw-alert \
	agent/linux/fuzz/corpus/fuzz_linux/psample-full \
	agent/linux/fuzz/corpus/fuzz_linux/qdisc-bfifo \
	agent/linux/fuzz/corpus/fuzz_linux/devlink-tc-bind
EXTRA_DIST += $(LINUXBE_CORPUS) agent/linux/fuzz/fuzz_linux.c
FUZZ_CORPORA += $(LINUXBE_CORPUS)
if FUZZING
FUZZ_PROGS += agent/linux/fuzz/fuzz_linux
agent_linux_fuzz_fuzz_linux_SOURCES = agent/linux/fuzz/fuzz_linux.c $(LINUXBE_PARSE_SOURCES) \
	agent/linux/ethtool.c agent/linux/nl.c
agent_linux_fuzz_fuzz_linux_CFLAGS = $(AM_CFLAGS) $(LIBMNL_CFLAGS) $(LIBCONFUSE_CFLAGS) \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
agent_linux_fuzz_fuzz_linux_LDADD = $(LIBMNL_LIBS)
agent_linux_fuzz_fuzz_linux_LDFLAGS = -fsanitize=fuzzer,address,undefined
endif

# Benchmark (make bench): NET_DM alerts parsed per second, the qdisc
# poller's cost on 64 ports x 8 queues (in a network namespace; root).
BENCH_PROGS += agent/linux/bench/bench_linux
EXTRA_PROGRAMS += agent/linux/bench/bench_linux
agent_linux_bench_bench_linux_SOURCES = agent/linux/bench/bench_linux.c
agent_linux_bench_bench_linux_CFLAGS = $(AM_CFLAGS) $(LIBMNL_CFLAGS) $(LIBCONFUSE_CFLAGS)
agent_linux_bench_bench_linux_LDADD = $(LINUXBE_LIBS) proto/libsflow.a -lm
