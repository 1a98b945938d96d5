#!/bin/sh
# agent/model/tests/test_sim_series.sh - bsflow-sim --interval on the
# congestion scenario of tests/e2e-lib.sh (ports 1 and 2 send 8192-byte
# frames at 1 Gb/s line rate to port 0, queue 0 of 64 KB).  Closed forms:
# a frame takes (8192 + 20) * 8 ns = 65.696 us, so in 2 ms the queue sends
# 2e-3 / 65.696e-6 = 30.44 frames (30 or 31) and drops as many (two
# inputs, one output); it stays full, 65536 bytes, and so on average; a
# frame waits 8 frame times = 525.568 us, so every delay percentile reads
# 525568 ns (the largest delay seen bounds the bucket's upper end).
# Also: --csv has its header; --series FILE leaves the end-of-run report
# (--json) identical but for the wall-clock figures; bad --interval exits 2.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
SIM="$top_builddir/agent/model/bsflow-sim"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bsfseries.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
fail() {
	echo "FAIL: $*"
	rc=1
}
cat >"$tmp/s.conf" <<'EOC'
model {
	seed = 1
	ports = 4
	speed = 1G
	cell_size = 256
	buffer = 4M
	unicast_queues = 8
	queue_min = 0
	queue_limit = 64K
	sampling_rate = 0
	traffic congest {
		ports = {1, 2}
		destination = fixed
		to = 0
		rate = 100%
		arrival = constant
		size = 8192
		dscp = 0
		flows = 4
	}
}
EOC
"$SIM" -f "$tmp/s.conf" --duration 0.02 --interval 0.002 >"$tmp/series.jsonl" ||
	fail "bsflow-sim --interval exit $?"
python3 - "$tmp/series.jsonl" <<'EOP' || rc=1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
q = [r for r in rows if r.get("queue") == 0 and r["port"] == 0]
ok = len(q) == 10 and all(r["cast"] == "unicast" for r in q)
ok = ok and [round(r["time_s"], 6) for r in q] == [round(0.002 * i, 6) for i in range(1, 11)]
for r in q[1:]:
    ok = ok and r["sent"] in (30, 31) and r["drops"] in (30, 31)
    ok = ok and r["drops_by_cause"] == {"egress_limit": r["drops"]}
    ok = ok and r["bytes"] == 65536 and r["peak_bytes"] == 65536 and r["avg_bytes"] == 65536
    ok = ok and r["delay_p50_ns"] == r["delay_p99_ns"] == r["delay_p999_ns"] == 525568
others = [r for r in rows if r not in q and "queue" in r]
if not ok or others:
    print("FAIL: series rows not as the closed forms say:", rows[:3], others[:3])
    sys.exit(1)
print("ok: 10 intervals of queue 0: 30-31 sent and dropped, full, p50=p99=p999=525568 ns")
EOP
"$SIM" -f "$tmp/s.conf" --duration 0.01 --interval 0.005 --csv >"$tmp/series.csv"
head -n 1 "$tmp/series.csv" | grep -q '^time_s,port,queue,cast,bytes,peak_bytes,avg_bytes,sent,drops,delay_p50_ns,delay_p99_ns,delay_p999_ns,pfc_xoff,pfc_xoff_s,pfc_xoff_now,pg_peak_bytes,headroom_peak_bytes,held,held_now,drops_by_pg,drops_by_class$' &&
	python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); sys.exit(not all(len(x) == 21 for x in r))' "$tmp/series.csv" &&
	echo "ok: --csv" || fail "--csv: $(cat "$tmp/series.csv")"

"$SIM" -f "$tmp/s.conf" --duration 0.02 --json >"$tmp/plain.json"
"$SIM" -f "$tmp/s.conf" --duration 0.02 --json --interval 0.001 --series "$tmp/x.jsonl" \
	>"$tmp/with.json"
python3 - "$tmp/plain.json" "$tmp/with.json" <<'EOP' || rc=1
import json, sys
def strip(d):
    if isinstance(d, dict):
        return {k: strip(v) for k, v in d.items() if "wall" not in k}
    if isinstance(d, list):
        return [strip(v) for v in d]
    return d
a, b = (strip(json.load(open(f))) for f in sys.argv[1:3])
if a != b:
    print("FAIL: the end-of-run report changed with --interval --series")
    sys.exit(1)
print("ok: the end-of-run report is the same with --interval --series FILE")
EOP

"$SIM" -f "$tmp/s.conf" --interval 0 >/dev/null 2>"$tmp/err"
st=$?
[ $st = 2 ] && grep -q "^bsflow-sim: --interval: '0' is not a number of seconds" "$tmp/err" &&
	echo "ok: --interval 0 refused" || fail "--interval 0: exit $st $(cat "$tmp/err")"
exit $rc
