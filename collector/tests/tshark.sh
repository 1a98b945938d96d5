#!/bin/sh
# collector/tests/tshark.sh - an independent decoder agrees.
#
# tshark decodes data/all-structures.pcap with no malformed packet, and
# its view of every datagram (agent, sub-agent, sequence number, sample
# count, flow and counter sample sequence numbers, generic interface
# counters) equals bsflow-collect's -j output.  Skips (77) without tshark.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
PCAP="$top_srcdir/collector/tests/data/all-structures.pcap"
if [ -z "$TSHARK" ]; then
	echo "SKIP: tshark not found (configure looks for it; apt-get install tshark)"
	exit 77
fi
command -v python3 >/dev/null 2>&1 || {
	echo "SKIP: python3 not installed"
	exit 77
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsfc-tshark.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
HOME=$TMP # tshark wants a writable profile directory
export HOME
rc=0

"$TSHARK" -r "$PCAP" -V -Y sflow >"$TMP/v.txt" 2>"$TMP/v.err" || {
	echo "FAIL: tshark -V failed"
	cat "$TMP/v.err"
	exit 1
}
n=$(grep -c '^InMon sFlow' "$TMP/v.txt")
if [ "$n" != 5 ]; then
	echo "FAIL: tshark found $n sFlow datagrams, expected 5"
	rc=1
fi
if grep -n 'Malformed' "$TMP/v.txt"; then
	echo "FAIL: tshark reports a malformed packet"
	rc=1
fi

"$TSHARK" -r "$PCAP" -Y sflow -T fields -E separator='|' -E aggregator=',' \
	-e sflow_245.agent -e sflow_245.agent.v6 -e sflow_245.sub_agent_id \
	-e sflow_245.sequence_number -e sflow_245.numsamples \
	-e sflow.flow_sample.sequence_number -e sflow.counters_sample.sequence_number \
	-e sflow_245.ifindex -e sflow_245.ifspeed -e sflow_245.ifinoct \
	-e sflow_245.ifoutoct -e sflow_245.ifindisc -e sflow_245.ifoutdisc \
	>"$TMP/fields.txt" 2>"$TMP/f.err" || {
	echo "FAIL: tshark -T fields failed"
	cat "$TMP/f.err"
	exit 1
}
"$COLLECT" -j -r "$PCAP" >"$TMP/out.json" 2>/dev/null || {
	echo "FAIL: bsflow-collect -j failed"
	exit 1
}
python3 - "$TMP/fields.txt" "$TMP/out.json" <<'EOF' || rc=1
import ipaddress, json, sys

def ints(s):
    return [int(x) for x in s.split(',')] if s else []

ts = [l.split('|') for l in open(sys.argv[1]).read().splitlines()]
js = [json.loads(l) for l in open(sys.argv[2]).read().splitlines()]
if len(ts) != len(js):
    sys.exit('FAIL: tshark %d datagrams, bsflow-collect %d' % (len(ts), len(js)))
bad = 0
for i, (t, j) in enumerate(zip(ts, js)):
    def check(what, a, b):
        global bad
        if a != b:
            print('FAIL: datagram %d %s: tshark %r, bsflow-collect %r' % (i + 1, what, a, b))
            bad = 1
    check('agent', ipaddress.ip_address(t[0] or t[1]), ipaddress.ip_address(j['agent']))
    check('sub-agent', int(t[2]), j['agentSubId'])
    check('sequence number', int(t[3]), j['packetSequenceNo'])
    check('sample count', int(t[4]), j['samplesInPacket'])
    flows = [s['sampleSequenceNo'] for s in j['samples'] if s['sampleType'] == 'FLOWSAMPLE']
    ctrs = [s['sampleSequenceNo'] for s in j['samples'] if s['sampleType'] == 'COUNTERSSAMPLE']
    check('flow sample sequence numbers', ints(t[5]), flows)
    check('counter sample sequence numbers', ints(t[6]), ctrs)
    gen = [e for s in j['samples'] for e in s.get('elements', [])
           if e.get('counterBlock_tag') == '0:1']
    for col, key in ((7, 'ifIndex'), (8, 'ifSpeed'), (9, 'ifInOctets'),
                     (10, 'ifOutOctets'), (11, 'ifInDiscards'), (12, 'ifOutDiscards')):
        check(key, ints(t[col]), [g[key] for g in gen])
    print('ok: datagram %d (%s seq %s, %s samples)' % (i + 1, j['agent'], t[3], t[4]))
sys.exit(bad)
EOF
exit $rc
