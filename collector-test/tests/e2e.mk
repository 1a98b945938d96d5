# collector-test/tests/e2e.mk - end-to-end tests of bsflowd (included by the top Makefile.am).
