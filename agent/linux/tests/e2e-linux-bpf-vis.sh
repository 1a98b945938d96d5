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
# with BPF support on a kernel that loads it: otherwise SKIP (exit 77)
# saying why (bpf-e2e-lib.sh).
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/bpf-e2e-lib.sh"
bpf_e2e_need
bpf_e2e_pair bsfv 10.80.0
bpf_e2e_up
$X tc qdisc add dev vA root handle 1: tbf rate 5mbit burst 5000 limit 30000 2>"$TMP/err" ||
	bpf_skip "tbf not available: $(tail -n 1 "$TMP/err")"

bpf_e2e_conf 'visibility {
	forensics = yes
	delay_profile d {
		thresholds = {20ms}
	}
	congestion q {
		high = 20000
		low = 5000
	}
	default_rate = 1000
}'
bpf_e2e_start 10
bpf_e2e_receiver 10.80.0.2 5001
sleep 1
# two bursts of 1.5 s at 4 x the shaper's rate, 1 s apart
$X python3 "$HERE/blast.py" 10.80.0.2 5001 1.5 1000 2400 >/dev/null
sleep 1
$X python3 "$HERE/blast.py" 10.80.0.2 5001 1.5 1000 2400 >/dev/null
sleep 0.3 # the queue drains in 48 ms
$X tc -s qdisc show dev vA >"$TMP/tc.txt"
SENT=$(sed -n 's/^ Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' "$TMP/tc.txt" | head -n 1)
bpf_e2e_wait
grep 'visibility' "$TMP/bsflowd.log"
python3 "$HERE/e2e-linux-bpf-vis-check.py" "$TMP/col.json" "$IFX" "${SENT:-0}" \
	"$TMP/bsflowd.log" || rc=1
[ "$rc" = 0 ] || tail -n 20 "$TMP/bsflowd.log"
exit $rc
