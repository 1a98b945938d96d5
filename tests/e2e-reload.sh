#!/bin/sh
# tests/e2e-reload.sh - configuration reload on SIGHUP, end
# to end: bsflowd sends to collector A; a good config adding collector B is
# applied on SIGHUP (B starts receiving, A goes on); a bad config is
# refused on SIGHUP with the running one kept (the log says so and A and B
# both go on receiving); SIGTERM then ends the daemon with status 0.
# Waits are bounded guards, not timing checks.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
e2e_init reload
E2E_INTERVAL=1

lines() {
	wc -l <"$1" | tr -d ' '
}

# wait_for FILE N: until FILE has at least N lines (60 s guard)
wait_for() {
	i=0
	while [ "$(lines "$1")" -lt "$2" ]; do
		i=$((i + 1))
		[ $i -gt 600 ] && return 1
		kill -0 $dpid 2>/dev/null || return 1
		sleep 0.1
	done
	return 0
}

# wait_log TEXT: until the daemon's log has TEXT (30 s guard)
wait_log() {
	i=0
	while ! grep -q "$1" "$TMP/bsflowd.log"; do
		i=$((i + 1))
		[ $i -gt 300 ] && return 1
		sleep 0.1
	done
	return 0
}

e2e_collect a -j -b 127.0.0.1
pa=$cpid
porta=$cport
e2e_collect b -j -b 127.0.0.1
pb=$cpid
portb=$cport

e2e_conf "$TMP/bsflowd.conf" "127.0.0.1:$porta"
e2e_daemon bsflowd "$TMP/bsflowd.conf" 120
wait_for "$TMP/a.out" 3 || fail "collector A got nothing before the reload"
[ "$(lines "$TMP/b.out")" = 0 ] || fail "collector B got datagrams before it was configured"

# good reload: add B
e2e_conf "$TMP/bsflowd.conf" "127.0.0.1:$porta" "127.0.0.1:$portb"
kill -HUP $dpid
wait_log "reload done" || fail "no 'reload done' after a good SIGHUP"
na=$(lines "$TMP/a.out")
wait_for "$TMP/b.out" 3 || fail "collector B got nothing after the good reload"
wait_for "$TMP/a.out" $((na + 3)) || fail "collector A stopped after the good reload"

# bad reload: an impossible value; the running config stays
cp "$TMP/bsflowd.conf" "$TMP/good.conf"
echo "polling_interval = banana" >>"$TMP/bsflowd.conf"
kill -HUP $dpid
wait_log "reload refused" || fail "no 'reload refused' after a bad SIGHUP"
grep "reload refused" "$TMP/bsflowd.log" | grep -q "bsflowd.conf" ||
	fail "the refusal does not name the file"
na=$(lines "$TMP/a.out")
nb=$(lines "$TMP/b.out")
wait_for "$TMP/a.out" $((na + 3)) || fail "collector A stopped after the bad reload"
wait_for "$TMP/b.out" $((nb + 3)) || fail "collector B stopped after the bad reload"
kill -0 $dpid 2>/dev/null || fail "bsflowd died after the bad reload"

kill -TERM $dpid
wait $dpid
dst=$?
[ "$dst" = 0 ] || fail "bsflowd exited $dst on SIGTERM"
e2e_stop $pa
e2e_stop $pb
if [ "$rc" != 0 ]; then
	echo "--- bsflowd log"
	tail -n 30 "$TMP/bsflowd.log"
fi
e2e_finish
