#!/bin/sh
# tests/e2e-tshark.sh - independent decoders accept what
# bsflowd sends: the datagrams of a run on the e2e scenario, saved into a
# pcap by e2e-udp2pcap.py (no interface capture, no root needed), are
# decoded by tshark with no malformed frame and no expert error, and by
# bsflow-collect -r --strict.  Skips (77) without tshark.
#
# Note: tshark (4.0) decodes a counters sample's records only up to the
# first record it does not know: it does not skip an unknown enterprise-0
# format (0:1005 here) by its length, and it ends the sample at the first
# record of another enterprise (4413, bsflowd's own).  In flow samples it
# misreads everything after the first record it does not know (0:1036,
# 0:1040 ...): with packet sampling or drops on it flags most valid
# datagrams as malformed (measured with 4.0.17: 2021 of 2938 in a 5 s run;
# README, Interoperability).  So this test runs the e2e scenario, which
# has no packet sampling (counters samples, and 0:5 samples that tshark
# 4.0 skips whole as a type it does not know), and proves the datagram
# and sample framing and the records before those; the rest is
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
