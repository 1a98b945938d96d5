#!/bin/sh
# tests/service-reload.sh - `systemctl reload` reports a refused
# configuration: the generated bsflowd.service checks the file with
# `bsflowd -t` in an ExecReload line before the one that sends SIGHUP
# (systemd runs them in order and stops at the first that fails), and
# `bsflowd -t` fails (exit 1, the message on stderr) on a configuration
# the daemon would refuse.  systemd-analyze verify checks the unit's
# syntax when it is installed.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
e2e_init service
unit="$top_builddir/etc/bsflowd.service"
[ -f "$unit" ] || {
	echo "FAIL: $unit not built"
	exit 1
}
reloads=$(sed -n 's/^ExecReload=//p' "$unit")
echo "ExecReload lines:"
echo "$reloads"
first=$(echo "$reloads" | sed -n 1p)
last=$(echo "$reloads" | sed -n '$p')
case "$first" in
*/bsflowd\ -t | */bsflowd\ -t\ *) ;;
*) fail "the first ExecReload is not a check (bsflowd -t): $first" ;;
esac
case "$last" in
*kill\ -HUP\ \$MAINPID) ;;
*) fail "the last ExecReload does not send SIGHUP: $last" ;;
esac
# the check fails, with a FILE:LINE message, on a configuration the
# daemon refuses
printf 'collector c1 {\n\taddress = "127.0.0.1"\n\tport = 99999\n}\n' >"$TMP/bad.conf"
"$BSFLOWD" -t -f "$TMP/bad.conf" >"$TMP/t.out" 2>"$TMP/t.err"
st=$?
[ $st = 1 ] || fail "bsflowd -t on a bad configuration: exit $st, expected 1"
grep -q "bad.conf:3:" "$TMP/t.err" || fail "no FILE:LINE message: $(cat "$TMP/t.err")"
if command -v systemd-analyze >/dev/null 2>&1; then
	# paths of the build tree need not exist: only syntax errors count
	systemd-analyze verify "$unit" >"$TMP/verify.out" 2>&1
	if grep -i "unknown\|invalid\|failed to parse" "$TMP/verify.out" | grep -v "Command .* is not executable\|not found\|No such file" | grep .; then
		fail "systemd-analyze verify complains"
	fi
fi
e2e_finish
