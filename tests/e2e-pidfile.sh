#!/bin/sh
# tests/e2e-pidfile.sh - the pid file (-p): bsflowd refuses a symbolic
# link at its path (the link's target is left as it was), a second
# instance with the same pid file is refused with a message naming the
# first (which keeps running, its pid file intact), the file is mode 0644
# under umask 0, it is removed at exit, and it is not left behind when
# bsflowd cannot start (-u with a user that does not exist); when the
# user of -u may not remove it at exit, it is left empty.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
e2e_init pidfile
e2e_collect col -q -b 127.0.0.1
e2e_conf "$TMP/bsflowd.conf" "127.0.0.1:$cport"
pf="$TMP/bsflowd.pid"

# a symbolic link at the path: refused, its target untouched
echo "do not touch" >"$TMP/target"
ln -s "$TMP/target" "$pf"
"$BSFLOWD" -f "$TMP/bsflowd.conf" -d -p "$pf" --run-for 5 >"$TMP/link.log" 2>&1
st=$?
[ $st = 3 ] || fail "a symbolic link as pid file: exit $st, expected 3"
grep -q "symbolic link" "$TMP/link.log" || fail "no message about the link: $(cat "$TMP/link.log")"
[ "$(cat "$TMP/target")" = "do not touch" ] || fail "the link's target was overwritten"
rm -f "$pf"

# the first instance, under umask 0
(umask 0 && exec "$BSFLOWD" -f "$TMP/bsflowd.conf" -d -p "$pf" --run-for 30) >"$TMP/a.log" 2>&1 &
apid=$!
E2E_PIDS="$E2E_PIDS $apid"
i=0
while ! grep -q "started" "$TMP/a.log" 2>/dev/null && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(cat "$pf" 2>/dev/null)" = "$apid" ] || fail "pid file holds '$(cat "$pf" 2>/dev/null)', not $apid"
mode=$(stat -c %a "$pf")
[ "$mode" = 644 ] || fail "pid file mode $mode under umask 0, expected 644"

# a second one with the same pid file: refused at once, the first intact
"$BSFLOWD" -f "$TMP/bsflowd.conf" -d -p "$pf" --run-for 5 >"$TMP/b.log" 2>&1
st=$?
[ $st = 3 ] || fail "second instance: exit $st, expected 3"
grep -q "another bsflowd (pid $apid)" "$TMP/b.log" ||
	fail "second instance's message does not name pid $apid: $(cat "$TMP/b.log")"
kill -0 $apid 2>/dev/null || fail "the first instance stopped"
[ "$(cat "$pf" 2>/dev/null)" = "$apid" ] || fail "the second instance changed the pid file"

# the first one stops: its pid file goes
kill -TERM $apid
wait $apid
[ -e "$pf" ] && fail "pid file left after a clean exit"

# -u with no such user: cannot start, and no pid file left behind
"$BSFLOWD" -f "$TMP/bsflowd.conf" -d -p "$pf" -u no-such-user-bsf --run-for 5 >"$TMP/u.log" 2>&1
st=$?
[ $st = 3 ] || fail "-u no-such-user: exit $st, expected 3"
[ -e "$pf" ] && fail "pid file left behind when -u failed"
# -u dropping to a user that may not write the pid file's directory: the
# file cannot be removed at exit; it is left empty, not naming a process
# that is gone (root only: -u needs it)
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	mkdir -m 0755 "$TMP/run"
	"$BSFLOWD" -f "$TMP/bsflowd.conf" -d -p "$TMP/run/bsflowd.pid" -u nobody --control none \
		--run-for 1 >"$TMP/nobody.log" 2>&1
	st=$?
	[ $st = 0 ] || fail "-u nobody: exit $st: $(tail -n 3 "$TMP/nobody.log")"
	if [ -s "$TMP/run/bsflowd.pid" ]; then
		fail "-u nobody: the pid file still names pid $(cat "$TMP/run/bsflowd.pid") after exit"
	fi
	grep -q "not removed (Permission denied); left empty" "$TMP/nobody.log" ||
		fail "-u nobody: no word of the pid file left: $(tail -n 3 "$TMP/nobody.log")"
else
	echo "not root: the -u case is not run"
fi
e2e_stop $cpid
e2e_finish
