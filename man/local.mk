# man/local.mk - the manual pages and their lint test.
# Included by the top Makefile.am.
#
# The pages name installed paths as @sysconfdir@, @sbindir@ and
# @pkgdatadir@; the build writes them with the configured paths into
# man/out/ (installed under their own names), so that a daemon built with
# ./configure --sysconfdir=/etc documents /etc/bsflowd.conf and one built
# with the defaults /usr/local/etc/bsflowd.conf.
#
# SPDX-License-Identifier: BSD-2-Clause

BSF_MAN_PAGES = \
	man/bsflowd.8 \
	man/bsflowd.conf.5 \
	man/bsflowd-structures.7 \
	man/bsflow-collect.1 \
	man/bsflow-sim.1 \
	man/bsflowd-backend.3

man_MANS += \
	man/out/bsflowd.8 \
	man/out/bsflowd.conf.5 \
	man/out/bsflowd-structures.7 \
	man/out/bsflow-collect.1 \
	man/out/bsflow-sim.1 \
	man/out/bsflowd-backend.3
EXTRA_DIST += $(BSF_MAN_PAGES)
CLEANFILES += $(man_MANS)

BSF_SUBST_PATHS = sed -e 's|@sysconfdir[@]|$(sysconfdir)|g' -e 's|@sbindir[@]|$(sbindir)|g' \
	-e 's|@pkgdatadir[@]|$(pkgdatadir)|g'

BSF_MAN_GEN = $(AM_V_GEN)$(MKDIR_P) man/out && \
	$(BSF_SUBST_PATHS) $(srcdir)/man/$$(basename $@) >$@.tmp && mv $@.tmp $@
man/out/bsflowd.8: $(srcdir)/man/bsflowd.8 Makefile
	$(BSF_MAN_GEN)
man/out/bsflowd.conf.5: $(srcdir)/man/bsflowd.conf.5 Makefile
	$(BSF_MAN_GEN)
man/out/bsflowd-structures.7: $(srcdir)/man/bsflowd-structures.7 Makefile
	$(BSF_MAN_GEN)
man/out/bsflow-collect.1: $(srcdir)/man/bsflow-collect.1 Makefile
	$(BSF_MAN_GEN)
man/out/bsflow-sim.1: $(srcdir)/man/bsflow-sim.1 Makefile
	$(BSF_MAN_GEN)
man/out/bsflowd-backend.3: $(srcdir)/man/bsflowd-backend.3 Makefile
	$(BSF_MAN_GEN)

TESTS += man/tests/lint.sh
EXTRA_DIST += man/tests/lint.sh
