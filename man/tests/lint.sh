#!/bin/sh
# man/tests/lint.sh - every manual page, as built with the configured
# paths (man/out/), must pass `mandoc -Tlint` cleanly (no warnings) and
# have no @name@ left unsubstituted, and, where groff is installed,
# format without a groff warning (lintian's groff-message: a line groff
# cannot break at 80 columns, say).  Skips (exit 77) when mandoc is not
# installed.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
MANDOC=${MANDOC:-$(command -v mandoc)}
if [ -z "$MANDOC" ]; then
	echo "SKIP: mandoc not installed (apt-get install mandoc)"
	exit 77
fi
rc=0
for page in bsflowd.8 bsflowd.conf.5 bsflowd-structures.7 bsflow-collect.1 bsflow-sim.1 \
	bsflowd-backend.3; do
	f="$top_builddir/man/out/$page"
	if [ ! -f "$f" ]; then
		echo "FAIL: $page is missing"
		rc=1
		continue
	fi
	if grep -n '@[a-z][a-z]*@' "$f"; then
		echo "FAIL: $page: unsubstituted names above"
		rc=1
	fi
	# -Wstyle would flag the date style of .Dd; warnings and worse fail.
	out=$("$MANDOC" -Tlint -Wwarning "$f" 2>&1)
	if [ -n "$out" ]; then
		echo "FAIL: $page:"
		echo "$out"
		rc=1
	elif command -v groff >/dev/null 2>&1 &&
		out=$(LC_ALL=C.UTF-8 MANWIDTH=80 groff -mandoc -Tutf8 -ww -z "$f" 2>&1) &&
		[ -n "$out" ]; then
		echo "FAIL: $page: groff warns (as lintian would):"
		echo "$out"
		rc=1
	else
		echo "ok: $page"
	fi
done
exit $rc
