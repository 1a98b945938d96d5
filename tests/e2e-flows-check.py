#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""e2e-flows-check.py - checks of the packet-sample and drop-notification
end-to-end tests (e2e-flows.sh, e2e-drops.sh) on bsflow-collect -j output
(one JSON object per datagram per line).  Prints "FAIL: ..." per failed
check and a few figures, exits 1 if any check failed.

  e2e-flows-check.py flows FILE N
      the scenario of e2e-flows.sh; N = packets sent into port 1
  e2e-flows-check.py drops FILE LIMIT FWD
      the scenario of e2e-drops.sh; LIMIT = drops.limit, FWD = the number
      of forwarding drops of each reason as reason=count,...
  e2e-flows-check.py breaker FILE LIMIT COOLDOWN
      the circuit-breaker run of e2e-drops.sh
  e2e-flows-check.py identity FILE LIMIT
      the event-queue overflow run of e2e-drops.sh
"""
import json
import sys

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def load(path):
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except ValueError as e:
                    fail("%s:%d: not JSON: %s" % (path, n, e))
    return out


def samples(dgrams, tag):
    return [s for d in dgrams for s in d.get("samples", []) if s.get("sampleType_tag") == tag]


def elements(s):
    """{tag: record}; bsflow-collect prefixes the keys of discard samples'
    records with "discarded_" (as sflowtool does): taken off here."""
    out = {}
    for e in s.get("elements", []):
        e = {k[10:] if k.startswith("discarded_") else k: v for k, v in e.items()}
        out[e.get("flowBlock_tag")] = e
    return out


def last_counters(dgrams):
    """{ifIndex: last 0:1 generic counters record}"""
    out = {}
    for s in samples(dgrams, "0:4"):
        for e in s.get("elements", []):
            if e.get("counterBlock_tag") == "0:1":
                out[e["ifIndex"]] = e
    return out


def check_seq(name, seqs):
    if seqs != list(range(1, len(seqs) + 1)):
        bad = next(i for i, v in enumerate(seqs) if v != i + 1)
        fail("%s: sequence numbers not 1..%d (at #%d: %d)" % (name, len(seqs), bad, seqs[bad]))


# ---- flows: see e2e-flows.sh for the scenario
SPEED_10G = 10e9
EXPECT_RATE = {1: 10, 2: 100, 4: 7}  # by input ifIndex: speed, port, default rules


def flows(path, n_main):
    dgrams = load(path)
    fs = samples(dgrams, "0:3")
    by_src = {}
    for s in fs:
        by_src.setdefault(s["sourceId"], []).append(s)
    print("flow samples by source: " + ", ".join("%s %d" % (k, len(v)) for k, v in sorted(by_src.items())))
    for k in ("0:1", "0:2", "0:4"):
        if k not in by_src:
            fail("no flow samples from data source %s" % k)
    if failures:
        return
    # precedence of the sampling settings: rate per data source
    for k, ss in by_src.items():
        idx = int(k.split(":")[1])
        rates = {s["meanSkipCount"] for s in ss}
        if rates != {EXPECT_RATE.get(idx)}:
            fail("source %s: sampling rates %s, expected %s" % (k, sorted(rates), EXPECT_RATE.get(idx)))
        check_seq("flow samples of %s" % k, [s["sampleSequenceNo"] for s in ss])
        pools = [s["samplePool"] for s in ss]
        if pools != sorted(pools):
            fail("source %s: samplePool goes back" % k)
        for s in ss:
            if s["inputPort"] != idx:
                fail("source %s: inputPort %s" % (k, s["inputPort"]))
                break
    # the 1-in-100 port: estimate within 5 %, pools bounded by the truth
    main = by_src["0:2"]
    est = len(main) * 100
    err = abs(est - n_main) / n_main
    print("port 1: %d samples x 100 = %d for %d packets (%.2f %%)" % (len(main), est, n_main, 100 * err))
    if err > 0.05:
        fail("estimate %d not within 5 %% of %d" % (est, n_main))
    ctr = last_counters(dgrams)
    seen = ctr.get(2, {}).get("ifInUcastPkts")
    if seen != n_main:
        fail("port 1 ifInUcastPkts %s, expected %d" % (seen, n_main))
    last_pool = main[-1]["samplePool"]
    print("port 1: last samplePool %d, packets seen %s" % (last_pool, seen))
    # the pool is read when the sample is built: at most the packets seen,
    # and the last sample comes within a few skips of the end
    if last_pool > n_main or last_pool < n_main - 10 * 100:
        fail("port 1: last samplePool %d, expected %d - 1000 .. %d" % (last_pool, n_main, n_main))
    if any(s["dropEvents"] != 0 for s in fs):
        fail("flow samples with drops != 0 (no event was lost)")
    # records of each sample
    need = {"0:1", "0:1001", "0:1039", "0:1043"}
    nmc = 0
    for s in fs:
        el = elements(s)
        missing = need - set(el)
        if missing:
            fail("sample %s #%d: no %s" % (s["sourceId"], s["sampleSequenceNo"], sorted(missing)))
            break
        h = el["0:1"]
        size = h["sampledPacketSize"]
        # the model synthesizes Ethernet/IPv4/TCP or UDP headers (54 or 42
        # bytes) and a zero payload: header_bytes (128) or the frame less
        # its FCS, never into the FCS
        if h["strippedBytes"] != 4 or h["headerLen"] != min(128, size - 4):
            fail("sample %s #%d: header %d bytes of %d (stripped %d)" % (s["sourceId"], s["sampleSequenceNo"], h["headerLen"], size, h["strippedBytes"]))
            break
        out = s["outputPort"]
        if s["sourceId"] == "0:1":
            # port 0's traffic is multicast to group {2, 3}: 2 outputs,
            # no queue records (0:1040's depth goes with 0:1036 only)
            nmc += 1
            if out != "multiple 2" or "0:1036" in el or "4413:1" in el or "0:1040" in el:
                fail("multicast sample #%d: outputPort %r, records %s" % (s["sampleSequenceNo"], out, sorted(el)))
                break
            continue
        want_out = 1 if s["sourceId"] == "0:2" else 3
        if out != want_out:
            fail("sample %s #%d: outputPort %r, expected %d" % (s["sourceId"], s["sampleSequenceNo"], out, want_out))
            break
        if el.get("0:1036", {}).get("egress_queue_id") != 0 or el.get("4413:1", {}).get("bst_egress_queue") != 0 or "0:1040" not in el:
            fail("sample %s #%d: egress queue records %s %s" % (s["sourceId"], s["sampleSequenceNo"], el.get("0:1036"), el.get("4413:1")))
            break
        # a packet spends at least its serialization time on the way out
        speed = SPEED_10G if want_out == 1 else 10e9
        ser = (size + 20) * 8 / speed * 1e9
        if el["0:1039"]["transit_delay_nS"] + 1 < ser:
            fail("sample %s #%d: transit %d ns < %d ns serialization" % (s["sourceId"], s["sampleSequenceNo"], el["0:1039"]["transit_delay_nS"], ser))
            break
    print("multicast samples: %d" % nmc)
    depths = [elements(s)["0:1040"]["queue_depth_bytes"] for s in main]
    delays = [elements(s)["0:1039"]["transit_delay_nS"] for s in main]
    print("port 1 samples: queue depth max %d bytes, transit max %d ns" % (max(depths), max(delays)))


# ---- drops: see e2e-drops.sh for the scenario
SYMBOL = {257: "forwarding", 258: "forwarding", 269: "forwarding", 259: None}
FWD_INPUT = {2: 257, 3: 258, 4: 269}  # input ifIndex -> reason of its forwarding drops


def discards(path):
    dgrams = load(path)
    ds = samples(dgrams, "0:5")
    return dgrams, ds


def per_second_max(ds):
    per = {}
    for s in ds:
        ts = elements(s).get("0:1043", {}).get("timestamp_nS")
        if ts is None:
            fail("0:5 #%d without 0:1043" % s["sampleSequenceNo"])
            return 0, {}
        per[ts // 10**9] = per.get(ts // 10**9, 0) + 1
    return max(per.values()) if per else 0, per


def drops(path, limit, fwd_spec):
    dgrams, ds = discards(path)
    fwd = {int(k): int(v) for k, v in (x.split("=") for x in fwd_spec.split(","))}
    if not ds:
        fail("no discard samples")
        return
    check_seq("0:5 of 2:1", [s["sampleSequenceNo"] for s in ds])
    if {s["sourceId"] for s in ds} != {"2:1"}:
        fail("0:5 data sources %s, expected 2:1" % sorted({s["sourceId"] for s in ds}))
    # offered: every drop the model made, from its interface counters
    ctr = last_counters(dgrams)
    offered = sum(c["ifInDiscards"] + c["ifOutDiscards"] for c in ctr.values())
    final = ds[-1]["dropEvents"]
    print("drops offered %d (counters), 0:5 received %d, final drops %d" % (offered, len(ds), final))
    if len(ds) + final != offered:
        fail("sent %d + final drops %d = %d, not the %d drops offered" % (len(ds), final, len(ds) + final, offered))
    prev = 0
    for s in ds:
        if s["dropEvents"] < prev:
            fail("drops went back at #%d" % s["sampleSequenceNo"])
            break
        prev = s["dropEvents"]
    mx, per = per_second_max(ds)
    print("notifications per second: max %d (limit %d) over %d seconds" % (mx, limit, len(per)))
    if mx > limit:
        fail("%d notifications in one second, limit %d" % (mx, limit))
    by_reason = {}
    for s in ds:
        r = s["discardCode"]
        by_reason[r] = by_reason.get(r, 0) + 1
        el = elements(s)
        sym = el.get("0:1038", {}).get("symbol")
        if "0:1" not in el or "0:1043" not in el:
            fail("0:5 #%d: records %s" % (s["sampleSequenceNo"], sorted(el)))
            break
        if sym == "forwarding":
            want = FWD_INPUT.get(s["inputPort"])
            # not an egress drop: output 0 (sFlow drops: set only on egress)
            if r != want or s["outputPort"] != 0:
                fail("forwarding drop #%d from ifIndex %d: reason %d, expected %s" % (s["sampleSequenceNo"], s["inputPort"], r, want))
                break
            if "0:1036" in el or "0:1040" in el:
                fail("forwarding drop #%d with queue records" % s["sampleSequenceNo"])
                break
        elif sym in ("egress_admission", "ingress_admission"):
            if r != 259:
                fail("%s drop #%d: reason %d, expected 259" % (sym, s["sampleSequenceNo"], r))
                break
            if sym == "egress_admission":
                if "0:1040" not in el or el.get("0:1036", {}).get("egress_queue_id") != 0 or s["outputPort"] == 0:
                    fail("egress drop #%d: output %s, queue %s, records %s" % (s["sampleSequenceNo"], s["outputPort"], el.get("0:1036"), sorted(el)))
                    break
            elif s["outputPort"] != 0 or "0:1036" in el or "0:1040" in el:
                # ingress: no output, so no egress queue and no depth
                fail("ingress drop #%d: output %s, records %s" % (s["sampleSequenceNo"], s["outputPort"], sorted(el)))
                break
        else:
            fail("0:5 #%d: symbol %r" % (s["sampleSequenceNo"], sym))
            break
    print("notifications by reason: " + ", ".join("%d %d" % kv for kv in sorted(by_reason.items())))
    for r in list(fwd) + [259]:
        if by_reason.get(r, 0) == 0:
            fail("no notification with reason %d" % r)
    nfwd = sum(fwd.values())
    if offered <= nfwd:
        fail("no buffer drops: offered %d, forwarding %d" % (offered, nfwd))


def breaker(path, limit, cooldown):
    dgrams, ds = discards(path)
    if len(ds) < 2:
        fail("breaker: %d discard samples" % len(ds))
        return
    check_seq("0:5 of 2:1", [s["sampleSequenceNo"] for s in ds])
    ts = [elements(s)["0:1043"]["timestamp_nS"] for s in ds]
    # The breaker's silence: at least the cool-down without a notification
    # while drops kept coming (the scenario offers 200 a second), all of
    # them counted in the drops field.  It need not be the longest silence:
    # when the breaker closes before the drops stop, the quiet time between
    # the last of them and the final drop at 6.5 s is longer, and across it
    # the drops field grows only by the few the rate limit held back just
    # before the end (or by a second trip just before they stop).  The rate
    # limit alone never holds back more than LIMIT in one silence (it
    # refills every 100 ms, so while drops keep coming one gets through
    # within about 100 ms: some 20 drops here), and the first trip comes by
    # 2.3 s, so its silence holds back at least 1.7 s x 200 drops: a jump of
    # more than LIMIT across a silence of the cool-down is the breaker's.
    gaps = [(ts[i + 1] - ts[i], ds[i + 1]["dropEvents"] - ds[i]["dropEvents"])
            for i in range(len(ts) - 1)]
    quiet = [(g, j) for g, j in gaps if g >= cooldown * 1e9]
    print("breaker: %d notifications, silences of the cool-down or longer: %s" %
          (len(ds), ", ".join("%.2f s (drops +%d)" % (g / 1e9, j) for g, j in quiet) or "none"))
    if not quiet:
        fail("no silence of the %d s cool-down (longest %.2f s)" %
             (cooldown, max(g for g, _ in gaps) / 1e9))
    elif not any(j > limit for _, j in quiet):
        fail("no drops counted while the breaker was open (no silence of %d s with more "
             "than %d drops held back)" % (cooldown, limit))
    mx, _ = per_second_max(ds)
    if mx > limit:
        fail("%d notifications in one second, limit %d" % (mx, limit))
    ctr = last_counters(dgrams)
    offered = sum(c["ifInDiscards"] + c["ifOutDiscards"] for c in ctr.values())
    if len(ds) + ds[-1]["dropEvents"] != offered:
        fail("breaker: sent %d + drops %d != offered %d" % (len(ds), ds[-1]["dropEvents"], offered))


def identity(path, limit):
    """Notifications received + the last drops field = every drop the model
    made, even when the backend's event queue overflowed."""
    dgrams, ds = discards(path)
    if not ds:
        fail("identity: no discard samples")
        return
    check_seq("0:5 of 2:1", [s["sampleSequenceNo"] for s in ds])
    ctr = last_counters(dgrams)
    offered = sum(c["ifInDiscards"] + c["ifOutDiscards"] for c in ctr.values())
    final = ds[-1]["dropEvents"]
    print("overflow run: drops offered %d, 0:5 received %d, final drops %d" % (offered, len(ds), final))
    if len(ds) + final != offered:
        fail("overflow run: sent %d + drops %d = %d != offered %d" % (len(ds), final, len(ds) + final, offered))
    mx, _ = per_second_max(ds)
    if mx > limit:
        fail("%d notifications in one second, limit %d" % (mx, limit))


def main(argv):
    if len(argv) >= 3 and argv[1] == "flows":
        flows(argv[2], int(argv[3]))
    elif len(argv) >= 5 and argv[1] == "drops":
        drops(argv[2], int(argv[3]), argv[4])
    elif len(argv) >= 4 and argv[1] == "identity":
        identity(argv[2], int(argv[3]))
    elif len(argv) >= 5 and argv[1] == "breaker":
        breaker(argv[2], int(argv[3]), int(argv[4]))
    else:
        print(__doc__)
        return 2
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
