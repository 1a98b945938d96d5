#!/bin/sh
# agent/sonic/tests/e2e-sonic.sh - the sonic backend end to end: a real
# redis-server on a unix socket in a temporary directory, loaded with a
# SONiC-shaped database (sonic_fixture.py: 32 ports, 8 + 8 queues, 8 PGs,
# ingress and egress pools, static and dynamic profiles, APPL_DB's buffer
# tables over CONFIG_DB's, queue drops and drop counters, malformed
# values), a feeder writing the flex counters' values phase by phase,
# bsflowd with backend = sonic sending to bsflow-collect --strict -j.
# Redis is stopped for 10 s mid-run and restarted with new object ids
# (as after a config reload).  e2e-sonic-check.py checks every sample
# against values computed from the fixture's numbers.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$top_srcdir/tests/e2e-lib.sh"
HERE="$top_srcdir/agent/sonic/tests"
FIX="$HERE/sonic_fixture.py"
e2e_init sonic
. "$HERE/e2e-sonic-lib.sh"
watermarks() { # the watched USER_ / PERSISTENT_WATERMARKS into $TMP/$1
	python3 - "$SOCK" "$2" >"$TMP/$1" <<'PY'
import os, sys
sys.path.insert(0, os.environ["HERE"])
import sonic_fixture as f
r = f.Redis(sys.argv[1])
r.cmd("SELECT", f.COUNTERS_DB)
for oid in f.watched_oids(int(sys.argv[2])):
    for t in ("USER_WATERMARKS", "PERSISTENT_WATERMARKS"):
        print(t, oid, r.cmd("HGET", t + ":" + oid, "SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES"))
PY
}
export HERE

redis_start
python3 "$FIX" load "$SOCK" 0 && python3 "$FIX" feed "$SOCK" 0 || exit 1
python3 "$FIX" dbconfig "$SOCK" >"$TMP/database_config.json"

e2e_collect col --strict -j -b 127.0.0.1
# (SONiC's flex counters poll every 10 s by default: 0.5 s here)
sonic_conf "$TMP/bsflowd.conf" "	map_refresh = 2s"
"$BSFLOWD" -t -f "$TMP/bsflowd.conf" || fail "bsflowd -t refused the configuration"
mark start
e2e_daemon bsflowd "$TMP/bsflowd.conf" 120
for p in 1 2 3; do
	sleep 1.5
	python3 "$FIX" feed "$SOCK" $p || fail "feed $p"
	mark "phase$p"
done
sleep 5
watermarks wm-before 0
mark kill
kill "$rpid"
wait "$rpid" 2>/dev/null
mark stop # redis-server has exited (a loaded host may take it a while)
sleep 10
redis_start
python3 "$FIX" load "$SOCK" 1 && python3 "$FIX" feed "$SOCK" 4 1 || fail "reload"
mark restart
sleep 9
watermarks wm-after 1
mark end
kill -USR1 "$dpid"
sleep 0.3
e2e_stop "$dpid"
[ "$st" = 0 ] || fail "bsflowd exited $st"
sleep 0.3
e2e_stop "$cpid"
if [ "$st" != 0 ]; then
	fail "bsflow-collect --strict exited $st"
	tail -n 5 "$TMP/col.err"
fi
python3 "$HERE/e2e-sonic-check.py" "$TMP/col.out" "$EV" "$TMP/bsflowd.log" \
	"$TMP/wm-before" "$TMP/wm-after" || rc=1
[ "$rc" = 0 ] || tail -n 30 "$TMP/bsflowd.log"
e2e_finish
