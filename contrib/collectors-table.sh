#!/bin/sh
# contrib/collectors-table.sh - the measurement behind README's "What each
# collector shows of bsflowd's data" for pmacct's sfacctd and nfdump's
# sfcapd: bsflow-sim --sflow-to sends 10 s of the demo configuration
# (etc/examples/demo.conf, seed 1, epoch 1800000000) to a bsflow-collect
# on loopback, which decodes every datagram (the reference) and forwards
# each one as received to sfacctd (print plugin, counters to a JSON file)
# and sfcapd (-E, flows to an nfdump file); then it prints what each kept.
# Needs the build tree (BUILD, default .) and pmacct, nfdump-sflow,
# python3.  Run from the source tree: sh contrib/collectors-table.sh BUILD
#
# SPDX-License-Identifier: BSD-2-Clause
set -u
BUILD=${1:-.}
SRC=$(cd "$(dirname "$0")/.." && pwd)
SIM="$BUILD/agent/model/bsflow-sim"
COLLECT="$BUILD/collector/bsflow-collect"
for t in sfacctd sfcapd nfdump python3; do
	command -v $t >/dev/null 2>&1 || {
		echo "$t not found (apt-get install pmacct nfdump nfdump-sflow python3)"
		exit 1
	}
done
T=$(mktemp -d "${TMPDIR:-/tmp}/bsf-collectors.XXXXXX") || exit 1
pids=
trap 'for p in $pids; do kill -KILL $p 2>/dev/null; done; rm -rf "$T"' EXIT
free_port() {
	python3 -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}
P0=$(free_port)
P1=$(free_port)
P2=$(free_port)
cat >"$T/sfacctd.conf" <<EOC
daemonize: false
logfile: $T/sfacctd.log
sfacctd_ip: 127.0.0.1
sfacctd_port: $P1
plugins: print
print_output_file: $T/flows.csv
print_refresh_time: 1
print_output: csv
print_output_file_append: true
aggregate: src_host, dst_host, src_port, dst_port, proto, in_iface, out_iface, tos
sfacctd_counter_file: $T/counters.json
sfacctd_counter_output: json
EOC
mkdir "$T/nf"
setsid sfacctd -f "$T/sfacctd.conf" >"$T/sfacctd.out" 2>&1 &
pids="$pids $!"
spid=$!
sfcapd -p "$P2" -b 127.0.0.1 -w "$T/nf" -E -t 60 >"$T/sfcapd.out" 2>&1 &
pids="$pids $!"
npid=$!
"$COLLECT" -p "$P0" -b 127.0.0.1 -j -f "127.0.0.1/$P1" -f "127.0.0.1/$P2" -t 60 \
	>"$T/ref.jsonl" 2>"$T/ref.err" &
pids="$pids $!"
cpid=$!
sleep 1
"$SIM" -f "$SRC/etc/examples/demo.conf" --duration 10 --seed 1 --epoch 1800000000 \
	--sflow-to "127.0.0.1:$P0" --speed 2 >/dev/null || exit 1
sleep 3
kill -INT $cpid $spid
kill -TERM $npid
sleep 3
echo "versions: $(sfacctd -V 2>&1 | head -n 1); $(nfdump -V 2>&1)"
python3 - "$T" <<'EOP'
import collections, glob, json, subprocess, sys
t = sys.argv[1]
ref = collections.Counter()
for l in open(t + "/ref.jsonl"):
    for s in json.loads(l)["samples"]:
        ref[s["sampleType_tag"]] += 1
print("sent (bsflow-collect):", dict(ref))
rows = [l.rstrip("\n").split(",") for l in open(t + "/flows.csv")][1:]
print("sfacctd: %d flow samples counted, output interfaces %s" % (
    sum(int(r[-2]) for r in rows), sorted({r[1] for r in rows})))
cnt = collections.Counter()
for l in open(t + "/counters.json"):
    try:
        x = json.loads(l)
    except ValueError:
        continue
    if x.get("event_type") == "log":
        cnt[x.get("sf_cnt_type", "(empty entry)")] += 1
print("sfacctd counters file:", dict(cnt))
log = open(t + "/sfacctd.log").read()
print("sfacctd: %d 'discarding unknown v5 sample'" % log.count("discarding unknown v5 sample"))
f = glob.glob(t + "/nf/nfcapd.*")
info = subprocess.run(["nfdump", "-r", f[0], "-I"], capture_output=True, text=True).stdout
print("sfcapd:", " ".join(l for l in info.splitlines() if l.split(":")[0] in ("Flows", "Packets", "Bytes")))
out = subprocess.run(["nfdump", "-r", f[0], "-o", "fmt:%out", "-q"], capture_output=True, text=True).stdout
print("sfcapd output interfaces:", sorted({o.strip() for o in out.splitlines()}))
e = open(t + "/sfcapd.out").read()
print("sfcapd -E: %d flow records, 'counter' %d times" % (e.count("Flow Record"), e.lower().count("counter")))
EOP
