#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""e2e-sonic-check.py - checks what bsflow-collect -j received from bsflowd
with backend = sonic (e2e-sonic.sh) against values computed from the
fixture's numbers (sonic_fixture.py), not from bsflowd's code.

usage: e2e-sonic-check.py COLLECT_OUT EVENTS BSFLOWD_LOG WM_BEFORE WM_AFTER

Windows of receive time (unixSecondsUTC, whole seconds: 1 s margins):
  hold   phase 3 fed 2 s ago .. Redis killed: every value exactly phase 3
  gap    Redis gone + 4 s .. restarted: every value unknown
  after  restarted + 7 s .. end: every value exactly phase 4 (new oids)
  other  consistent with one phase 0..4 (counters of one phase per port)
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sonic_fixture as f  # noqa: E402

U32, U64 = 2**32 - 1, 2**64 - 1
errors = []


def err(msg):
    if len(errors) < 40:
        print("FAIL: " + msg)
    errors.append(msg)


def load_events(path):
    ev = {}
    for line in open(path):
        k, t = line.split()
        ev[k] = float(t)
    return ev


def window(t, ev):
    if ev["phase3"] + 2 <= t <= ev["kill"] - 1:
        return "hold"
    if ev["stop"] + 4 <= t <= ev["restart"] - 1:
        return "gap"
    if t >= ev["restart"] + 7:  # reconnected within 5 s (backoff), then polled
        return "after"
    return "other"


def port_expect(i, phase):
    """0:1 fields, 4413:2 arrays and PG values of port i at phase"""
    ctr = [f.counter(i, k, phase) for k in range(13)]
    if i == 31:
        ctr[5] = None  # "n/a"
    uc = []
    mc = []
    for q in range(16):
        wm = None if f.malformed_queue(i, q) else f.queue_wm(i, q, phase)
        (uc if q < 8 else mc).append(f.pct(wm, f.queue_alloc(i, q)))
    pgs = []
    for g in range(8):
        a, h = f.pg_alloc(i, g)
        pgs.append((f.pg_wm(i, g, phase), a, f.pct(f.pg_wm(i, g, phase), a),
                    f.pg_hr(i, g, phase), h, f.pct(f.pg_hr(i, g, phase), h)))
    return ctr, uc, mc, pgs


def phase_of(i, octets):
    for p in range(5):
        if f.counter(i, 0, p) == octets:
            return p
    return None


def elem(s, tag):
    for e in s["elements"]:
        if e["counterBlock_tag"] == tag:
            return e
    return None


def check_port(s, t, ev, stats):
    c = elem(s, "0:1")
    b = elem(s, "4413:2")
    pg = elem(s, "%d:4" % 32473)
    i = c["ifIndex"] - 1
    w = window(t, ev)
    where = "ifIndex %d seq %d (%s)" % (i + 1, s["sampleSequenceNo"], w)
    if not 0 <= i < f.NPORTS:
        err("%s: an ifIndex the fixture does not have" % where)
        return
    stats[w] = stats.get(w, 0) + 1
    if w == "gap":
        vals = [c[n] for n in f.CTR_SFLOW]
        want = [U64 if n in ("ifInOctets", "ifOutOctets") else U32 for n in f.CTR_SFLOW]
        if vals != want:
            err("%s: counters known while Redis is down: %s" % (where, vals))
        if b["bst_egress_queue_uc_pc"] != [-1] * 8 or b["bst_egress_queue_mc_pc"] != [-1] * 8:
            err("%s: percentages known while Redis is down" % where)
        qd, dc = elem(s, "32473:10"), elem(s, "32473:11")
        known = [v for k, v in qd.items() if k.endswith(("_packets", "_bytes")) and v != U64]
        known += [v for v in drop_counters(dc).values() if v[3] != U64]
        if known:
            err("%s: drops known while Redis is down: %s" % (where, known[:4]))
        return
    p = phase_of(i, c["ifInOctets"])
    if p is None:
        if w == "other" and c["ifInOctets"] == U64:
            return  # before the first poll, or at the edges of the gap
        err("%s: ifInOctets %d is no phase's" % (where, c["ifInOctets"]))
        return
    if w == "hold" and p != 3 or w == "after" and p != 4:
        err("%s: counters of phase %d" % (where, p))
    ctr, uc, mc, pgs = port_expect(i, p)
    for k, n in enumerate(f.CTR_SFLOW):
        want = ctr[k]
        if want is None:
            want = U32
        if c[n] != want:
            err("%s: %s %d, want %d (phase %d)" % (where, n, c[n], want, p))
    status = 3 if i % 2 == 0 else 1  # admin up; oper up on even ports
    if c["ifStatus"] != status:
        err("%s: ifStatus %d, want %d" % (where, c["ifStatus"], status))
    if c["ifSpeed"] != 100 * 10**9:
        err("%s: ifSpeed %d" % (where, c["ifSpeed"]))
    e2 = elem(s, "0:2")
    if e2["dot3StatsFCSErrors"] != f.counter(i, 20, p) % 2**32:
        err("%s: dot3StatsFCSErrors %d" % (where, e2["dot3StatsFCSErrors"]))
    # buffers: exact in hold / after; otherwise one of the phases'
    phases = [p] if w in ("hold", "after") else list(range(5))
    for name, got, idx in (("uc", b["bst_egress_queue_uc_pc"], 1),
                           ("mc", b["bst_egress_queue_mc_pc"], 2)):
        choices = [port_expect(i, q)[idx] for q in phases]
        for q in range(8):
            if got[q] not in [ch[q] for ch in choices]:
                err("%s: %s queue %d: %d%%%% not in %s" % (where, name, q, got[q],
                                                          [ch[q] for ch in choices]))
    check_drops(s, i, where, phases)
    if pg is None:
        err("%s: no own PG record" % where)
        return
    if pg["bsf_pg_count"] != 8:
        err("%s: %d PGs" % (where, pg["bsf_pg_count"]))
    for g in range(8):
        cands = [port_expect(i, q)[3][g] for q in phases]
        got = (pg["bsf_pg_%d_shared_peak_bytes" % g],
               pg["bsf_pg_%d_shared_alloc_cells" % g],
               pg["bsf_pg_%d_shared_peak_pc" % g],
               pg["bsf_pg_%d_headroom_peak_bytes" % g],
               pg["bsf_pg_%d_headroom_alloc_cells" % g],
               pg["bsf_pg_%d_headroom_peak_pc" % g])
        got = tuple(None if v == U32 else v for v in got)
        if got not in cands:
            err("%s: PG %d: %s not in %s" % (where, g, got, cands))


def drop_counters(rec):
    """E:11 as {name: (alias, direction, reason, packets, reasons)}"""
    out = {}
    for k in range(rec["bsf_drop_counter_count"]):
        g = lambda f: rec["bsf_drop_counter_%d_%s" % (k, f)]  # noqa: E731
        out[g("name")] = (g("alias"), g("direction"), g("reason"), g("packets"), g("reasons"))
    return out


def want_counters(level, i, phase):
    """the fixture's drop counters of level PORT or SWITCH at phase"""
    out = {}
    for n, (typ, alias, reasons, stat, code) in f.DEBUG_COUNTERS.items():
        if typ.startswith(level):
            out[n] = (alias, "ingress" if "INGRESS" in typ else "egress", code,
                      f.dbg_value(n, i, phase), ",".join(sorted(reasons)))
    return out


def check_drops(s, i, where, phases):
    """E:10: every queue's drops; E:11: the port's drop counters"""
    qd = elem(s, "32473:10")
    dc = elem(s, "32473:11")
    if qd is None or dc is None:
        err("%s: no own queue_drops / drop_counters record" % where)
        return
    if qd["bsf_queue_drop_uc_count"] != 8 or qd["bsf_queue_drop_mc_count"] != 8:
        err("%s: queue_drops of %d/%d queues" % (where, qd["bsf_queue_drop_uc_count"],
                                                 qd["bsf_queue_drop_mc_count"]))
        return
    for q in range(16):
        key = "bsf_queue_drop_%s_%d_" % ("uc" if q < 8 else "mc", q % 8)
        got = (qd[key + "packets"], qd[key + "bytes"])
        want = [(U64, U64) if (i, q) == (3, 2) else f.queue_drops(i, q, p) for p in phases]
        if got not in want:
            err("%s: queue %d drops %s not in %s" % (where, q, got, want))
    got = drop_counters(dc)
    if got not in [want_counters("PORT", i, p) for p in phases]:
        err("%s: drop counters %s, want %s" % (where, got, want_counters("PORT", i, phases[0])))


def check_device(s, t, ev, stats):
    w = window(t, ev)
    d = elem(s, "4413:1")
    own = elem(s, "32473:5")
    stats["dev-" + w] = stats.get("dev-" + w, 0) + 1
    where = "device seq %d (%s)" % (s["sampleSequenceNo"], w)
    egr = ["egress_lossless_pool", "egress_lossy_pool"]
    if w == "gap":
        if d["bst_device_uc_pc"] != -1:
            err("%s: device percentage known while Redis is down" % where)
        if [v for v in drop_counters(elem(s, "32473:11")).values() if v[3] != U64]:
            err("%s: switch drop counters known while Redis is down" % where)
        return
    phases = [3] if w == "hold" else [4] if w == "after" else list(range(5))
    want_uc = [f.pct(sum(f.pool_wm(n, p) for n in egr), sum(f.POOLS[n][2] for n in egr))
               for p in phases]
    if d["bst_device_uc_pc"] not in want_uc and not (w == "other"
                                                     and d["bst_device_uc_pc"] == -1):
        err("%s: bst_device_uc_pc %d not in %s" % (where, d["bst_device_uc_pc"], want_uc))
    for k, n in enumerate(egr):
        peak = own["bsf_egress_pool_%d_peak_bytes" % k]
        # around the gap (reconnecting, maps re-read) unknown, like the peak
        alloc = own["bsf_egress_pool_%d_alloc_cells" % k]
        if alloc != f.POOLS[n][2] and not (w == "other" and alloc == U32):
            err("%s: egress pool %d allocation %d" % (where, k, alloc))
        if peak not in [f.pool_wm(n, p) for p in phases] and not (w == "other"
                                                                  and peak == U32):
            err("%s: egress pool %s peak %d" % (where, n, peak))
    alloc = own["bsf_ingress_pool_0_alloc_cells"]
    if alloc != f.pool_size("ingress_lossless_pool") and not (w == "other" and alloc == U32):
        err("%s: ingress pool allocation %d, want APPL_DB's %d" % (
            where, alloc, f.pool_size("ingress_lossless_pool")))
    dc = elem(s, "32473:11")
    want = [want_counters("SWITCH", None, p) for p in phases]
    if w == "other":  # around the gap: unknown, like the peaks
        want.append({n: v[:3] + (U64,) + v[4:] for n, v in want[0].items()})
    if dc is None or drop_counters(dc) not in want:
        err("%s: switch drop counters %s" % (where, dc and drop_counters(dc)))
    peak = own["bsf_ingress_pool_0_peak_bytes"]
    if peak not in [f.pool_wm("ingress_lossless_pool", p) for p in phases] and not (
            w == "other" and peak == U32):
        err("%s: ingress pool peak %d" % (where, peak))


def main():
    out, evp, logp, wb, wa = sys.argv[1:6]
    ev = load_events(evp)
    stats = {}
    seqs = {}
    ifindexes = set()
    for line in open(out):
        if not line.strip():
            continue
        dg = json.loads(line)
        t = dg["unixSecondsUTC"]
        for s in dg.get("samples", []):
            if s.get("sampleType_tag") != "0:4":
                continue
            src = s["sourceId"]
            seqs.setdefault(src, []).append(s["sampleSequenceNo"])
            if src.startswith("2:"):
                check_device(s, t, ev, stats)
            else:
                ifindexes.add(elem(s, "0:1")["ifIndex"])
                check_port(s, t, ev, stats)
    if ifindexes != set(range(1, f.NPORTS + 1)):
        err("ifIndexes %s, want 1..%d" % (sorted(ifindexes), f.NPORTS))
    for src, sq in seqs.items():
        if sq != list(range(sq[0], sq[0] + len(sq))):
            err("data source %s: sequence numbers not contiguous" % src)
    for w in ("hold", "gap", "after"):
        if stats.get(w, 0) < f.NPORTS:
            err("only %d port samples in the %s window" % (stats.get(w, 0), w))
    for path, name in ((wb, "before the stop"), (wa, "at the end")):
        for line in open(path):
            table, oid, v = line.split()
            want = f.USER_WM if table == "USER_WATERMARKS" else f.PERSIST_WM
            if int(v) != want:
                err("%s %s %s: %s, the fixture wrote %d" % (name, table, oid, v, want))
    log = open(logp).read()
    for want in ("connection lost", "not a number", "sonic: 32 front-panel ports"):
        if want not in log:
            err("bsflowd's log has no line with %r" % want)
    if len(re.findall(r"sonic: redis \S+: connected", log)) < 2:
        err("bsflowd's log does not show the reconnection")
    m = re.search(r"status: sonic: redis \S+ connected; (\d+) connections made, (\d+) lost",
                  log)
    if not m or int(m.group(1)) < 2 or int(m.group(2)) < 1:
        err("bsflowd's status (SIGUSR1) does not count the reconnection: %s"
            % (m.group(0) if m else "no status line"))
    print("checked windows: %s" % stats)
    if errors:
        print("%d failures" % len(errors))
        sys.exit(1)


if __name__ == "__main__":
    main()
