#!/bin/sh
# agent/model/tests/test_sim_stats.sh - bsflow-sim's delay percentiles,
# time-average occupancy, PFC XOFF time, packets held at paused senders
# and drops by priority group and class, each against a closed form, in
# the text report, the JSON report and the --interval series.
#
# 1. A deterministic 2:1 incast: ports 0 and 1 each send N = 1000 frames
#    of 1500 bytes back to back at 10 Gb/s (constant arrivals) to port 2
#    at 10 Gb/s.  A frame's wire time is w = (1500 + 20) * 8 / 10 = 1216
#    ns.  Round i (i = 0..N-1) brings two frames at t0 + i w (t0 = w);
#    the port sends one per w, so the frames' delays (arrival to last bit
#    out) are w x {1, 2, 2, 3, 3, ..., N, N, N + 1}: the nearest-rank p50
#    (rank 1000 of 2000) is 501 w, p99 (rank 1980) 991 w, p999 (rank
#    1998) 1000 w, max 1001 w, mean (N + 2) / 2 w.  The queue holds i + 2
#    frames on [t0 + i w, t0 + (i + 1) w) for i < N and 2N - i after, so
#    its byte-time integral is 1500 w (N^2 + 2N) and the time average over
#    the run T is that over T; Little's law, L = lambda W, says the same
#    from the departures (2000 frames of mean delay (N + 2)/2 w in T).
#    Per interval of the series: the integral of that step function over
#    the interval, and the percentiles of the departures in it (frame j,
#    0-based, leaves at t0 + (j + 1) w after a delay of (j // 2 + 1 +
#    j % 2) w).  Percentiles are read back as the upper end of a bucket
#    1/128 wide (bsflow-sim(1)): exact <= read <= min(exact (1 + 1/128),
#    max).
# 2. PFC: port 1 (10G) sends a lossless class (DSCP 24: class 3, PG 3) at
#    line rate to port 0 (1G): the sender can be active a tenth of the
#    time only, so over a run much longer than a pause cycle XOFF is out
#    for ~90 % of it (+-3 %); the frames the paused sender holds back are
#    every frame generated (T / w10, w10 = 1216 ns) not yet arrived
#    (held_now + rx_pkts = generated, within one); none of class 3 is
#    dropped.  Port 2 (10G) sends class 0 (lossy) at line rate to port 3
#    (1G) with a 64 KB queue: the drops of class 0 and PG 0 at port 2 are
#    ~90 % of its frames, and equal the queue's drops counted apart.
# 3. M/D/1: port 0 sends 1500-byte frames (service time S = 1216 ns at 10
#    Gb/s) with Poisson arrivals at 80 % of the line (rho = 0.8) to port 1
#    for 1 s (~658 000 frames): the mean time in the system is W = S (1 +
#    rho / (2 (1 - rho))) = 3 S = 3648 ns and the mean number in it L =
#    lambda W = rho W / S = 2.4 frames, so the time-average occupancy is
#    2.4 x 1500 = 3600 bytes (both within 3 %, the sampling error of such a
#    run being below 1 %).
# 4. Starvation: ports 0 and 1 send class 7 (strict priority, the highest)
#    at line rate to port 2 at the same speed, port 3 class 0 at 10 %:
#    queue 7 never empties, so queue 0 sends nothing: it is marked starved
#    (JSON and text), holds 42 frames (64 KB of 256-byte cells, 6 cells a
#    frame) and drops the rest of the 10 ms / 12.16 us = 822 it is offered;
#    queue 7 is not starved.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
SIM="$top_builddir/agent/model/bsflow-sim"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bsfstats.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
fail() {
	echo "FAIL: $*"
	rc=1
}

cat >"$tmp/incast.conf" <<'EOC'
model {
	seed = 1
	ports = 3
	speed = 10G
	buffer = 16M
	unicast_queues = 8
	queue_min = 0
	queue_limit = 4M
	sampling_rate = 0
	traffic burst {
		ports = {0, 1}
		destination = fixed
		to = 2
		rate = 100%
		arrival = constant
		size = 1500
		packets = 1000
		dscp = 0
		flows = 1
	}
}
EOC
"$SIM" -f "$tmp/incast.conf" --duration 0.01 --json >"$tmp/incast.json" || fail "incast --json exit $?"
"$SIM" -f "$tmp/incast.conf" --duration 0.01 >"$tmp/incast.txt" || fail "incast text exit $?"
"$SIM" -f "$tmp/incast.conf" --duration 0.005 --interval 0.001 >"$tmp/incast.jsonl" ||
	fail "incast --interval exit $?"
"$SIM" -f "$tmp/incast.conf" --duration 0.005 --interval 0.001 --csv >"$tmp/incast.csv" ||
	fail "incast --interval --csv exit $?"
python3 - "$tmp" <<'EOP' || rc=1
import json, math, sys, csv
d = sys.argv[1]
N, W, L, T = 1000, 1216, 1500, 0.01e9
t0 = W
delays = sorted((j // 2 + 1 + j % 2) * W for j in range(2 * N))
def rank(vals, q):
    return vals[max(1, math.ceil(q * len(vals))) - 1]
want = {"p50": 501 * W, "p99": 991 * W, "p999": 1000 * W, "max": 1001 * W}
assert rank(delays, 0.5) == want["p50"] and rank(delays, 0.99) == want["p99"]
assert rank(delays, 0.999) == want["p999"] and delays[-1] == want["max"]
mean = (N + 2) / 2 * W
area = L * W * (N * N + 2 * N)
avg = area / T
bad = []
def near(name, got, exact, mx):
    if not (exact <= got <= min(exact * (1 + 1 / 128), mx)):
        bad.append("%s: %s, want %s (+1/128, at most %s)" % (name, got, exact, mx))

# JSON report
j = json.load(open(d + "/incast.json"))
q = [x for x in j["queues"] if x["port"] == 2 and x["queue"] == 0 and not x["multicast"]][0]
if q["tx_pkts"] != 2 * N or sum(q["drops"].values()) != 0 or q["starved"]:
    bad.append("json queue: %s" % q)
dl = q["delay_ns"]
for k in ("p50", "p99", "p999"):
    near("json " + k, dl[k], want[k], want["max"])
if dl["max"] != want["max"] or abs(dl["mean"] - mean) > 0.5:
    bad.append("json max/mean %s %s, want %s %s" % (dl["max"], dl["mean"], want["max"], mean))
if abs(q["avg_bytes"] - avg) > 0.1:
    bad.append("json avg_bytes %s, want %s" % (q["avg_bytes"], avg))
# Little's law from the report's own departures and delays
little = q["tx_pkts"] / T * dl["mean"] * L
if abs(q["avg_bytes"] - little) > 1e-6 * avg + 0.1:
    bad.append("Little: avg_bytes %s, lambda W %s" % (q["avg_bytes"], little))

# text report: the same figures (microseconds, 3 decimals)
rows = [l.split() for l in open(d + "/incast.txt")]
hdr = [r for r in rows if r[:2] == ["port", "q"]][0]
row = dict(zip(hdr, [r for r in rows if r[:2] == ["2", "uc0"]][0]))
if abs(float(row["avg_bytes"]) - avg) > 0.1 or row["note"] != "-":
    bad.append("text avg_bytes/note %s" % row)
for k in ("p50", "p99", "p999"):
    near("text " + k, float(row[k]) * 1000, want[k] - 0.5, want["max"] + 0.5)

# the series: per interval, the integral of the step function and the
# percentiles of the departures in it
def count(i):
    return i + 2 if i < N else (2 * N - i if i < 2 * N else 0)
def integral(a, b):
    s, t = 0.0, a
    while t < b:
        if t < t0:
            nxt = min(b, t0); c = 0
        else:
            i = int((t - t0) // W)
            nxt = min(b, t0 + (i + 1) * W); c = count(i)
        s += c * (nxt - t); t = nxt
    return s * L
deps = [(t0 + (j + 1) * W, (j // 2 + 1 + j % 2) * W) for j in range(2 * N)]
ser = [json.loads(l) for l in open(d + "/incast.jsonl")]
qr = [r for r in ser if r.get("queue") == 0 and r["port"] == 2]
if [round(r["time_s"], 6) for r in qr] != [0.001, 0.002, 0.003]:
    bad.append("series rows at %s" % [r["time_s"] for r in qr])
for r in qr:
    b = round(r["time_s"] * 1e9); a = b - 1e6
    ia = integral(a, b) / 1e6
    if abs(r["avg_bytes"] - ia) > 0.1:
        bad.append("series %s avg_bytes %s, want %s" % (b, r["avg_bytes"], ia))
    ds = sorted(x for t, x in deps if a < t <= b)
    if r["sent"] != len(ds):
        bad.append("series %s sent %s, want %s" % (b, r["sent"], len(ds)))
    for k, qq in (("delay_p50_ns", 0.5), ("delay_p99_ns", 0.99), ("delay_p999_ns", 0.999)):
        near("series %d %s" % (b, k), r[k], rank(ds, qq), ds[-1])
crow = [c for c in csv.DictReader(open(d + "/incast.csv")) if c["port"] == "2" and c["queue"] == "0"]
if len(crow) != 3 or abs(float(crow[0]["avg_bytes"]) - integral(0, 1e6) / 1e6) > 0.1:
    bad.append("csv rows %s" % crow[:1])
if bad:
    print("FAIL: incast:\n  " + "\n  ".join(bad))
    sys.exit(1)
print("ok: incast: p50 %d p99 %d p999 %d ns, avg %.1f B (closed form and Little), 3 intervals"
      % (dl["p50"], dl["p99"], dl["p999"], q["avg_bytes"]))
EOP

cat >"$tmp/pfc.conf" <<'EOC'
model {
	seed = 1
	ports = 4
	speed = 10G
	port 0 { speed = 1G }
	port 3 { speed = 1G }
	buffer = 4M
	unicast_queues = 8
	queue_min = 0
	queue_limit = 64K
	lossless = {3}
	headroom = 64K
	xoff = 32K
	xon = 16K
	pfc_delay = 1us
	sampling_rate = 0
	traffic lossless {
		ports = {1}
		destination = fixed
		to = 0
		rate = 100%
		arrival = constant
		size = 1500
		dscp = 24
		flows = 1
	}
	traffic lossy {
		ports = {2}
		destination = fixed
		to = 3
		rate = 100%
		arrival = constant
		size = 1500
		dscp = 0
		flows = 1
	}
}
EOC
"$SIM" -f "$tmp/pfc.conf" --duration 0.05 --json >"$tmp/pfc.json" || fail "pfc --json exit $?"
"$SIM" -f "$tmp/pfc.conf" --duration 0.05 >"$tmp/pfc.txt" || fail "pfc text exit $?"
"$SIM" -f "$tmp/pfc.conf" --duration 0.05 --interval 0.01 >"$tmp/pfc.jsonl" ||
	fail "pfc --interval exit $?"
python3 - "$tmp" <<'EOP' || rc=1
import json, math, sys
d = sys.argv[1]
T = 0.05
gen = math.floor(T * 1e9 / 1216)  # frames one 10G sender makes at line rate
j = json.load(open(d + "/pfc.json"))
p1, p2 = j["ports"][1], j["ports"][2]
g3, g0 = p1["pgs"][3], p2["pgs"][0]
bad = []
frac = g3["pfc_xoff_s"] / T
if not 0.87 <= frac <= 0.93:
    bad.append("XOFF out %.3f of the time, want 0.9 +- 0.03" % frac)
if abs(g3["held_now"] + p1["rx_pkts"] - gen) > 1:
    bad.append("held_now %d + arrived %d != generated %d" % (g3["held_now"], p1["rx_pkts"], gen))
if not g3["held"] >= g3["held_now"] > 0 or g3["pfc_xoff"] == 0:
    bad.append("held %d, held_now %d, xoff %d" % (g3["held"], g3["held_now"], g3["pfc_xoff"]))
if g3["drops"] != 0 or p1["drops_by_class"][3] != 0:
    bad.append("lossless class dropped: %s %s" % (g3["drops"], p1["drops_by_class"]))
q3 = [q for q in j["queues"] if q["port"] == 3 and q["queue"] == 0][0]
qd = sum(q3["drops"].values())
if not (g0["drops"] == p2["drops_by_class"][0] == qd) or abs(qd / gen - 0.9) > 0.01:
    bad.append("lossy drops: pg %d class %d queue %d of %d" % (g0["drops"], p2["drops_by_class"][0], qd, gen))
if sum(p2["drops_by_class"]) != p2["drops_by_class"][0]:
    bad.append("lossy drops in other classes: %s" % p2["drops_by_class"])
if j["totals"]["held_now"] != g3["held_now"]:
    bad.append("totals held_now %s" % j["totals"]["held_now"])
# service pools in the JSON, as in the text
pools = j["pools"]
txt = open(d + "/pfc.txt").read()
for kind in ("ingress", "egress"):
    if len(pools[kind]) != 1 or ("%s pool 0: peak %d cells" % (kind, pools[kind][0]["peak_cells"])) not in txt:
        bad.append("%s pool: json %s not in the text" % (kind, pools[kind]))
# text: the PG row of port 1 PG 3 carries the same XOFF time
rows = [l.split() for l in txt.splitlines()]
pgrow = [r for r in rows if r[:2] == ["1", "3"] and len(r) == 11]
if not pgrow or abs(float(pgrow[0][7]) - g3["pfc_xoff_s"]) > 1e-6:
    bad.append("text PG row %s" % pgrow)
# the series: per interval XOFF time and drops add up to the run's
ser = [json.loads(l) for l in open(d + "/pfc.jsonl")]
s1 = [r for r in ser if r.get("port") == 1 and "pfc_xoff_s" in r]
s2 = [r for r in ser if r.get("port") == 2 and "drops_by_pg" in r]
if len(s1) != 5 or abs(sum(r["pfc_xoff_s"][3] for r in s1) - g3["pfc_xoff_s"]) > 1e-6:
    bad.append("series XOFF time %s" % [r["pfc_xoff_s"][3] for r in s1])
if sum(r["drops_by_pg"][0] for r in s2) != g0["drops"] or sum(r["drops_by_class"][0] for r in s2) != g0["drops"]:
    bad.append("series drops %s" % [r["drops_by_pg"][0] for r in s2])
if s1 and (s1[-1]["held_now"][3] != g3["held_now"] or sum(r["held"][3] for r in s1) != g3["held"]):
    bad.append("series held %s" % [(r["held"][3], r["held_now"][3]) for r in s1])
# XOFF is out ~90 % of the time: at some interval ends, for PG 3 only
now = [r["pfc_xoff_now"] for r in s1]
if not any(n[3] for n in now) or any(n[g] for n in now for g in range(8) if g != 3) or \
        any(n[3] not in (0, 1) for n in now):
    bad.append("series pfc_xoff_now %s" % now)
if bad:
    print("FAIL: pfc:\n  " + "\n  ".join(bad))
    sys.exit(1)
print("ok: pfc: XOFF %.1f %% of the time, %d held (%d now), lossy drops %d of %d"
      % (100 * frac, g3["held"], g3["held_now"], qd, gen))
EOP
cat >"$tmp/starve.conf" <<'EOC'
model {
	seed = 1
	ports = 4
	speed = 10G
	buffer = 4M
	unicast_queues = 8
	queue_min = 0
	queue_limit = 64K
	sampling_rate = 0
	traffic high {
		ports = {0, 1}
		destination = fixed
		to = 2
		rate = 100%
		arrival = constant
		size = 1500
		dscp = 56
		flows = 1
	}
	traffic low {
		ports = {3}
		destination = fixed
		to = 2
		rate = 10%
		arrival = constant
		size = 1500
		dscp = 0
		flows = 1
	}
}
EOC
"$SIM" -f "$tmp/starve.conf" --duration 0.01 --json >"$tmp/starve.json" || fail "starve exit $?"
"$SIM" -f "$tmp/starve.conf" --duration 0.01 >"$tmp/starve.txt" || fail "starve text exit $?"
python3 - "$tmp/starve.json" "$tmp/starve.txt" <<'EOP' || rc=1
import json, sys
qs = {x["queue"]: x for x in json.load(open(sys.argv[1]))["queues"] if x["port"] == 2}
q0, q7 = qs[0], qs[7]
rows = {l.split()[1]: l.split() for l in open(sys.argv[2]) if l.startswith("2 ")}
ok = q0["starved"] and q0["tx_pkts"] == 0 and not q7["starved"] and q7["tx_pkts"] > 0
ok = ok and sum(q0["drops"].values()) == 822 - 42 and q0["occupancy"]["peak_bytes"] == 42 * 1500
ok = ok and rows["uc0"][-1] == "starved" and rows["uc7"][-1] == "-"
if not ok:
    print("FAIL: starved: q0 %s q7 %s text %s" % (q0, q7["starved"], rows))
    sys.exit(1)
print("ok: starved: queue 0 behind strict-priority queue 7 sent nothing, dropped 780 of 822")
EOP

cat >"$tmp/md1.conf" <<'EOC'
model {
	seed = 3
	ports = 2
	speed = 10G
	buffer = 16M
	unicast_queues = 8
	queue_limit = 8M
	sampling_rate = 0
	traffic md1 {
		ports = {0}
		destination = fixed
		to = 1
		rate = 80%
		arrival = poisson
		size = 1500
		dscp = 0
		flows = 1
	}
}
EOC
"$SIM" -f "$tmp/md1.conf" --duration 1 --json >"$tmp/md1.json" || fail "M/D/1 exit $?"
python3 - "$tmp/md1.json" <<'EOP' || rc=1
import json, sys
q = [x for x in json.load(open(sys.argv[1]))["queues"] if x["port"] == 1 and x["queue"] == 0][0]
S, rho = 1216.0, 0.8
W = S * (1 + rho / (2 * (1 - rho)))
L = rho * W / S * 1500
m, a = q["delay_ns"]["mean"], q["avg_bytes"]
if abs(m / W - 1) > 0.03 or abs(a / L - 1) > 0.03:
    print("FAIL: M/D/1: mean delay %.1f ns (want %.1f), time-average occupancy %.1f B (want %.1f)" % (m, W, a, L))
    sys.exit(1)
print("ok: M/D/1 rho 0.8: mean delay %.1f ns (closed form %.1f), occupancy %.1f B (%.1f)" % (m, W, a, L))
EOP
exit $rc
