#!/bin/sh
# agent/sonic/tests/e2e-sonic-start.sh - the sonic backend started while
# Redis is down: bsflowd starts anyway with the ports of config_db.json
# (ifIndex 1..32), sends their counters samples with unknown values, and
# once redis-server comes up (sonic_fixture.py loads and feeds phase 0) the
# values of phase 0, computed from the fixture's numbers.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$top_srcdir/tests/e2e-lib.sh"
HERE="$top_srcdir/agent/sonic/tests"
export HERE
FIX="$HERE/sonic_fixture.py"
e2e_init sonic-start
. "$HERE/e2e-sonic-lib.sh"
# the shipped example section, uncommented, passes bsflowd -t
sed -e 's/^backend = model$/backend = sonic/' -e '/^#sonic {/,/^#}/s/^#//' \
	"$top_srcdir/etc/bsflowd.conf" >"$TMP/example.conf"
out=$("$BSFLOWD" -t -f "$TMP/example.conf" 2>&1) || fail "bsflowd -t on the example sonic section: $out"
case $out in
*"backend sonic: redis /var/run/redis/redis.sock, databases CONFIG_DB 4, APPL_DB 0, COUNTERS_DB 2"*) ;;
*) fail "bsflowd -t on the example sonic section: $out" ;;
esac
python3 "$FIX" dbconfig "$SOCK" >"$TMP/database_config.json"
python3 "$FIX" configdb - >"$TMP/config_db.json"
e2e_collect col --strict -j -b 127.0.0.1
sonic_conf "$TMP/bsflowd.conf" "	config_db_json = \"$TMP/config_db.json\""
e2e_daemon bsflowd "$TMP/bsflowd.conf" 60
sleep 4
up=$(now)
redis_start
python3 "$FIX" load "$SOCK" 0 && python3 "$FIX" feed "$SOCK" 0 || fail "fixture"
sleep 9
e2e_stop "$dpid"
[ "$st" = 0 ] || fail "bsflowd exited $st"
sleep 0.3
e2e_stop "$cpid"
[ "$st" = 0 ] || fail "bsflow-collect --strict exited $st"
python3 - "$TMP/col.out" "$up" <<'PY' || rc=1
import json, os, sys
sys.path.insert(0, os.environ["HERE"])
import sonic_fixture as f
up = float(sys.argv[2])
before, after, bad = set(), set(), 0
for line in open(sys.argv[1]):
    dg = json.loads(line)
    for s in dg.get("samples", []):
        if s.get("sampleType_tag") != "0:4" or s["sourceId"].startswith("2:"):
            continue
        c = [e for e in s["elements"] if e["counterBlock_tag"] == "0:1"][0]
        i = c["ifIndex"] - 1
        t = dg["unixSecondsUTC"]
        if t <= up - 1:
            before.add(i)
            if c["ifInOctets"] != 2**64 - 1:
                print("FAIL: ifIndex %d: counters known before Redis is up" % (i + 1))
                bad += 1
        elif t >= up + 7:  # reconnect within 5 s (backoff), then polled
            after.add(i)
            want = [f.counter(i, k, 0) for k in range(13)]
            if i == 31:
                want[5] = 2**32 - 1
            got = [c[n] for n in f.CTR_SFLOW]
            if got != want:
                print("FAIL: ifIndex %d: %s, want %s" % (i + 1, got, want))
                bad += 1
for name, seen in (("before Redis", before), ("after Redis", after)):
    if seen != set(range(f.NPORTS)):
        print("FAIL: %s: ports %s, want all %d" % (name, sorted(seen), f.NPORTS))
        bad += 1
sys.exit(1 if bad else 0)
PY
grep -q 'starting with the 32 ports of' "$TMP/bsflowd.log" || fail "no log line about config_db.json"
[ "$rc" = 0 ] || tail -n 20 "$TMP/bsflowd.log"
e2e_finish
