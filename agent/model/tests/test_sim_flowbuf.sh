#!/bin/sh
# agent/model/tests/test_sim_flowbuf.sh - bsflow-sim on
# etc/scenarios/flowbuf.conf (a hog and four well-behaved flows sharing
# an egress port and class): with the flow regions on, the well-behaved
# flows' region loses (near) nothing and the hog's region pays; with
# them off (flow_regions = false), the well-behaved flows lose packets.
# Both runs' ingress arbitration and flow admission sections are printed.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
sim="$top_builddir/agent/model/bsflow-sim"
conf="$top_srcdir/etc/scenarios/flowbuf.conf"
tmp=${TMPDIR:-/tmp}/test_sim_flowbuf.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
fail() { echo "FAIL: $*"; rc=1; }

sed 's/flow_regions = true/flow_regions = false/' "$conf" > "$tmp/off.conf"
grep -q 'flow_regions = false' "$tmp/off.conf" || fail "cannot make the 'off' scenario"
"$sim" -f "$conf" > "$tmp/on" 2> "$tmp/err" || fail "run (on) exited $?"
"$sim" -f "$tmp/off.conf" > "$tmp/off" 2> "$tmp/err" || fail "run (off) exited $?"
for f in on off; do
	echo "--- flow regions $f"
	sed -n '/== ingress arbitration/,/== totals/p' "$tmp/$f"
	grep -q '== ingress arbitration' "$tmp/$f" || fail "$f: no ingress arbitration section"
	grep -q '== flow-based admission' "$tmp/$f" || fail "$f: no flow-based admission section"
done
# region lines: region cur peak peak_pct state admitted dropped ...
# (on) region 1 = the well-behaved flows, region 0 = the hog
awk '$1 == 1 && NF == 10 { adm = $6; drp = $7 }
     END { if (adm == "" || adm < 1000 || drp * 1000 > adm) exit 1 }' "$tmp/on" ||
	fail "on: the well-behaved flows' region lost packets (or carried none)"
awk '$1 == 0 && NF == 10 { drp = $7 } END { if (drp == "" || drp < 1000) exit 1 }' "$tmp/on" ||
	fail "on: the hog's region was not held"
# (off) the well-behaved flows lose: the ingress drops of port 1 (their port)
awk '$1 == 1 && $2 == "port1" { d = $8 } END { if (d == "" || d < 100) exit 1 }' "$tmp/off" ||
	fail "off: the well-behaved flows lost nothing"
awk '$1 == 1 && $2 == "port1" { d = $8 } END { if (d != 0) exit 1 }' "$tmp/on" ||
	fail "on: port 1 (the well-behaved flows) has drops"
exit $rc
