#!/usr/bin/env python3
# agent/linux/tests/e2e-linux-ports-check.py - the assertions of
# e2e-linux-ports.sh on what bsflow-collect -j decoded while the linux
# backend's ports changed under it (vx2 added at 2 s, vx1 deleted later):
#   - counters samples of vx2's ifIndex arrive, its ifOutOctets grows and
#     the last equals the tx_bytes the kernel counted (all sent by then);
#   - vx2's 4413:2 queue percentage reaches 75 % in some sample (200 x
#     1000 bytes into a tbf limited to 60000 bytes: full, draining at
#     1 Mbit/s, so 75 % still 120 ms after the burst);
#   - vx0's counters samples run 1, 2, 3 ... without a gap across both
#     changes, and go on after the deletion;
#   - vx1 has samples before its deletion and none 2.5 s after it (its
#     counters cannot be read once it is gone; DEL_MS is an upper bound
#     of the deletion's time in bsflowd's sysUpTime, and a sample read
#     before it may leave in a datagram up to a polling interval later);
#   - vx2's flow samples: at 1 in 4 (its rate from sampling { default =
#     4 } though it appeared after open), as many as its packets / 4
#     within 4.5 binomial standard deviations (+2): the packets the
#     sampler sees, both directions (AF_PACKET) or those dequeued (bpf);
#   - the log says what changed (and with bpf: its object loaded again).
# Usage: e2e-linux-ports-check.py COLLECT.json BSFLOWD.log IFX0 IFX1 IFX2 TX_BYTES DEL_MS BPF
#        TX_PACKETS RX_PACKETS
#
# SPDX-License-Identifier: BSD-2-Clause
import json
import math
import sys

col, log = sys.argv[1], sys.argv[2]
ifx0, ifx1, ifx2, tx, del_ms = (int(a) for a in sys.argv[3:8])
bpf = sys.argv[8] == "on"
tx_pk, rx_pk = int(sys.argv[9]), int(sys.argv[10])
N = 4
rc = 0


def fail(msg):
    global rc
    print("FAIL: " + msg)
    rc = 1


ctr = {ifx0: [], ifx1: [], ifx2: []}  # (uptime, seq, 0:1 block)
pcs = []
flows, rates = 0, set()
for line in open(col):
    d = json.loads(line)
    for s in d.get("samples", []):
        if s.get("sampleType") == "FLOWSAMPLE" and s.get("sourceId") == "0:%d" % ifx2:
            flows += 1
            rates.add(s.get("meanSkipCount"))
        if s.get("sampleType") != "COUNTERSSAMPLE":
            continue
        for e in s.get("elements", []):
            t = e.get("counterBlock_tag")
            if t == "0:1" and e.get("ifIndex") in ctr:
                ctr[e["ifIndex"]].append((d["sysUpTime"], s["sampleSequenceNo"], e))
            if t == "4413:2" and s.get("sourceId") == "0:%d" % ifx2:
                pcs.append(max(e["bst_egress_queue_uc_pc"] or [-1]))
for k in ctr:
    ctr[k].sort(key=lambda x: x[0])

new = ctr[ifx2]
if len(new) < 3:
    fail("%d counters samples of the new port vx2 (ifIndex %d), 3 or more expected"
         % (len(new), ifx2))
else:
    outs = [e["ifOutOctets"] for _, _, e in new]
    print("vx2 ifOutOctets: %s; the kernel's tx_bytes %d" % (outs, tx))
    if outs != sorted(outs) or outs[-1] <= outs[0]:
        fail("vx2's ifOutOctets does not grow: %s" % outs)
    if outs[-1] != tx:
        fail("vx2's last ifOutOctets %d != tx_bytes %d" % (outs[-1], tx))
    if tx < 60000:
        fail("vx2 sent only %d bytes: the tbf let less than its limit through" % tx)
print("vx2 4413:2 queue percentages (1/100 %%): %s" % pcs)
if not pcs or max(pcs) < 7500:
    fail("vx2's queue peak %s < 7500 (75 %% of the tbf's limit)" % (max(pcs) if pcs else None))

pk = tx_pk if bpf else tx_pk + rx_pk
mean = pk / N
sd = math.sqrt(pk * (1.0 / N) * (1 - 1.0 / N))
print("vx2 flow samples %d at rates %s, packets %d / %d = %.1f (sd %.1f)"
      % (flows, sorted(rates), pk, N, mean, sd))
if rates != {N}:
    fail("vx2's flow samples at rates %s, %d expected" % (sorted(rates), N))
if abs(flows - mean) > 4.5 * sd + 2:
    fail("vx2's flow samples %d not within 4.5 sd of %.1f" % (flows, mean))

old = ctr[ifx0]
seqs = [q for _, q, _ in old]
print("vx0 counters sample sequence numbers: %s" % seqs)
if len(seqs) < 6 or seqs != list(range(seqs[0], seqs[0] + len(seqs))):
    fail("vx0's counters samples: a gap or too few (6 or more, consecutive)")
if not [u for u, _, _ in old if u > del_ms + 2500]:
    fail("no counters sample of vx0 after vx1's deletion")

gone = ctr[ifx1]
before = [u for u, _, _ in gone if u < del_ms]
late = [u for u, _, _ in gone if u > del_ms + 2500]
print("vx1 counters samples at %s ms (deleted by %d ms)" % ([u for u, _, _ in gone], del_ms))
if not before:
    fail("no counters sample of vx1 before its deletion")
if late:
    fail("vx1's counters samples go on after its deletion: %s" % late)

text = open(log).read()
for what in ("linux: ports changed: added vx2 (ifindex %d)" % ifx2,
             "linux: ports changed: removed vx1 (ifindex %d)" % ifx1):
    if what not in text:
        fail("the log does not say \"%s\"" % what)
if "reload bsflowd" in text:
    fail("the log asks for a reload")
if bpf and "linux: after the ports change: bpf on" not in text:
    fail("the log does not say the bpf source was loaded again on the new ports")
sys.exit(rc)
