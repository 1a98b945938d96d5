#!/bin/sh
# agent/linux/tests/e2e-linux-bpf-vis.sh - the visibility monitors on the
# linux backend's bpf queue event streams (BSF_CAP_QUEUE_EVENTS), end to
# end in network namespaces this test creates: the tbf scenario of
# e2e-linux-bpf.sh (a veth port with a tbf root at 5 Mbit/s, limit 30 000
# bytes: a full queue drains in 48 ms) with a visibility section on its
# queue (high delay above 20 ms, congestion from 20 000 bytes down to
# 5 000, forensics), bsflow-collect -j, and two bursts of 1.5 s of a UDP
# sender overloading the shaper, 1 s apart.  The agent streams the
# queue's enqueues and dequeues from the kernel; the assertions, in
# e2e-linux-bpf-vis-check.py, are closed forms of the queue's behaviour.
# Needs root, ip(8), tc(8), python3, netns, veth, tbf and a bsflowd built
# with BPF support on a kernel that loads it: otherwise SKIP (exit 77).
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
BSFLOWD="$top_builddir/agent/bsflowd"
HERE="$top_srcdir/agent/linux/tests"

skip() {
	echo "SKIP: $*"
	exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, tc, BPF)"
command -v ip >/dev/null 2>&1 || skip "ip(8) not installed (iproute2)"
command -v tc >/dev/null 2>&1 || skip "tc(8) not installed (iproute2)"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
[ -x "$BSFLOWD" ] && [ -x "$COLLECT" ] || {
	echo "FAIL: bsflowd or bsflow-collect not built"
	exit 1
}
grep -q '^#define HAVE_BPF 1' "$top_builddir/config.h" 2>/dev/null ||
	skip "bsflowd built without BPF support (see configure's output)"
[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF (/sys/kernel/btf/vmlinux)"
# one bpf test at a time (e2e-linux-bpf-reload.sh counts the programs)
if command -v flock >/dev/null 2>&1; then
	exec 9>"${TMPDIR:-/tmp}/bsflowd-bpf-e2e.lock"
	flock 9
fi
A=bsfva$$
B=bsfvb$$
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-bpfvis.XXXXXX") || exit 1
cleanup() {
	[ -n "$cpid" ] && kill "$cpid" 2>/dev/null
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
	[ -n "$rpid" ] && kill "$rpid" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	[ -n "$KEEP" ] && echo "keeping $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
ip netns add "$A" 2>"$TMP/err" || skip "cannot create a network namespace: $(cat "$TMP/err")"
ip netns add "$B" || skip "cannot create a second network namespace"
ip link add vA$$ type veth peer name vB$$ 2>"$TMP/err" || skip "no veth: $(cat "$TMP/err")"
ip link set vA$$ netns "$A" && ip link set vB$$ netns "$B" || exit 1
ip -n "$A" link set vA$$ name vA && ip -n "$B" link set vB$$ name vB || exit 1
for n in "$A" "$B"; do
	ip netns exec "$n" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 2>/dev/null
	ip -n "$n" link set lo up
done
ip -n "$A" addr add 10.80.0.1/24 dev vA && ip -n "$B" addr add 10.80.0.2/24 dev vB || exit 1
ip -n "$A" link set vA up && ip -n "$B" link set vB up || exit 1
X="ip netns exec $A"
$X tc qdisc add dev vA root handle 1: tbf rate 5mbit burst 5000 limit 30000 2>"$TMP/err" ||
	skip "tbf not available: $(tail -n 1 "$TMP/err")"
IFX=$($X cat /sys/class/net/vA/ifindex)

cat >"$TMP/bsflowd.conf" <<EOC
collector "c" {
	address = 127.0.0.1
	port = 6343
}
polling_interval = 1
backend = linux
linux {
	ports = {"vA"}
	bpf = on
	packet = off
	tracepoint = off
	dropmon = off
}
visibility {
	forensics = yes
	delay_profile d {
		thresholds = {20ms}
	}
	congestion q {
		high = 20000
		low = 5000
	}
	default_rate = 1000
}
EOC
$X "$COLLECT" --strict -j -b 127.0.0.1 -p 6343 -t 12 >"$TMP/col.json" 2>"$TMP/col.err" &
cpid=$!
sleep 0.3
$X "$BSFLOWD" -d -f "$TMP/bsflowd.conf" --run-for 10 >"$TMP/bsflowd.log" 2>&1 &
dpid=$!
sleep 1.5
if ! kill -0 $dpid 2>/dev/null; then
	wait $dpid
	dpid=
	if grep -q 'bpf = on, but bpf absent' "$TMP/bsflowd.log"; then
		skip "the bpf source cannot start here: $(grep -o 'bpf absent.*' "$TMP/bsflowd.log" | head -n 1)"
	fi
	echo "FAIL: bsflowd exited"
	cat "$TMP/bsflowd.log"
	exit 1
fi
ip netns exec "$B" python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("10.80.0.2", 5001))
while True:
    s.recv(2048)' &
rpid=$!
sleep 1
# two bursts of 1.5 s at 4 x the shaper's rate, 1 s apart
$X python3 "$HERE/blast.py" 10.80.0.2 5001 1.5 1000 2400 >/dev/null
sleep 1
$X python3 "$HERE/blast.py" 10.80.0.2 5001 1.5 1000 2400 >/dev/null
sleep 0.3 # the queue drains in 48 ms
$X tc -s qdisc show dev vA >"$TMP/tc.txt"
SENT=$(sed -n 's/^ Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' "$TMP/tc.txt" | head -n 1)
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
grep 'visibility' "$TMP/bsflowd.log"
python3 "$HERE/e2e-linux-bpf-vis-check.py" "$TMP/col.json" "$IFX" "${SENT:-0}" \
	"$TMP/bsflowd.log" || rc=1
[ "$rc" = 0 ] || tail -n 20 "$TMP/bsflowd.log"
exit $rc
