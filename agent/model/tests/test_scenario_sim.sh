#!/bin/sh
# agent/model/tests/test_scenario_sim.sh - bsflow-sim runs the demo
# scenario for a short virtual time and prints its sections; --json
# output parses with python3; bad options and files give the documented
# exit codes (2 usage, 1 bad file) and name the problem.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
sim="$top_builddir/agent/model/bsflow-sim"
demo="$top_srcdir/etc/scenarios/demo.conf"
tmp=${TMPDIR:-/tmp}/test_scenario_sim.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
fail() { echo "FAIL: $*"; rc=1; }

"$sim" -f "$demo" --duration 0.05 > "$tmp/out" 2> "$tmp/err" || fail "demo run exited $?"
for s in "== ports" "== queues" "== drops by cause" "== buffer" "== totals" \
	"simulated packets per wall-clock second"; do
	grep -q "$s" "$tmp/out" || fail "no '$s' in the output"
done
# the congested port 5 shows WRED drops, port 0's queue 0 carries the incast
grep -q '^5 .*uc1' "$tmp/out" || fail "no queue line for port 5 queue 1"
grep -q '^all ' "$tmp/out" || fail "no drop totals"

"$sim" -f "$demo" --duration 0.05 --seed 3 --json > "$tmp/json" 2> "$tmp/err" ||
	fail "--json run exited $?"
if command -v python3 > /dev/null 2>&1; then
	python3 - "$tmp/json" <<'PY' || fail "--json output does not parse or lacks keys"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["seed"] == 3, d["seed"]
assert d["ports_count"] == 8
assert len(d["ports"]) == 8
assert abs(d["virtual_s"] - 0.05) < 1e-6, d["virtual_s"]
t = d["totals"]
assert t["arrived"] == t["fwd_dropped"] + t["ing_dropped"] + t["admitted"]
assert t["fwd_dropped"] > 0
q5 = [q for q in d["queues"] if q["port"] == 5 and q["queue"] == 1]
assert q5 and q5[0]["drops"]["wred"] > 0
dl = q5[0]["delay_ns"]
assert all(k in dl for k in ("mean", "p50", "p99", "p999", "max", "timed_mean", "timed_max", "age_max")), dl
assert dl["p50"] <= dl["p99"] <= dl["p999"] <= dl["max"] and q5[0]["avg_bytes"] > 0
assert not any(k.startswith("nt_") or k.startswith("true_") or "marker" in k for k in dl), dl
assert d["packets_per_wall_s"] > 0
PY
else
	echo "python3 not found: JSON not checked"
fi

# usage errors: exit 2
"$sim" > /dev/null 2>&1; [ $? -eq 2 ] || fail "no -f: want exit 2"
"$sim" -f "$demo" --duration abc > /dev/null 2> "$tmp/err"; [ $? -eq 2 ] || fail "bad --duration: want exit 2"
grep -q duration "$tmp/err" || fail "bad --duration: message does not name it"
"$sim" -f "$demo" --bogus > /dev/null 2>&1; [ $? -eq 2 ] || fail "unknown option: want exit 2"
# file errors: exit 1, message names the file (and line)
"$sim" -f "$tmp/missing.conf" > /dev/null 2> "$tmp/err"; [ $? -eq 1 ] || fail "missing file: want exit 1"
grep -q "missing.conf" "$tmp/err" || fail "missing file: not named"
printf 'model {\n  ports = 4\n  speed = 3G\n  traffic t {\n    ports = {7}\n  }\n}\n' > "$tmp/bad.conf"
"$sim" -f "$tmp/bad.conf" > /dev/null 2> "$tmp/err"; [ $? -eq 1 ] || fail "bad value: want exit 1"
# the message is bsflowd's, FILE:LINE first (bsflowd -t prints the same line)
grep -qx "$tmp/bad.conf:5: model: traffic \"t\": ports = 7: out of range; allowed: 0..3" "$tmp/err" || { fail "bad value: message"; cat "$tmp/err"; }
"$sim" -f "$tmp/bad.conf" --sflow "$tmp/x.pcap" > /dev/null 2> "$tmp/err2"; [ $? -eq 1 ] || fail "bad value with --sflow: want exit 1"
cmp -s "$tmp/err" "$tmp/err2" || { fail "bad value with --sflow: another message"; cat "$tmp/err2"; }
printf 'agent { address = 10.0.0.300 }\nmodel { ports = 4 }\n' > "$tmp/bad2.conf"
"$sim" -f "$tmp/bad2.conf" --sflow "$tmp/x.pcap" > /dev/null 2> "$tmp/err"; [ $? -eq 1 ] || fail "bad agent with --sflow: want exit 1"
grep -q "^$tmp/bad2.conf:1: " "$tmp/err" || { fail "bad agent with --sflow: no FILE:LINE"; cat "$tmp/err"; }
[ $rc -eq 0 ] && echo "ok: bsflow-sim"
exit $rc
