# agent/model/traffic.mk - traffic sources, scenario config and bsflow-sim (included by the top Makefile.am).
# Appends the traffic side of the model to libmodel (declared in
# agent/model/local.mk, included before this file), and builds bsflow-sim,
# the model benchmark and the traffic / scenario tests.
# Programs that link libmodel.a and use scenario.c or replay.c also need
# $(LIBCONFUSE_LIBS) $(LIBPCAP_LIBS) (MODEL_TRAFFIC_LIBS below).
#
# SPDX-License-Identifier: BSD-2-Clause

agent_model_libmodel_a_SOURCES += \
	agent/model/rng.c \
	agent/model/headers.c agent/model/headers.h \
	agent/model/traffic.c agent/model/traffic.h \
	agent/model/replay.c agent/model/replay.h \
	agent/model/scenario.c agent/model/scenario.h \
	agent/model/scenario_ext.c agent/model/scenario_ext.h \
	agent/model/scenario_qos.c agent/model/scenario_qos.h

MODEL_TRAFFIC_CFLAGS = $(AM_CFLAGS) $(LIBCONFUSE_CFLAGS) $(LIBPCAP_CFLAGS)
MODEL_TRAFFIC_LIBS = agent/model/libmodel.a agent/libconfval.a $(LIBCONFUSE_LIBS) $(LIBPCAP_LIBS)

# bsflow-sim: run a scenario on virtual time and print statistics; with
# --sflow it runs bsflowd's own modules on virtual time (sim_sflow.c),
# so it links the agent's libraries (BSF_AGENT_LIBS, agent/local.mk).
bin_PROGRAMS += agent/model/bsflow-sim
agent_model_bsflow_sim_SOURCES = agent/model/sim.c agent/model/sim_ext.c agent/model/sim_ext.h \
	agent/model/sim_series.c agent/model/sim_series.h \
	agent/model/sim_plot.c agent/model/sim_plot.h \
	agent/model/sim_stats.c agent/model/sim_stats.h \
	agent/model/sim_sflow.c agent/model/sim_sflow.h
agent_model_bsflow_sim_CFLAGS = $(MODEL_TRAFFIC_CFLAGS) $(LIBEVENT_CFLAGS)
agent_model_bsflow_sim_LDADD = $(BSF_AGENT_LIBS)

# make bench: simulated packets per second, memory per port and packet.
BENCH_PROGS += agent/model/bench/bench_model
EXTRA_PROGRAMS += agent/model/bench/bench_model
agent_model_bench_bench_model_SOURCES = agent/model/bench/bench_model.c \
	agent/model/bench/bench_scenario.h
agent_model_bench_bench_model_CFLAGS = $(MODEL_TRAFFIC_CFLAGS)
agent_model_bench_bench_model_LDADD = $(MODEL_TRAFFIC_LIBS)

# make bench-ab BASE=DIR: the speed of this build's switch model against
# the one built in DIR (another checkout's build directory), both running
# the benchmark's scenario in turns in one program (bench_ab.c).
AB_ARGS =
bench-ab: agent/model/libmodel.a agent/libconfval.a
	@if test -z "$(BASE)"; then \
	  echo "make bench-ab: say which build to compare with: BASE=<its build directory>" >&2; \
	  exit 2; \
	fi
	CC='$(CC)' CFLAGS='$(CFLAGS) $(AM_CFLAGS) -Wno-error' NM='$(NM)' OBJCOPY='$(OBJCOPY)' \
	  LIBS='$(AM_LDFLAGS) $(abs_top_builddir)/agent/libconfval.a $(LIBCONFUSE_LIBS) $(LIBPCAP_LIBS) -lm' \
	  $(SHELL) $(srcdir)/agent/model/bench/bench-ab.sh '$(BASE)' '$(abs_top_builddir)' $(AB_ARGS)
.PHONY: bench-ab
EXTRA_DIST += agent/model/bench/bench-ab.sh agent/model/bench/bench_ab.c \
	agent/model/bench/bench_ab_side.c

# Unit tests (Check) and the bsflow-sim shell test.
MODEL_TRAFFIC_TESTS = \
	agent/model/tests/test_traffic \
	agent/model/tests/test_traffic_rng \
	agent/model/tests/test_traffic_replay \
	agent/model/tests/test_scenario \
	agent/model/tests/test_scenario_qos \
	agent/model/tests/test_model_source \
	agent/model/tests/test_sample_pool \
	agent/model/tests/test_model_qstats
check_PROGRAMS += $(MODEL_TRAFFIC_TESTS) agent/model/tests/test_traffic_pcapgen
TESTS += $(MODEL_TRAFFIC_TESTS) agent/model/tests/test_scenario_sim.sh agent/model/tests/test_sim_series.sh agent/model/tests/test_sim_plot.sh \
	agent/model/tests/test_replay_example.sh \
	agent/model/tests/test_traffic_tshark.sh
EXTRA_DIST += agent/model/tests/test_scenario_sim.sh agent/model/tests/test_traffic_tshark.sh
TESTS += agent/model/tests/test_sim_flowbuf.sh
EXTRA_DIST += agent/model/tests/test_sim_flowbuf.sh
TESTS += agent/model/tests/test_sim_stats.sh
EXTRA_DIST += agent/model/tests/test_sim_stats.sh
check_PROGRAMS += agent/model/tests/test_sim_hist
TESTS += agent/model/tests/test_sim_hist
agent_model_tests_test_sim_hist_SOURCES = agent/model/tests/test_sim_hist.c
agent_model_tests_test_sim_hist_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
agent_model_tests_test_sim_hist_LDADD = agent/model/libmodel.a $(CHECK_LIBS) -lm
EXTRA_DIST += agent/model/tests/test_sim_series.sh agent/model/tests/test_sim_plot.sh \
	agent/model/tests/test_replay_example.sh

MODEL_TRAFFIC_TEST_CFLAGS = $(MODEL_TRAFFIC_CFLAGS) $(CHECK_CFLAGS) \
	-DMODEL_TEST_SRCDIR='"$(abs_top_srcdir)"'
MODEL_TRAFFIC_TEST_LIBS = $(MODEL_TRAFFIC_LIBS) $(CHECK_LIBS)

agent_model_tests_test_traffic_SOURCES = agent/model/tests/test_traffic.c
agent_model_tests_test_traffic_CFLAGS = $(MODEL_TRAFFIC_TEST_CFLAGS)
agent_model_tests_test_traffic_LDADD = $(MODEL_TRAFFIC_TEST_LIBS)
agent_model_tests_test_traffic_rng_SOURCES = agent/model/tests/test_traffic_rng.c
agent_model_tests_test_traffic_rng_CFLAGS = $(MODEL_TRAFFIC_TEST_CFLAGS)
agent_model_tests_test_traffic_rng_LDADD = $(MODEL_TRAFFIC_TEST_LIBS) -lm
agent_model_tests_test_traffic_replay_SOURCES = agent/model/tests/test_traffic_replay.c
agent_model_tests_test_traffic_replay_CFLAGS = $(MODEL_TRAFFIC_TEST_CFLAGS)
agent_model_tests_test_traffic_replay_LDADD = $(MODEL_TRAFFIC_TEST_LIBS)
agent_model_tests_test_traffic_pcapgen_SOURCES = agent/model/tests/test_traffic_pcapgen.c
agent_model_tests_test_traffic_pcapgen_CFLAGS = $(MODEL_TRAFFIC_CFLAGS)
agent_model_tests_test_traffic_pcapgen_LDADD = $(MODEL_TRAFFIC_LIBS)
agent_model_tests_test_scenario_SOURCES = agent/model/tests/test_scenario.c
agent_model_tests_test_scenario_CFLAGS = $(MODEL_TRAFFIC_TEST_CFLAGS)
agent_model_tests_test_scenario_LDADD = $(MODEL_TRAFFIC_TEST_LIBS)
agent_model_tests_test_scenario_qos_SOURCES = agent/model/tests/test_scenario_qos.c
agent_model_tests_test_scenario_qos_CFLAGS = $(MODEL_TRAFFIC_TEST_CFLAGS)
agent_model_tests_test_scenario_qos_LDADD = $(MODEL_TRAFFIC_TEST_LIBS) -lm
agent_model_tests_test_model_source_SOURCES = agent/model/tests/test_model_source.c
agent_model_tests_test_model_source_CFLAGS = $(MODEL_TRAFFIC_TEST_CFLAGS)
agent_model_tests_test_model_source_LDADD = $(MODEL_TRAFFIC_TEST_LIBS)
agent_model_tests_test_sample_pool_SOURCES = agent/model/tests/test_sample_pool.c
agent_model_tests_test_sample_pool_CFLAGS = $(MODEL_TRAFFIC_TEST_CFLAGS)
agent_model_tests_test_sample_pool_LDADD = $(MODEL_TRAFFIC_TEST_LIBS) -lm
agent_model_tests_test_model_qstats_SOURCES = agent/model/tests/test_model_qstats.c
agent_model_tests_test_model_qstats_CFLAGS = $(MODEL_TRAFFIC_TEST_CFLAGS)
agent_model_tests_test_model_qstats_LDADD = $(MODEL_TRAFFIC_TEST_LIBS) -lm

# Example scenarios (installed next to bsflowd.conf).
scenariosdir = $(sysconfdir)/bsflowd/scenarios
dist_scenarios_DATA = \
	etc/scenarios/demo.conf \
	etc/scenarios/incast.conf \
	etc/scenarios/pfc.conf \
	etc/scenarios/leaf.conf \
	etc/scenarios/flowbuf.conf \
	etc/scenarios/replay.conf \
	etc/scenarios/capture.pcap
EXTRA_DIST += etc/scenarios/gen-capture.py
