#!/bin/sh
# collector/tests/udp.sh - bsflow-collect on the network and its
# command line: receive on 127.0.0.1, ::1 and the dual-stack default, -c,
# gap detection (datagram sequence 1, 2, 4: one gap, one missing), --strict
# on a corrupted datagram (exit 2, naming the offset), malformed datagrams
# counted without --strict, SIGTERM, -w (read back by tshark when present),
# and usage errors (exit 64 naming the option).
#
# The collector binds port 0 (any free port) and prints the port it got;
# every run also has -t as a guard so that a lost datagram cannot hang the
# test.  Nothing here measures time.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
SEND="$top_srcdir/collector/tests/send-sflow.py"
command -v python3 >/dev/null 2>&1 || {
	echo "SKIP: python3 not installed"
	exit 77
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsfc-udp.XXXXXX") || exit 1
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$TMP"' EXIT
rc=0
GUARD=60

fail() {
	echo "FAIL: $*"
	rc=1
}

# start NAME ARGS...: run the collector in the background, wait until it
# says which port it listens on; sets $pid and $port.
start() {
	name=$1
	shift
	"$COLLECT" -p 0 -t $GUARD "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	pid=$!
	port=
	i=0
	while [ $i -lt 300 ]; do
		port=$(sed -n 's/.*listening on udp .* port \([0-9]*\)$/\1/p' "$TMP/$name.err")
		[ -n "$port" ] && return 0
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	fail "$name: collector did not start"
	cat "$TMP/$name.err"
	return 1
}

# finish NAME: wait for the collector; sets $st.
finish() {
	wait $pid
	st=$?
	pid=
}

count() { # count PATTERN FILE
	grep -c "$1" "$2"
}

# 1. IPv4 loopback, -c 3, sequence 1, 2, 4 -> one datagram gap
if start v4 -b 127.0.0.1 -c 3; then
	python3 "$SEND" 127.0.0.1 "$port" 1:1 2:2 4:3
	finish v4
	[ "$st" = 0 ] || fail "v4: exit $st"
	[ "$(count '^startDatagram' "$TMP/v4.out")" = 3 ] || fail "v4: not 3 datagrams"
	grep -qx 'datagramSourceIP 127.0.0.1' "$TMP/v4.out" || fail "v4: source"
	grep -qx 'agent 192.0.2.9' "$TMP/v4.out" || fail "v4: agent"
	[ "$(count '^gap ' "$TMP/v4.err")" = 1 ] || fail "v4: not exactly one gap"
	grep -q '^gap datagram agent=192.0.2.9 subAgent=0 expected=3 received=4 missing=1$' \
		"$TMP/v4.err" || fail "v4: gap line"
	grep -qx 'datagramGaps 1' "$TMP/v4.err" || fail "v4: summary datagramGaps"
	grep -qx 'datagramsMissing 1' "$TMP/v4.err" || fail "v4: summary missing"
	grep -qx 'sampleGaps 0' "$TMP/v4.err" || fail "v4: summary sampleGaps"
fi

# 2. sample sequence gap and agent reset, -j
if start v4j -b 127.0.0.1 -c 3 -j; then
	python3 "$SEND" 127.0.0.1 "$port" 10:10 11:13 1:1
	finish v4j
	[ "$st" = 0 ] || fail "v4j: exit $st"
	grep -q '^gap sample agent=192.0.2.9 subAgent=0 sampleType=COUNTERSSAMPLE sourceId=0:1 expected=11 received=13 missing=2$' \
		"$TMP/v4j.err" || fail "v4j: sample gap line"
	grep -q '^reset datagram agent=192.0.2.9 subAgent=0 last=11 received=1' \
		"$TMP/v4j.err" || fail "v4j: reset line"
	python3 -c '
import json, sys
d = [json.loads(l) for l in open(sys.argv[1])]
assert [x["packetSequenceNo"] for x in d] == [10, 11, 1]
assert d[0]["samples"][0]["elements"][0]["ifInOctets"] == 1000
' "$TMP/v4j.out" || fail "v4j: JSON"
fi

# 3. IPv6 loopback
if python3 -c 'import socket; s=socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); s.bind(("::1", 0))' 2>/dev/null; then
	if start v6 -b ::1 -c 2; then
		python3 "$SEND" ::1 "$port" 1:1 2:2
		finish v6
		[ "$st" = 0 ] || fail "v6: exit $st"
		[ "$(count '^startDatagram' "$TMP/v6.out")" = 2 ] || fail "v6: not 2 datagrams"
		grep -qx 'datagramSourceIP 0000:0000:0000:0000:0000:0000:0000:0001' "$TMP/v6.out" ||
			fail "v6: source"
	fi
	# 4. dual-stack default: one socket, both families
	if start dual -c 2; then
		python3 "$SEND" 127.0.0.1 "$port" 1:1
		python3 "$SEND" ::1 "$port" 2:2
		finish dual
		[ "$st" = 0 ] || fail "dual: exit $st"
		grep -qx 'datagramSourceIP 127.0.0.1' "$TMP/dual.out" || fail "dual: IPv4 source"
		grep -qx 'datagramSourceIP 0000:0000:0000:0000:0000:0000:0000:0001' "$TMP/dual.out" ||
			fail "dual: IPv6 source"
	fi
else
	echo "note: no IPv6 loopback, IPv6 cases skipped"
fi

# 5. --strict: exit 2 at a corrupted datagram, naming offset and reason
if start strict -b 127.0.0.1 --strict; then
	python3 "$SEND" 127.0.0.1 "$port" 1:1 corrupt 2:2
	finish strict
	[ "$st" = 2 ] || fail "strict: exit $st, expected 2"
	grep -q '^malformed datagram source=127.0.0.1 size=.* offset=[0-9]* reason=offset [0-9]*: ' \
		"$TMP/strict.err" || fail "strict: malformed line"
	grep -q -- '--strict' "$TMP/strict.err" || fail "strict: message"
	grep -qx 'malformedDatagrams 1' "$TMP/strict.err" || fail "strict: summary"
fi

# 6. without --strict: counted, decoding goes on
if start lax -b 127.0.0.1 -c 3; then
	python3 "$SEND" 127.0.0.1 "$port" 1:1 corrupt 2:2
	finish lax
	[ "$st" = 0 ] || fail "lax: exit $st"
	[ "$(count '^startDatagram' "$TMP/lax.out")" = 2 ] || fail "lax: not 2 datagrams"
	grep -qx 'malformedDatagrams 1' "$TMP/lax.err" || fail "lax: summary"
	grep -qx 'datagrams 3' "$TMP/lax.err" || fail "lax: datagrams"
fi

# 7. SIGTERM stops cleanly with the summary
if start term -b 127.0.0.1; then
	python3 "$SEND" 127.0.0.1 "$port" 1:1
	# wait for the datagram to be printed, then stop
	i=0
	while [ $i -lt 300 ] && ! grep -q '^endDatagram' "$TMP/term.out"; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -TERM $pid
	finish term
	[ "$st" = 0 ] || fail "term: exit $st"
	grep -qx 'datagrams 1' "$TMP/term.err" || fail "term: summary"
fi

# 8. -t stops an idle collector by itself
"$COLLECT" -b 127.0.0.1 -p 0 -t 0.2 >/dev/null 2>"$TMP/t.err"
[ $? = 0 ] || fail "-t: exit status"
grep -qx 'datagrams 0' "$TMP/t.err" || fail "-t: summary"

# 9. -w: the sampled and discarded headers as a pcap
"$COLLECT" -q -r "$top_srcdir/collector/tests/data/all-structures.pcap" \
	-w "$TMP/w.pcap" 2>"$TMP/w.err" || fail "-w: exit status"
grep -qx 'pcapPacketsWritten 3' "$TMP/w.err" || fail "-w: 3 packets written"
if [ -n "$TSHARK" ]; then
	HOME=$TMP "$TSHARK" -r "$TMP/w.pcap" -T fields -e frame.time_epoch -e frame.len \
		-e frame.cap_len -e eth.type -e ip.src -e ipv6.dst -e tcp.srcport \
		>"$TMP/w.txt" 2>"$TMP/w.terr" || fail "-w: tshark cannot read the file"
	# frame 1: flow sample 7 (no 0:1043 in it: capture time 1700000000.000001);
	# frame 2: the discard, 0:1043 = 1700000001.000000000; frame 3: compact
	# flow sample, capture time.  len = frame_length - stripped.
	python3 - "$TMP/w.txt" <<'EOF' || fail "-w: contents"
import sys
rows = [l.split('\t') for l in open(sys.argv[1]).read().splitlines()]
assert len(rows) == 3, rows
assert [r[0][:17] for r in rows] == ['1700000000.000001', '1700000001.000000',
                                     '1700000004.000000'], rows
assert [(int(r[1]), int(r[2])) for r in rows] == [(60, 42), (74, 74), (60, 14)], rows
assert rows[0][4] == '10.0.0.1' and rows[1][5] == '2001:db8::20' and rows[1][6] == '443'
EOF
	grep -i malformed "$TMP/w.terr" && fail "-w: tshark warnings"
else
	echo "note: no tshark, -w contents not checked"
fi

# 10. usage errors: exit 64, naming the option
"$COLLECT" -p nope >/dev/null 2>"$TMP/u1.err"
st=$?
[ $st = 64 ] || fail "-p nope: exit $st"
grep -q '^bsflow-collect: -p: ' "$TMP/u1.err" || fail "-p nope: message"
"$COLLECT" -Z >/dev/null 2>"$TMP/u2.err"
st=$?
[ $st = 64 ] || fail "-Z: exit $st"
grep -q '^bsflow-collect: -Z: unknown option' "$TMP/u2.err" || fail "-Z: message"
"$COLLECT" --bogus >/dev/null 2>"$TMP/u3.err"
st=$?
[ $st = 64 ] || fail "--bogus: exit $st"
grep -q -- '--bogus' "$TMP/u3.err" || fail "--bogus: message"
"$COLLECT" -c >/dev/null 2>"$TMP/u4.err"
[ $? = 64 ] || fail "-c without argument: exit status"
grep -q -- '-c: option needs an argument' "$TMP/u4.err" || fail "-c: message"
"$COLLECT" -r /nonexistent.pcap >/dev/null 2>"$TMP/u5.err"
[ $? = 1 ] || fail "-r missing file: exit status"
"$COLLECT" -h | grep -q '^usage: bsflow-collect' || fail "-h"
"$COLLECT" -V | grep -q '^bsflow-collect' || fail "-V"

[ $rc = 0 ] && echo "ok: udp, checks, --strict, -w, usage"
exit $rc
