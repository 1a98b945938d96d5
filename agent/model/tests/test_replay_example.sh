#!/bin/sh
# agent/model/tests/test_replay_example.sh - the shipped replay example
# runs as shipped: bsflow-sim -f etc/scenarios/replay.conf plays
# etc/scenarios/capture.pcap (gen-capture.py).  By construction of the
# capture: VLAN 10 and VLAN 20 carry the same frames, so ports 1 and 2
# receive alike; all of them leave by port 5 (192.0.2.0/24 in the egress
# map) and the IPv6 frames by port 6; the 2:1 bursts build port 5's
# queue 0 (above 100 KB).  The capture is regenerated and compared, so it
# stays what its generator says.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
SIM="$top_builddir/agent/model/bsflow-sim"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bsfreplay.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
python3 "$top_srcdir/etc/scenarios/gen-capture.py" "$tmp/capture.pcap" || rc=1
if cmp -s "$tmp/capture.pcap" "$top_srcdir/etc/scenarios/capture.pcap"; then
	echo "ok: capture.pcap is what gen-capture.py writes"
else
	echo "FAIL: etc/scenarios/capture.pcap differs from gen-capture.py's output"
	rc=1
fi
"$SIM" -f "$top_srcdir/etc/scenarios/replay.conf" --duration 0.05 --json >"$tmp/r.json" ||
	{ echo "FAIL: bsflow-sim on replay.conf exited $?"; exit 1; }
python3 - "$tmp/r.json" <<'EOP' || rc=1
import json, sys
d = json.load(open(sys.argv[1]))
ports = {p["port"]: p for p in d["ports"]}
def rx(p): return ports[p]["rx_pkts"]
def tx(p): return ports[p]["tx_pkts"]
q5 = [q for q in d["queues"] if q["port"] == 5 and q["queue"] == 0]
ok = (d["replays"] == 1 and rx(1) == rx(2) > 0 and tx(5) > 0 and tx(6) > 0 and
      tx(5) <= rx(1) + rx(2) and q5 and q5[0]["occupancy"]["peak_bytes"] > 100000)
print(("ok" if ok else "FAIL") + ": replay: rx port1 %d port2 %d, tx port5 %d port6 %d, port 5 queue 0 peak %s bytes"
      % (rx(1), rx(2), tx(5), tx(6), q5[0]["occupancy"]["peak_bytes"] if q5 else None))
sys.exit(0 if ok else 1)
EOP
exit $rc
