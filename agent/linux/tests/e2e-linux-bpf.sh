#!/bin/sh
# agent/linux/tests/e2e-linux-bpf.sh - the linux backend's bpf source end
# to end in network namespaces this test creates: a veth pair with a tbf
# root (5 Mbit/s, limit 30 000 bytes) on the sending side, bsflowd with
# backend = linux and `bpf = on` on that port, bsflow-collect -j in the
# same namespace, a UDP sender overloading the shaper for 4 s, then a
# paced sender at ~0.8 Mbit/s for 3 s; drop notifications limited to
# 50 a second (drops { limit }), which the kernel's drop reports follow.
# Theory: a full queue of 30 000 bytes drains in 30 000 x 8 / 5e6 = 48
# ms.  The assertions are in e2e-linux-bpf-check.py.  Needs root, ip(8),
# tc(8), python3, netns, veth, tbf and a bsflowd built with BPF support
# on a kernel that loads it: otherwise SKIP (exit 77) saying why
# (bpf-e2e-lib.sh).
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/bpf-e2e-lib.sh"
N=10
LIMIT=50 # drop notifications a second: the kernel's reports too
bpf_e2e_need
bpf_e2e_pair bsfp 10.78.0
bpf_e2e_up
$X tc qdisc add dev vA root handle 1: tbf rate 5mbit burst 5000 limit 30000 2>"$TMP/err" ||
	bpf_skip "tbf not available: $(tail -n 1 "$TMP/err")"
sent() {
	$X tc -s qdisc show dev vA | sed -n 's/^ Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' | head -n 1
}
SENT0=$(sent)

bpf_e2e_conf "sampling {
	default = $N
}
drops {
	limit = $LIMIT
}"
bpf_e2e_start 14
bpf_e2e_receiver 10.78.0.2 5001
sleep 2
# overload: 3.5 s .. 7.5 s after the daemon started; then paced 8.5 .. 11.5 s
$X python3 "$HERE/blast.py" 10.78.0.2 5001 4 1000 >/dev/null
sleep 1
$X python3 "$HERE/slow.py" 10.78.0.2 5001 3 1000 10 >/dev/null
$X tc -s qdisc show dev vA >"$TMP/tc.txt"
SENT=$(sed -n 's/^ Sent [0-9]* bytes \([0-9]*\) pkt.*/\1/p' "$TMP/tc.txt" | head -n 1)
TCDROPS=$(sed -n 's/^ Sent .* (dropped \([0-9]*\),.*/\1/p' "$TMP/tc.txt" | head -n 1)
bpf_e2e_wait
grep 'linux:' "$TMP/bsflowd.log"
python3 "$HERE/e2e-linux-bpf-check.py" "$TMP/col.json" "$IFX" 30000 5000000 3500 7500 8500 11500 \
	$N "$((${SENT:-0} - ${SENT0:-0}))" "${TCDROPS:-0}" "$TMP/bsflowd.log" $LIMIT 4 ||
	rc=1
[ "$rc" = 0 ] || tail -n 20 "$TMP/bsflowd.log"
exit $rc
