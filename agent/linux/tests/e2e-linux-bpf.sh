#!/bin/sh
# agent/linux/tests/e2e-linux-bpf.sh - the linux backend's bpf source end
# to end in network namespaces this test creates: a veth pair with a tbf
# root (5 Mbit/s, limit 30 000 bytes) on the sending side, bsflowd with
# backend = linux and `bpf = on` on that port, bsflow-collect -j in the
# same namespace, a UDP sender overloading the shaper for 4 s, then a
# paced sender at ~0.8 Mbit/s for 3 s; drop notifications limited to
# 50 a second (drops { limit }), which the kernel's drop reports follow.
# Theory: a full queue of 30 000 bytes drains in 30 000 x 8 / 5e6 = 48
# ms.  The assertions are in
# e2e-linux-bpf-check.py.  Needs root, ip(8), tc(8), python3, netns,
# veth, tbf and a bsflowd built with BPF support on a kernel that loads
# it: otherwise SKIP (exit 77) saying why.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
BSFLOWD="$top_builddir/agent/bsflowd"
HERE="$top_srcdir/agent/linux/tests"
N=10
LIMIT=50 # drop notifications a second: the kernel's reports too

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
A=bsfpa$$
B=bsfpb$$
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-bpf.XXXXXX") || exit 1
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
	# no IPv6 neighbour discovery on the port: only the senders' packets
	ip netns exec "$n" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 2>/dev/null
done
ip -n "$A" addr add 10.78.0.1/24 dev vA && ip -n "$B" addr add 10.78.0.2/24 dev vB || exit 1
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set vA up && ip -n "$B" link set vB up || exit 1
X="ip netns exec $A"
$X tc qdisc add dev vA root handle 1: tbf rate 5mbit burst 5000 limit 30000 2>"$TMP/err" ||
	skip "tbf not available: $(tail -n 1 "$TMP/err")"
IFX=$($X cat /sys/class/net/vA/ifindex)
sent() {
	$X tc -s qdisc show dev vA | sed -n 's/^ Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' | head -n 1
}
SENT0=$(sent)

cat >"$TMP/bsflowd.conf" <<EOC
collector "c" {
	address = 127.0.0.1
	port = 6343
}
polling_interval = 1
sampling {
	default = $N
}
drops {
	limit = $LIMIT
}
backend = linux
linux {
	ports = {"vA"}
	bpf = on
	packet = off
	tracepoint = off
	dropmon = off
}
EOC
$X "$COLLECT" --strict -j -b 127.0.0.1 -p 6343 -t 16 >"$TMP/col.json" 2>"$TMP/col.err" &
cpid=$!
sleep 0.3
$X "$BSFLOWD" -d -f "$TMP/bsflowd.conf" --run-for 14 >"$TMP/bsflowd.log" 2>&1 &
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
s.bind(("10.78.0.2", 5001))
while True:
    s.recv(2048)' &
rpid=$!
sleep 2
# overload: 3.5 s .. 7.5 s after the daemon started; then paced 8.5 .. 11.5 s
$X python3 "$HERE/blast.py" 10.78.0.2 5001 4 1000 >/dev/null
sleep 1
$X python3 "$HERE/slow.py" 10.78.0.2 5001 3 1000 10 >/dev/null
$X tc -s qdisc show dev vA >"$TMP/tc.txt"
SENT=$(sed -n 's/^ Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' "$TMP/tc.txt" | head -n 1)
TCDROPS=$(sed -n 's/^ Sent .* (dropped \([0-9]*\),.*/\1/p' "$TMP/tc.txt" | head -n 1)
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
grep 'linux:' "$TMP/bsflowd.log"
python3 "$HERE/e2e-linux-bpf-check.py" "$TMP/col.json" "$IFX" 30000 5000000 3500 7500 8500 11500 \
	$N "$((${SENT:-0} - ${SENT0:-0}))" "${TCDROPS:-0}" "$TMP/bsflowd.log" $LIMIT 4 ||
	rc=1
[ "$rc" = 0 ] || tail -n 20 "$TMP/bsflowd.log"
exit $rc
