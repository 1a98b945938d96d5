#!/bin/sh
# agent/linux/tests/e2e-linux-bpf-htb.sh - the bpf source on the leaves
# of a classful root, end to end in network namespaces this test creates:
# a veth pair with an htb root on the sending side and two leaves that
# cannot borrow (rate = ceil): 1:10 at 2 Mbit/s holding a bfifo of 30 000
# bytes (handle 10:), 1:20 at 6 Mbit/s (the default class) holding htb's
# default pfifo, limited by the device's tx_queue_len of 30 packets.
# bsflowd with backend = linux, bpf = on (the leaves found at the root's
# enqueue tracepoint by their tail), sampling 1-in-10, and
# bsflow-collect -j; two UDP senders overload both leaves for 4 s, the
# first with SO_PRIORITY 0x10010 (class 1:10), the second unclassified.
# Theory: a full leaf drains in its backlog / its rate, 30 000 x 8 / 2e6
# = 120 ms for 1:10, 30 x 1042 x 8 / 6e6 = 41.7 ms for 1:20 (1042-byte
# frames: 1000 bytes of UDP payload).  The assertions are in
# e2e-linux-bpf-htb-check.py.  Needs root, ip(8), tc(8), python3, netns,
# veth, htb and a bsflowd built with BPF support on a kernel that loads
# it: otherwise SKIP (exit 77) saying why (bpf-e2e-lib.sh).
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/bpf-e2e-lib.sh"
N=10
bpf_e2e_need
bpf_e2e_pair bsfh 10.79.0
ip -n "$A" link set vA txqueuelen 30 || exit 1
bpf_e2e_up
bpf_e2e_htb
$X tc qdisc add dev vA parent 1:10 handle 10: bfifo limit 30000 || exit 1

bpf_e2e_conf "sampling {
	default = $N
}"
bpf_e2e_start 12
bpf_e2e_receiver 10.79.0.2 5001 5002
sleep 2
# both senders on one CPU ($PIN): their leaves' drops do not overlap (see the
# check's drops)
# overload both leaves, 3.5 s .. 7.5 s after the daemon started: 1:10 at
# 1000 packets a second (8.3 Mbit/s, 4 x its rate), 1:20 at 3000 (25
# Mbit/s, 4 x its rate)
$X $PIN python3 "$HERE/blast.py" 10.79.0.2 5001 4 1000 1000 0x10010 >/dev/null &
s1=$!
$X $PIN python3 "$HERE/blast.py" 10.79.0.2 5002 4 1000 3000 >/dev/null
wait $s1
$X tc -s class show dev vA >"$TMP/tc.txt"
bpf_e2e_wait
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
