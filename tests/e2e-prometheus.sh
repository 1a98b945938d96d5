#!/bin/sh
# tests/e2e-prometheus.sh - bsflow-collect --prometheus against the real
# thing: Debian's prometheus package.
#  - `promtool check metrics` accepts the text exposition bsflow-collect
#    serves after bsflowd ran the congestion scenario (e2e-lib.sh), and the
#    OpenMetrics variant ends with "# EOF";
#  - a Prometheus server started here (temporary directory, loopback,
#    scrape interval 1 s) scrapes it without error, and its HTTP API gives
#    for queue 0 of port 0 (ifIndex 1) a BST peak ratio equal to what
#    bsflow-collect decoded in its last counters sample of that port
#    (bst_egress_queue_uc_pc[0] / 10000) and to the closed form: the
#    queue is full, 1.0; and the port's egress unicast ratio 1250 / 10000;
#  - every query of contrib/grafana/bsflowd-buffers.json runs on that
#    server (and those not about drops, gaps or delays return series);
#  - a 404 for another path.
# Skips (77) without prometheus/promtool or curl.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
e2e_init prometheus
for t in prometheus promtool curl; do
	command -v $t >/dev/null 2>&1 || e2e_skip "$t not installed (Debian: apt-get install prometheus curl)"
done
E2E_INTERVAL=1
tcp_port() {
	python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}
hport=$(tcp_port)
pport=$(tcp_port)
e2e_collect col -j -b 127.0.0.1 --prometheus "127.0.0.1:$hport"
cat >"$TMP/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: bsflow
    static_configs:
      - targets: ['127.0.0.1:$hport']
EOC
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$pport" >"$TMP/prometheus.log" 2>&1 &
ppid=$!
E2E_PIDS="$E2E_PIDS $ppid"
e2e_conf "$TMP/bsflowd.conf" "127.0.0.1:$cport"
e2e_daemon bsflowd "$TMP/bsflowd.conf" 90
e2e_until bsflowd "$TMP/col.out" 1 ifOutOctets 1 60 2
# the last values stay; the Python below waits until Prometheus has
# scraped them a few times (it may start slowly on a loaded machine)

curl -sf "http://127.0.0.1:$hport/metrics" >"$TMP/metrics.txt" || fail "GET /metrics failed"
if out=$(promtool check metrics <"$TMP/metrics.txt" 2>&1); then
	echo "ok: promtool check metrics: $(grep -vc '^#' "$TMP/metrics.txt") samples${out:+, $out}"
else
	fail "promtool check metrics: $out"
fi
curl -sf -H 'Accept: application/openmetrics-text; version=1.0.0' -D "$TMP/om.head" \
	"http://127.0.0.1:$hport/metrics" >"$TMP/om.txt"
if [ "$(tail -n 1 "$TMP/om.txt")" = "# EOF" ] &&
	grep -qi '^content-type: application/openmetrics-text' "$TMP/om.head"; then
	echo "ok: OpenMetrics when asked"
else
	fail "OpenMetrics: $(cat "$TMP/om.head")"
fi
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport/other")
[ "$code" = 404 ] && echo "ok: 404 elsewhere" || fail "GET /other: $code"

python3 - "$TMP/col.out" "$pport" "$top_srcdir/contrib/grafana/bsflowd-buffers.json" <<'EOP' || rc=1
import json, sys, time, urllib.parse, urllib.request
path, pport = sys.argv[1], sys.argv[2]
last = None
for line in open(path):
    if not line.strip():
        continue
    for s in json.loads(line).get("samples", []):
        if s.get("sampleType_tag") == "0:4" and s.get("sourceId") == "0:1":
            for e in s.get("elements", []):
                if e.get("counterBlock_tag") == "4413:2":
                    last = e
if last is None:
    print("FAIL: no 4413:2 record of 0:1 decoded"); sys.exit(1)
def api(q, what="query"):
    url = "http://127.0.0.1:%s/api/v1/%s?%s" % (pport, what, urllib.parse.urlencode(q))
    return json.load(urllib.request.urlopen(url, timeout=5))
def scraped():
    try:
        t = api({}, "targets")["data"]["activeTargets"]
        r = api({"query": "count_over_time(bsflow_datagrams_total[5s])"})["data"]["result"]
    except OSError:
        return False
    return bool(t) and t[0]["health"] == "up" and r and float(r[0]["value"][1]) >= 3
deadline = time.monotonic() + 60
while not scraped() and time.monotonic() < deadline:
    time.sleep(0.5)
ok = True
t = api({}, "targets")["data"]["activeTargets"]
if not t or t[0]["health"] != "up" or t[0]["lastError"]:
    print("FAIL: Prometheus target:", t); ok = False
else:
    print("ok: Prometheus scrapes bsflow-collect (health up, no error)")
checks = [
    ('bsflow_bst_queue_peak_ratio{source="0:1",queue="0",cast="unicast"}',
     last["bst_egress_queue_uc_pc"][0] / 10000, 1.0),
    ('bsflow_bst_port_peak_ratio{source="0:1",direction="egress",cast="unicast"}',
     last["bst_egress_uc_pc"] / 10000, 0.125),
]
for q, decoded, closed in checks:
    r = api({"query": q})["data"]["result"]
    if len(r) != 1:
        print("FAIL: %s: %d series" % (q, len(r))); ok = False; continue
    v = float(r[0]["value"][1])
    if v == decoded == closed:
        print("ok: %s = %g in Prometheus = decoded = closed form" % (q, v))
    else:
        print("FAIL: %s = %g in Prometheus, decoded %g, closed form %g" % (q, v, decoded, closed))
        ok = False
# every query of the Grafana dashboard runs on this server with a result
dash = json.load(open(sys.argv[3]))
for panel in dash["panels"]:
    for t in panel["targets"]:
        q = t["expr"].replace("$agent", ".*").replace("$__rate_interval", "5s")
        r = api({"query": q})
        if r["status"] != "success":
            print("FAIL: dashboard panel %r: %s" % (panel["title"], r)); ok = False
        elif not r["data"]["result"] and "drop" not in q and "gaps" not in q and "delay" not in q:
            print("FAIL: dashboard panel %r: no series for %s" % (panel["title"], q)); ok = False
print("ok: the Grafana dashboard's %d panels query this server" % len(dash["panels"]))
sys.exit(0 if ok else 1)
EOP
e2e_stop $cpid
exit $rc
