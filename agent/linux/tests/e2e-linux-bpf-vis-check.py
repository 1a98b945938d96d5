#!/usr/bin/env python3
# agent/linux/tests/e2e-linux-bpf-vis-check.py - the assertions of
# e2e-linux-bpf-vis.sh on what bsflow-collect -j decoded and what the
# daemon logged.  The queue: a tbf at 5 Mbit/s holding 30 000 bytes of
# 1042-byte frames (28 fit: 29 176 bytes), so a packet's queue delay is
# at most 30 000 x 8 / 5e6 = 48 ms (+ 10 % + 2 ms); two overload bursts.
#   - the agent streams the queue: the log says enqueue and dequeue
#     events come from 1 queue, and the kernel's stream events read plus
#     lost make up an enqueue and a dequeue of every packet the tbf sent
#     (2 x SENT, within 1 % + 10), none lost;
#   - high delay (threshold 20 ms): events, each with a delay above 20 ms
#     and at most the bound, level 1, queue 0;
#   - congestion (high 20 000, low 5 000 bytes): exactly one episode per
#     burst (2 starts, 2 ends): a start's depth at least 20 000 and less
#     than one frame above (the stream sees the crossing), an end's depth
#     at most 5 000, its peak between 95 % of the 29 176 bytes the tbf
#     holds and 30 000, its duration at least the 1.5 s burst and less
#     than the burst + 1 s; the end carries its start's id;
#   - forensics: events tagged with an earlier drop's id and reason 259
#     (no_buffer_space), queue 0;
#   - every event on the port's data source, output ifIndex the port.
# Usage: e2e-linux-bpf-vis-check.py COLLECT.json IFINDEX SENT BSFLOWD.log
#
# SPDX-License-Identifier: BSD-2-Clause
import json
import re
import sys

ENT = 32473
col, ifx, sent, logf = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
FRAME, LIMIT, RATE = 1042, 30000, 5e6
HOLD = (LIMIT // FRAME) * FRAME
BOUND = LIMIT * 8 / RATE * 1.1 + 2e-3
HIGH, LOW, DELAY = 20000, 5000, 20e-3
BURST = 1.5
rc = 0


def fail(msg):
    global rc
    print("FAIL: " + msg)
    rc = 1


events = []
for line in open(col):
    for s in json.loads(line).get("samples", []):
        rec = None
        for e in s.get("elements", []):
            if e.get("flowBlock_tag") == "%d:1" % ENT and s.get("sampleType") != "DISCARD":
                rec = dict(e)
        if rec is None:
            continue
        rec["source"] = s.get("sourceId")
        rec["output"] = s.get("outputPort")
        events.append(rec)
log = open(logf).read()

if not re.search(r"visibility: enqueue and dequeue events from 1 queues", log):
    fail("the agent does not stream the queue's events")
m = re.findall(r"(\d+) queue events read, (\d+) lost in the kernel", log)
if not m:
    fail("no queue event counts in the log")
else:
    read, lost = int(m[-1][0]), int(m[-1][1])
    print("queue events: %d read, %d lost; the tbf sent %d packets (2 x %d = %d)" %
          (read, lost, sent, sent, 2 * sent))
    if lost:
        fail("%d queue events lost" % lost)
    if abs(read + lost - 2 * sent) > 0.01 * 2 * sent + 10:
        fail("%d queue events for %d packets" % (read + lost, sent))

types = {}
for e in events:
    types.setdefault(e["bsf_event_type"], []).append(e)
print("events: %s" % ", ".join("%s %d" % (k, len(v)) for k, v in sorted(types.items())))
for e in events:
    if e["source"] != "0:%d" % ifx or e["output"] != ifx:
        fail("event on %s, output %s; 0:%d, %d expected" % (e["source"], e["output"], ifx, ifx))
        break

delays = types.get("high_delay", [])
if not delays:
    fail("no high-delay event")
bad = [e for e in delays if not (DELAY * 1e9 < e["bsf_delay_ns"] <= BOUND * 1e9 and
                                 e["bsf_level"] == 1 and e["bsf_queue"] == 0)]
if delays:
    print("high delay: %d events, %.1f .. %.1f ms" %
          (len(delays), min(e["bsf_delay_ns"] for e in delays) / 1e6,
           max(e["bsf_delay_ns"] for e in delays) / 1e6))
if bad:
    fail("%d high-delay events outside (20 ms, %.1f ms], level 1, queue 0: %s" %
         (len(bad), BOUND * 1e3, bad[0]))

starts, ends = types.get("congestion_start", []), types.get("congestion_end", [])
print("congestion: starts at %s bytes; ends at %s bytes, peaks %s, durations %s ms" %
      ([a["bsf_depth_bytes"] for a in starts], [b["bsf_depth_bytes"] for b in ends],
       [b["bsf_peak_bytes"] for b in ends], [round(b["bsf_duration_ns"] / 1e6) for b in ends]))
if len(starts) != 2 or len(ends) != 2:
    fail("%d congestion starts, %d ends; one of each per burst (2) expected" %
         (len(starts), len(ends)))
for a, b in zip(starts, ends):
    if not (HIGH <= a["bsf_depth_bytes"] < HIGH + FRAME and a["bsf_queue"] == 0):
        fail("congestion start at %d bytes on queue %d" % (a["bsf_depth_bytes"], a["bsf_queue"]))
    if not (b["bsf_depth_bytes"] <= LOW and 0.95 * HOLD <= b["bsf_peak_bytes"] <= LIMIT and
            BURST * 1e9 <= b["bsf_duration_ns"] < (BURST + 1) * 1e9 and
            b["bsf_event_id"] == a["bsf_own_id"]):
        fail("congestion end: depth %d, peak %d, duration %.3f s, id %d (start %d)" %
             (b["bsf_depth_bytes"], b["bsf_peak_bytes"], b["bsf_duration_ns"] / 1e9,
              b["bsf_event_id"], a["bsf_own_id"]))

fx = types.get("forensics", [])
if not fx:
    fail("no forensics event")
if any(not (f["bsf_event_id"] < f["bsf_own_id"] and f["bsf_reason"] == 259 and
            f["bsf_queue"] == 0) for f in fx):
    fail("a forensics event without an earlier drop's id, reason 259 and queue 0")
sys.exit(rc)
