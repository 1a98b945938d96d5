#!/bin/sh
# agent/tests/check-warnings.sh - what `bsflowd -t` says about a file that
# loads but would do nothing or not what was meant, and its hints:
#  - a model section with no traffic or replay section, or none at all:
#    warned (FILE:LINE, or FILE alone when there is no section), exit 0;
#  - a bare number among delay thresholds (seconds): warned with its line;
#  - datagram_bytes too small for a port's counters sample: warned;
#  - the shipped etc/bsflowd.conf and etc/examples/demo.conf: no warning,
#    and the example's model section is etc/scenarios/demo.conf's;
#  - a misspelt key: "did you mean", exit 1; host:port in an address:
#    "put the port in port =", exit 1; polling_interval = 20s: accepted.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
BSFLOWD="$top_builddir/agent/bsflowd"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bsfwarn.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
fail() {
	echo "FAIL: $*"
	rc=1
}
expect() { # NAME EXIT TEXT FILE
	out=$("$BSFLOWD" -t -f "$4" 2>&1)
	st=$?
	case "$st:$out" in
	"$2:"*"$3"*) echo "ok: $1" ;;
	*) fail "$1: exit $st, output: $out" ;;
	esac
}

printf 'collector c {\n address = 127.0.0.1\n}\nmodel {\n ports = 4\n}\n' >"$tmp/idle.conf"
expect "idle model warned" 0 \
	"$tmp/idle.conf:4: warning: model: no traffic or replay section: the switch stays idle" \
	"$tmp/idle.conf"

# no model section at all: no line to name (it said FILE:0:)
printf 'collector c {\n address = 127.0.0.1\n}\n' >"$tmp/nomodel.conf"
expect "no model section warned" 0 \
	"$tmp/nomodel.conf: warning: no model section: no traffic or replay section: the switch stays idle" \
	"$tmp/nomodel.conf"

sed '/^#visibility {/,/^#}/s/^#//' "$top_srcdir/etc/bsflowd.conf" |
	sed 's/thresholds = {20us, 100us}/thresholds = {20us, 1}/' >"$tmp/bare.conf"
line=$(grep -n 'thresholds = {20us, 1}' "$tmp/bare.conf" | cut -d: -f1)
expect "bare threshold warned" 0 \
	"$tmp/bare.conf:$line: warning: visibility: delay_profile \"default\": thresholds = 1: a bare number is seconds (1s)" \
	"$tmp/bare.conf"

out=$("$BSFLOWD" -t -f "$top_srcdir/etc/bsflowd.conf" 2>&1)
case "$out" in
*warning*) fail "etc/bsflowd.conf warned: $out" ;;
*) echo "ok: etc/bsflowd.conf: no warning" ;;
esac

# etc/examples/demo.conf (make demo): good, no warning, and its model
# section is etc/scenarios/demo.conf's without the duration
out=$("$BSFLOWD" -t -f "$top_srcdir/etc/examples/demo.conf" 2>&1)
case "$?:$out" in
0:*warning*) fail "etc/examples/demo.conf warned: $out" ;;
0:*"configuration OK"*) echo "ok: etc/examples/demo.conf: good, no warning" ;;
*) fail "etc/examples/demo.conf: $out" ;;
esac
sed -n '/^model {/,/^}/p' "$top_srcdir/etc/examples/demo.conf" >"$tmp/ex.model"
sed -n '/^model {/,/^}/p' "$top_srcdir/etc/scenarios/demo.conf" |
	grep -v '^[[:space:]]*duration[[:space:]]*=' >"$tmp/sc.model"
if [ -s "$tmp/ex.model" ] && cmp -s "$tmp/ex.model" "$tmp/sc.model"; then
	echo "ok: etc/examples/demo.conf's model section is etc/scenarios/demo.conf's"
else
	fail "etc/examples/demo.conf's model section differs from etc/scenarios/demo.conf"
fi

# datagrams too small for a port's counters sample: accepted, warned
# (every port sample would be lost, with a log line a minute)
printf 'collector c {\n address = 127.0.0.1\n}\ndatagram_bytes = 300\nmodel {\n ports = 2\n traffic t {\n  ports = {1}\n  to = 0\n  rate = 1G\n }\n}\n' >"$tmp/small.conf"
expect "small datagrams warned" 0 \
	"$tmp/small.conf:4: warning: datagram_bytes = 300: below 330, a port's counters sample" \
	"$tmp/small.conf"

printf 'polling_intervall = 20\n' >"$tmp/typo.conf"
expect "misspelt key" 1 "polling_intervall: unknown key; allowed: the keys of bsflowd.conf(5); did you mean polling_interval?" "$tmp/typo.conf"
printf 'collector c {\n address = "192.0.2.1:6343"\n}\n' >"$tmp/hp.conf"
expect "host:port" 1 "a port in the address; allowed: the address alone, with the port in port = 6343" "$tmp/hp.conf"
printf 'polling_interval = 20s\ncollector c {\n address = 127.0.0.1\n}\n' >"$tmp/units.conf"
expect "polling_interval = 20s" 0 "configuration OK" "$tmp/units.conf"
exit $rc
