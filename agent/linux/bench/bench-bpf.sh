#!/bin/sh
# agent/linux/bench/bench-bpf.sh - the cost of the linux backend's bpf
# source, in network namespaces this script creates: a veth pair, a tbf
# root on the sending side (so that every packet goes through a qdisc and
# its tracepoints: a tbf never bypasses), and udpblast (a C sendmmsg
# sender and receiver, built with it) sending 64-byte UDP datagrams.
#
# 1. Data path: a blast as fast as udpblast can for SECONDS (default 5)
#    through a tbf at 10 Gbit/s, with bsflowd off, then with bsflowd
#    running backend = linux, bpf = on, sampling 1-in-1000 (peaks,
#    sojourns, samples, drops on): the packets a second received in both
#    runs and their ratio, and the programs' cost from the kernel's BPF
#    statistics (kernel.bpf_stats_enabled): run time / runs of each
#    program, and per packet, the enqueue and dequeue programs' time (the
#    dequeue program also runs for empty dequeues), as measured and less
#    what the same statistics count for no-op programs on the same
#    tracepoints (bpfnop, run alongside): the tracepoint's call and the
#    statistics' own cost, which are not the programs' work.
# 2. The agent's CPU under traffic with a drop storm: an htb root with a
#    leaf at 10 Gbit/s (the traffic: udpblast paced at 900 000 packets a
#    second, or the most the data path run reached here, if less) and a
#    leaf at 1 Mbit/s with a pfifo of 100 packets, into which a second
#    udpblast (SO_PRIORITY of that class) sends 100 000 packets a second:
#    a drop storm of about 100 000 a second on the port; sampling
#    1-in-1000.  The agent's CPU time (utime + stime of bsflowd) over
#    SECONDS, the packet and drop rates reached, and the programs' CPU;
#    once with the default drop limit (100 reports a second reach the
#    agent), once with drops { limit = 100000 } (every drop reaches it).
#
# Needs root, ip(8), tc(8), bpftool and a bsflowd built with BPF support;
# otherwise says why and exits 0 (it runs in make bench).  From the build
# directory, or with top_builddir and top_srcdir set; BSFLOWD=path
# measures another build's daemon.
#
# SPDX-License-Identifier: BSD-2-Clause
BPF_SKIP_RC=0 # in make bench: say why, and go on
. "$(dirname "$0")/../tests/bpf-e2e-lib.sh"
SECS=${1:-5}
BLAST="$top_builddir/agent/linux/bench/udpblast"
NOP="$top_builddir/agent/linux/bench/bpfnop"
SIZE=64
BPFTOOL=$(command -v bpftool || ls /usr/sbin/bpftool 2>/dev/null)
[ -n "$BPFTOOL" ] || bpf_skip "bench-bpf: no bpftool"
bpf_e2e_need
[ -x "$BLAST" ] && [ -x "$NOP" ] || {
	echo "bench-bpf: $BLAST or $NOP not built"
	exit 1
}
bpf_e2e_pair bsfb 10.77.0
bench_cleanup() {
	[ -n "$npid" ] && kill "$npid" 2>/dev/null
	[ -n "$stats_was" ] && sysctl -q kernel.bpf_stats_enabled="$stats_was"
	bpf_e2e_cleanup
}
trap bench_cleanup EXIT
bpf_e2e_up
tbf() { $X tc qdisc replace dev vA root handle 1: tbf rate "$1" burst "$2" limit "$3"; }
tbf 10gbit 1mb 10mb || exit 1
ip netns exec "$B" "$BLAST" -l 10.77.0.2 5001 &
rpid=$!
sleep 0.5
rx() { ip netns exec "$B" cat /sys/class/net/vB/statistics/rx_packets; }
drops() { $X tc -s qdisc show dev vA | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -n 1; }
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
# blast [PPS]: "RX_PPS DROP_PPS SENDER_PPS"
blast() {
	r0=$(rx)
	d0=$(drops)
	s=$($X "$BLAST" 10.77.0.2 5001 "$SECS" $SIZE $1 | awk '{print $2}')
	r1=$(rx)
	d1=$(drops)
	echo "$(((r1 - r0) / SECS)) $(((d1 - d0) / SECS)) $s"
}
daemon() {
	cat >"$TMP/c.conf" <<EOC
collector "c" {
	address = 127.0.0.1
	port = 6343
}
sampling {
	default = 1000
}
drops {
	limit = $1
}
backend = linux
linux {
	ports = {"vA"}
	bpf = on
	packet = off
	tracepoint = off
}
EOC
	$X "$BSFLOWD" -d -f "$TMP/c.conf" >"$TMP/log" 2>&1 &
	dpid=$!
	i=0
	until grep -q 'linux: bpf on' "$TMP/log"; do
		i=$((i + 1))
		[ $i -gt 100 ] && {
			cat "$TMP/log"
			exit 1
		}
		sleep 0.05
	done
}
stop() {
	kill "$dpid"
	wait "$dpid" 2>/dev/null
	dpid=
}
# the programs' run time and runs: "NAME TIME_NS RUNS" lines
progs() {
	"$BPFTOOL" -j prog show | python3 -c '
import json, sys
for p in json.load(sys.stdin):
    if p.get("name", "").startswith(("bsf_", "bench_nop_")):
        print(p["name"], p.get("run_time_ns", 0), p.get("run_cnt", 0))'
}
stats_was=$(sysctl -n kernel.bpf_stats_enabled)

echo "== data path: 64-byte UDP through a tbf at 10 Gbit/s, $SECS s a run"
set -- $(blast)
off=$1
echo "bsflowd off: $off packets/s received (udpblast sent $3/s)"
sysctl -q kernel.bpf_stats_enabled=1
daemon 100
"$NOP" >"$TMP/nop" &
npid=$!
sleep 0.3
progs >"$TMP/p0"
set -- $(blast)
on=$1
progs >"$TMP/p1"
sysctl -q kernel.bpf_stats_enabled=0
kill "$npid"
npid=
stop
echo "bsflowd on (bpf, sampling 1-in-1000): $on packets/s received; ratio on/off $(echo "$on $off" |
	awk '{printf "%.3f", $1 / $2}')"
echo "  ns per packet from the throughputs: $(echo "$on $off" | awk '{printf "%.0f", 1e9 / $1 - 1e9 / $2}')"
python3 - "$TMP/p0" "$TMP/p1" "$on" "$SECS" <<'EOF'
import sys
a = {l.split()[0]: list(map(int, l.split()[1:])) for l in open(sys.argv[1])}
b = {l.split()[0]: list(map(int, l.split()[1:])) for l in open(sys.argv[2])}
pkts = float(sys.argv[3]) * float(sys.argv[4])
d = {}
for n in sorted(b):
    t = b[n][0] - a.get(n, [0, 0])[0]
    r = b[n][1] - a.get(n, [0, 0])[1]
    d[n] = (t, r)
    if r:
        print("  %s: %d runs, %.0f ns each" % (n, r, t / r))
per = own = 0.0
for n, nop in (("bsf_enqueue", "bench_nop_enq"), ("bsf_dequeue", "bench_nop_deq")):
    t, r = d.get(n, (0, 0))
    nt, nr = d.get(nop, (0, 0))
    per += t / pkts if pkts else 0
    own += (t - r * (nt / nr if nr else 0)) / pkts if pkts else 0
print("  enqueue + dequeue programs per packet: %.0f ns as measured, %.0f ns less the no-op "
      "programs' (the tracepoints' calls and the statistics)" % (per, own))
EOF

echo "== agent CPU: traffic with a drop storm, sampling 1-in-1000, $SECS s a run"
want=900000
[ "$off" -lt "$want" ] && want=$off
$X tc qdisc del dev vA root
$X tc qdisc add dev vA root handle 1: htb default 10 &&
	$X tc class add dev vA parent 1: classid 1:10 htb rate 10gbit quantum 60000 &&
	$X tc class add dev vA parent 1: classid 1:20 htb rate 1mbit &&
	$X tc qdisc add dev vA parent 1:20 handle 20: pfifo limit 100 || exit 1
for limit in 100 100000; do
	sysctl -q kernel.bpf_stats_enabled=1
	daemon $limit
	sleep 0.5
	progs >"$TMP/p0"
	c0=$(cpu "$dpid")
	$X "$BLAST" 10.77.0.2 5001 "$SECS" $SIZE 100000 0x10020 >"$TMP/storm" &
	spid=$!
	set -- $(blast $want)
	wait $spid
	spid=
	c1=$(cpu "$dpid")
	progs >"$TMP/p1"
	sysctl -q kernel.bpf_stats_enabled=0
	kill -USR1 "$dpid"
	sleep 0.3
	stop
	ev=$(sed -n 's/.*status: bpf: [0-9]* samples read, \([0-9]*\) drop events.*/\1/p' "$TMP/log" | tail -n 1)
	echo "drops limit $limit: traffic offered $3/s (target $want), storm offered" \
		"$(awk '{print $2}' "$TMP/storm")/s (target 100000); received $1/s, dropped $2/s;" \
		"drop events read by the agent: ${ev:-?} in all"
	echo "  agent CPU: $(echo "$c0 $c1 $SECS $hz" | awk '{printf "%.1f %%", ($2 - $1) / $4 / $3 * 100}') of one core"
	python3 - "$TMP/p0" "$TMP/p1" "$SECS" <<'EOF'
import sys
a = {l.split()[0]: list(map(int, l.split()[1:])) for l in open(sys.argv[1])}
b = {l.split()[0]: list(map(int, l.split()[1:])) for l in open(sys.argv[2])}
bsf = sorted(n for n in b if n.startswith("bsf_"))
tot = sum(b[n][0] - a.get(n, [0, 0])[0] for n in bsf)
print("  bpf programs: %.1f %% of one core (%s)" % (tot / float(sys.argv[3]) / 1e7, ", ".join(
    "%s %.0f ns x %d" % (n, (b[n][0] - a.get(n, [0, 0])[0]) / max(1, b[n][1] - a.get(n, [0, 0])[1]),
                         b[n][1] - a.get(n, [0, 0])[1]) for n in bsf)))
EOF
done
