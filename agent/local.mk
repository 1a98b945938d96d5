# agent/local.mk - bsflowd, the daemon: its library of modules (shared with
# the unit tests), the program, the installed backend header, the unit and
# smoke tests with their test plugins, and `make demo`.
# Included by the top Makefile.am.
#
# SPDX-License-Identifier: BSD-2-Clause

sbin_PROGRAMS += agent/bsflowd
pkginclude_HEADERS += agent/backend.h
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = agent/bsflowd-backend.pc

# Config values checked after libconfuse has read them (confval.h): shared
# by the daemon, the model's scenario section and the visibility section.
noinst_LIBRARIES += agent/libconfval.a
agent_libconfval_a_SOURCES = agent/confval.c agent/confval.h agent/confhint.c agent/confhint.h
agent_libconfval_a_CFLAGS = $(AM_CFLAGS) $(LIBCONFUSE_CFLAGS)

# Logging (log.h): the daemon's modules and the built-in backends.
noinst_LIBRARIES += agent/liblog.a
agent_liblog_a_SOURCES = agent/log.c agent/log.h

noinst_LIBRARIES += agent/libbsfagent.a
agent_libbsfagent_a_SOURCES = \
	agent/addr.c agent/addr.h \
	agent/notify.c agent/notify.h \
	agent/pidfile.c agent/pidfile.h \
	agent/watchdog.c agent/watchdog.h \
	agent/plugin.c agent/plugin.h \
	agent/abiwrap.c agent/abiwrap.h \
	agent/evqueue.c agent/evqueue.h \
	agent/host.c agent/host.h \
	agent/conf.c agent/conf.h \
	agent/confwire.c agent/confwire.h \
	agent/export.c agent/export.h \
	agent/seqspace.c agent/seqspace.h \
	agent/resolve.c agent/resolve.h \
	agent/poller.c agent/poller.h \
	agent/counters.c agent/counters.h \
	agent/evsample.c agent/evsample.h \
	agent/backends.c agent/backends.h \
	agent/daemon.c agent/daemon.h \
	agent/devchange.c agent/devchange.h \
	agent/control.c agent/control.h \
	agent/confwarn.c agent/confwarn.h \
	agent/events.c agent/events.h \
	agent/visexport.c agent/visexport.h \
	agent/flowsample.c agent/flowsample.h \
	agent/discard.c agent/discard.h \
	agent/sampling.c agent/sampling.h
agent_libbsfagent_a_CFLAGS = $(AM_CFLAGS) $(LIBEVENT_CFLAGS) $(LIBCONFUSE_CFLAGS)

# what every agent program links
BSF_AGENT_LIBS = agent/libbsfagent.a agent/model/libbackend_model.a agent/linux/liblinuxbe.a \
	$(BSF_SONIC_LIBS) agent/sonic/libsonic_conf.a agent/visibility/libvis.a agent/model/libmodel.a \
	agent/libconfval.a agent/liblog.a proto/libsflow.a $(LIBEVENT_LIBS) $(LIBCONFUSE_LIBS) \
	$(LIBPCAP_LIBS) $(LIBMNL_LIBS) $(LIBBPF_LIBS) -lpthread -lm

agent_bsflowd_SOURCES = agent/bsflowd.c
agent_bsflowd_CFLAGS = $(AM_CFLAGS) $(LIBEVENT_CFLAGS) $(LIBCONFUSE_CFLAGS)
agent_bsflowd_LDADD = $(BSF_AGENT_LIBS)

# ---- unit tests
BSF_AGENT_TEST_CFLAGS = $(AM_CFLAGS) $(LIBEVENT_CFLAGS) $(LIBCONFUSE_CFLAGS) $(CHECK_CFLAGS)
BSF_AGENT_TEST_LIBS = $(BSF_AGENT_LIBS) $(CHECK_LIBS)

AGENT_UNIT_TESTS = \
	agent/tests/test_conf \
	agent/tests/test_conf_keys \
	agent/tests/test_confhint \
	agent/tests/test_addr \
	agent/tests/test_plugin \
	agent/tests/test_notify \
	agent/tests/test_watchdog \
	agent/tests/test_export \
	agent/tests/test_reload \
	agent/tests/test_devchange \
	agent/tests/test_visexport \
	agent/tests/test_poller \
	agent/tests/test_host \
	agent/tests/test_counters \
	agent/tests/test_flowsample \
	agent/tests/test_discard \
	agent/tests/test_sampling \
	agent/tests/test_sampling_model \
	agent/tests/test_flows_conf
check_PROGRAMS += $(AGENT_UNIT_TESTS)
TESTS += $(AGENT_UNIT_TESTS) agent/tests/smoke.sh agent/tests/demo-check.sh agent/tests/control.sh \
	agent/tests/check-warnings.sh
# the demo's configuration, installed as an example
examplesdir = $(docdir)/examples
dist_examples_DATA = etc/examples/demo.conf
EXTRA_DIST += agent/tests/smoke.sh agent/tests/demo-check.sh agent/tests/control.sh \
	agent/tests/check-warnings.sh agent/tests/udpcount.py agent/tests/testnet.h \
	agent/demo.sh agent/demo.awk

agent_tests_test_conf_SOURCES = agent/tests/test_conf.c
agent_tests_test_conf_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_conf_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_confhint_SOURCES = agent/tests/test_confhint.c
agent_tests_test_confhint_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_confhint_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_conf_keys_SOURCES = agent/tests/test_conf_keys.c
agent_tests_test_conf_keys_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_conf_keys_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_addr_SOURCES = agent/tests/test_addr.c
agent_tests_test_addr_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_addr_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_plugin_SOURCES = agent/tests/test_plugin.c
agent_tests_test_plugin_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_plugin_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_notify_SOURCES = agent/tests/test_notify.c
agent_tests_test_notify_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_notify_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_watchdog_SOURCES = agent/tests/test_watchdog.c
agent_tests_test_watchdog_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_watchdog_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_export_SOURCES = agent/tests/test_export.c
agent_tests_test_export_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_export_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_reload_SOURCES = agent/tests/test_reload.c
agent_tests_test_reload_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_reload_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_devchange_SOURCES = agent/tests/test_devchange.c
agent_tests_test_devchange_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_devchange_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_visexport_SOURCES = agent/tests/test_visexport.c
agent_tests_test_visexport_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_visexport_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_host_SOURCES = agent/tests/test_host.c
agent_tests_test_host_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_host_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_poller_SOURCES = agent/tests/test_poller.c
agent_tests_test_poller_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_poller_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_counters_SOURCES = agent/tests/test_counters.c
agent_tests_test_counters_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_counters_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_flowsample_SOURCES = agent/tests/test_flowsample.c
agent_tests_test_flowsample_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_flowsample_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_discard_SOURCES = agent/tests/test_discard.c
agent_tests_test_discard_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_discard_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_sampling_SOURCES = agent/tests/test_sampling.c
agent_tests_test_sampling_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_sampling_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_sampling_model_SOURCES = agent/tests/test_sampling_model.c
agent_tests_test_sampling_model_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_sampling_model_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_flows_conf_SOURCES = agent/tests/test_flows_conf.c
agent_tests_test_flows_conf_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_flows_conf_LDADD = $(BSF_AGENT_TEST_LIBS)

# The test plugins: a good one, one with a wrong interface version, one
# without the entry point, one whose entry point is data.  The tests load them from .libs/.
check_LTLIBRARIES += agent/tests/testplugin.la agent/tests/testplugin_badabi.la \
	agent/tests/testplugin_nosym.la agent/tests/testplugin_dataentry.la
BSF_TESTPLUGIN_LDFLAGS = -module -rpath /nowhere -avoid-version
agent_tests_testplugin_la_SOURCES = agent/tests/testplugin.c
agent_tests_testplugin_la_LDFLAGS = $(BSF_TESTPLUGIN_LDFLAGS)
agent_tests_testplugin_badabi_la_SOURCES = agent/tests/testplugin.c
agent_tests_testplugin_badabi_la_CFLAGS = $(AM_CFLAGS) -DTESTPLUGIN_ABI=99
agent_tests_testplugin_badabi_la_LDFLAGS = $(BSF_TESTPLUGIN_LDFLAGS)
agent_tests_testplugin_nosym_la_SOURCES = agent/tests/testplugin.c
agent_tests_testplugin_nosym_la_CFLAGS = $(AM_CFLAGS) -DTESTPLUGIN_NO_ENTRY
agent_tests_testplugin_nosym_la_LDFLAGS = $(BSF_TESTPLUGIN_LDFLAGS)
agent_tests_testplugin_dataentry_la_SOURCES = agent/tests/testplugin.c
agent_tests_testplugin_dataentry_la_CFLAGS = $(AM_CFLAGS) -DTESTPLUGIN_NO_ENTRY \
	-DTESTPLUGIN_DATA_ENTRY
agent_tests_testplugin_dataentry_la_LDFLAGS = $(BSF_TESTPLUGIN_LDFLAGS)

# ---- make demo: bsflowd on the demo scenario for about 20 s, with
# bsflow-collect receiving on a free loopback port and a per-port table.
DEMO_SECONDS = 20
demo: agent/bsflowd collector/bsflow-collect
	@$(SHELL) $(srcdir)/agent/demo.sh '$(abs_top_builddir)' '$(abs_top_srcdir)' $(DEMO_SECONDS)
.PHONY: demo

# ---- a test plugin of interface version 1 (refused since 2).
check_LTLIBRARIES += agent/tests/testplugin_abi1.la
agent_tests_testplugin_abi1_la_SOURCES = agent/tests/testplugin.c
agent_tests_testplugin_abi1_la_CFLAGS = $(AM_CFLAGS) -DTESTPLUGIN_ABI=1
agent_tests_testplugin_abi1_la_LDFLAGS = $(BSF_TESTPLUGIN_LDFLAGS)

# ---- make bench: bsflowd's CPU time and memory exporting 1024 and 4096
# ports x 8 queues from a backend that simulates nothing (backend_bench.c,
# a plugin; built by make check too) and from the model (a copy of the
# script with the build and source directories filled in).
BENCH_PROGS += agent/bench/bench-daemon
EXTRA_DIST += agent/bench/bench-daemon.sh
check_LTLIBRARIES += agent/bench/backend_bench.la
agent_bench_backend_bench_la_SOURCES = agent/bench/backend_bench.c
agent_bench_backend_bench_la_LDFLAGS = $(BSF_TESTPLUGIN_LDFLAGS)
agent/bench/bench-daemon: $(srcdir)/agent/bench/bench-daemon.sh agent/bsflowd \
		agent/bench/backend_bench.la
	$(AM_V_GEN)mkdir -p agent/bench && \
	sed -e 's|%ABS_TOP_BUILDDIR%|$(abs_top_builddir)|g' \
	    -e 's|%ABS_TOP_SRCDIR%|$(abs_top_srcdir)|g' \
	    $(srcdir)/agent/bench/bench-daemon.sh >$@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

# ---- backend ABI 3: a plugin of version 2 (refused) and one of an older
# layout of version 3 (smaller table and events: used, test_plugin.c)
check_LTLIBRARIES += agent/tests/testplugin_abi2.la agent/tests/testplugin_old.la
agent_tests_testplugin_abi2_la_SOURCES = agent/tests/testplugin.c
agent_tests_testplugin_abi2_la_CFLAGS = $(AM_CFLAGS) -DTESTPLUGIN_ABI=2
agent_tests_testplugin_abi2_la_LDFLAGS = $(BSF_TESTPLUGIN_LDFLAGS)
agent_tests_testplugin_old_la_SOURCES = agent/tests/testplugin.c
agent_tests_testplugin_old_la_CFLAGS = $(AM_CFLAGS) -DTESTPLUGIN_OLD_LAYOUT
agent_tests_testplugin_old_la_LDFLAGS = $(BSF_TESTPLUGIN_LDFLAGS)

# ---- the backend threading contract under ThreadSanitizer: a plugin
# pushing from its own thread into the real daemon loop.  The daemon's
# queue, host and backend files are compiled into the test (instrumented);
# the rest comes from the library.  Without TSan it skips (BSF_TSAN_SKIP).
check_PROGRAMS += agent/tests/test_push_thread
TESTS += agent/tests/test_push_thread
check_LTLIBRARIES += agent/tests/testplugin_thread.la
agent_tests_test_push_thread_SOURCES = agent/tests/test_push_thread.c \
	agent/evqueue.c agent/host.c agent/backends.c agent/abiwrap.c
agent_tests_test_push_thread_CFLAGS = $(BSF_AGENT_TEST_CFLAGS) $(BSF_TSAN_CFLAGS)
agent_tests_test_push_thread_LDFLAGS = $(AM_LDFLAGS) $(BSF_TSAN_CFLAGS)
agent_tests_test_push_thread_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_testplugin_thread_la_SOURCES = agent/tests/testplugin_thread.c
agent_tests_testplugin_thread_la_CFLAGS = $(AM_CFLAGS) $(BSF_TSAN_CFLAGS)
agent_tests_testplugin_thread_la_LDFLAGS = $(BSF_TESTPLUGIN_LDFLAGS)

# the pushed events' queue alone
check_PROGRAMS += agent/tests/test_evqueue
TESTS += agent/tests/test_evqueue
agent_tests_test_evqueue_SOURCES = agent/tests/test_evqueue.c
agent_tests_test_evqueue_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_evqueue_LDADD = $(BSF_AGENT_TEST_LIBS)

# backend.h on its own, as C++ and as strict ISO C (compilers from configure)
TESTS += agent/tests/header-lang.sh
EXTRA_DIST += agent/tests/header-lang.sh
AM_TESTS_ENVIRONMENT += BSF_CXX='$(BSF_CXX)'; export BSF_CXX; \
	BSF_CLANG='$(BSF_CLANG)'; export BSF_CLANG;
