# etc/local.mk - the commented default configuration and the systemd unit
# with the linux backend's drop-ins, and the unit's test (included by the
# top Makefile.am).
#
# The unit is generated from etc/bsflowd.service.in with the configured
# paths and installed in $(systemdsystemunitdir), by default under the
# prefix so that `make distcheck` works; a package build passes
# `./configure --with-systemdsystemunitdir=/lib/systemd/system` (or
# $(pkg-config --variable=systemdsystemunitdir systemd)).
#
# bsflowd.conf is installed in $(sysconfdir) only if no file of that name
# is there: an installation never overwrites a user's configuration, and an
# uninstallation removes it only if it is still the shipped one.  And only
# if bsflowd was built to read it there: `make install sysconfdir=/etc`
# after a build for /usr/local/etc is refused, naming the configure option.
#
# SPDX-License-Identifier: BSD-2-Clause

systemdsystemunit_DATA = etc/bsflowd.service
CLEANFILES += etc/bsflowd.service
EXTRA_DIST += etc/bsflowd.service.in etc/bsflowd.conf

etc/bsflowd.service: $(srcdir)/etc/bsflowd.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) etc && \
	sed -e 's|@sbindir[@]|$(sbindir)|g' -e 's|@sysconfdir[@]|$(sysconfdir)|g' \
	  -e 's|@pkgdatadir[@]|$(pkgdatadir)|g' \
	  $(srcdir)/etc/bsflowd.service.in >$@.tmp && mv $@.tmp $@

# Drop-ins granting the linux backend's sources their capabilities, and
# the sonic backend its Redis socket (not active until linked into
# /etc/systemd/system/bsflowd.service.d/).
bsfsystemddir = $(pkgdatadir)/systemd
dist_bsfsystemd_DATA = \
	etc/systemd/linux.conf \
	etc/systemd/linux-dropmon.conf \
	etc/systemd/linux-tracepoint.conf \
	etc/systemd/linux-bpf.conf \
	etc/systemd/sonic.conf

# systemd-analyze verify and security --offline on the unit and drop-ins.
TESTS += etc/tests/unit.sh
EXTRA_DIST += etc/tests/unit.sh

install-data-local: install-bsflowd-conf
install-bsflowd-conf:
	@if ! tr '\000' '\n' <agent/bsflowd | grep -qxF '$(sysconfdir)/bsflowd.conf'; then \
	  echo "make install: agent/bsflowd was built to read another bsflowd.conf than" \
	    "$(sysconfdir)/bsflowd.conf: configure with --sysconfdir=$(sysconfdir)" \
	    "(and --prefix) and build again rather than change the paths at install time" >&2; \
	  exit 1; \
	fi
	$(MKDIR_P) '$(DESTDIR)$(sysconfdir)'
	@if test -f '$(DESTDIR)$(sysconfdir)/bsflowd.conf'; then \
	  echo "keeping the existing $(DESTDIR)$(sysconfdir)/bsflowd.conf"; \
	else \
	  echo " $(INSTALL_DATA) etc/bsflowd.conf '$(DESTDIR)$(sysconfdir)/bsflowd.conf'"; \
	  $(INSTALL_DATA) $(srcdir)/etc/bsflowd.conf '$(DESTDIR)$(sysconfdir)/bsflowd.conf'; \
	fi

uninstall-local: uninstall-bsflowd-conf
uninstall-bsflowd-conf:
	@if test -f '$(DESTDIR)$(sysconfdir)/bsflowd.conf' && \
	  cmp -s $(srcdir)/etc/bsflowd.conf '$(DESTDIR)$(sysconfdir)/bsflowd.conf'; then \
	  echo " rm -f '$(DESTDIR)$(sysconfdir)/bsflowd.conf'"; \
	  rm -f '$(DESTDIR)$(sysconfdir)/bsflowd.conf'; \
	fi
.PHONY: install-bsflowd-conf uninstall-bsflowd-conf
