#!/bin/sh
# collector/tests/decode-pcap.sh - bsflow-collect -r on hand-made
# captures.
#
# data/all-structures.pcap holds every standard structure (all five sample
# types, compact and expanded, every counter and flow record bsflowd uses,
# IPv4 and IPv6 agents and transports, an unknown record and an unknown
# sample), written byte by byte by gen-all-structures.py.  The text output
# must equal data/all-structures.txt, written by hand from the same vectors;
# the -j output must parse as JSON with exact 64-bit numbers; the link-type
# variants (SLL, SLL2, BSD loopback) must decode like the Ethernet one; the
# generator must still produce the committed captures.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
DATA="$top_srcdir/collector/tests/data"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsfc-decode.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
TZ=UTC
export TZ
rc=0

fail() {
	echo "FAIL: $*"
	rc=1
}

command -v python3 >/dev/null 2>&1 || {
	echo "SKIP: python3 not installed"
	exit 77
}

# 1. the generator reproduces the committed captures
python3 "$top_srcdir/collector/tests/gen-all-structures.py" "$TMP" || fail "generator"
for f in all-structures link-sll link-sll2 link-null; do
	cmp -s "$TMP/$f.pcap" "$DATA/$f.pcap" || fail "$f.pcap differs from the generator's"
done

# 2. text output, exactly
"$COLLECT" -r "$DATA/all-structures.pcap" >"$TMP/out.txt" 2>"$TMP/err.txt"
st=$?
[ $st -eq 0 ] || fail "exit status $st"
if ! diff -u "$DATA/all-structures.txt" "$TMP/out.txt"; then
	fail "text output differs from all-structures.txt"
fi

# 3. the summary (stderr): counts known from the capture's construction
for line in 'datagrams 5' 'malformedDatagrams 0' 'skippedFrames 1' 'skipped.not_ip 1' \
	'samples 16' 'records 19' 'unknownTags 2' 'datagramGaps 0' 'sampleGaps 0' \
	'samples.0:1 1' 'samples.0:2 1' 'samples.0:3 8' 'samples.0:4 3' 'samples.0:5 2' \
	'samples.9999:1.unknown 1' 'records.flow.0:999.unknown 1' \
	'records.counters.4413:2 1' 'discards.259.no_buffer_space 1' \
	'discards.12345.NotFound 1' 'flowSamples.outputPort.3.queue.2 2'; do
	grep -qx "$line" "$TMP/err.txt" || fail "summary lacks '$line'"
done
grep -q '^gap \|^reset \|^malformed ' "$TMP/err.txt" && fail "unexpected check report"

# 4. --summary puts the summary on stdout after the datagrams
"$COLLECT" -r "$DATA/all-structures.pcap" --summary >"$TMP/out2.txt" 2>/dev/null
tail -n 1 "$TMP/out2.txt" | grep -q '^endSummary' || fail "--summary not on stdout"

# 5. link types: datagram 1 alone over SLL, SLL2 and null must print the
#    first datagram of the expected output
sed -n '1,/^endDatagram/p' "$DATA/all-structures.txt" >"$TMP/first.txt"
for f in link-sll link-sll2 link-null; do
	"$COLLECT" -r "$DATA/$f.pcap" --no-summary >"$TMP/$f.txt" 2>&1 || fail "$f exit"
	cmp -s "$TMP/first.txt" "$TMP/$f.txt" || fail "$f.pcap decodes differently"
done
# -c 1 stops after the first datagram
"$COLLECT" -r "$DATA/all-structures.pcap" -c 1 --no-summary >"$TMP/c1.txt" 2>&1
cmp -s "$TMP/first.txt" "$TMP/c1.txt" || fail "-c 1"
# -t 2.5 with -r: capture time; frames at +0, +1, +2 s are read, the one at
# +3 s (the ARP frame) stops it
"$COLLECT" -r "$DATA/all-structures.pcap" -t 2.5 -q 2>"$TMP/t.txt"
grep -qx 'datagrams 3' "$TMP/t.txt" || fail "-t with -r"
# -p filters by destination port with -r
"$COLLECT" -r "$DATA/all-structures.pcap" -p 9999 -q 2>"$TMP/p.txt"
grep -qx 'skipped.other_port 5' "$TMP/p.txt" || fail "-p with -r"

# 6. JSON
"$COLLECT" -j -r "$DATA/all-structures.pcap" >"$TMP/out.json" 2>/dev/null || fail "-j exit"
python3 - "$TMP/out.json" <<'EOF' || fail "JSON checks"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 5, len(lines)
d = [json.loads(l) for l in lines]
A6 = '2001:0db8:0000:0000:0000:0000:0000:0001'
assert [x['agent'] for x in d] == ['192.0.2.1'] * 3 + [A6] * 2
assert [x['packetSequenceNo'] for x in d] == [1, 2, 3, 100, 101]
assert [x['agentSubId'] for x in d] == [0, 0, 0, 1, 1]
for x in d:
    assert x['samplesInPacket'] == len(x['samples'])
    assert x['datagramVersion'] == 5
s = d[0]['samples']
assert [e['sampleSequenceNo'] for e in s] == list(range(7, 14))
assert all(e['sampleType_tag'] == '0:3' and e['sourceId'] == '0:3' for e in s)
el = s[0]['elements']
assert el[0]['flowBlock_tag'] == '0:1' and el[0]['headerLen'] == 42
assert el[0]['headerBytes'].startswith('00-11-22-33-44-55-66-77-88-99-AA-BB-08-00')
assert el[1]['in_vlan'] == 10 and el[1]['out_priority'] == 5
assert el[2]['egress_queue_id'] == 2
assert s[1]['elements'][0]['symbol'] == 'fwd'
assert s[2]['elements'][0]['transit_delay_nS'] == 12345
assert s[3]['elements'][0]['queue_depth_bytes'] == 65536
assert s[4]['elements'][0]['timestamp_nS'] == 1700000000123456789
assert s[5]['elements'][0]['bst_egress_queue'] == 2
assert s[6]['elements'][0]['unknownLength'] == 8
c = d[1]['samples']
g = c[0]['elements'][0]
assert g['counterBlock_tag'] == '0:1'
assert g['ifInOctets'] == 9007199254740993          # 2^53 + 1: exact
assert g['ifOutOctets'] == 18446744073709551615     # 2^64 - 1: exact
assert g['ifSpeed'] == 10000000000 and g['ifInUnknownProtos'] == 4294967295
assert c[0]['elements'][1]['dot3StatsSymbolErrors'] == 13
assert c[0]['elements'][2]['ifName'] == 'eth3 "uplink"'
b = c[1]['elements'][0]
assert b['counterBlock_tag'] == '4413:2'
assert b['bst_egress_queue_uc_pc'] == [10000, 9000, 0, 1, 2, 3, 4, 5]
assert b['bst_egress_queue_mc_pc'] == [100, -1]
assert b['bst_ingress_mc_pc'] == -1
assert c[2]['elements'][0] == {'counterBlock_tag': '4413:1',
                               'bst_device_uc_pc': 4321, 'bst_device_mc_pc': -1}
x = d[2]['samples'][0]
assert x['sampleType'] == 'DISCARD' and x['discardCode'] == 259
assert x['discardReason'] == 'no_buffer_space'
assert x['elements'][0]['discarded_flowBlock_tag'] == '0:1'
assert x['elements'][0]['discarded_TCPFlags'] == 18
assert x['elements'][1]['discarded_symbol'] == 'mmu_drop'
f = d[3]['samples']
assert f[0]['sampleType_tag'] == '0:1' and f[0]['outputPort'] == 'multiple 2'
assert f[1]['sampleType_tag'] == '0:2' and f[1]['elements'][0]['ifIndex'] == 5
u = d[4]['samples']
assert u[0]['outputPort'] == 'dropCode 258' and u[0]['elements'] == []
assert u[1]['discardReason'] == 'NotFound'
assert u[2]['sampleType'] == 'UNKNOWN' and u[2]['unknownLength'] == 12
EOF

exit $rc
