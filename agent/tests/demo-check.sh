#!/bin/sh
# agent/tests/demo-check.sh - `make demo` shows what the README says it
# shows: run agent/demo.sh for a few seconds and check its last table.
#  - port 0 (4:1 incast bursts): peak BST about 100 % (in some table of
#    the run: the last may show the out-of-cycle sample a congestion start
#    sent, whose window ends before the burst's peak), congestion episodes,
#    and no_buffer_space drop notifications (the demo's rate manager keeps
#    the steady drops of ports 1 and 5 from taking all the tickets);
#  - port 1: no notifications (the acl drops of the traffic port 0 sends
#    it happen before any output, so they name only their input port and
#    count on port 0's row); port 5: red notifications, more than 1 ms of
#    queue delay, high-delay and forensics events;
#  - ports 2, 3, 4 (idle egress): no discards, no notifications;
#  - the aggregate drop sampler's cap: at most 10 notifications per 100 ms.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
seconds=6
out=$(mktemp "${TMPDIR:-/tmp}/bsfdemochk.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
sh "$top_srcdir/agent/demo.sh" "$top_builddir" "$top_srcdir" $seconds >"$out" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: demo.sh exited $rc"
	cat "$out"
	exit 1
fi
# the last table: the lines after the last header
awk -v secs=$seconds '
/^SOURCE NAME/ { n = 0; next }
/^0:[0-9]+ +port[0-9]/ { row[$2] = $0; n++; if ($2 == "port0" && $3 + 0 > peak0) peak0 = $3 + 0 }
/drop notifications:/ {
	for (i = 1; i <= NF; i++) if ($i == "offered,") offered = $(i - 1)
}
function field(p, k,   a) { split(row[p], a, " +"); return a[k] }
function bad(msg) { print "FAIL: " msg; fail = 1 }
END {
	# columns: SOURCE NAME PEAK% PEAK_AT IN_DISC OUT_DISC DROPS TOP_REASON
	#          DELAY_US Q EVENTS...
	if (!("port0" in row) || !("port5" in row)) { print "FAIL: no table"; exit 1 }
	if (peak0 < 99.0) bad("port0 peak at most " peak0 " % < 99")
	if (field("port0", 7) + 0 <= 0) bad("port0 has no drop notifications")
	if (field("port0", 8) != "no_buffer_space") bad("port0 top reason " field("port0", 8))
	if (row["port0"] !~ / C[0-9]+/) bad("port0 has no congestion episodes")
	if (field("port1", 7) + 0 != 0) bad("port1: " row["port1"])
	if (field("port5", 7) + 0 <= 0 || field("port5", 8) != "red") bad("port5: " row["port5"])
	if (field("port5", 9) + 0 < 1000) bad("port5 delay " field("port5", 9) " us < 1 ms")
	if (row["port5"] !~ / D[0-9]+/ || row["port5"] !~ / F[0-9]+/)
		bad("port5 has no high-delay or forensics events")
	for (p = 2; p <= 4; p++)
		if (field("port" p, 6) + 0 != 0 || field("port" p, 7) + 0 != 0)
			bad("idle port" p ": " row["port" p])
	# 10 per 100 ms, over the run and the start-up second
	if (offered == "" || offered + 0 > 100 * (secs + 1))
		bad("notifications offered: " offered)
	if (!fail) {
		print "ok: port0 " field("port0", 7) " (mostly no_buffer_space, acl too), port5 " \
		      field("port5", 7) " red; " offered " offered"
	}
	exit fail
}' "$out"
rc=$?
[ $rc -ne 0 ] && cat "$out"
exit $rc
