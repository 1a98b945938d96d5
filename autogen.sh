#!/bin/sh
# autogen.sh - prepare a fresh checkout for ./configure.
# Checks the build dependencies; as root on Debian it installs the missing
# ones with apt-get, otherwise it prints the exact apt-get line.  Then it
# runs autoreconf -fi.
#
# SPDX-License-Identifier: BSD-2-Clause
set -e
cd "$(dirname "$0")"

# Debian package : a file or command that shows it is installed
DEPS="autoconf:autoreconf automake:automake libtool:libtoolize pkg-config:pkg-config make:make gcc:cc
libevent-dev:/usr/include/event2/event.h libconfuse-dev:/usr/include/confuse.h
libpcap-dev:/usr/include/pcap/pcap.h libmnl-dev:/usr/include/libmnl/libmnl.h
check:/usr/include/check.h libhiredis-dev:/usr/include/hiredis/hiredis.h"

missing=""
optional=""
for d in $DEPS; do
	pkg=${d%%:*}
	what=${d#*:}
	case $what in
	/*) [ -e "$what" ] || missing="$missing $pkg" ;;
	*) command -v "$what" >/dev/null 2>&1 || missing="$missing $pkg" ;;
	esac
done

# Tools only the tests use (tests that need one skip, saying so, without it).
TESTDEPS="tshark:tshark pmacct:sfacctd mandoc:mandoc redis-server:redis-server"
# (chromium: bsflow-sim --plot's picture rendered in a real browser)
TESTDEPS="$TESTDEPS chromium:chromium"
# and the linux backend's optional BPF source (configure says when it is off)
TESTDEPS="$TESTDEPS clang:clang bpftool:bpftool libbpf-dev:/usr/include/bpf/libbpf.h"
for d in $TESTDEPS; do
	pkg=${d%%:*}
	what=${d#*:}
	case $what in
	/*) [ -e "$what" ] || optional="$optional $pkg" ;;
	*) command -v "$what" >/dev/null 2>&1 || [ -x "/usr/sbin/$what" ] || optional="$optional $pkg" ;;
	esac
done

if [ -n "$missing$optional" ] && [ "$(id -u)" = 0 ] && [ -f /etc/debian_version ] &&
	command -v apt-get >/dev/null 2>&1; then
	echo "autogen.sh: installing build and test dependencies:$missing$optional"
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing $optional
	missing=""
	optional=""
fi
if [ -n "$optional" ]; then
	echo "autogen.sh: note: tests that need$optional will be skipped;" >&2
	echo "  to run them: sudo apt-get install$optional" >&2
fi
if [ -n "$missing" ]; then
	echo "autogen.sh: missing build dependencies. Install them with:" >&2
	echo "  sudo apt-get install$missing" >&2
	exit 1
fi

autoreconf -fi
echo "autogen.sh: now run ./configure"
