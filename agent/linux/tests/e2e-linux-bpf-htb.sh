#!/bin/sh
# agent/linux/tests/e2e-linux-bpf-htb.sh - the bpf source on the leaves
# of a classful root, end to end in network namespaces this test creates:
# a veth pair with an htb root on the sending side and two leaves that
# cannot borrow (rate = ceil): 1:10 at 2 Mbit/s holding a bfifo of 30 000
# bytes (handle 10:), 1:20 at 6 Mbit/s (the default class) holding htb's
# default pfifo, limited by the device's tx_queue_len of 30 packets.
# bsflowd with backend = linux, bpf = on (the leaves watched through
# kprobes on bfifo_enqueue and pfifo_enqueue), sampling 1-in-10, and
# bsflow-collect -j; two UDP senders overload both leaves for 4 s, the
# first with SO_PRIORITY 0x10010 (class 1:10), the second unclassified.
# Theory: a full leaf drains in its backlog / its rate, 30 000 x 8 / 2e6
# = 120 ms for 1:10, 30 x 1042 x 8 / 6e6 = 41.7 ms for 1:20 (1042-byte
# frames: 1000 bytes of UDP payload).  The assertions are in
# e2e-linux-bpf-htb-check.py.  Needs root, ip(8), tc(8), python3, netns,
# veth, htb and a bsflowd built with BPF support on a kernel that loads
# it (kprobes): otherwise SKIP (exit 77) saying why.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
BSFLOWD="$top_builddir/agent/bsflowd"
HERE="$top_srcdir/agent/linux/tests"
N=10

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
A=bsfha$$
B=bsfhb$$
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-bpfhtb.XXXXXX") || exit 1
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
ip -n "$A" addr add 10.79.0.1/24 dev vA && ip -n "$B" addr add 10.79.0.2/24 dev vB || exit 1
ip -n "$A" link set vA txqueuelen 30 || exit 1
for n in "$A" "$B"; do ip -n "$n" link set lo up; done
ip -n "$A" link set vA up && ip -n "$B" link set vB up || exit 1
X="ip netns exec $A"
$X tc qdisc add dev vA root handle 1: htb default 20 2>"$TMP/err" ||
	skip "htb not available: $(tail -n 1 "$TMP/err")"
$X tc class add dev vA parent 1: classid 1:1 htb rate 8mbit ceil 8mbit &&
	$X tc class add dev vA parent 1:1 classid 1:10 htb rate 2mbit ceil 2mbit &&
	$X tc class add dev vA parent 1:1 classid 1:20 htb rate 6mbit ceil 6mbit &&
	$X tc qdisc add dev vA parent 1:10 handle 10: bfifo limit 30000 || exit 1
IFX=$($X cat /sys/class/net/vA/ifindex)

cat >"$TMP/bsflowd.conf" <<EOC
collector "c" {
	address = 127.0.0.1
	port = 6343
}
polling_interval = 1
sampling {
	default = $N
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
$X "$COLLECT" --strict -j -b 127.0.0.1 -p 6343 -t 14 >"$TMP/col.json" 2>"$TMP/col.err" &
cpid=$!
sleep 0.3
$X "$BSFLOWD" -d -f "$TMP/bsflowd.conf" --run-for 12 >"$TMP/bsflowd.log" 2>&1 &
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
import socket, select
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
a.bind(("10.79.0.2", 5001))
b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
b.bind(("10.79.0.2", 5002))
while True:
    for s in select.select([a, b], [], [])[0]:
        s.recv(2048)' &
rpid=$!
sleep 2
# both senders on one CPU: their leaves' drops do not overlap (see the
# check's drops)
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c 0"
# overload both leaves, 3.5 s .. 7.5 s after the daemon started: 1:10 at
# 1000 packets a second (8.3 Mbit/s, 4 x its rate), 1:20 at 3000 (25
# Mbit/s, 4 x its rate)
$X $PIN python3 "$HERE/blast.py" 10.79.0.2 5001 4 1000 1000 0x10010 >/dev/null &
s1=$!
$X $PIN python3 "$HERE/blast.py" 10.79.0.2 5002 4 1000 3000 >/dev/null
wait $s1
$X tc -s class show dev vA >"$TMP/tc.txt"
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
grep -q 'bpf on 2 queues, leaves of classful roots among them' "$TMP/bsflowd.log" || {
	echo "FAIL: the bpf source does not watch the htb leaves"
	rc=1
}
python3 "$HERE/e2e-linux-bpf-htb-check.py" "$TMP/col.json" "$IFX" 3500 7500 || rc=1
[ "$rc" = 0 ] || {
	cat "$TMP/tc.txt"
	tail -n 20 "$TMP/bsflowd.log"
}
exit $rc
