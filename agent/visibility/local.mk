# agent/visibility/local.mk - visibility events and samplers (doc/glossary.md);
# included by the top Makefile.am.  A library independent of the daemon
# and the model (libvis.a), its config section (vis_conf.[ch], libconfuse)
# and its Check unit tests.
#
# SPDX-License-Identifier: BSD-2-Clause

noinst_LIBRARIES += agent/visibility/libvis.a
agent_visibility_libvis_a_SOURCES = \
	agent/visibility/vis.h \
	agent/visibility/vis_int.h \
	agent/visibility/vis_util.c \
	agent/visibility/vis_match.c \
	agent/visibility/vis_ticket.c \
	agent/visibility/vis_flowfilter.c \
	agent/visibility/vis_limiter.c \
	agent/visibility/vis_dedup.c \
	agent/visibility/vis_ratemgr.c \
	agent/visibility/vis_sampler.c agent/visibility/vis_sampler.h \
	agent/visibility/vis_chain.c \
	agent/visibility/vis_monitor.c agent/visibility/vis_monitor.h \
	agent/visibility/vis_monitor_drop.c \
	agent/visibility/vis_monitor_delay.c \
	agent/visibility/vis_forensics.c \
	agent/visibility/vis_congestion.c \
	agent/visibility/vis_pipeline.c agent/visibility/vis_pipeline.h \
	agent/visibility/vis_backend.c agent/visibility/vis_backend.h \
	agent/visibility/vis_conf.c agent/visibility/vis_conf.h
agent_visibility_libvis_a_CFLAGS = $(AM_CFLAGS) $(LIBCONFUSE_CFLAGS)

# ---- unit tests (Check)
VIS_TEST_CFLAGS = $(AM_CFLAGS) $(LIBCONFUSE_CFLAGS) $(CHECK_CFLAGS)
VIS_TEST_LIBS = agent/visibility/libvis.a agent/libconfval.a $(LIBCONFUSE_LIBS) $(CHECK_LIBS) -lm
VIS_TESTS = \
	agent/visibility/tests/test_vis_samplers \
	agent/visibility/tests/test_vis_monitors \
	agent/visibility/tests/test_vis_conf
check_PROGRAMS += $(VIS_TESTS)
TESTS += $(VIS_TESTS)

agent_visibility_tests_test_vis_samplers_SOURCES = agent/visibility/tests/test_vis_samplers.c
agent_visibility_tests_test_vis_samplers_CFLAGS = $(VIS_TEST_CFLAGS)
agent_visibility_tests_test_vis_samplers_LDADD = $(VIS_TEST_LIBS)
agent_visibility_tests_test_vis_monitors_SOURCES = agent/visibility/tests/test_vis_monitors.c
agent_visibility_tests_test_vis_monitors_CFLAGS = $(VIS_TEST_CFLAGS)
agent_visibility_tests_test_vis_monitors_LDADD = $(VIS_TEST_LIBS)
agent_visibility_tests_test_vis_conf_SOURCES = agent/visibility/tests/test_vis_conf.c
agent_visibility_tests_test_vis_conf_CFLAGS = $(VIS_TEST_CFLAGS)
agent_visibility_tests_test_vis_conf_LDADD = $(VIS_TEST_LIBS)

# Benchmark (make bench): packet events per second through the pipeline.
BENCH_PROGS += agent/visibility/bench/bench_vis
EXTRA_PROGRAMS += agent/visibility/bench/bench_vis
agent_visibility_bench_bench_vis_SOURCES = agent/visibility/bench/bench_vis.c
agent_visibility_bench_bench_vis_CFLAGS = $(AM_CFLAGS) $(LIBCONFUSE_CFLAGS)
agent_visibility_bench_bench_vis_LDADD = agent/visibility/libvis.a agent/libconfval.a $(LIBCONFUSE_LIBS) -lm

# backend events -> packet events (vis_backend.c), registered by qevents
check_PROGRAMS += agent/visibility/tests/test_vis_backend
TESTS += agent/visibility/tests/test_vis_backend
agent_visibility_tests_test_vis_backend_SOURCES = agent/visibility/tests/test_vis_backend.c
agent_visibility_tests_test_vis_backend_CFLAGS = $(VIS_TEST_CFLAGS)
agent_visibility_tests_test_vis_backend_LDADD = $(VIS_TEST_LIBS)
