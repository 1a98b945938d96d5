#!/bin/sh
# tests/e2e-tshark.sh - independent decoders accept what
# bsflowd sends: the datagrams of a run on the e2e scenario, saved into a
# pcap by e2e-udp2pcap.py (no interface capture, no root needed), are
# decoded by tshark with no malformed frame and no expert error, and by
# bsflow-collect -r --strict.  Skips (77) without tshark.
#
# Note: tshark 4.0 (and 4.2: the same packet-sflow.c code) does not skip
# a flow or counters record of enterprise 0 that it does not know (0:1005
# here; 0:1036, 0:1038, 0:1039, 0:1040, 0:1043 in flow and drop samples)
# by its length: it misreads the rest of that sample, and a length read
# from there past the datagram's end flags it malformed.  It does skip
# records of other enterprises (4413, bsflowd's own) and the 0:5 sample
# type by their length, but a sample of another enterprise (bsflowd's own
# event samples) ends its reading of the datagram, and a sample after one
# is flagged malformed.  With packet sampling on it flags most valid
# datagrams (4802 of 5296 in a 45 s demo run; README, Interoperability).
# So this test runs the e2e scenario, which has no packet sampling
# (counters samples, whose sample framing survives the misread 0:1005,
# and 0:5 samples, skipped whole by their length), and proves the
# datagram and sample framing and the records before 0:1005; the rest is
# bsflow-collect's job (and sfacctd's, e2e-sfacctd.sh).
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
[ -n "$TSHARK" ] || TSHARK=$(command -v tshark)
[ -n "$TSHARK" ] || e2e_skip "tshark not found (apt-get install tshark)"
e2e_init tshark
HOME=$TMP # tshark wants a writable profile directory
export HOME

python3 "$top_srcdir/tests/e2e-udp2pcap.py" 127.0.0.1 "$TMP/rx.pcap" \
	"$TMP/port" &
spid=$!
E2E_PIDS="$E2E_PIDS $spid"
i=0
while [ ! -s "$TMP/port" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
port=$(cat "$TMP/port" 2>/dev/null)
[ -n "$port" ] || {
	echo "FAIL: the pcap receiver did not start"
	exit 1
}
e2e_conf "$TMP/bsflowd.conf" "127.0.0.1:$port"
e2e_daemon bsflowd "$TMP/bsflowd.conf" 5
e2e_wait_daemon bsflowd
sleep 0.3
kill -TERM $spid
wait $spid

"$TSHARK" -r "$TMP/rx.pcap" -d "udp.port==$port,sflow" -V >"$TMP/v.txt" 2>"$TMP/v.err" || {
	fail "tshark -V failed"
	cat "$TMP/v.err"
}
n=$(grep -c '^InMon sFlow' "$TMP/v.txt")
[ "$n" -ge 4 ] || fail "tshark found $n sFlow datagrams"
if grep -n 'Malformed\|\[Expert Info (Error' "$TMP/v.txt" | head -n 5 | grep .; then
	fail "tshark reports malformed or erroneous frames"
fi
# tshark sees the counters samples and their generic interface counters
grep -q 'sFlow sample type: Expanded counters sample (4)' "$TMP/v.txt" ||
	fail "tshark shows no expanded counters sample"
grep -q 'Generic interface counters' "$TMP/v.txt" ||
	fail "tshark shows no generic interface counters"

"$COLLECT" -r "$TMP/rx.pcap" -p "$port" --strict -q >"$TMP/c.out" 2>"$TMP/c.err"
cst=$?
[ "$cst" = 0 ] || {
	fail "bsflow-collect -r --strict exited $cst"
	tail -n 5 "$TMP/c.err"
}
e2e_finish
