#!/bin/sh
# agent/model/tests/test_sim_plot.sh - bsflow-sim --plot on the congestion
# scenario of test_sim_series.sh (port 0 queue 0 fills to 65536 bytes and
# drops from then on):
#  - the SVG is well-formed XML naming "port 0 queue 0", with drop marks;
#  - a real browser renders it: Debian's chromium, headless, takes a
#    screenshot, and the picture (read with a small PNG decoder here) has
#    the queue's colour (#1f77b4) and the drop marks' red (#d62728) in
#    quantity: content, not a pixel comparison;
#  - --plot-queue with a bad name exits 2.
# Skips (77) without python3, and without chromium once the SVG checks
# have passed.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
SIM="$top_builddir/agent/model/bsflow-sim"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bsfplot.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
fail() {
	echo "FAIL: $*"
	rc=1
}
cat >"$tmp/s.conf" <<'EOC'
model {
	seed = 1
	ports = 4
	speed = 1G
	cell_size = 256
	buffer = 4M
	unicast_queues = 8
	queue_min = 0
	queue_limit = 64K
	sampling_rate = 0
	traffic congest {
		ports = {1, 2}
		destination = fixed
		to = 0
		rate = 100%
		arrival = constant
		size = 8192
		dscp = 0
		flows = 4
	}
}
EOC
"$SIM" -f "$tmp/s.conf" --duration 0.02 --plot "$tmp/p.svg" >"$tmp/report.txt" ||
	fail "bsflow-sim --plot exit $?"
[ -s "$tmp/report.txt" ] || fail "--plot without --interval: no end-of-run report"
python3 - "$tmp/p.svg" <<'EOP' || rc=1
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
texts = [t.text for t in root.iter(ns + "text")]
drops = [r for r in root.iter(ns + "rect") if r.get("class") == "drop"]
lines = list(root.iter(ns + "polyline"))
if "port 0 queue 0" not in texts or len(drops) < 100 or len(lines) != 3:
    print("FAIL: SVG content: texts %s, %d drop marks, %d lines" % (texts, len(drops), len(lines)))
    sys.exit(1)
print("ok: SVG well-formed, legend 'port 0 queue 0', %d drop marks, 3 lines" % len(drops))
EOP

out=$("$SIM" -f "$tmp/s.conf" --plot "$tmp/q.svg" --plot-queue 0 2>&1)
st=$?
[ $st = 2 ] && echo "ok: --plot-queue 0 refused: $out" || fail "--plot-queue 0: exit $st: $out"

if ! command -v chromium >/dev/null 2>&1; then
	[ $rc = 0 ] || exit $rc
	echo "SKIP: chromium not installed (Debian: apt-get install chromium); the SVG checks passed"
	exit 77
fi
timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$tmp/chromium" --window-size=960,640 \
	--screenshot="$tmp/p.png" "file://$tmp/p.svg" >"$tmp/chromium.log" 2>&1
[ -s "$tmp/p.png" ] || { fail "chromium made no screenshot: $(tail -n 3 "$tmp/chromium.log")"; exit $rc; }
python3 - "$tmp/p.png" <<'EOP' || rc=1
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
        bpp = 3 if ctype == 2 else 4
    elif typ == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
counts = {"blue": 0, "red": 0}
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        r, g, bl = line[x], line[x + 1], line[x + 2]
        if abs(r - 0x1f) < 30 and abs(g - 0x77) < 30 and abs(bl - 0xb4) < 30:
            counts["blue"] += 1
        if abs(r - 0xd6) < 30 and abs(g - 0x27) < 30 and abs(bl - 0x28) < 30:
            counts["red"] += 1
    prev = line
if counts["blue"] < 500 or counts["red"] < 1000:
    print("FAIL: screenshot %dx%d lacks the plot: %s" % (w, h, counts))
    sys.exit(1)
print("ok: chromium renders the plot (%dx%d): %d queue-colour and %d drop-red pixels" % (w, h, counts["blue"], counts["red"]))
EOP
exit $rc
