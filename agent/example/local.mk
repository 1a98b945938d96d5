# agent/example/local.mk - the example backend plugin a vendor copies
# (backend_example.c): built as a module by make check from the tree's
# header, seen as <bsflowd/backend.h> as once installed, and tested end to
# end by test-example.sh, which also builds it out of the tree against a
# DESTDIR install of the header and bsflowd-backend.pc.
# Included by the top Makefile.am.
#
# SPDX-License-Identifier: BSD-2-Clause

EXAMPLE_INC = agent/example/include
BUILT_SOURCES += $(EXAMPLE_INC)/bsflowd/backend.h
CLEANFILES += $(EXAMPLE_INC)/bsflowd/backend.h
$(EXAMPLE_INC)/bsflowd/backend.h: $(srcdir)/agent/backend.h
	@$(MKDIR_P) $(EXAMPLE_INC)/bsflowd
	cp $(srcdir)/agent/backend.h $@

check_LTLIBRARIES += agent/example/backend_example.la
agent_example_backend_example_la_SOURCES = agent/example/backend_example.c
agent_example_backend_example_la_CPPFLAGS = -I$(builddir)/$(EXAMPLE_INC)
agent_example_backend_example_la_LDFLAGS = -module -rpath /nowhere -avoid-version
agent_example_backend_example_la_LIBADD = -lpthread

TESTS += agent/example/test-example.sh
EXTRA_DIST += agent/example/test-example.sh

# the test installs the header and the .pc file with make
AM_TESTS_ENVIRONMENT += MAKE='$(MAKE)'; export MAKE;
