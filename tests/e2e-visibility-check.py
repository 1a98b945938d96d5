#!/usr/bin/env python3
# tests/e2e-visibility-check.py - checks what bsflow-collect
# -j received from bsflowd on the scenario of e2e-visibility.sh (read that
# for the closed forms).  Usage: e2e-visibility-check.py COL.JSON DAEMON.LOG
# Exit 0 if every check passed, 1 otherwise; one line per check.
#
# SPDX-License-Identifier: BSD-2-Clause
import json
import re
import sys

ENT = 32473
T = (1024 + 20) * 8  # ns per frame at 1 Gb/s
PERIODS = 20
PERIOD = 100_000_000  # ns
FRAME = 1024
QFRAMES = 64  # queue limit in frames
HIGH, LOW = 32 * 1024, 8 * 1024
DELAY_T = 200_000
TICKETS = 10

failures = 0


def check(ok, what):
    global failures
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures += 1


def note(what):
    print("note: " + what)


def load(path):
    """Samples in arrival order."""
    out = []
    with open(path) as f:
        for line in f:
            if line.strip():
                out.extend(json.loads(line).get("samples", []))
    return out


def event_of(s):
    """An E:1 sample as a flat dict (None if it has no event record)."""
    ev = None
    for e in s.get("elements", []):
        if e.get("flowBlock_tag") == "%d:1" % ENT:
            ev = dict(e)
    if ev is None:
        return None
    ev["seq"] = s["sampleSequenceNo"]
    ev["source"] = s["sourceId"]
    ev["drops"] = s["dropEvents"]
    ev["input"] = s["inputPort"]
    ev["output"] = s["outputPort"]
    ev["tags"] = [e.get("flowBlock_tag") for e in s.get("elements", [])]
    for e in s.get("elements", []):
        if e.get("flowBlock_tag") == "0:1043":
            ev["t"] = e["timestamp_nS"]
    return ev


DX = "discarded_"  # bsflow-collect's key prefix inside a 0:5


def own_ids_of(events):
    return {e["bsf_own_id"] for e in events}


def check_discards(discards, event_ids):
    """Every 0:5 came through the drop sampler, so each carries, last, the
    drop's own visibility_event record: type drop, event_id = own_id (the
    drop's id), the 0:5's reason, queue 0 and the 0:1040 depth.  Returns
    the records (dicts without the prefix) in arrival order."""
    recs, bad = [], 0
    for s in discards:
        els = s.get("elements", [])
        own = [e for e in els if e.get(DX + "flowBlock_tag") == "%d:1" % ENT]
        depth = [e[DX + "queue_depth_bytes"] for e in els if DX + "queue_depth_bytes" in e]
        if len(own) != 1 or els[-1] is not own[0]:
            bad += 1
            continue
        r = {k[len(DX):]: v for k, v in own[0].items() if k.startswith(DX)}
        r["dropEvents"] = s["dropEvents"]
        if not (r.get("bsf_event_type") == "drop" and r["bsf_event_type_code"] == 1 and
                r["bsf_event_id"] == r["bsf_own_id"] and r["bsf_reason"] == s["discardCode"] and
                r["bsf_queue"] == 0 and r["bsf_event_flags"] == 0 and
                depth == [r["bsf_depth_bytes"]] and r["bsf_delay_ns"] == 0):
            bad += 1
            continue
        recs.append(r)
    check(discards and bad == 0,
          "every 0:5 (%d) carries its drop's visibility_event last: type drop, event_id = "
          "own_id, its reason, queue 0 and depth (%d not)" % (len(discards), bad))
    ids = [r["bsf_own_id"] for r in recs]
    check(ids == sorted(set(ids)) and not (set(ids) & event_ids),
          "drop ids in 0:5 unique, increasing, never an event sample's id")
    return recs


def join_forensics(fx, recs, own_ids, final_out):
    """Every forensics event's event_id is the id of the drop that started
    its snapshot.  That drop went through the 1-in-2 drop sampler: either
    it passed, and its id is in a received 0:5 (joined), or it was sampled
    out.  A sampled-out drop is not sent, but it is counted: it lies
    between two received drops by id (ids come from one counter, in the
    order the events happen) and the drops field (dropEvents) of the next
    0:5 is higher than the previous one's by at least the number of such
    drops in between (after the last 0:5: the drop sampler's final count
    of drops sampled out, from E:7, instead of the next 0:5's).  Anything
    else, such as an id no drop had or an exported event's id, fails."""
    by_id = {r["bsf_own_id"]: r for r in recs}
    ids = sorted(by_id)
    snap = sorted({f["bsf_event_id"] for f in fx})
    joined = [x for x in snap if x in by_id]
    out = [x for x in snap if x not in by_id]
    ok = all(f["bsf_reason"] == by_id[f["bsf_event_id"]]["bsf_reason"] and
             f["bsf_queue"] == by_id[f["bsf_event_id"]]["bsf_queue"]
             for f in fx if f["bsf_event_id"] in by_id)
    gaps = {}  # index of the next received drop -> sampled-out ids before it
    for x in out:
        k = next((i for i, y in enumerate(ids) if y > x), len(ids))
        gaps.setdefault(k, []).append(x)
    for k, xs in sorted(gaps.items()):
        before = recs_by_order(by_id, ids, k - 1)
        after = recs_by_order(by_id, ids, k)
        lo = before["dropEvents"] if before else 0
        hi = after["dropEvents"] if after else final_out
        if hi is None or set(xs) & set(own_ids) or hi - lo < len(xs):
            ok = False
            print("  drop ids %s between 0:5 drops %s and %s: drops sampled out %s -> %s" %
                  (xs, before and before["bsf_own_id"], after and after["bsf_own_id"], lo, hi))
    check(snap and ok,
          "every forensics snapshot's event_id (%d) is a drop's: %d in a received 0:5 (same "
          "reason and queue), %d of drops sampled out (counted in the next 0:5's drops "
          "field)" % (len(snap), len(joined), len(out)))


def port_samples_expected(starts):
    """Which congestion starts (all of port 0, in order) get an out-of-cycle
    counters sample: the first, then each one second or more (event time)
    after the previous one that got it."""
    last, out = None, []
    for a in starts:
        due = last is None or a["t"] < last or a["t"] - last >= 1_000_000_000
        if due:
            last = a["t"]
        out.append(due)
    return out


def recs_by_order(by_id, ids, k):
    return by_id[ids[k]] if 0 <= k < len(ids) else None


def main():
    samples = load(sys.argv[1])
    log = open(sys.argv[2]).read()
    streamed = re.search(r"enqueue and dequeue events from (\d+) queues", log) is not None
    m = re.findall(r"events read; (\d+) events lost to a full queue", log)
    lost_events = int(m[-1]) if m else 0
    if not streamed:
        note("the backend did not stream queue events: forensics and exact congestion "
             "are not checked (polled depths only)")

    events, flows, discards = [], [], []
    counters = {}  # source -> list of (arrival index, sample)
    for i, s in enumerate(samples):
        tag = s.get("sampleType_tag")
        if tag == "%d:1" % ENT:
            ev = event_of(s)
            if ev is None:
                check(False, "event sample %s #%s has its event record" %
                      (s.get("sourceId"), s.get("sampleSequenceNo")))
                continue
            ev["i"] = i
            events.append(ev)
        elif tag == "0:3":
            flows.append(s)
        elif tag == "0:5":
            discards.append(s)
        elif tag == "0:4":
            counters.setdefault(s["sourceId"], []).append((i, s))

    drop_recs = check_discards(discards, own_ids_of(events))

    # ---- never in a packet sample
    bad = [s for s in flows if any(str(e.get("flowBlock_tag", "")).startswith("%d:" % ENT) or
                                   any(k.startswith("bsf_") for k in e)
                                   for e in s.get("elements", []))]
    check(len(flows) > 0 and not bad,
          "%d packet samples (0:3), none carrying a visibility event" % len(flows))

    # ---- event samples: where, numbering, records
    check(len(events) > 0, "%d visibility event samples" % len(events))
    check(all(e["source"] == "0:1" and e["output"] == 1 for e in events),
          "every event on port 0's data source 0:1 (output ifIndex 1)")
    seqs = [e["seq"] for e in events]
    check(seqs == list(range(1, len(seqs) + 1)),
          "event sample sequence numbers 1..%d without gap" % len(seqs))
    check(all(e["tags"][0] == "%d:1" % ENT and e["tags"][-1] == "0:1043" for e in events),
          "event record first, time record last")
    types = {}
    for e in events:
        types.setdefault(e["bsf_event_type"], []).append(e)
    check(set(types) <= {"high_delay", "forensics", "congestion_start", "congestion_end"},
          "event types: %s" % ", ".join("%s %d" % (k, len(v)) for k, v in sorted(types.items())))
    own_ids = [e["bsf_own_id"] for e in events]
    check(len(set(own_ids)) == len(own_ids) and own_ids == sorted(own_ids),
          "own ids unique and increasing")

    # ---- congestion: one episode per period
    starts = types.get("congestion_start", [])
    ends = types.get("congestion_end", [])
    if streamed:
        check(len(starts) == PERIODS and len(ends) == PERIODS,
              "%d congestion starts and %d ends (one per period: %d)" %
              (len(starts), len(ends), PERIODS))
        t0 = starts[0]["t"] if starts else 0
        for k, (a, b) in enumerate(zip(starts, ends)):
            dur = b["bsf_duration_ns"]
            ok = (abs(a["t"] - t0 - k * PERIOD) <= 2 * T and
                  HIGH <= a["bsf_depth_bytes"] <= HIGH + FRAME and
                  b["bsf_depth_bytes"] <= LOW and
                  (QFRAMES - 1) * FRAME <= b["bsf_peak_bytes"] <= QFRAMES * FRAME and
                  a["t"] <= b["bsf_peak_time_ns"] <= b["t"] and
                  dur == b["t"] - a["t"] and 89 * T <= dur <= 101 * T and
                  a["bsf_queue"] == 0 and
                  # the end carries its start's id
                  b["bsf_event_id"] == a["bsf_own_id"] == a["bsf_event_id"] and
                  b["bsf_own_id"] != a["bsf_own_id"])
            check(ok, "episode %d: start at +%.3f ms depth %d, peak %d at +%.1f us, end depth "
                  "%d, duration %.1f us (closed form ~%.1f us)" %
                  (k, (a["t"] - t0) / 1e6, a["bsf_depth_bytes"], b["bsf_peak_bytes"],
                   (b["bsf_peak_time_ns"] - a["t"]) / 1e3, b["bsf_depth_bytes"], dur / 1e3,
                   95 * T / 1e3))
    else:
        check(len(starts) >= 1 and len(ends) <= len(starts),
              "%d congestion starts, %d ends from polled depths" % (len(starts), len(ends)))
        check(all(HIGH <= e["bsf_peak_bytes"] <= QFRAMES * FRAME for e in starts + ends),
              "polled peaks between high and the queue limit")

    # ---- a congestion start gets an out-of-cycle counters sample of its
    # port at most once a second (by event time), sent just before the
    # start's event sample, whose flag bit 0 says so
    want = port_samples_expected(starts)
    check(all(bool(a["bsf_event_flags"] & 1) == w for a, w in zip(starts, want)),
          "flag bit 0 on exactly the starts 1 s or more after the previous one with a port "
          "sample (%d of %d starts)" % (sum(want), len(starts)))
    port0 = [i for i, _ in counters.get("0:1", [])]
    missing = 0
    for k, a in enumerate(starts):
        prev = starts[k - 1]["i"] if k else -1
        if want[k] and not any(prev < i < a["i"] for i in port0):
            missing += 1
    check(starts and missing == 0,
          "every flagged congestion start preceded by a counters sample of 0:1 (%d missing)" %
          missing)
    extra = len(counters.get("0:1", [])) - len(counters.get("0:2", []))
    check(sum(want) - 1 <= extra <= sum(want) + 1,
          "port 0 sent %d counters samples more than idle port 1 (%d port samples due)" %
          (extra, sum(want)))

    # ---- high delay: above the threshold, at most TICKETS a ticket period
    delays = types.get("high_delay", [])
    check(len(delays) > 0 and all(e["bsf_delay_ns"] > DELAY_T and e["bsf_level"] == 1
                                  for e in delays),
          "%d high-delay events, each above 200 us at level 1" % len(delays))
    check(all(e["bsf_delay_ns"] <= (QFRAMES + 2) * T for e in delays),
          "no delay above a full queue's (%d frames)" % (QFRAMES + 2))
    per = {}
    for e in delays:
        per[e["t"] // PERIOD] = per.get(e["t"] // PERIOD, 0) + 1
    check(per and max(per.values()) <= TICKETS,
          "at most %d high-delay events per 100 ms ticket period (most: %d)" %
          (TICKETS, max(per.values()) if per else 0))

    # ---- forensics: the last drop of each burst tags what was queued
    fx = types.get("forensics", [])
    if streamed:
        last = [e for e in fx if e["bsf_event_flags"] & 2]
        check(len(last) == PERIODS, "%d last tagged departures (one per period)" % len(last))
        for e in last:
            n = sum(1 for f in fx if f["bsf_event_id"] == e["bsf_event_id"])
            check(QFRAMES - 1 <= n <= QFRAMES,
                  "snapshot of drop %d: %d tagged departures (63 or 64 frames queued)" %
                  (e["bsf_event_id"], n))
        check(all(f["bsf_event_id"] < f["bsf_own_id"] and f["bsf_reason"] == 259 for f in fx),
              "every forensics event carries an earlier drop's id and reason 259")
    else:
        check(not fx, "no forensics without queue event streams")

    # ---- sampler statistics (E:7 of the last device sample, taken after
    # the scenario ended) add up and match what arrived
    dev = counters.get("2:1", [])
    stats = {}
    for _, s in dev:
        for e in s.get("elements", []):
            if e.get("counterBlock_tag") == "%d:7" % ENT:
                stats = {}
                for j in range(e["bsf_sampler_count"]):
                    p = "bsf_sampler_%d_" % j
                    stats[e[p + "name"]] = {k[len(p):]: v for k, v in e.items()
                                            if k.startswith(p)}
    check(set(stats) == {"drops_s", "delay_s"}, "E:7 in the device sample: %s" %
          ", ".join(sorted(stats)))
    rej = ("not_eligible", "duplicate", "limiter", "recurrent", "no_ticket", "probability",
           "flow_filter", "downstream")
    for name, st in sorted(stats.items()):
        check(st["seen"] == st["passed"] + sum(st["rejected_" + r] for r in rej),
              "sampler %s: seen %d = passed %d + rejected %d" %
              (name, st["seen"], st["passed"], sum(st["rejected_" + r] for r in rej)))
    if "drops_s" in stats and "delay_s" in stats:
        d, y = stats["drops_s"], stats["delay_s"]
        final = None
        for _, s in counters.get("0:1", []):
            for e in s.get("elements", []):
                if e.get("counterBlock_tag") == "0:1" and e.get("ifIndex") == 1:
                    final = e["ifOutDiscards"]
        if lost_events == 0:
            check(d["seen"] == final, "drop sampler saw every drop: %d = port 0's "
                  "ifOutDiscards %s" % (d["seen"], final))
        else:
            note("%d events lost to the backend's full queue" % lost_events)
        check(d["passed"] == len(discards) and d["passed"] == d["seen"] // 2 and
              d["rejected_probability"] == d["seen"] - d["seen"] // 2,
              "1-in-2 drop sampler: %d seen, %d passed = %d 0:5 received" %
              (d["seen"], d["passed"], len(discards)))
        last_drops = discards[-1]["dropEvents"] if discards else -1
        check(0 <= d["rejected_probability"] - last_drops <= 1,
              "last 0:5 drops field %d = drops sampled out %d (less the last if it came "
              "after)" % (last_drops, d["rejected_probability"]))
        check(y["passed"] == len(delays),
              "delay sampler passed %d = high-delay events received %d" %
              (y["passed"], len(delays)))
        check(y["seen"] == y["passed"] + y["rejected_no_ticket"] and y["ticket_batch"] == 10,
              "delay sampler rejects for tickets only (%d), batch 10" % y["rejected_no_ticket"])
        last_drops = events[-1]["drops"] if events else -1
        check(0 <= last_drops <= y["rejected_no_ticket"] and
              all(a["drops"] <= b["drops"] for a, b in zip(events, events[1:])),
              "event samples' drops field never decreases and ends at %d <= %d rejected "
              "for tickets" % (last_drops, y["rejected_no_ticket"]))
    if streamed:
        final_out = stats["drops_s"]["rejected_probability"] if "drops_s" in stats else None
        join_forensics(fx, drop_recs, own_ids, final_out)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
