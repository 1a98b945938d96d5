# etc/local.mk - the commented default configuration and the systemd unit
# (included by the top Makefile.am).
#
# The unit is generated from etc/bsflowd.service.in with the configured
# paths and installed in $(systemdsystemunitdir), by default under the
# prefix so that `make distcheck` works; a package build passes
# `./configure --with-systemdsystemunitdir=/lib/systemd/system` (or
# $(pkg-config --variable=systemdsystemunitdir systemd)).
#
# bsflowd.conf is installed in $(sysconfdir) only if no file of that name
# is there: an installation never overwrites a user's configuration, and an
# uninstallation removes it only if it is still the shipped one.

systemdsystemunit_DATA = etc/bsflowd.service
CLEANFILES += etc/bsflowd.service
EXTRA_DIST += etc/bsflowd.service.in etc/bsflowd.conf

etc/bsflowd.service: $(srcdir)/etc/bsflowd.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) etc && \
	sed -e 's|@sbindir[@]|$(sbindir)|g' -e 's|@sysconfdir[@]|$(sysconfdir)|g' \
	  $(srcdir)/etc/bsflowd.service.in >$@.tmp && mv $@.tmp $@

install-data-local: install-bsflowd-conf
install-bsflowd-conf:
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
