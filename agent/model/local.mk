# agent/model/local.mk - rules for agent/model (included by the top Makefile.am).
# libmodel: the switch model engine (this fragment); traffic.mk, included
# after it, appends the traffic sources to agent_model_libmodel_a_SOURCES.
#
# SPDX-License-Identifier: BSD-2-Clause

noinst_LIBRARIES += agent/model/libmodel.a
MODEL_CORE_SOURCES = \
	agent/model/model.h agent/model/pkt.h agent/model/model_int.h agent/model/rng.h \
	agent/model/model_engine.h \
	agent/model/hugemem.h agent/model/hugemem.c \
	agent/model/model_config.c \
	agent/model/model_marker.c \
	agent/model/model.c \
	agent/model/model_heap.c \
	agent/model/model_arrival.c \
	agent/model/model_tick.c \
	agent/model/model_setup.c \
	agent/model/model_drop.c \
	agent/model/model_telem.c \
	agent/model/model_iarb.h agent/model/model_iarb.c \
	agent/model/model_flowbuf.h agent/model/model_flowbuf.c \
	agent/model/model_ext.c
agent_model_libmodel_a_SOURCES = $(MODEL_CORE_SOURCES)

# Fidelity tests (Check): each against a closed form; see tests/*.c.
# They link libmodel.a, built once: the linker takes only the engine's
# objects from it (the engine calls nothing of the traffic sources), so
# they need no library of the traffic side.
MODEL_TEST_LDADD = agent/model/libmodel.a $(CHECK_LIBS) -lm
MODEL_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
check_PROGRAMS += agent/model/tests/test_model_basic
TESTS += agent/model/tests/test_model_basic
agent_model_tests_test_model_basic_SOURCES = agent/model/tests/test_model_basic.c \
	agent/model/tests/tsrc.c agent/model/tests/tsrc.h
agent_model_tests_test_model_basic_CFLAGS = $(MODEL_TEST_CFLAGS)
agent_model_tests_test_model_basic_LDADD = $(MODEL_TEST_LDADD)
check_PROGRAMS += agent/model/tests/test_model_queueing
TESTS += agent/model/tests/test_model_queueing
agent_model_tests_test_model_queueing_SOURCES = agent/model/tests/test_model_queueing.c \
	agent/model/tests/tsrc.c agent/model/tests/tsrc.h
agent_model_tests_test_model_queueing_CFLAGS = $(MODEL_TEST_CFLAGS)
agent_model_tests_test_model_queueing_LDADD = $(MODEL_TEST_LDADD)
check_PROGRAMS += agent/model/tests/test_model_pfc_wred
TESTS += agent/model/tests/test_model_pfc_wred
agent_model_tests_test_model_pfc_wred_SOURCES = agent/model/tests/test_model_pfc_wred.c \
	agent/model/tests/tsrc.c agent/model/tests/tsrc.h
agent_model_tests_test_model_pfc_wred_CFLAGS = $(MODEL_TEST_CFLAGS)
agent_model_tests_test_model_pfc_wred_LDADD = $(MODEL_TEST_LDADD)
check_PROGRAMS += agent/model/tests/test_model_fidelity
TESTS += agent/model/tests/test_model_fidelity
agent_model_tests_test_model_fidelity_SOURCES = agent/model/tests/test_model_fidelity.c \
	agent/model/tests/tsrc.c agent/model/tests/tsrc.h
agent_model_tests_test_model_fidelity_CFLAGS = $(MODEL_TEST_CFLAGS)
agent_model_tests_test_model_fidelity_LDADD = $(MODEL_TEST_LDADD)
check_PROGRAMS += agent/model/tests/test_model_features
TESTS += agent/model/tests/test_model_features
agent_model_tests_test_model_features_SOURCES = agent/model/tests/test_model_features.c \
	agent/model/tests/tsrc.c agent/model/tests/tsrc.h
agent_model_tests_test_model_features_CFLAGS = $(MODEL_TEST_CFLAGS)
agent_model_tests_test_model_features_LDADD = $(MODEL_TEST_LDADD)
check_PROGRAMS += agent/model/tests/test_model_ecn
TESTS += agent/model/tests/test_model_ecn
agent_model_tests_test_model_ecn_SOURCES = agent/model/tests/test_model_ecn.c \
	agent/model/tests/tsrc.c agent/model/tests/tsrc.h
agent_model_tests_test_model_ecn_CFLAGS = $(MODEL_TEST_CFLAGS)
agent_model_tests_test_model_ecn_LDADD = $(MODEL_TEST_LDADD)
check_PROGRAMS += agent/model/tests/test_model_qev
TESTS += agent/model/tests/test_model_qev
agent_model_tests_test_model_qev_SOURCES = agent/model/tests/test_model_qev.c \
	agent/model/tests/tsrc.c agent/model/tests/tsrc.h
agent_model_tests_test_model_qev_CFLAGS = $(MODEL_TEST_CFLAGS)
agent_model_tests_test_model_qev_LDADD = $(MODEL_TEST_LDADD)
check_PROGRAMS += agent/model/tests/test_hugemem
TESTS += agent/model/tests/test_hugemem
agent_model_tests_test_hugemem_SOURCES = agent/model/tests/test_hugemem.c \
	agent/model/tests/tsrc.c agent/model/tests/tsrc.h
agent_model_tests_test_hugemem_CFLAGS = $(MODEL_TEST_CFLAGS)
agent_model_tests_test_hugemem_LDADD = $(MODEL_TEST_LDADD)
check_PROGRAMS += agent/model/tests/test_model_iarb
TESTS += agent/model/tests/test_model_iarb
agent_model_tests_test_model_iarb_SOURCES = agent/model/tests/test_model_iarb.c
agent_model_tests_test_model_iarb_CFLAGS = $(MODEL_TEST_CFLAGS)
agent_model_tests_test_model_iarb_LDADD = $(MODEL_TEST_LDADD)
check_PROGRAMS += agent/model/tests/test_model_ext
TESTS += agent/model/tests/test_model_ext
agent_model_tests_test_model_ext_SOURCES = agent/model/tests/test_model_ext.c \
	agent/model/tests/tsrc.c agent/model/tests/tsrc.h
agent_model_tests_test_model_ext_CFLAGS = $(MODEL_TEST_CFLAGS)
agent_model_tests_test_model_ext_LDADD = $(MODEL_TEST_LDADD)
check_PROGRAMS += agent/model/tests/test_model_flowbuf
TESTS += agent/model/tests/test_model_flowbuf
agent_model_tests_test_model_flowbuf_SOURCES = agent/model/tests/test_model_flowbuf.c
agent_model_tests_test_model_flowbuf_CFLAGS = $(MODEL_TEST_CFLAGS)
agent_model_tests_test_model_flowbuf_LDADD = $(MODEL_TEST_LDADD)

# The safety net (agent/model/tests/README): golden digests of fixed
# scenarios (make bless rewrites golden/digests.txt), the reference
# simulator run beside the engine, the marker tracker against the engine.
GOLDEN_FILES = agent/model/tests/golden/digests.txt \
	agent/model/tests/golden/wred.conf agent/model/tests/golden/mcast.conf \
	agent/model/tests/golden/dwrr.conf agent/model/tests/golden/pfc_hdrm.conf \
	agent/model/tests/golden/markers.conf agent/model/tests/golden/qevents.conf \
	agent/model/tests/golden/ecn.conf
EXTRA_DIST += $(GOLDEN_FILES) agent/model/tests/README
check_PROGRAMS += agent/model/tests/test_golden
TESTS += agent/model/tests/test_golden
agent_model_tests_test_golden_SOURCES = agent/model/tests/test_golden.c
agent_model_tests_test_golden_CFLAGS = $(AM_CFLAGS) $(LIBCONFUSE_CFLAGS) $(LIBPCAP_CFLAGS) \
	-DMODEL_TEST_SRCDIR='"$(abs_top_srcdir)"'
agent_model_tests_test_golden_LDADD = $(MODEL_TRAFFIC_LIBS) -lm
check_PROGRAMS += agent/model/tests/test_refsim
TESTS += agent/model/tests/test_refsim
agent_model_tests_test_refsim_SOURCES = agent/model/tests/test_refsim.c \
	agent/model/tests/refsim.c agent/model/tests/refsim.h
agent_model_tests_test_refsim_LDADD = agent/model/libmodel.a -lm
check_PROGRAMS += agent/model/tests/test_marker_ref
TESTS += agent/model/tests/test_marker_ref
agent_model_tests_test_marker_ref_SOURCES = agent/model/tests/test_marker_ref.c \
	agent/model/tests/tsrc.c agent/model/tests/tsrc.h
agent_model_tests_test_marker_ref_LDADD = agent/model/libmodel.a -lm

# ---- the model backend: the model served to bsflowd through agent/backend.h
# (run in real time), and its unit test (queue events).
noinst_LIBRARIES += agent/model/libbackend_model.a
agent_model_libbackend_model_a_SOURCES = agent/model/backend_model.c agent/model/backend_model.h \
	agent/model/backend_model_own.c agent/model/backend_model_own.h
agent_model_libbackend_model_a_CFLAGS = $(AM_CFLAGS) $(LIBEVENT_CFLAGS) $(LIBCONFUSE_CFLAGS)
check_PROGRAMS += agent/model/tests/test_backend_model_qev
TESTS += agent/model/tests/test_backend_model_qev
agent_model_tests_test_backend_model_qev_SOURCES = agent/model/tests/test_backend_model_qev.c
agent_model_tests_test_backend_model_qev_CFLAGS = $(BSF_AGENT_TEST_CFLAGS)
agent_model_tests_test_backend_model_qev_LDADD = $(BSF_AGENT_TEST_LIBS)
