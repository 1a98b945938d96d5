#!/bin/sh
# agent/sonic/tests/e2e-sonic-maps.sh - ports that come and go while the
# sonic backend runs, end to end: a real redis-server loaded with the
# SONiC-shaped database (sonic_fixture.py), bsflowd with backend = sonic
# sending to bsflow-collect --strict -j; mid-run a breakout (sonic_fixture.py
# breakout) takes Ethernet124 (ifIndex 32) out of the maps and puts
# Ethernet128 (ifIndex 33) in.  Twice:
#   notified  notify-keyspace-events AKE (CONFIG SET here) and map_refresh
#             an hour: only the keyspace notifications can bring the change
#   polled    notify-keyspace-events "" and map_refresh 2 s: the periodic
#             re-read brings it
# Each time e2e-sonic-maps-check.py checks that ifIndex 33 appears with
# the values the fixture gave it, that 32 stops, that the other ports'
# values and sequence numbers go on, and what bsflowd logged.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$top_srcdir/tests/e2e-lib.sh"
HERE="$top_srcdir/agent/sonic/tests"
FIX="$HERE/sonic_fixture.py"
e2e_init sonic-maps
. "$HERE/e2e-sonic-lib.sh"
redis_start
python3 "$FIX" dbconfig "$SOCK" >"$TMP/database_config.json"
e2e_collect col --strict -j -b 127.0.0.1

# run NAME FLAGS REFRESH: bsflowd with the fixture of phase 0, the server's
# notify-keyspace-events FLAGS, map_refresh REFRESH; the breakout 4 s in
run() {
	python3 "$FIX" load "$SOCK" 0 && python3 "$FIX" feed "$SOCK" 0 || fail "$1: fixture"
	python3 "$FIX" notify "$SOCK" "$2" >/dev/null || fail "$1: CONFIG SET"
	sonic_conf "$TMP/$1.conf" "	map_refresh = $3"
	mark "$1-start"
	"$BSFLOWD" -f "$TMP/$1.conf" -d >"$TMP/$1.log" 2>&1 &
	dpid=$!
	E2E_PIDS="$E2E_PIDS $dpid"
	sleep 4
	mark "$1-change"
	python3 "$FIX" breakout "$SOCK" || fail "$1: breakout"
	sleep 8
	kill -USR1 "$dpid"
	sleep 0.3
	mark "$1-end"
	e2e_stop "$dpid"
	[ "$st" = 0 ] || fail "$1: bsflowd exited $st"
}
run notified AKE 3600s
sleep 3 # the two runs' samples apart by their receive time
run polled "" 2s
sleep 0.3
e2e_stop "$cpid"
[ "$st" = 0 ] || fail "bsflow-collect --strict exited $st"
python3 "$HERE/e2e-sonic-maps-check.py" "$TMP/col.out" "$EV" "$TMP/notified.log" \
	"$TMP/polled.log" || rc=1
[ "$rc" = 0 ] || tail -n 20 "$TMP/notified.log" "$TMP/polled.log"
e2e_finish
