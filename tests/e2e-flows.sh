#!/bin/sh
# tests/e2e-flows.sh - packet sampling end to end: bsflowd
# with the built-in model, received by bsflow-collect --strict -j -w.
# Scenario (4 ports; 0-2 at 10G, 3 at 1G; the sampling section below):
#   - port 1 sends N packets (64..1518 bytes, TCP, Poisson at 50 %) to
#     port 0; port 1 is sampled 1-in-100 (its `port` setting);
#   - port 0 sends multicast (group 1 = ports 2 and 3), sampled 1-in-10
#     (the `10G` setting);
#   - port 3 (1G) sends UDP to port 2, sampled 1-in-7 (`default`).
# Checks (e2e-flows-check.py flows): the rate of each data source follows
# the precedence port > speed > default; samples x 100 within 5 % of N
# and ifInUcastPkts = N; samplePool never goes back, is at most N and
# ends within 1000 of N; sequence numbers 1, 2, ... per data source;
# every sample has 0:1 (128 header bytes or the frame less its FCS),
# 0:1001, 0:1039, 0:1043, unicast ones 0:1036, 4413:1 on queue 0, 0:1040
# and their output port, multicast ones output "multiple 2" (the group's
# two ports) and no queue record (no 0:1040 either); transit at least the
# serialization time.  Then tshark reads the -w file and must show every
# packet with its Ethernet, IPv4 and TCP or UDP headers, none malformed or
# cut short, and the summary counts samples by output port and queue.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
e2e_init flows
E2E_INTERVAL=1
N=1000000
E2E_MODEL="sampling {
	default = 7
	10G = 10
	port \"port1\" {
		rate = 100
	}
}
model {
	seed = 5
	ports = 4
	speed = 10G
	cell_size = 256
	buffer = 4M
	unicast_queues = 8
	multicast_queues = 8
	queue_min = 0
	port 3 {
		speed = 1G
	}
	mc_group 1 {
		ports = {2, 3}
	}
	traffic main {
		ports = {1}
		destination = fixed
		to = 0
		rate = 50%
		arrival = poisson
		size = 64-1518
		dscp = 0
		flows = 16
		protocol = tcp
		packets = $N
	}
	traffic mc {
		ports = {0}
		rate = 1%
		size = 512
		dscp = 0
		multicast = 1
		mc_group = 1
		packets = 5000
	}
	traffic slow {
		ports = {3}
		destination = fixed
		to = 2
		rate = 10%
		size = 1000
		dscp = 0
		protocol = udp
		packets = 2000
	}
}"

e2e_collect col --strict -j -b 127.0.0.1 -w "$TMP/flows.pcap"
e2e_conf "$TMP/bsflowd.conf" "127.0.0.1:$cport"
# until port 1 (ifIndex 2) received all N packets: the model may run
# seconds behind the wall clock under sanitizers and load
e2e_daemon bsflowd "$TMP/bsflowd.conf" 100
e2e_until bsflowd "$TMP/col.out" 2 ifInUcastPkts $N
sleep 0.3
e2e_stop $cpid
if [ "$st" != 0 ]; then
	fail "bsflow-collect --strict exited $st"
	tail -n 5 "$TMP/col.err"
fi
python3 "$top_srcdir/tests/e2e-flows-check.py" flows "$TMP/col.out" $N || rc=1

# the summary: samples by output port and queue, headers written
nflow=$(sed -n 's/^samples\.0:3 //p' "$TMP/col.err")
nw=$(sed -n 's/^pcapPacketsWritten //p' "$TMP/col.err")
n10=$(sed -n 's/^flowSamples\.outputPort\.1\.queue\.0 //p' "$TMP/col.err")
nmc=$(sed -n 's/^flowSamples\.outputPort\.-\.queue\.- //p' "$TMP/col.err")
echo "summary: $nflow flow samples, $nw headers written, $n10 to port 1 queue 0, $nmc multicast"
[ -n "$nflow" ] && [ "$nflow" = "$nw" ] || fail "pcapPacketsWritten $nw, flow samples $nflow"
[ -n "$n10" ] && [ "$n10" -gt 9000 ] || fail "flowSamples.outputPort.1.queue.0 = $n10"
[ -n "$nmc" ] && [ "$nmc" -gt 0 ] || fail "no multicast flow samples in the summary"

# tshark opens the -w file and decodes the synthesized headers
if [ -n "$TSHARK" ] && [ -x "$TSHARK" ] || command -v "${TSHARK:-tshark}" >/dev/null 2>&1; then
	TS=${TSHARK:-tshark}
	"$TS" -r "$TMP/flows.pcap" -V >"$TMP/tshark.txt" 2>"$TMP/tshark.err" ||
		fail "tshark cannot read the -w file: $(head -n 3 "$TMP/tshark.err")"
	frames=$(grep -c '^Frame [0-9]' "$TMP/tshark.txt")
	eth=$(grep -c '^Ethernet II' "$TMP/tshark.txt")
	ip=$(grep -c '^Internet Protocol Version 4' "$TMP/tshark.txt")
	tcp=$(grep -c '^Transmission Control Protocol' "$TMP/tshark.txt")
	udp=$(grep -c '^User Datagram Protocol' "$TMP/tshark.txt")
	echo "tshark: $frames frames, $eth Ethernet, $ip IPv4, $tcp TCP, $udp UDP"
	[ "$frames" = "$nw" ] || fail "tshark read $frames frames, $nw written"
	[ "$eth" = "$frames" ] && [ "$ip" = "$frames" ] ||
		fail "tshark: $eth Ethernet / $ip IPv4 headers in $frames frames"
	[ "$tcp" -gt 9000 ] || fail "tshark: only $tcp TCP headers"
	[ "$udp" -gt 0 ] || fail "tshark: no UDP header"
	[ $((tcp + udp)) = "$frames" ] || fail "tshark: $tcp TCP + $udp UDP != $frames frames"
	# a sampled header is the frame's first bytes, payload included: no
	# length field points past them (header_bytes or the whole frame)
	bad=$(grep -c -i 'malformed\|bogus\|exceeds\|\[Packet size limited' "$TMP/tshark.txt")
	[ "$bad" = 0 ] || fail "tshark: $bad malformed or truncated headers: $(grep -i -m 2 'malformed\|bogus\|exceeds\|\[Packet size limited' "$TMP/tshark.txt")"
else
	echo "tshark not installed: pcap check skipped"
fi
e2e_finish
