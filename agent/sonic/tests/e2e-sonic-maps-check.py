#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""e2e-sonic-maps-check.py - checks what bsflow-collect -j received in
e2e-sonic-maps.sh (two runs of bsflowd, "notified" and "polled", each with
a breakout: ifIndex 32 leaves, 33 comes) against the fixture's numbers
(sonic_fixture.py), not bsflowd's code.

usage: e2e-sonic-maps-check.py COLLECT_OUT EVENTS NOTIFIED_LOG POLLED_LOG

Per run (receive time in whole seconds: 1 s margins):
  - every data source's sequence numbers go on without a gap, the staying
    ports' across the breakout too;
  - before the breakout, ifIndexes 1..32 only; from SETTLE seconds after
    it, 33 and not 32 (notified: only the keyspace notifications can bring
    it, the maps are re-read every hour; polled: every 2 s);
  - every port's counters are the fixture's phase 0 values (unknown only
    before its first poll), ifIndex 33's those of the fixture's port 32
    with its 8 + 8 queues and their drops; its first sequence number is 1;
  - bsflowd logged the change, and how it learnt of it.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sonic_fixture as f  # noqa: E402

U32, U64 = 2**32 - 1, 2**64 - 1
SETTLE = {"notified": 3, "polled": 5}
RUNS = ("notified", "polled")
errors = []


def err(msg):
    if len(errors) < 40:
        print("FAIL: " + msg)
    errors.append(msg)


def elem(s, tag):
    for e in s["elements"]:
        if e["counterBlock_tag"] == tag:
            return e
    return None


def run_of(t, ev):
    for r in RUNS:
        if ev[r + "-start"] - 1 <= t <= ev[r + "-end"] + 1:
            return r
    return None


def check_values(s, run, where):
    """phase 0 of the fixture's port, or all unknown (not polled yet)"""
    c = elem(s, "0:1")
    i = c["ifIndex"] - 1
    if c["ifInOctets"] == U64:
        return False
    want = [f.counter(i, k, 0) for k in range(13)]
    if i == 31:
        want[5] = U32  # "n/a"
    got = [c[n] for n in f.CTR_SFLOW]
    if got != want:
        err("%s: counters %s, want %s" % (where, got, want))
    b = elem(s, "4413:2")
    if len(b["bst_egress_queue_uc_pc"]) != 8 or len(b["bst_egress_queue_mc_pc"]) != 8:
        err("%s: %d + %d queues" % (where, len(b["bst_egress_queue_uc_pc"]),
                                    len(b["bst_egress_queue_mc_pc"])))
    if i == 32:
        qd = elem(s, "32473:10")
        for q in range(16):
            key = "bsf_queue_drop_%s_%d_" % ("uc" if q < 8 else "mc", q % 8)
            got = (qd[key + "packets"], qd[key + "bytes"])
            if got != f.queue_drops(i, q, 0):
                err("%s: queue %d drops %s, want %s" % (where, q, got, f.queue_drops(i, q, 0)))
    return True


def main():
    out, evp = sys.argv[1:3]
    logs = dict(zip(RUNS, sys.argv[3:5]))
    ev = {}
    for line in open(evp):
        k, t = line.split()
        ev[k] = float(t)
    seqs = {}   # (run, source): [seq]
    seen = {r: {"before": set(), "after": set()} for r in RUNS}
    first33 = {}
    known = {}  # (run, ifIndex): samples with known values
    for line in open(out):
        if not line.strip():
            continue
        dg = json.loads(line)
        t = dg["unixSecondsUTC"]
        run = run_of(t, ev)
        for s in dg.get("samples", []):
            if s.get("sampleType_tag") != "0:4":
                continue
            if run is None:
                err("a sample at %d, out of both runs" % t)
                continue
            src = s["sourceId"]
            seqs.setdefault((run, src), []).append(s["sampleSequenceNo"])
            if src.startswith("2:"):
                continue
            ifi = elem(s, "0:1")["ifIndex"]
            where = "%s: ifIndex %d seq %d at %d" % (run, ifi, s["sampleSequenceNo"], t)
            if t <= ev[run + "-change"] - 1:
                seen[run]["before"].add(ifi)
            elif t >= ev[run + "-change"] + SETTLE[run]:
                seen[run]["after"].add(ifi)
            if ifi == 33:
                first33.setdefault(run, s["sampleSequenceNo"])
            if not 1 <= ifi <= 33:
                err("%s: an ifIndex the fixture does not have" % where)
                continue
            if check_values(s, run, where):
                known[(run, ifi)] = known.get((run, ifi), 0) + 1
    for (run, src), sq in sorted(seqs.items()):
        if sq != list(range(sq[0], sq[0] + len(sq))):
            err("%s: data source %s: sequence numbers %s" % (run, src, sq))
    for run in RUNS:
        if seen[run]["before"] != set(range(1, 33)):
            err("%s: before the breakout ifIndexes %s, want 1..32" % (
                run, sorted(seen[run]["before"])))
        if seen[run]["after"] != set(range(1, 32)) | {33}:
            err("%s: %d s after the breakout ifIndexes %s, want 1..31 and 33" % (
                run, SETTLE[run], sorted(seen[run]["after"])))
        if first33.get(run) != 1:
            err("%s: ifIndex 33's first sequence number %s, want 1" % (run, first33.get(run)))
        if known.get((run, 33), 0) < 3 or known.get((run, 1), 0) < 8:
            err("%s: too few samples with values: ifIndex 33 %d, 1 %d" % (
                run, known.get((run, 33), 0), known.get((run, 1), 0)))
        log = open(logs[run]).read()
        for want in ("backend sonic: the device changed: 32 ports, were 32; added "
                     "Ethernet128 (ifIndex 33); removed Ethernet124 (ifIndex 32)",
                     "sonic: port Ethernet128 (ifIndex 33) appeared in the maps",
                     "sonic: port Ethernet124 (ifIndex 32) left the maps",
                     "the backend's device changed 1 times"):
            if want not in log:
                err("%s: bsflowd's log has no line with %r" % (run, want))
        m = re.search(r"(\d+) map refreshes \((\d+) on notifications\)", log)
        if run == "notified":
            if "keyspace notifications on" not in log or not m or int(m.group(2)) < 1:
                err("notified: the log does not show refreshes on notifications: %s"
                    % (m.group(0) if m else "no status line"))
        elif "keyspace notifications off" not in log or not m or int(m.group(2)) != 0:
            err("polled: the log does not show the periodic refreshes: %s"
                % (m.group(0) if m else "no status line"))
    print("checked: %s" % {k: len(v) for k, v in seqs.items() if k[1] in ("0:1", "0:33")})
    if errors:
        print("%d failures" % len(errors))
        sys.exit(1)


if __name__ == "__main__":
    main()
