# agent/flows.mk - packet samples (0:3) and drop notifications (0:5); included by the top Makefile.am.
# The modules go into the agent library; their unit tests, the model-level
# sampling test and the end-to-end tests are registered here.

agent_libbsfagent_a_SOURCES += \
	agent/flowsample.c agent/flowsample.h \
	agent/discard.c agent/discard.h \
	agent/sampling.c agent/sampling.h

FLOWS_UNIT_TESTS = \
	agent/tests/test_flowsample \
	agent/tests/test_discard \
	agent/tests/test_sampling \
	agent/tests/test_sampling_model \
	agent/tests/test_flows_conf
check_PROGRAMS += $(FLOWS_UNIT_TESTS)
TESTS += $(FLOWS_UNIT_TESTS)

agent_tests_test_flowsample_SOURCES = agent/tests/test_flowsample.c
agent_tests_test_flowsample_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
agent_tests_test_flowsample_LDADD = agent/libbsfagent.a proto/libsflow.a $(CHECK_LIBS)
agent_tests_test_discard_SOURCES = agent/tests/test_discard.c
agent_tests_test_discard_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
agent_tests_test_discard_LDADD = agent/libbsfagent.a proto/libsflow.a $(CHECK_LIBS)
agent_tests_test_sampling_SOURCES = agent/tests/test_sampling.c
agent_tests_test_sampling_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
agent_tests_test_sampling_LDADD = agent/libbsfagent.a $(CHECK_LIBS)
agent_tests_test_flows_conf_SOURCES = agent/tests/test_flows_conf.c
agent_tests_test_flows_conf_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_tests_test_flows_conf_LDADD = $(BSF_AGENT_TEST_LIBS)
agent_tests_test_sampling_model_SOURCES = agent/tests/test_sampling_model.c
agent_tests_test_sampling_model_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
agent_tests_test_sampling_model_LDADD = agent/libbsfagent.a agent/model/libmodel.a \
	proto/libsflow.a $(CHECK_LIBS) -lm

# End to end through bsflowd and bsflow-collect (collector-test/tests/e2e-lib.sh).
FLOWS_E2E_TESTS = \
	collector-test/tests/e2e-flows.sh \
	collector-test/tests/e2e-drops.sh
TESTS += $(FLOWS_E2E_TESTS)
EXTRA_DIST += $(FLOWS_E2E_TESTS) collector-test/tests/e2e-flows-check.py
