#!/bin/sh
# tests/e2e-print-own.sh - bsflow-collect prints bsflowd's
# own structures by name (print_own.c, keys in bsflowd-structures(7)): a
# datagram with every own counter record, its bytes written by hand here
# from the XDR, is sent to bsflow-collect in text and in JSON mode, and
# every key/value printed is checked; an own format it does not know
# prints as "bsf_record unknown" with its bytes; -e with another
# enterprise prints the same records as unknown ones.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
command -v python3 >/dev/null 2>&1 || e2e_skip "python3 not installed"
[ -x "$COLLECT" ] || {
	echo "FAIL: $COLLECT not built"
	exit 1
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-printown.XXXXXX") || exit 1
trap 'e2e_cleanup' EXIT

# the datagram, and the expected key/value pairs
python3 - "$TMP" <<'PYEOF'
import struct, sys, json
tmp = sys.argv[1]
E = 32473
def w(*v): return b"".join(struct.pack("!I", x & 0xFFFFFFFF) for x in v)
def buf(cc, cb, pc_, pb, al, pct, t):
    return w(cc, cb, pc_, pb, al, pct) + struct.pack("!Q", t)
A = (1, 256, 2, 512, 4, 5000, 1700000000000000001)
B = (0xFFFFFFFF,) * 5 + (-1, 2**64 - 1)
C = (16, 2048, 32, 4096, 64, 5000, 7)
D = (0,) * 7
def rec(fmt, body, ent=E): return w((ent << 12) | fmt, len(body)) + body
recs = [
    rec(1, buf(*A) + buf(*B) + buf(*C) + buf(*D)),
    rec(2, w(1) + buf(*A) + w(1) + buf(*C)),
    rec(3, w(1, 1000, 5000, 7, 0xFFFFFFFF) + w(0)),
    rec(4, w(1) + buf(*A) + buf(*B)),
    rec(5, w(256, 16384) + buf(*A) + buf(*B) + w(1) + buf(*C) + w(0)),
    rec(6, w(2) + buf(*D) + buf(*A)),
    rec(12, w(1, 0, 2, 20, 3, 5, 65536, 7)),
    rec(14, w(0xDEADBEEF, 1)),  # E:14: reserved, unknown
]
body = w(1, 0, 5, len(recs)) + b"".join(recs)
sample = w(4, len(body)) + body
dg = w(5, 1, 0xC0000207, 0, 1, 1000, 1) + sample
open(tmp + "/dg.bin", "wb").write(dg)

exp = {}
def eb(obj, b):
    for k, v in zip(("cur_cells", "cur_bytes", "peak_cells", "peak_bytes", "alloc_cells",
                     "peak_pc", "peak_time_ns"), b):
        exp[obj + "_" + k] = v
eb("bsf_ingress_uc", A); eb("bsf_ingress_mc", B); eb("bsf_egress_uc", C); eb("bsf_egress_mc", D)
exp["bsf_queue_uc_count"] = 1; eb("bsf_queue_uc_0", A)
exp["bsf_queue_mc_count"] = 1; eb("bsf_queue_mc_0", C)
exp["bsf_delay_uc_count"] = 1; exp["bsf_delay_mc_count"] = 0
exp.update({"bsf_delay_uc_0_latest_ns": 1000, "bsf_delay_uc_0_max_ns": 5000,
            "bsf_delay_uc_0_measurements": 7, "bsf_delay_uc_0_marker_ns": 4294967295})
exp["bsf_pg_count"] = 1; eb("bsf_pg_0_shared", A); eb("bsf_pg_0_headroom", B)
exp["bsf_cell_bytes"] = 256; exp["bsf_total_cells"] = 16384
eb("bsf_device_uc", A); eb("bsf_device_mc", B)
exp["bsf_ingress_pool_count"] = 1; eb("bsf_ingress_pool_0", C)
exp["bsf_egress_pool_count"] = 0
exp["bsf_cpu_queue_count"] = 2; eb("bsf_cpu_queue_0", D); eb("bsf_cpu_queue_1", A)
exp.update({"bsf_sojourn_count": 1, "bsf_sojourn_0_queue": 0, "bsf_sojourn_0_unmeasured": 2,
            "bsf_sojourn_0_first": 20, "bsf_sojourn_0_buckets": 3, "bsf_sojourn_0_bucket_20": 5,
            "bsf_sojourn_0_bucket_21": 65536, "bsf_sojourn_0_bucket_22": 7})
json.dump(exp, open(tmp + "/exp.json", "w"))
PYEOF

send() {
	python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(open(sys.argv[1], "rb").read(), ("127.0.0.1", int(sys.argv[2])))' "$TMP/dg.bin" "$1"
}

for mode in text json; do
	flag=
	[ $mode = json ] && flag=-j
	e2e_collect $mode -b 127.0.0.1 -c 1 --strict $flag
	send "$cport"
	wait $cpid
	st=$?
	[ "$st" = 0 ] || fail "$mode: bsflow-collect exited $st"
	python3 - "$TMP/$mode.out" "$TMP/exp.json" $mode <<'PYEOF' || rc=1
import json, sys
out, exp, mode = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), sys.argv[3]
got, names, unknown = {}, [], 0
if mode == "json":
    d = json.loads(out.strip().splitlines()[0])
    for el in d["samples"][0]["elements"]:
        names.append(el.get("bsf_record"))
        got.update({k: v for k, v in el.items() if k.startswith("bsf_") and k != "bsf_record"})
        unknown += "unknownBytes" in el
else:
    for line in out.splitlines():
        k, _, v = line.partition(" ")
        if k == "bsf_record":
            names.append(v)
        elif k.startswith("bsf_"):
            got[k] = int(v)
        unknown += k == "unknownBytes"
bad = 0
want_names = ["port_buffers", "queue_buffers", "queue_delays", "pg_buffers", "device_pools",
              "cpu_queues", "sojourn_histograms", "unknown"]
if names != want_names:
    print("FAIL: %s: records %s, expected %s" % (mode, names, want_names)); bad = 1
for k, v in exp.items():
    if got.get(k) != v:
        print("FAIL: %s: %s = %s, expected %s" % (mode, k, got.get(k), v)); bad = 1
extra = set(got) - set(exp)
if extra:
    print("FAIL: %s: unexpected keys %s" % (mode, sorted(extra))); bad = 1
if unknown != 1:
    print("FAIL: %s: %d unknown bodies printed, expected 1" % (mode, unknown)); bad = 1
sys.exit(bad)
PYEOF
done

# another enterprise: the same records are not bsflowd's, printed as unknown
e2e_collect other -b 127.0.0.1 -c 1 --strict -e 12345
send "$cport"
wait $cpid
grep -q '^bsf_' "$TMP/other.out" && fail "-e 12345: own keys printed for enterprise 32473"
[ "$(grep -c '^unknownBytes' "$TMP/other.out")" = 8 ] ||
	fail "-e 12345: not 8 unknown records"
e2e_finish
