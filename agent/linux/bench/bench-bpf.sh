#!/bin/sh
# agent/linux/bench/bench-bpf.sh - the cost of the linux backend's bpf
# source on the data path: a veth pair in network namespaces this script
# creates, a tbf root at 10 Gbit/s on the sending side (so that packets go through a
# qdisc and its tracepoints: it never bypasses), a UDP blast for SECONDS (default 5) with
# bsflowd off, then with bsflowd running backend = linux, bpf = on,
# sampling 1-in-1000.  Prints the packets per second received in both
# runs and their ratio, the programs' own cost from the kernel's BPF
# statistics (kernel.bpf_stats_enabled: run time / runs of bsf_enqueue,
# bsf_dequeue, bsf_drop, i.e. ns added per packet), and the agent's CPU
# time.  Needs root, ip(8), tc(8), bpftool, python3 and a bsflowd built
# with BPF support (run from the build directory; not part of make check).
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${top_builddir:=.}"
SECS=${1:-5}
BSFLOWD="$top_builddir/agent/bsflowd"
HERE="$top_srcdir/agent/linux/tests"
[ "$(id -u)" = 0 ] || { echo "bench-bpf: needs root"; exit 1; }
A=bsfba$$
B=bsfbb$$
TMP=$(mktemp -d)
cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
	[ -n "$rpid" ] && kill "$rpid" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	[ -n "$stats_was" ] && sysctl -q kernel.bpf_stats_enabled="$stats_was"
	rm -rf "$TMP"
}
trap cleanup EXIT
ip netns add "$A" && ip netns add "$B" || exit 1
ip link add vA$$ type veth peer name vB$$ || exit 1
ip link set vA$$ netns "$A" && ip link set vB$$ netns "$B"
ip -n "$A" link set vA$$ name vA && ip -n "$B" link set vB$$ name vB
ip -n "$A" addr add 10.77.0.1/24 dev vA && ip -n "$B" addr add 10.77.0.2/24 dev vB
ip -n "$A" link set vA up && ip -n "$B" link set vB up
ip netns exec "$A" tc qdisc add dev vA root handle 1: tbf rate 10gbit burst 1mb limit 10mb || exit 1
ip netns exec "$B" python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("10.77.0.2", 5001))
while True:
    s.recv(2048)' &
rpid=$!
sleep 0.5
rx() { ip netns exec "$B" cat /sys/class/net/vB/statistics/rx_packets; }
blast() {
	r0=$(rx)
	ip netns exec "$A" python3 "$HERE/blast.py" 10.77.0.2 5001 "$SECS" 64 >/dev/null
	r1=$(rx)
	echo $(((r1 - r0) / SECS))
}
off=$(blast)
echo "bsflowd off: $off packets/s"
cat >"$TMP/c.conf" <<EOC
collector "c" {
	address = 127.0.0.1
	port = 6343
}
sampling {
	default = 1000
}
backend = linux
linux {
	ports = {"vA"}
	bpf = on
}
EOC
stats_was=$(sysctl -n kernel.bpf_stats_enabled)
sysctl -q kernel.bpf_stats_enabled=1
ip netns exec "$A" "$BSFLOWD" -d -f "$TMP/c.conf" >"$TMP/log" 2>&1 &
dpid=$!
sleep 1.5
grep -q 'linux: bpf on' "$TMP/log" || { cat "$TMP/log"; exit 1; }
cpu0=$(awk '{print $14 + $15}' /proc/$dpid/stat)
on=$(blast)
cpu1=$(awk '{print $14 + $15}' /proc/$dpid/stat)
echo "bsflowd on (bpf, sampling 1-in-1000): $on packets/s; ratio on/off $(echo "$on $off" |
	awk '{printf "%.3f", $1 / $2}')"
echo "  ns per packet from the throughputs: $(echo "$on $off" |
	awk '{printf "%.0f", 1e9 / $1 - 1e9 / $2}')"
bpftool -j prog show | python3 -c '
import json, sys
tot = 0.0
for p in json.load(sys.stdin):
    n = p.get("name", "")
    if n.startswith("bsf_") and p.get("run_cnt"):
        avg = p["run_time_ns"] / p["run_cnt"]
        print("  %s: %d runs, %.0f ns each" % (n, p["run_cnt"], avg))
        if n in ("bsf_enqueue", "bsf_dequeue"):
            tot += avg
print("  programs per packet (enqueue + dequeue): %.0f ns" % tot)'
echo "  agent CPU: $(echo "$cpu0 $cpu1 $SECS $(getconf CLK_TCK)" |
	awk '{printf "%.1f %%", ($2 - $1) / $4 / $3 * 100}') of one core during the blast"
