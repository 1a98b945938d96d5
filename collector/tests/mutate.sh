#!/bin/sh
# collector/tests/mutate.sh - bsflow-collect on damaged datagrams.
#
# 3000 datagrams made from the hand-made ones of gen-all-structures.py with
# bytes changed, words replaced by edge values (0, 1, 0x7fffffff, all
# ones...) or the end cut off (fixed random seed, so every run is the
# same).  bsflow-collect must exit 0, every datagram must either decode or
# be reported malformed (never both, never neither), and the -j output must
# be valid JSON.  Run under --enable-sanitizers this is a small fuzz test
# of the decoder, the printers and the checks.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
command -v python3 >/dev/null 2>&1 || {
	echo "SKIP: python3 not installed"
	exit 77
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsfc-mutate.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
rc=0

python3 - "$top_srcdir/collector/tests/gen-all-structures.py" "$TMP/m.pcap" <<'EOF2' || exit 1
import importlib.util, random, struct, sys
spec = importlib.util.spec_from_file_location('gen', sys.argv[1])
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)
rnd = random.Random(20261121)
base = [g.dgram1(), g.dgram2(), g.dgram3(), g.dgram4(), g.dgram5()]
edge = [0, 1, 2, 3, 4, 5, 8, 0x7fffffff, 0x80000000, 0xffffffff]
frames = []
for i in range(3000):
    d = bytearray(rnd.choice(base))
    k = i % 3
    if k == 0:
        for _ in range(rnd.randrange(1, 4)):
            d[rnd.randrange(len(d))] = rnd.randrange(256)
    elif k == 1:
        p = rnd.randrange(0, len(d) - 4) & ~3
        d[p:p + 4] = struct.pack('>I', rnd.choice(edge + [rnd.randrange(1 << 32)]))
    else:
        d = d[:rnd.randrange(len(d))]
    frames.append(((1700000000 + i, 0),
                   g.eth(0x0800, g.udp4('10.0.0.1', '10.0.0.2', 1, 6343, bytes(d)))))
g.write_pcap(sys.argv[2], 1, frames)
EOF2

"$COLLECT" -r "$TMP/m.pcap" >"$TMP/out.txt" 2>"$TMP/err.txt"
st=$?
[ $st = 0 ] || { echo "FAIL: exit status $st"; rc=1; }
"$COLLECT" -j -r "$TMP/m.pcap" >"$TMP/out.json" 2>/dev/null
st=$?
[ $st = 0 ] || { echo "FAIL: -j exit status $st"; rc=1; }
ok=$(grep -c '^startDatagram' "$TMP/out.txt")
bad=$(grep -c '^malformed datagram ' "$TMP/err.txt")
grep -qx 'datagrams 3000' "$TMP/err.txt" || { echo "FAIL: summary datagrams"; rc=1; }
grep -qx "malformedDatagrams $bad" "$TMP/err.txt" || { echo "FAIL: summary malformed"; rc=1; }
if [ $((ok + bad)) != 3000 ]; then
	echo "FAIL: $ok decoded + $bad malformed != 3000"
	rc=1
fi
python3 -c '
import json, sys
n = 0
for line in open(sys.argv[1]):
    json.loads(line)
    n += 1
if n != int(sys.argv[2]):
    sys.exit("FAIL: %d JSON lines, %s decoded" % (n, sys.argv[2]))
' "$TMP/out.json" "$ok" || rc=1
[ $rc = 0 ] && echo "ok: $ok decoded, $bad malformed"
exit $rc
