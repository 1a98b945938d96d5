#!/bin/sh
# tests/e2e-sim-sflow.sh - bsflow-sim --sflow and --sflow-to: bsflowd's
# datagrams for a scenario, on virtual time, decoded by bsflow-collect and
# tshark.
#
# The scenario is e2e-lib.sh's congestion (ports 1 and 2 send at 1 Gb/s
# line rate to port 0: queue 0 full, half of what arrives dropped) with
# packet sampling 1-in-100 and drop notifications at most 50 a second,
# agent 192.0.2.1, polling every 2 s, for 60 s of virtual time.  Virtual
# time is the clock: the run takes a few seconds of wall time, yet
#  - datagram sequence numbers run 1..N without a gap, uptimes never go
#    back, and the last one is within the last second of the run (59000 to
#    60000 ms): the exporter sends a pending datagram one second after its
#    first sample at the latest;
#  - each of the 5 data sources (4 ports, the device) sends exactly 30
#    counters samples (60 s / 2 s: the first poll falls at a random point
#    of the first 2 s), numbered 1..30, their datagrams 2000 +- 1000 ms of
#    uptime apart, spanning 58000 +- 1000 ms;
#  - the capture's packet times are wall0 + uptime: they advance with the
#    uptime to the millisecond, and every 0:1043 sample timestamp (the
#    flow samples' departure time, the drops' time) lies between wall0 and
#    its datagram's time;
#  - 0:5 notifications: at most 50 in each second of virtual time, one for
#    the first drop at least in every second (drops never stop), and the
#    drops field counts what the limit suppressed;
#  - tshark decodes every frame as sFlow with the same sequence numbers and
#    uptimes, sent to the file's collector's port (9, the capture's
#    destination); bsflow-collect --strict reads the capture without a
#    malformed datagram or a sequence gap;
#  - the same seed and --epoch give the same datagrams (sizes, sequence,
#    uptimes); the epoch is the capture's first second (1800000000);
#  - --sflow-to 127.0.0.1:PORT --speed 200 sends the same number of
#    datagrams to a bsflow-collect, no gap, and takes at least 60/200 s
#    of wall time (it is paced; a loaded machine only makes it slower).
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
e2e_init simsflow
SIM="$top_builddir/agent/model/bsflow-sim"
[ -x "$SIM" ] || {
	echo "FAIL: $SIM not built"
	exit 1
}
command -v tshark >/dev/null 2>&1 || e2e_skip "tshark not installed (apt-get install tshark)"

cat >"$TMP/s.conf" <<EOC
agent { address = 192.0.2.1 }
polling_interval = 2
collector c { address = 127.0.0.1  port = 9 }
sampling { default = 100 }
drops { limit = 50 }
$E2E_MODEL
EOC
# (the collector section is not used: bsflow-sim sends only where told)

"$SIM" -f "$TMP/s.conf" --duration 60 --seed 7 --epoch 1800000000 --json --sflow "$TMP/a.pcap" >"$TMP/a.json" \
	2>"$TMP/a.err" || fail "bsflow-sim --sflow exit $? $(cat "$TMP/a.err")"
"$SIM" -f "$TMP/s.conf" --duration 60 --seed 7 --epoch 1800000000 --json --sflow "$TMP/b.pcap" >"$TMP/b.json" \
	2>>"$TMP/a.err" || fail "second run exit $?"
[ -s "$TMP/a.err" ] && fail "messages: $(cat "$TMP/a.err")"
"$COLLECT" -r "$TMP/a.pcap" -j --strict >"$TMP/a.jsonl" 2>"$TMP/a.sum" ||
	fail "bsflow-collect --strict -r: exit $? $(tail -20 "$TMP/a.sum")"
"$COLLECT" -r "$TMP/b.pcap" -j >"$TMP/b.jsonl" 2>/dev/null
tshark -r "$TMP/a.pcap" -T fields -E occurrence=f -e frame.time_epoch -e sflow_245.sequence_number \
	-e sflow_245.sysuptime -e udp.dstport >"$TMP/a.tshark" 2>"$TMP/tshark.err" ||
	fail "tshark -r exit $?"

python3 - "$TMP" <<'EOP' || rc=1
import json, sys
from collections import defaultdict
d = sys.argv[1]
rep = json.load(open(d + "/a.json"))
dg = [json.loads(l) for l in open(d + "/a.jsonl")]
bad = []
n = len(dg)
if n == 0 or rep["sflow"]["datagrams"] != n:
    bad.append("%d datagrams decoded, bsflow-sim says %s" % (n, rep["sflow"]))
if [x["packetSequenceNo"] for x in dg] != list(range(1, n + 1)):
    bad.append("datagram sequence numbers not 1..%d" % n)
up = [x["sysUpTime"] for x in dg]
if any(b < a for a, b in zip(up, up[1:])) or not 59000 <= up[-1] <= 60000:
    bad.append("uptimes not non-decreasing up to 59000..60000 ms: last %s" % up[-1])
if {x["agent"] for x in dg} != {"192.0.2.1"}:
    bad.append("agents %s" % {x["agent"] for x in dg})
# counters samples per data source
cs = defaultdict(list)
for x in dg:
    for s in x["samples"]:
        if s["sampleType_tag"] == "0:4":
            cs[s["sourceId"]].append((s["sampleSequenceNo"], x["sysUpTime"]))
if sorted(cs) != ["0:1", "0:2", "0:3", "0:4", "2:1"]:
    bad.append("counters sources %s" % sorted(cs))
for src, v in cs.items():
    seqs, ups = [a for a, _ in v], [b for _, b in v]
    if seqs != list(range(1, 31)):
        bad.append("%s: counters sequence %s" % (src, seqs))
    gaps = [b - a for a, b in zip(ups, ups[1:])]
    if gaps and (min(gaps) < 1000 or max(gaps) > 3000 or not 57000 <= ups[-1] - ups[0] <= 59000):
        bad.append("%s: counters uptimes %s" % (src, ups))
# the capture's times follow the uptime; sample timestamps lie within
t = [l.rstrip("\n").split("\t") for l in open(d + "/a.tshark")]
if len(t) != n:
    bad.append("tshark: %d frames, want %d" % (len(t), n))
else:
    ep = [float(r[0]) for r in t]
    wall0 = ep[0] - up[0] / 1000
    for e, u, r, x in zip(ep, up, t, dg):
        if abs(e - (wall0 + u / 1000)) > 0.0015:
            bad.append("frame time %.6f vs uptime %d" % (e, u)); break
        if int(r[1]) != x["packetSequenceNo"] or int(r[2]) != u or r[3] != "9":
            bad.append("tshark fields %s vs %d %d" % (r, x["packetSequenceNo"], u)); break
    for x, e in zip(dg, ep):
        for s in x["samples"]:
            for el in s.get("elements", []):
                if el.get("flowBlock_tag") == "0:1043":
                    ts = el["timestamp_nS"] / 1e9
                    if not wall0 - 0.001 <= ts <= e + 0.001:
                        bad.append("0:1043 %.6f outside [%.6f, %.6f]" % (ts, wall0, e))
# 0:3 and 0:5 were sent; 0:5 at most 50 a second of virtual time, the
# suppressed ones counted
drops_per_s, flows, suppressed = defaultdict(int), 0, 0
for x, e in zip(dg, ep if len(t) == n else [0] * n):
    for s in x["samples"]:
        if s["sampleType_tag"] == "0:3":
            flows += 1
        if s["sampleType_tag"] == "0:5":
            ts = [el["discarded_timestamp_nS"] for el in s["elements"]
                  if el.get("discarded_flowBlock_tag") == "0:1043"]
            if not ts or not wall0 - 0.001 <= ts[0] / 1e9 <= e + 0.001:
                bad.append("0:5 timestamp %s outside [%.6f, %.6f]" % (ts, wall0, e))
                continue
            drops_per_s[int(ts[0] / 1e9) - int(wall0)] += 1
            suppressed += s["dropEvents"]
if flows == 0 or not drops_per_s or max(drops_per_s.values()) > 50 or len(drops_per_s) < 59:
    bad.append("flow samples %d, 0:5 per second %s" % (flows, dict(drops_per_s)))
if suppressed == 0:
    bad.append("the 0:5 drops field counted nothing suppressed")
# the same seed, the same datagrams
dg2 = [json.loads(l) for l in open(d + "/b.jsonl")]
key = lambda v: [(x["packetSequenceNo"], x["sysUpTime"], x["datagramSize"]) for x in v]
if key(dg) != key(dg2):
    bad.append("two runs with seed 7 differ")
if int(wall0) != 1800000000:
    bad.append("the capture starts at %.6f, not at --epoch 1800000000" % wall0)
if bad:
    print("FAIL: --sflow:\n  " + "\n  ".join(bad[:20]))
    sys.exit(1)
print("ok: --sflow: %d datagrams on 60 s of virtual time in %.1f s, 5 sources x 30 counters "
      "samples, %d flow samples, 0:5 at most %d/s" % (n, rep["wall_s"], flows, max(drops_per_s.values())))
EOP

# --sflow-to: a live bsflow-collect, paced
e2e_collect live -q --strict
start=$(date +%s.%N)
"$SIM" -f "$TMP/s.conf" --duration 60 --seed 7 --epoch 1800000000 --json --sflow-to "127.0.0.1:$cport" \
	--speed 200 >"$TMP/live.json" 2>"$TMP/sim.err" || fail "--sflow-to exit $? $(cat "$TMP/sim.err")"
end=$(date +%s.%N)
sleep 0.5
e2e_stop "$cpid"
python3 - "$TMP" "$start" "$end" <<'EOP' || rc=1
import json, re, sys
d, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
rep = json.load(open(d + "/live.json"))
a = json.load(open(d + "/a.json"))
summ = open(d + "/live.err").read()
got = int(re.search(r"^datagrams (\d+)$", summ, re.M).group(1))
gaps = int(re.search(r"^datagramsMissing (\d+)$", summ, re.M).group(1))
bad = []
if rep["sflow"]["datagrams"] != a["sflow"]["datagrams"] or rep["sflow"]["send_errors"]:
    bad.append("sent %s, the capture has %s" % (rep["sflow"], a["sflow"]["datagrams"]))
if got != rep["sflow"]["datagrams"] or gaps:
    bad.append("bsflow-collect got %d (%d missing) of %d" % (got, gaps, rep["sflow"]["datagrams"]))
if end - start < 0.9 * 60 / 200:
    bad.append("not paced: %.2f s of wall time for 60 s at 200x" % (end - start))
if bad:
    print("FAIL: --sflow-to:\n  " + "\n  ".join(bad))
    sys.exit(1)
print("ok: --sflow-to --speed 200: %d datagrams received, no gap, %.2f s" % (got, end - start))
EOP
exit $rc
