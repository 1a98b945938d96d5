#!/bin/sh
# agent/model/tests/test_traffic_tshark.sh - the headers the traffic
# generators synthesize decode in Wireshark: tshark, with IP, UDP and TCP
# checksum validation on, finds every checksum good, no malformed packet,
# and the IP lengths match the frame lengths.  Skips (77) without tshark.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
TSHARK=${TSHARK:-$(command -v tshark)}
if [ -z "$TSHARK" ]; then
	echo "SKIP: tshark not installed"
	exit 77
fi
tmp=${TMPDIR:-/tmp}/test_traffic_tshark.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
"$top_builddir/agent/model/tests/test_traffic_pcapgen" "$tmp/gen.pcap" || exit 1
"$TSHARK" -r "$tmp/gen.pcap" -o ip.check_checksum:TRUE -o udp.check_checksum:TRUE \
	-o tcp.check_checksum:TRUE -T fields -E separator=, \
	-e frame.len -e eth.type -e vlan.etype -e ip.len -e ipv6.plen \
	-e ip.checksum.status -e udp.checksum.status -e tcp.checksum.status \
	-e _ws.malformed > "$tmp/out" 2> "$tmp/err" || {
	cat "$tmp/err"
	exit 1
}
python3 - "$tmp/out" <<'PY'
import sys
n = bad = 0
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split(",")
    n += 1
    flen = int(f[0])
    tagged = f[2] != ""
    l2 = 18 if tagged else 14
    ok = True
    if f[3]:
        ok &= int(f[3]) == flen - l2
        ok &= f[5] == "1"   # checksum status 1: good
    else:
        ok &= int(f[4]) == flen - l2 - 40
    l4 = f[6] or f[7]
    ok &= l4 == "1"
    ok &= f[8] == ""
    if not ok:
        bad += 1
        print("bad packet %d: %s" % (n, line.strip()))
if n != 200:
    print("want 200 packets, got %d" % n)
    sys.exit(1)
sys.exit(1 if bad else 0)
PY
rc=$?
[ $rc -eq 0 ] && echo "ok: 200 synthesized frames decode with good checksums"
exit $rc
