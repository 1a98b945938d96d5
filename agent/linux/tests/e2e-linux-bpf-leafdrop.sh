#!/bin/sh
# agent/linux/tests/e2e-linux-bpf-leafdrop.sh - the bpf source's drops on
# the leaves of a classful root name the leaf that dropped them, also
# when a leaf drops packets it had queued (a head drop: those have their
# enqueue's record, and the leaf's drop count counts them too), end to
# end in network namespaces this test creates: a veth pair with an htb
# root on the sending side and two leaves that cannot borrow: 1:10 at 2
# Mbit/s holding a pfifo_head_drop of 20 packets (it drops its oldest
# packet to take a new one), 1:20 at 6 Mbit/s (the default class) holding
# htb's default pfifo (it refuses the new packet), limited by the
# device's tx_queue_len of 30 packets.  Two UDP senders overload both
# leaves for 3 s (4 x their rates), the first with SO_PRIORITY 0x10010
# (class 1:10), on one CPU (a refused packet is paired with its leaf by
# the leaves' drop counts, exact when drops on the port's leaves do not
# overlap on several CPUs).  Asserts: every 0:5 of the first sender's
# packets (UDP port 5001) carries queue 0, of the second's (5002) queue
# 1, and there are some of both.  Needs root, ip(8), tc(8), python3,
# netns, veth, htb, pfifo_head_drop and a bsflowd built with BPF support
# on a kernel that loads it: otherwise SKIP (exit 77) saying why
# (bpf-e2e-lib.sh).
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/bpf-e2e-lib.sh"
bpf_e2e_need
bpf_e2e_pair bsfd 10.75.0
ip -n "$A" link set vA txqueuelen 30 || exit 1
bpf_e2e_up
bpf_e2e_htb
$X tc qdisc add dev vA parent 1:10 handle 10: pfifo_head_drop limit 20 2>"$TMP/err" ||
	bpf_skip "pfifo_head_drop not available: $(tail -n 1 "$TMP/err")"

bpf_e2e_conf 'drops {
	limit = 1000000
}'
bpf_e2e_start 9
bpf_e2e_receiver 10.75.0.2 5001 5002
sleep 1
$X $PIN python3 "$HERE/blast.py" 10.75.0.2 5001 3 1000 1000 0x10010 >/dev/null &
s1=$!
$X $PIN python3 "$HERE/blast.py" 10.75.0.2 5002 3 1000 3000 >/dev/null
wait $s1
$X tc -s qdisc show dev vA >"$TMP/tc.txt"
bpf_e2e_wait
grep -q 'bpf on 2 queues, leaves of classful roots among them' "$TMP/bsflowd.log" || {
	echo "FAIL: the bpf source does not watch the htb leaves"
	grep 'linux:' "$TMP/bsflowd.log"
	rc=1
}
python3 - "$TMP/col.json" "$IFX" <<'EOP' || rc=1
import json
import sys

col, ifx = sys.argv[1], int(sys.argv[2])


def find(elems, key):
    for e in elems:
        for k, v in e.items():
            if k.endswith(key):
                return v
    return None


seen = {5001: 0, 5002: 0}
wrong = {5001: 0, 5002: 0}
for line in open(col):
    for s in json.loads(line).get("samples", []):
        if s.get("sampleType") != "DISCARD":
            continue
        el = s.get("elements", [])
        port = find(el, "UDPDstPort")
        if port not in seen:
            continue
        seen[port] += 1
        q = find(el, "egress_queue_id")
        if q != port - 5001 or s.get("outputPort") != ifx:
            wrong[port] += 1
            if wrong[port] <= 3:
                print("FAIL: a drop of UDP port %d: queue %s, output %s; %d, %d expected" %
                      (port, q, s.get("outputPort"), port - 5001, ifx))
print("0:5 drops of the head-drop leaf's / the pfifo leaf's sender: %d / %d; "
      "with another queue: %d / %d" % (seen[5001], seen[5002], wrong[5001], wrong[5002]))
rc = 0
if not seen[5001] or not seen[5002]:
    print("FAIL: no 0:5 drop of one of the senders")
    rc = 1
sys.exit(1 if rc or wrong[5001] or wrong[5002] else 0)
EOP
[ "$rc" = 0 ] || {
	cat "$TMP/tc.txt"
	tail -n 20 "$TMP/bsflowd.log"
}
exit $rc
