# agent/sonic/local.mk - rules for agent/sonic, the sonic backend (included
# by the top Makefile.am).  The section's options (libsonic_conf) are always
# built, so that conf.c reads a `sonic { }` section either way; the backend
# itself needs hiredis (configure --without-sonic leaves it out).

noinst_LIBRARIES += agent/sonic/libsonic_conf.a
agent_sonic_libsonic_conf_a_SOURCES = agent/sonic/sonic_conf.c agent/sonic/sonic_conf.h
agent_sonic_libsonic_conf_a_CFLAGS = $(AM_CFLAGS) $(LIBCONFUSE_CFLAGS)

SONIC_BACKEND_SOURCES = \
	agent/sonic/backend_sonic.c agent/sonic/backend_sonic.h \
	agent/sonic/sonic_redis.c agent/sonic/sonic_redis.h \
	agent/sonic/sonic_maps.c agent/sonic/sonic_maps.h \
	agent/sonic/sonic_parse.c agent/sonic/sonic_parse.h
EXTRA_DIST += $(SONIC_BACKEND_SOURCES) \
	agent/sonic/tests/sonic_fixture.py agent/sonic/tests/e2e-sonic.sh \
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
TESTS += agent/sonic/tests/e2e-sonic.sh agent/sonic/tests/test_sonic_parse
check_PROGRAMS += agent/sonic/tests/test_sonic_parse
agent_sonic_tests_test_sonic_parse_SOURCES = agent/sonic/tests/test_sonic_parse.c
agent_sonic_tests_test_sonic_parse_CFLAGS = $(AM_CFLAGS) $(HIREDIS_CFLAGS) $(LIBCONFUSE_CFLAGS) \
	$(CHECK_CFLAGS)
agent_sonic_tests_test_sonic_parse_LDADD = agent/sonic/libbackend_sonic.a \
	agent/sonic/libsonic_conf.a agent/libconfval.a proto/libsflow.a $(HIREDIS_LIBS) \
	$(LIBCONFUSE_LIBS) $(CHECK_LIBS) -lm
endif
