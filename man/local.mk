# man/local.mk - the manual pages and their lint test.
# Included by the top Makefile.am.

dist_man_MANS += \
	man/bsflowd.8 \
	man/bsflowd.conf.5 \
	man/bsflowd-structures.7 \
	man/bsflow-collect.1 \
	man/bsflow-sim.1 \
	man/bsflowd-backend.3

TESTS += man/tests/lint.sh
EXTRA_DIST += man/tests/lint.sh
