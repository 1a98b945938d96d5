# collector-test/local.mk - rules for collector-test (included by the top Makefile.am).
