#!/usr/bin/env python3
# agent/linux/tests/e2e-linux-bpf-htb-check.py - the assertions of
# e2e-linux-bpf-htb.sh on what bsflow-collect -j decoded.  The port has two
# queues, the htb leaves in classid order: queue 0 = 1:10 (2 Mbit/s, a
# bfifo of 30 000 bytes), queue 1 = 1:20 (6 Mbit/s, a pfifo of 30
# packets of 1042 bytes).  A leaf drains at its own rate, so a packet that
# met B bytes ahead of it in its leaf leaves after B x 8 / rate (within
# one packet's time: htb sends the head when the class's tokens allow),
# and a full leaf drains in limit x 8 / rate: 120 ms and 41.7 ms.
#   - overload (counter samples in [START + 1000, END] ms of uptime):
#     each leaf's exact peak (4413:2) reaches >= 95 % of its own limit
#     (bytes for the bfifo, packets for the pfifo); its max sojourn (own
#     E:3) reaches >= 90 % of its drain time and exceeds it by more than
#     10 % + one packet + 2 ms in one counter sample at most (a stall of
#     this shared machine delays every packet of its time);
#   - packet samples (1-in-10 at the root's dequeue, with the leaf's queue,
#     depth met and sojourn): at least 20 per leaf; each one's sojourn
#     at least its depth x 8 / its leaf's rate less one packet time, 2 ms
#     and 10 %, and at most that plus the same (all but 5 % of them: a
#     stall of the machine only delays); the largest per leaf >= 80 % of
#     the leaf's drain time (the rates differ by 3: packets credited to the
#     wrong leaf fail);
#   - drops: 0:5 of the first sender's packets (UDP port 5001) carry queue
#     0, of the second's (5002) queue 1, output ifIndex the port, reason
#     259 (the senders run on one CPU: a leaf's drop is paired with its
#     kfree_skb by the leaf's drop count, exact when drops on the port's
#     leaves do not overlap on several CPUs);
#   - own E:12 sojourn histograms: both queues, each one's highest
#     non-empty bucket the one holding its drain time (2^b <= t < 2^(b+1)
#     ns) or the next (the 10 % margin).
# Usage: e2e-linux-bpf-htb-check.py COLLECT.json IFINDEX START END
#
# SPDX-License-Identifier: BSD-2-Clause
import json
import math
import sys

col, ifx, t0, t1 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
FRAME = 1042
RATE = [2e6, 6e6]
LIMIT = [30000, 30 * FRAME]
DRAIN = [LIMIT[q] * 8 / RATE[q] for q in (0, 1)]
PKT = [FRAME * 8 / RATE[q] for q in (0, 1)]
rc = 0


def fail(msg):
    global rc
    print("FAIL: " + msg)
    rc = 1


pcs = {0: [], 1: []}
dmax = {0: [], 1: []}
hist = {}
flows = []
drops = []
for line in open(col):
    d = json.loads(line)
    up = d["sysUpTime"]
    for s in d.get("samples", []):
        el = s.get("elements", [])
        if s.get("sampleType") == "DISCARD":
            drops.append((s, el))
            continue
        if s.get("sourceId") != "0:%d" % ifx:
            continue
        if s.get("sampleType") == "FLOWSAMPLE":
            flows.append({e.get("flowBlock_tag"): e for e in el})
            continue
        for e in el:
            if e.get("counterBlock_tag") == "4413:2":
                for q in (0, 1):
                    pcs[q].append((up, e["bst_egress_queue_uc_pc"][q]))
            if e.get("bsf_delay_uc_count", 0) >= 2:
                for q in (0, 1):
                    n = e["bsf_delay_uc_%d_measurements" % q]
                    if n and n != 0xFFFFFFFF:  # all ones: nothing measured yet
                        dmax[q].append((up, e["bsf_delay_uc_%d_max_ns" % q]))
            if e.get("bsf_record") == "sojourn_histograms":
                for i in range(e["bsf_sojourn_count"]):
                    first, n = e["bsf_sojourn_%d_first" % i], e["bsf_sojourn_%d_buckets" % i]
                    hist[e["bsf_sojourn_%d_queue" % i]] = {
                        b: e["bsf_sojourn_%d_bucket_%d" % (i, b)] for b in range(first, first + n)}

for q in (0, 1):
    print("leaf %d: drains in %.1f ms, a packet takes %.2f ms" % (q, DRAIN[q] * 1e3, PKT[q] * 1e3))
    peak = max((pc for up, pc in pcs[q] if t0 <= up <= t1 + 1000), default=-1)
    print("leaf %d: peak %.2f %% of its limit" % (q, peak / 100.0))
    if peak < 9500:
        fail("leaf %d: peak %.2f %% < 95 %% of its limit under overload" % (q, peak / 100.0))
    over = [m for up, m in dmax[q] if t0 + 1000 <= up <= t1]
    mx = max(over, default=-1)
    bound = DRAIN[q] * 1.1 + PKT[q] + 2e-3
    print("leaf %d: max sojourn per counter sample (ms): %s" %
          (q, [round(m / 1e6, 1) for m in over]))
    if mx < 0.9 * DRAIN[q] * 1e9:
        fail("leaf %d: max sojourn %.1f ms < 90 %% of %.1f ms" % (q, mx / 1e6, DRAIN[q] * 1e3))
    # a stall of this shared machine (a CPU kept from the qdisc's softirq
    # for tens of ms) lengthens every sojourn of its time: one window may
    # show it, more fail
    high = [(up, m) for up, m in dmax[q] if m > bound * 1e9]
    for up, m in high:
        msg = "leaf %d: sojourn %.1f ms at %d ms > %.1f ms" % (q, m / 1e6, up, bound * 1e3)
        if len(high) > 1:
            fail(msg)
        else:
            print("note: %s (one window: a stall of the machine)" % msg)

per = {0: [], 1: []}
for i, f in enumerate(flows):
    if not all(t in f for t in ("0:1036", "0:1039", "0:1040")):
        fail("packet sample %d lacks 0:1036, 0:1039 or 0:1040" % i)
        continue
    q = f["0:1036"]["egress_queue_id"]
    if q not in per:
        fail("packet sample %d: queue %s" % (i, q))
        continue
    per[q].append((f["0:1040"]["queue_depth_bytes"], f["0:1039"]["transit_delay_nS"] / 1e9,
                   f.get("0:1", {}).get("UDPDstPort")))
for q in (0, 1):
    s = per[q]
    print("leaf %d: %d packet samples, largest sojourn %.1f ms" %
          (q, len(s), max((t for b, t, p in s), default=0) * 1e3))
    if len(s) < 20:
        fail("leaf %d: %d packet samples, at least 20 expected" % (q, len(s)))
        continue
    # a packet never leaves sooner than its depth allows (every sample);
    # a stall of the machine only delays (at most 5 % of the samples)
    late = []
    for depth, t, port in s:
        want = depth * 8 / RATE[q]
        tol = PKT[q] + 2e-3 + 0.1 * want
        if t < want - tol:
            fail("leaf %d: a packet that met %d bytes stayed %.2f ms, %.2f ms expected" %
                 (q, depth, t * 1e3, want * 1e3))
        elif t > want + tol:
            late.append("met %d bytes, stayed %.2f ms, %.2f ms expected" %
                        (depth, t * 1e3, want * 1e3))
    if late:
        msg = "leaf %d: %d of %d packet samples late (%s)" % (q, len(late), len(s),
                                                              "; ".join(late[:3]))
        if len(late) > 0.05 * len(s):
            fail(msg)
        else:
            print("note: %s: at most 5 %%, a stall of the machine" % msg)
        if port is not None and port != 5001 + q:  # (None: ARP, in the default class)
            fail("leaf %d: a sample of UDP port %s" % (q, port))
    if max(t for b, t, p in s) < 0.8 * DRAIN[q]:
        fail("leaf %d: largest sampled sojourn < 80 %% of %.1f ms" % (q, DRAIN[q] * 1e3))


def find(elems, key):
    for e in elems:
        for k, v in e.items():
            if k.endswith(key):
                return v
    return None


seen = {0: 0, 1: 0}
wrong = 0
for d, el in drops:
    port = find(el, "UDPDstPort")
    if port not in (5001, 5002):
        continue
    q = port - 5001
    seen[q] += 1
    if find(el, "egress_queue_id") != q or d.get("outputPort") != ifx or \
            d.get("discardCode") != 259:
        wrong += 1
        if wrong <= 3:
            fail("drop of UDP port %d: queue %s, output %s, reason %s; %d, %d, 259 expected" %
                 (port, find(el, "egress_queue_id"), d.get("outputPort"), d.get("discardCode"),
                  q, ifx))
print("0:5 drops of leaf 0's / leaf 1's senders: %d / %d, %d with another queue" %
      (seen[0], seen[1], wrong))
if not seen[0] or not seen[1]:
    fail("no 0:5 drop of one of the senders")

for q in (0, 1):
    h = hist.get(q)
    if not h:
        fail("no E:12 sojourn histogram of queue %d" % q)
        continue
    top = max(b for b, n in h.items() if n)
    want = int(math.floor(math.log2(DRAIN[q] * 1e9)))
    print("leaf %d: histogram %s; top bucket %d, its drain time's %d" %
          (q, {b: n for b, n in h.items() if n}, top, want))
    if top not in (want, want + 1):
        fail("leaf %d: top histogram bucket %d, %d expected" % (q, top, want))
sys.exit(rc)
