# agent/sonic/local.mk - rules for agent/sonic, the sonic backend (included
# by the top Makefile.am).  The section's options (libsonic_conf) are always
# built, so that conf.c reads a `sonic { }` section either way; the backend
# itself needs hiredis (configure --without-sonic leaves it out).
#
# SPDX-License-Identifier: BSD-2-Clause

noinst_LIBRARIES += agent/sonic/libsonic_conf.a
agent_sonic_libsonic_conf_a_SOURCES = agent/sonic/sonic_conf.c agent/sonic/sonic_conf.h
agent_sonic_libsonic_conf_a_CFLAGS = $(AM_CFLAGS) $(LIBCONFUSE_CFLAGS)

SONIC_BACKEND_SOURCES = \
	agent/sonic/backend_sonic.c agent/sonic/backend_sonic.h \
	agent/sonic/sonic_redis.c agent/sonic/sonic_redis.h \
	agent/sonic/sonic_maps.c agent/sonic/sonic_maps.h \
	agent/sonic/sonic_view.c agent/sonic/sonic_view.h \
	agent/sonic/sonic_drops.c agent/sonic/sonic_drops.h \
	agent/sonic/sonic_notify.c agent/sonic/sonic_notify.h \
	agent/sonic/sonic_parse.c agent/sonic/sonic_parse.h
EXTRA_DIST += $(SONIC_BACKEND_SOURCES) \
	agent/sonic/tests/sonic_fixture.py agent/sonic/tests/e2e-sonic.sh \
	agent/sonic/tests/e2e-sonic-start.sh agent/sonic/tests/e2e-sonic-lib.sh \
	agent/sonic/tests/e2e-sonic-maps.sh agent/sonic/tests/e2e-sonic-maps-check.py \
	agent/sonic/tests/e2e-sonic-check.py agent/sonic/bench/bench-sonic.sh

if SONIC
noinst_LIBRARIES += agent/sonic/libbackend_sonic.a
agent_sonic_libbackend_sonic_a_SOURCES = $(SONIC_BACKEND_SOURCES)
agent_sonic_libbackend_sonic_a_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS) $(LIBCONFUSE_CFLAGS)
BSF_SONIC_LIBS = agent/sonic/libbackend_sonic.a $(HIREDIS_LIBS)
else
BSF_SONIC_LIBS =
endif

# ---- tests
if SONIC
TESTS += agent/sonic/tests/e2e-sonic.sh agent/sonic/tests/e2e-sonic-start.sh \
	agent/sonic/tests/e2e-sonic-maps.sh agent/sonic/tests/test_sonic_parse
check_PROGRAMS += agent/sonic/tests/test_sonic_parse
agent_sonic_tests_test_sonic_parse_SOURCES = agent/sonic/tests/test_sonic_parse.c
agent_sonic_tests_test_sonic_parse_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS) $(LIBCONFUSE_CFLAGS) \
	$(CHECK_CFLAGS)
agent_sonic_tests_test_sonic_parse_LDADD = agent/sonic/libbackend_sonic.a \
	agent/sonic/libsonic_conf.a agent/libconfval.a proto/libsflow.a $(HIREDIS_LIBS) \
	$(LIBCONFUSE_LIBS) $(CHECK_LIBS) -lm
endif

# libFuzzer target (configure CC=clang --enable-fuzzing; make fuzz): the
# reply parser (fuzz/fuzz_sonic_reply.c), with its seed corpus.
FUZZ_SONIC_CORPUS = \
	agent/sonic/fuzz/corpus/fuzz_sonic_reply/port-keys \
	agent/sonic/fuzz/corpus/fuzz_sonic_reply/maps \
	agent/sonic/fuzz/corpus/fuzz_sonic_reply/hmget \
	agent/sonic/fuzz/corpus/fuzz_sonic_reply/database-config \
	agent/sonic/fuzz/corpus/fuzz_sonic_reply/leak-unfilled-fields
EXTRA_DIST += $(FUZZ_SONIC_CORPUS) agent/sonic/fuzz/fuzz_sonic_reply.c
if FUZZING
if SONIC
FUZZ_PROGS += agent/sonic/fuzz/fuzz_sonic_reply
agent_sonic_fuzz_fuzz_sonic_reply_SOURCES = agent/sonic/fuzz/fuzz_sonic_reply.c \
	agent/sonic/sonic_parse.c agent/sonic/sonic_maps.c agent/sonic/sonic_conf.c \
	agent/sonic/sonic_drops.c agent/sonic/sonic_notify.c agent/sonic/sonic_redis.c \
	agent/confval.c agent/confhint.c
agent_sonic_fuzz_fuzz_sonic_reply_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS) $(LIBCONFUSE_CFLAGS) \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
agent_sonic_fuzz_fuzz_sonic_reply_LDADD = proto/libsflow.a $(HIREDIS_LIBS) $(LIBCONFUSE_LIBS)
agent_sonic_fuzz_fuzz_sonic_reply_LDFLAGS = -fsanitize=fuzzer,address,undefined
endif
endif

# ---- make bench: 64 ports x 16 queues + 8 PGs polled through Redis: CPU
# and round trips per poll cycle (a copy of the script with the build and
# source directories filled in; it skips without redis-server).
if SONIC
EXTRA_PROGRAMS += agent/sonic/bench/bench_sonic
agent_sonic_bench_bench_sonic_SOURCES = agent/sonic/bench/bench_sonic.c
agent_sonic_bench_bench_sonic_CFLAGS = $(AM_CFLAGS) $(LIBEVENT_CFLAGS)
agent_sonic_bench_bench_sonic_LDADD = $(BSF_AGENT_LIBS)
BENCH_PROGS += agent/sonic/bench/bench-sonic
CLEANFILES += agent/sonic/bench/bench_sonic
agent/sonic/bench/bench-sonic: $(srcdir)/agent/sonic/bench/bench-sonic.sh \
		agent/sonic/bench/bench_sonic$(EXEEXT)
	$(AM_V_GEN)mkdir -p agent/sonic/bench && \
	sed -e 's|%ABS_TOP_BUILDDIR%|$(abs_top_builddir)|g' \
	    -e 's|%ABS_TOP_SRCDIR%|$(abs_top_srcdir)|g' \
	    $(srcdir)/agent/sonic/bench/bench-sonic.sh >$@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@
endif
