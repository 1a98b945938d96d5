# debian/local.mk - the Debian packaging in the distribution, `make deb`,
# and the SPDX check (included by the top Makefile.am).
#
# make deb: build the .deb packages from this tree's release tarball
# (make dist, so uncommitted changes are in) with dpkg-buildpackage
# -us -uc -b; they land in deb/.  DEB_BUILD_OPTIONS=nocheck skips the
# test suite in the package build.  Needs dpkg-dev, debhelper and the
# build dependencies of debian/control.  tests/pkg/pkg-test.sh (run by
# .ci/run as root) builds from a fresh clone instead and installs,
# upgrades, removes and purges the packages.
#
# SPDX-License-Identifier: BSD-2-Clause

EXTRA_DIST += \
	debian/local.mk \
	debian/changelog \
	debian/control \
	debian/copyright \
	debian/rules \
	debian/source/format \
	debian/bsflowd.install \
	debian/bsflow-collect.install \
	debian/bsflowd-dev.install \
	debian/bsflowd-dev.examples \
	debian/bsflowd.docs \
	debian/bsflowd.default \
	debian/bsflowd.postinst \
	tests/pkg/pkg-test.sh \
	tests/spdx-check.sh

deb: dist
	rm -rf deb && $(MKDIR_P) deb
	tar -xzf $(distdir).tar.gz -C deb
	cd deb/$(distdir) && dpkg-buildpackage -us -uc -b
	@echo "make deb: packages in deb/:" && ls deb/*.deb
.PHONY: deb

# Every tracked source file has its SPDX-License-Identifier line
# (tests/spdx-check.sh --fix adds the missing ones).
TESTS += tests/spdx-check.sh
