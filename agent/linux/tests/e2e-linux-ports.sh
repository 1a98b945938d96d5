#!/bin/sh
# agent/linux/tests/e2e-linux-ports.sh - the linux backend's ports follow
# interfaces that come and go while bsflowd runs, end to end in a network
# namespace this test creates: bsflowd with ports = "/^vx/" starts on the
# veths vx0 and vx1 and sends to bsflow-collect --strict -j; at 2 s a veth
# vx2 is created with a tbf root (1 Mbit/s, limit 60000 bytes) and a
# static neighbour, and 200 UDP datagrams of 1000 bytes sent through it at
# once (the tbf's backlog fills), 20 more 1.5 s later; at 5.5 s vx1 is
# deleted.  No reload.
# Checks (e2e-linux-ports-check.py): counters samples of vx2's ifIndex
# arrive, their ifOutOctets grows and the last equals the tx_bytes the
# kernel counted (read after the tbf drained), vx2's 4413:2 queue peak
# reaches 90 % of the tbf's limit; vx0's counters samples keep their
# sequence numbers without a gap across both changes; vx1's stop after
# its deletion; vx2 is sampled 1 in 4 (sampling { default = 4 }) by the
# AF_PACKET sampler (packet = on); the log says what changed.
# PORTS_BPF=1 (e2e-linux-bpf-ports.sh): the same with bpf = on, its
# object loaded again on the new ports and sampling vx2's dequeues (SKIP
# without BPF support or kernel BTF).
# Needs root, ip(8), tc(8), python3: otherwise SKIP (exit 77).
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
# (the bpf tests' helpers: skip, cleanup, waiting for the two programs)
. "$top_srcdir/agent/linux/tests/bpf-e2e-lib.sh"

BPF=off
PKT=on
if [ "${PORTS_BPF:-0}" = 1 ]; then
	bpf_e2e_need # SKIPs without BPF support or kernel BTF; takes the lock
	BPF=on
	PKT=off # the bpf source samples at dequeue
else
	[ "$(id -u)" = 0 ] || bpf_skip "needs root (network namespaces)"
	for c in ip tc python3; do
		command -v $c >/dev/null 2>&1 || bpf_skip "$c not installed"
	done
	[ -x "$BSFLOWD" ] && [ -x "$COLLECT" ] || {
		echo "FAIL: bsflowd or bsflow-collect not built"
		exit 1
	}
	# bsflowd may load the bpf source: one at a time with the bpf tests
	if command -v flock >/dev/null 2>&1; then
		exec 9>"${TMPDIR:-/tmp}/bsflowd-bpf-e2e.lock"
		flock 9
	fi
fi
A=bsfp$$
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-ports.XXXXXX") || exit 1
trap bpf_e2e_cleanup EXIT
trap 'exit 1' INT TERM
ip netns add "$A" 2>"$TMP/err" || bpf_skip "cannot create a network namespace: $(cat "$TMP/err")"
X="ip netns exec $A"
# no IPv6: only the test's packets cross the veths
$X sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 2>/dev/null
$X ip link set lo up || exit 1
for i in 0 1; do
	$X ip link add vx$i type veth peer name py$i 2>"$TMP/err" || bpf_skip "no veth: $(cat "$TMP/err")"
	$X ip link set vx$i up && $X ip link set py$i up || exit 1
done
cat >"$TMP/bsflowd.conf" <<EOC
collector "c" {
	address = 127.0.0.1
	port = 6343
}
polling_interval = 1
sampling {
	default = 4
}
backend = linux
linux {
	ports = "/^vx/"
	qdisc_poll_ms = 10
	tracepoint = off
	packet = $PKT
	bpf = $BPF
}
EOC
ms() {
	python3 -c 'import time; print(int(time.monotonic() * 1000))'
}
$X "$COLLECT" --strict -j -b 127.0.0.1 -p 6343 -t 14 >"$TMP/col.json" 2>"$TMP/col.err" &
cpid=$!
sleep 0.3
# T0 before bsflowd starts, DEL after vx1 is gone: the deletion is at
# most DEL ms into bsflowd's sysUpTime
T0=$(ms)
$X "$BSFLOWD" -d -f "$TMP/bsflowd.conf" --run-for 12 >"$TMP/bsflowd.log" 2>&1 &
dpid=$!
sleep 2
# the new port, its queue and its traffic, at once
$X ip link add vx2 type veth peer name py2 &&
	$X tc qdisc add dev vx2 root handle 1: tbf rate 1mbit burst 5kb limit 60000 &&
	$X ip link set vx2 up && $X ip link set py2 up &&
	$X ip addr add 10.77.2.1/24 dev vx2 &&
	$X ip neigh add 10.77.2.2 lladdr 02:00:00:00:77:02 dev vx2 nud permanent || exit 1
IFX2=$($X cat /sys/class/net/vx2/ifindex)
IFX0=$($X cat /sys/class/net/vx0/ifindex)
IFX1=$($X cat /sys/class/net/vx1/ifindex)
blast() {
	$X python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(int(sys.argv[1])):
    try:
        s.sendto(bytes(1000), ("10.77.2.2", 9))
    except OSError:
        pass
' "$1"
}
# the traffic once the backend has taken vx2 in (the bpf source is loaded
# again meanwhile, and the poller waits for it): at most 5 s
i=0
while ! grep -q 'linux: ports changed: added vx2' "$TMP/bsflowd.log" && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.2
blast 200
# a polling interval later, a few more (ifOutOctets grows between samples)
sleep 1.5
blast 20
# the tbf drains 60000 bytes at 1 Mbit/s in 0.5 s: then the count is final
sleep 1
TX=$($X cat /sys/class/net/vx2/statistics/tx_bytes)
PK="$($X cat /sys/class/net/vx2/statistics/tx_packets) $($X cat /sys/class/net/vx2/statistics/rx_packets)"
$X tc -s qdisc show dev vx2 >"$TMP/tc.txt"
sleep 0.5
$X ip link del vx1 || exit 1
DEL=$(($(ms) - T0))
bpf_e2e_wait
echo "vx0 ifindex $IFX0, vx1 $IFX1 (deleted by $DEL ms), vx2 $IFX2: tx_bytes $TX"
python3 "$HERE/e2e-linux-ports-check.py" "$TMP/col.json" "$TMP/bsflowd.log" "$IFX0" "$IFX1" \
	"$IFX2" "$TX" "$DEL" "$BPF" $PK || rc=1
[ "$rc" = 0 ] || {
	grep -E 'linux:|device changed' "$TMP/bsflowd.log"
	cat "$TMP/tc.txt"
}
exit $rc
