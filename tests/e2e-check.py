#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""e2e-check.py - checks for the end-to-end tests (tests/e2e-*.sh).

Reads bsflow-collect -j output (one JSON object per datagram per line) and
checks it against the closed forms of the scenario in e2e-lib.sh.  Prints
one line per failed check ("FAIL: ...") and exits 1 if any failed.

  e2e-check.py congestion FILE INTERVAL [SIM.json]
                                          the 2:1 scenario (bullets 1-3); with
                                          SIM.json (bsflow-sim --json on the
                                          same scenario) also the same figures
                                          as the model reports
  e2e-check.py same FILE1 FILE2           two collectors got the same datagrams
  e2e-check.py count FILE                 print the number of datagrams
"""
import json
import os
import statistics
import sys

# Closed forms of the e2e-lib.sh scenario: 1 Gb/s, 8192-byte frames,
# (8192 + 20) * 8 bits on the wire each.
SPEED = 1e9
FRAME = 8192
WIRE_BITS = (FRAME + 20) * 8
PPS = SPEED / WIRE_BITS  # 15221.6 frames/s per input, out of port 0, dropped
QUEUE_CELLS = 256  # 64K / 256-byte cells
QUEUE_FRAMES = 8  # 256 cells of 256 bytes / 32 cells per frame
QUEUE_BYTES = QUEUE_FRAMES * FRAME
N_UC = 8
FRAME_NS = WIRE_BITS / SPEED * 1e9  # 65696 ns

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def load(path):
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                out.append(json.loads(line))
            except ValueError as e:
                fail("%s:%d: not JSON: %s" % (path, n, e))
    return out


def counters_samples(dgrams):
    """{sourceId: [(uptime_ms, seq, {tag: element}), ...]} in arrival order."""
    src = {}
    for d in dgrams:
        for s in d.get("samples", []):
            if s.get("sampleType_tag") != "0:4":
                continue
            el = {}
            for e in s.get("elements", []):
                el[e.get("counterBlock_tag")] = e
            src.setdefault(s["sourceId"], []).append(
                (d["sysUpTime"], s["sampleSequenceNo"], el))
    return src


def within(got, want, tol):
    return abs(got - want) <= tol * abs(want)


def pc_of(pct):
    """bsflow-sim's bst_pct (a percentage, 3 decimals) as sFlow hundredths."""
    return int(pct * 100 + 1e-6)


def check_sim(src, ports, sim_path):
    """The daemon's steady-state windows report what bsflow-sim reports for
    the same scenario on virtual time: the model is deterministic and the
    scenario is periodic, so every window after the first has the same
    peaks and delays."""
    with open(sim_path) as f:
        sim = json.load(f)
    secs = sim["virtual_s"]
    for q in sim["queues"]:
        s = ports[q["port"]]
        kind = "mc" if q["multicast"] else "uc"
        want = pc_of(q["occupancy"]["bst_pct"])
        for _, seq, el in src[s][1:]:
            got = el["4413:2"]["bst_egress_queue_%s_pc" % kind][q["queue"]]
            if got != want:
                fail("%s seq %d: queue %s%d at %d, bsflow-sim says %d" %
                     (s, seq, kind, q["queue"], got, want))
            d = el.get("32473:3")
            if d is None:
                continue
            for key, simkey in (("latest_ns", "timed_latest"), ("max_ns", "timed_max")):
                got = d.get("bsf_delay_%s_%d_%s" % (kind, q["queue"], key))
                if got != 0xFFFFFFFF and got != q["delay_ns"][simkey]:
                    fail("%s seq %d: queue %s%d delay %s %s, bsflow-sim says %s" %
                         (s, seq, kind, q["queue"], key, got, q["delay_ns"][simkey]))
    for p in sim["ports"]:
        s = ports[p["port"]]
        want = pc_of(p["egress"]["bst_pct"])
        for _, seq, el in src[s][1:]:
            if el["4413:2"]["bst_egress_uc_pc"] != want:
                fail("%s seq %d: egress uc %d, bsflow-sim says %d" %
                     (s, seq, el["4413:2"]["bst_egress_uc_pc"], want))
    want = pc_of(sim["device"]["bst_pct"])
    for _, seq, el in src.get("2:1", [])[1:]:
        if el["4413:1"]["bst_device_uc_pc"] != want:
            fail("2:1 seq %d: device uc %d, bsflow-sim says %d" %
                 (seq, el["4413:1"]["bst_device_uc_pc"], want))
    # the model's per-second counts against its closed forms, so that the
    # rates checked on the daemon's counters are the model's too
    for p in sim["ports"]:
        for key, want in (("tx_pkts", PPS if p["port"] == 0 else 0),
                          ("out_discards", PPS if p["port"] == 0 else 0),
                          ("rx_pkts", PPS if p["port"] in (1, 2) else 0)):
            got = p[key] / secs
            if (want == 0 and got != 0) or (want and not within(got, want, 0.01)):
                fail("bsflow-sim port %d: %s %.1f/s, expected %.1f/s" %
                     (p["port"], key, got, want))


def check_congestion(path, interval, sim_path=None):
    dgrams = load(path)
    if not dgrams:
        fail("no datagrams received")
        return
    src = counters_samples(dgrams)
    ports = sorted((s for s in src if s.startswith("0:")), key=lambda s: int(s[2:]))
    devices = [s for s in src if s.startswith("2:")]
    if len(ports) != 4:
        fail("expected 4 port data sources, got %s" % ports)
        return
    if devices != ["2:1"]:
        fail("expected the device data source 2:1, got %s" % devices)

    # 1. every data source at the polling interval, contiguous sequence numbers
    for s in ports + devices:
        smp = src[s]
        if len(smp) < 4:
            fail("%s: only %d counters samples" % (s, len(smp)))
            continue
        seqs = [x[1] for x in smp]
        for a, b in zip(seqs, seqs[1:]):
            if b != a + 1:
                fail("%s: sample sequence %d followed by %d" % (s, a, b))
        gaps = [b[0] - a[0] for a, b in zip(smp, smp[1:])]
        med = statistics.median(gaps)
        if not 0.5 * interval * 1000 <= med <= 2 * interval * 1000:
            fail("%s: median %d ms between samples, polling interval %d s" %
                 (s, med, interval))

    # 2. BST: the congested queue at 100 %, idle queues at 0
    for i, s in enumerate(ports):
        for n, (_, seq, el) in enumerate(src[s]):
            bst = el.get("4413:2")
            if bst is None:
                fail("%s seq %d: no 4413:2 record" % (s, seq))
                continue
            q = bst.get("bst_egress_queue_uc_pc", [])
            if len(q) != N_UC:
                fail("%s seq %d: %d unicast queues in 4413:2" % (s, seq, len(q)))
                continue
            if n == 0:
                continue  # the first window may open before the queue filled
            want = [10000 if (i == 0 and k == 0) else 0 for k in range(N_UC)]
            if q != want:
                fail("%s seq %d: queue percentages %s, expected %s" % (s, seq, q, want))
            # port egress: 256 of 8 * 256 allocated cells
            want_port = 1250 if i == 0 else 0
            if bst.get("bst_egress_uc_pc") != want_port:
                fail("%s seq %d: bst_egress_uc_pc %s, expected %d" %
                     (s, seq, bst.get("bst_egress_uc_pc"), want_port))
            own = el.get("32473:2")
            if own is None:
                fail("%s seq %d: no own queue_buffers record" % (s, seq))
                continue
            if own.get("bsf_queue_uc_count") != N_UC:
                fail("%s seq %d: own queue_buffers has %s uc queues" %
                     (s, seq, own.get("bsf_queue_uc_count")))
            for k in range(N_UC):
                peak = own.get("bsf_queue_uc_%d_peak_cells" % k)
                alloc = own.get("bsf_queue_uc_%d_alloc_cells" % k)
                pc = own.get("bsf_queue_uc_%d_peak_pc" % k)
                pbytes = own.get("bsf_queue_uc_%d_peak_bytes" % k)
                full = i == 0 and k == 0
                if (peak, alloc, pc) != ((QUEUE_CELLS if full else 0), QUEUE_CELLS,
                                         (10000 if full else 0)):
                    fail("%s seq %d: own queue %d peak %s alloc %s pc %s" %
                         (s, seq, k, peak, alloc, pc))
                if pbytes != 0xFFFFFFFF and pbytes != (QUEUE_BYTES if full else 0):
                    fail("%s seq %d: own queue %d peak_bytes %s" % (s, seq, k, pbytes))
            delays = el.get("32473:3")
            if i == 0 and delays is not None:
                lat = delays.get("bsf_delay_uc_0_latest_ns")
                cnt = delays.get("bsf_delay_uc_0_measurements")
                lo, hi = (QUEUE_FRAMES - 1.5) * FRAME_NS, (QUEUE_FRAMES + 1) * FRAME_NS
                if lat != 0xFFFFFFFF and not lo <= lat <= hi:
                    fail("%s seq %d: queue 0 delay %s ns, expected about %d" %
                         (s, seq, lat, QUEUE_FRAMES * FRAME_NS))
                if cnt == 0:
                    fail("%s seq %d: no delay measurement in the window" % (s, seq))

    # the device: 256 cells in use of 16384 (4 MB of 256-byte cells) -> 156
    for n, (_, seq, el) in enumerate(src.get("2:1", [])):
        bd = el.get("4413:1")
        if bd is None:
            fail("2:1 seq %d: no 4413:1 record" % seq)
            continue
        if n > 0 and (bd.get("bst_device_uc_pc"), bd.get("bst_device_mc_pc")) != (156, 0):
            fail("2:1 seq %d: device uc/mc %s/%s, expected 156/0" %
                 (seq, bd.get("bst_device_uc_pc"), bd.get("bst_device_mc_pc")))
        pools = el.get("32473:5")
        if pools is not None and (pools.get("bsf_cell_bytes"),
                                  pools.get("bsf_total_cells")) != (256, 16384):
            fail("2:1 seq %d: cells %s of %s bytes, expected 16384 of 256" %
                 (seq, pools.get("bsf_total_cells"), pools.get("bsf_cell_bytes")))

    if sim_path:
        try:
            check_sim(src, ports, sim_path)
        except (KeyError, IndexError, TypeError, ValueError) as e:
            fail("comparing with bsflow-sim: %r" % e)

    # 3. interface counters against the generator rates, discards = drops
    def rate(s, field):
        smp = src[s][1:]  # from the second sample: steady state
        if len(smp) < 2:
            return None
        a, b = smp[0], smp[-1]
        va, vb = a[2]["0:1"][field], b[2]["0:1"][field]
        if va in (0xFFFFFFFF, 2**64 - 1) or vb in (0xFFFFFFFF, 2**64 - 1):
            fail("%s: %s unknown" % (s, field))
            return None
        delta = vb - va
        if field not in ("ifInOctets", "ifOutOctets"):
            delta %= 2**32
        return delta / ((b[1] - a[1]) * interval)

    expect = {
        0: {"ifOutUcastPkts": PPS, "ifOutDiscards": PPS, "ifOutOctets": PPS * FRAME,
            "ifInUcastPkts": 0, "ifInDiscards": 0},
        1: {"ifInUcastPkts": PPS, "ifInOctets": PPS * FRAME, "ifOutUcastPkts": 0,
            "ifInDiscards": 0, "ifOutDiscards": 0},
        2: {"ifInUcastPkts": PPS, "ifInOctets": PPS * FRAME, "ifOutUcastPkts": 0,
            "ifInDiscards": 0, "ifOutDiscards": 0},
        3: {"ifInUcastPkts": 0, "ifOutUcastPkts": 0, "ifInDiscards": 0,
            "ifOutDiscards": 0},
    }
    # The model runs on its own clock, advanced to the wall clock every few
    # ms; on a loaded machine (sanitizers, parallel tests) it falls behind
    # and bsflowd reports by how much (E2E_LAG_MS: the largest lag in its
    # log).  A span of N polling intervals then covers between N intervals
    # less that lag and N intervals of the model's time: checks that assume
    # the wall clock (the rates, and ports 1 and 2 read at different points
    # of the interval) allow for it.  Unloaded, the lag is a few ms.
    lag_s = float(os.environ.get("E2E_LAG_MS") or 0) / 1000

    def lag_slack(nint):
        return (lag_s + 0.05) / (nint * interval) if lag_s > 0.1 and nint > 0 else 0

    if lag_s > 0.1:
        print("the model fell %.3f s behind the wall clock: timed checks allow for it" % lag_s)

    # time-free: port 0 drops exactly what it sends (2:1), both inputs send
    # the same, every frame is 8192 bytes (8188 if a backend leaves out the
    # FCS)
    # Both inputs are compared over the same sample sequence numbers: the
    # ports are polled at different points of the interval, so near the end
    # of the run (or when a poll runs late) one port may have one sample
    # more than another; a span of N intervals is N intervals on every port.
    def by_seq(s):
        return {x[1]: x for x in src[s][1:]}  # from the second: steady state

    common = set(by_seq(ports[1])) & set(by_seq(ports[2]))
    lo, hi = (min(common), max(common)) if common else (None, None)

    def delta(s, field, seqs=None):
        if seqs is None:
            smp = src[s][1:]
            a, b = (smp[0], smp[-1]) if len(smp) >= 2 else (None, None)
        else:
            m = by_seq(s)
            a, b = m.get(seqs[0]), m.get(seqs[1])
        if a is None or b is None or a is b:
            return None
        d = b[2]["0:1"][field] - a[2]["0:1"][field]
        return d if field.endswith("Octets") else d % 2**32

    try:
        out0, disc0 = delta(ports[0], "ifOutUcastPkts"), delta(ports[0], "ifOutDiscards")
        in1 = delta(ports[1], "ifInUcastPkts", (lo, hi))
        in2 = delta(ports[2], "ifInUcastPkts", (lo, hi))
        oct1 = delta(ports[1], "ifInOctets", (lo, hi))
        if in1 is None or in2 is None:
            fail("ports 1 and 2: fewer than 2 common steady-state samples")
        if out0 and not within(disc0, out0, 0.01):
            fail("port 0: %d discards for %d frames sent, expected equal (1 %%)" %
                 (disc0, out0))
        if in1 and not within(in2, in1, 0.01 + lag_slack(hi - lo)):
            fail("ports 1 and 2 received %d and %d frames, expected equal (1 %%)" % (in1, in2))
        if in1 and oct1 not in (in1 * FRAME, in1 * (FRAME - 4)):
            fail("port 1: %d octets in %d frames of %d bytes" % (oct1, in1, FRAME))
    except (KeyError, TypeError) as e:
        fail("counters missing: %r" % e)

    # against the closed-form rates, the time being (samples apart) x the
    # polling interval: this assumes the poll timers fire on time and the
    # model keeps up with the wall clock
    for i, s in enumerate(ports):
        if any("0:1" not in x[2] for x in src[s]):
            fail("%s: a sample without 0:1" % s)
            continue
        for field, want in expect[i].items():
            r = rate(s, field)
            if r is None:
                continue
            # 1 % (octets: a backend may count frames without FCS, 0.05 %)
            if want == 0:
                if r != 0:
                    fail("%s: %s grows at %.1f/s, expected 0" % (s, field, r))
            elif not within(r, want, 0.01 + lag_slack(src[s][-1][1] - src[s][1][1])):
                fail("%s: %s at %.1f/s, expected %.1f/s (1 %%)" % (s, field, r, want))


def strip(d):
    return {k: v for k, v in d.items()
            if k not in ("datagramSourceIP", "datagramSourcePort", "unixSecondsUTC",
                         "unixMicros", "localtime")}


def check_same(p1, p2):
    a = [strip(d) for d in load(p1)]
    b = [strip(d) for d in load(p2)]
    if len(a) < 3:
        fail("%s: only %d datagrams" % (p1, len(a)))
    ka = {d["packetSequenceNo"]: d for d in a}
    kb = {d["packetSequenceNo"]: d for d in b}
    common = set(ka) & set(kb)
    # the collectors start and stop at slightly different times: compare
    # what both got, which must be nearly everything
    if len(common) < min(len(ka), len(kb)) - 2:
        fail("collectors got different datagrams: %d and %d, %d in common" %
             (len(ka), len(kb), len(common)))
    for seq in sorted(common):
        if ka[seq] != kb[seq]:
            fail("datagram %d differs between the collectors" % seq)
            break


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    cmd = sys.argv[1]
    if cmd == "congestion":
        check_congestion(sys.argv[2], int(sys.argv[3]),
                         sys.argv[4] if len(sys.argv) > 4 else None)
    elif cmd == "same":
        check_same(sys.argv[2], sys.argv[3])
    elif cmd == "count":
        print(len(load(sys.argv[2])))
    else:
        print(__doc__)
        return 2
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
