#!/bin/sh
# agent/linux/tests/e2e-linux-bpf-cn.sh - the bpf source counts every
# packet that leaves a watched queue: measured (its sojourn in the E:12
# histogram) or unmeasured, none silently.  A qdisc that takes a packet
# while dropping another (a head drop) returns NET_XMIT_CN, and the
# kernel's qdisc:qdisc_enqueue tracepoint shows only NET_XMIT_SUCCESS:
# such a packet has no enqueue record, and its dequeue must still count
# it: unmeasured, and in the port's sampling pool (the packets that left
# its watched queues).  In network namespaces this test creates: a veth
# pair with a tbf root at 5 Mbit/s on the sending side holding a
# pfifo_head_drop of 20 packets, sampled 1-in-10, overloaded 4 x for 3 s
# by a UDP sender (about three enqueues in four then drop the head).
# Asserts: the last 0:3 sample's sample_pool is at least the packets tbf
# sent (tc -s) less 100 (packets that left after that sample: the 20 a
# full queue drains, and a gap of 80 between two samples 1-in-10 has a
# chance of 0.9^80 = 0.02 %), some
# sojourns were measured, and measured plus unmeasured (bsflowd's exit
# status lines) are at least the packets sent (the packets dropped in the
# queue count unmeasured too); such packets are sampled too, without
# 0:1039 and 0:1040 (unknown), and every other sample has both.  Needs root, ip(8), tc(8), python3,
# netns, veth, tbf, pfifo_head_drop and a bsflowd built with BPF support
# on a kernel that loads it: otherwise SKIP (exit 77) saying why
# (bpf-e2e-lib.sh).
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/bpf-e2e-lib.sh"
bpf_e2e_need
bpf_e2e_pair bsfc 10.77.0
bpf_e2e_up
$X tc qdisc add dev vA root handle 1: tbf rate 5mbit burst 5000 limit 100000 2>"$TMP/err" ||
	bpf_skip "tbf not available: $(tail -n 1 "$TMP/err")"
$X tc qdisc add dev vA parent 1:1 handle 10: pfifo_head_drop limit 20 2>"$TMP/err" ||
	bpf_skip "pfifo_head_drop not available: $(tail -n 1 "$TMP/err")"

bpf_e2e_conf 'sampling {
	default = 10
}'
bpf_e2e_start 8
bpf_e2e_receiver 10.77.0.2 5001
sleep 1
# 2400 packets a second of 1042 bytes: 20 Mbit/s, 4 x the rate
$X python3 "$HERE/blast.py" 10.77.0.2 5001 3 1000 2400 >/dev/null
sleep 1
$X tc -s qdisc show dev vA >"$TMP/tc.txt"
bpf_e2e_wait
python3 - "$TMP/bsflowd.log" "$TMP/tc.txt" "$TMP/col.json" "$IFX" <<'EOP' || rc=1
import json
import re
import sys

log, tc = open(sys.argv[1]).read(), open(sys.argv[2]).read()
pool = nsmp = nunk = bad = 0
for line in open(sys.argv[3]):
    for smp in json.loads(line).get("samples", []):
        if smp.get("sampleType") == "FLOWSAMPLE" and smp.get("sourceId") == "0:" + sys.argv[4]:
            pool = max(pool, smp.get("samplePool", 0))
            tags = {e.get("flowBlock_tag"): e for e in smp.get("elements", [])}
            nsmp += 1
            if "0:1039" not in tags and "0:1040" not in tags:
                nunk += 1  # a packet with no enqueue record
            elif "0:1039" not in tags or "0:1040" not in tags or \
                    tags["0:1039"]["transit_delay_nS"] >= 0xFFFFFFFF:
                bad += 1
m = re.search(r"bpf vA queue 0 sojourn histogram \(ns\):(.*); (\d+) unmeasured", log)
s = re.search(r"qdisc tbf 1: .*\n\s*Sent \d+ bytes (\d+) pkt", tc)
if not m or not s:
    print("FAIL: no histogram line in the log or no tbf statistics")
    sys.exit(1)
measured = sum(int(n) for n in re.findall(r"2\^\d+:(\d+)", m.group(1)))
unmeasured, sent = int(m.group(2)), int(s.group(1))
print("tbf sent %d packets; the bpf source measured %d, counted %d unmeasured; "
      "sample pool %d; %d samples, %d without sojourn and depth" %
      (sent, measured, unmeasured, pool, nsmp, nunk))
rc = 0
if bad:
    print("FAIL: %d samples with only one of 0:1039 and 0:1040, or an unknown sojourn sent" % bad)
    rc = 1
if not nunk:
    print("FAIL: no sample of a packet without an enqueue record")
    rc = 1
if pool < sent - 100:
    print("FAIL: sample pool %d: %d packets left the queue uncounted" % (pool, sent - pool))
    rc = 1
if measured + unmeasured < sent:
    print("FAIL: %d measured and %d unmeasured of %d sent" % (measured, unmeasured, sent))
    rc = 1
if measured == 0:
    print("FAIL: no sojourn measured")
    rc = 1
sys.exit(rc)
EOP
[ "$rc" = 0 ] || {
	cat "$TMP/tc.txt"
	tail -n 20 "$TMP/bsflowd.log"
}
exit $rc
