#!/bin/sh
# agent/linux/tests/e2e-linux-reload.sh - a reload that changes the linux
# section, end to end in a network namespace this test creates (a veth
# pair with a tbf root): bsflowd with backend = linux sends to
# bsflow-collect --strict -j; after 2.5 s the section's qdisc_poll_ms is
# changed and SIGHUP sent.  Checks: the log shows the
# backend reopened with the new interval, the datagram sequence numbers
# run on without a restart (1, 2, 3, ... with no reset: --strict would
# fail on one), and counters samples keep coming after the reload.
# Needs root, ip(8), tc(8), python3: otherwise SKIP (exit 77).
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
BSFLOWD="$top_builddir/agent/bsflowd"

skip() {
	echo "SKIP: $*"
	exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces)"
# bsflowd may load the bpf source here (bpf = auto): one at a time with the
# bpf tests, which count the programs loaded
if command -v flock >/dev/null 2>&1; then
	exec 9>"${TMPDIR:-/tmp}/bsflowd-bpf-e2e.lock"
	flock 9
fi
command -v ip >/dev/null 2>&1 || skip "ip(8) not installed (iproute2)"
command -v tc >/dev/null 2>&1 || skip "tc(8) not installed (iproute2)"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
[ -x "$BSFLOWD" ] && [ -x "$COLLECT" ] || {
	echo "FAIL: bsflowd or bsflow-collect not built"
	exit 1
}
A=bsflr$$
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-linuxr.XXXXXX") || exit 1
cleanup() {
	[ -n "$cpid" ] && kill "$cpid" 2>/dev/null
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
ip netns add "$A" 2>"$TMP/err" || skip "cannot create a network namespace: $(cat "$TMP/err")"
X="ip netns exec $A"
$X ip link add vR type veth peer name vS 2>"$TMP/err" || skip "no veth: $(cat "$TMP/err")"
$X ip link set lo up && $X ip link set vR up && $X ip link set vS up || exit 1
$X tc qdisc add dev vR root handle 1: tbf rate 10mbit burst 10kb limit 30kb 2>"$TMP/err" ||
	skip "no tbf: $(cat "$TMP/err")"
conf() {
	cat >"$TMP/bsflowd.conf" <<EOC
collector "c" {
	address = 127.0.0.1
	port = 6343
}
polling_interval = 1
backend = linux
linux {
	ports = {"vR"}
	qdisc_poll_ms = $1
	tracepoint = off
	packet = off
}
EOC
}
conf 3
$X "$COLLECT" --strict -j -b 127.0.0.1 -p 6343 -t 9 >"$TMP/col.json" 2>"$TMP/col.err" &
cpid=$!
sleep 0.3
$X "$BSFLOWD" -d -f "$TMP/bsflowd.conf" --run-for 7 >"$TMP/bsflowd.log" 2>&1 &
dpid=$!
sleep 2.5
conf 7
kill -HUP $dpid
wait $dpid
st=$?
dpid=
wait $cpid
cst=$?
cpid=
rc=0
[ "$st" = 0 ] || {
	echo "FAIL: bsflowd exited $st"
	rc=1
}
[ "$cst" = 0 ] || {
	echo "FAIL: bsflow-collect --strict exited $cst"
	tail -n 5 "$TMP/col.err"
	rc=1
}
grep -q 'linux: qdisc on 1 port (every 3 ms)' "$TMP/bsflowd.log" || {
	echo "FAIL: no qdisc source at 3 ms before the reload"
	rc=1
}
grep -q 'linux: qdisc on 1 port (every 7 ms)' "$TMP/bsflowd.log" || {
	echo "FAIL: the reload did not reopen the backend with qdisc_poll_ms = 7"
	rc=1
}
python3 - "$TMP/col.json" <<'PY' || rc=1
import json, sys
seqs, ups = [], []
for line in open(sys.argv[1]):
    d = json.loads(line)
    seqs.append(d["packetSequenceNo"])
    ups.append(d["sysUpTime"])
print("datagram sequence numbers:", seqs)
ok = len(seqs) >= 5 and seqs == list(range(1, len(seqs) + 1)) and max(ups) > 4000
if not ok:
    print("FAIL: expected 1, 2, 3, ... across the reload and datagrams after it")
sys.exit(0 if ok else 1)
PY
[ "$rc" = 0 ] || grep -E 'linux:|reload|SIGHUP' "$TMP/bsflowd.log"
exit $rc
