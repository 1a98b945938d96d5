#!/bin/sh
# tests/e2e-admission.sh - bsflowd on a model with ingress arbitration
# with accelerated memory, flow-based shared-buffer admission and WRED
# marking ECN: its datagrams (saved into a pcap by e2e-udp2pcap.py) are
# decoded by bsflow-collect -r --strict, which prints the own records
# ingress_arbitration (ports and device), flow_regions (device),
# queue_ecn (ports) and, in the 0:5 of a drop by a flow region,
# flow_region_drop, by name with their keys (bsflowd-structures(7));
# tshark, when installed,
# decodes every frame as sFlow, and any frame it finds malformed has a
# standard 0:1005 record before (tshark 4.0 does not skip that record by
# its length; the same happens without these records).  sflowtool is not
# checked (not installed here).
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
e2e_init admission

E2E_MODEL='model {
	seed = 1
	ports = 4
	speed = 1G
	buffer = 1M
	unicast_queues = 1
	alpha = 8
	pg_alpha = 8
	ingress_arbitration {
		egress_over = 25%
	}
	wred {
		ports = {3}
		queues = {0}
		min = 16K
		max = 256K
		probability = 50%
		ecn = yes
	}
	flow_admission {
		regions = 2
		alpha = 0.25
		rule hog {
			dscp = 4
			region = 0
		}
		rule rest {
			dscp = 0
			region = 1
		}
	}
	traffic hog {
		ports = {0}
		destination = fixed
		to = 3
		rate = 100%
		size = 1500
		dscp = 4
		ecn = ect1
	}
	traffic wellbehaved {
		ports = {1}
		destination = fixed
		to = 3
		rate = 40%
		arrival = poisson
		size = 1500
		dscp = 0
		ecn = ect0
		flows = 4
	}
}'
export E2E_MODEL

python3 "$top_srcdir/tests/e2e-udp2pcap.py" 127.0.0.1 "$TMP/rx.pcap" "$TMP/port" &
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
e2e_daemon bsflowd "$TMP/bsflowd.conf" 4
e2e_wait_daemon bsflowd
sleep 0.3
kill -TERM $spid
wait $spid

"$COLLECT" -r "$TMP/rx.pcap" -p "$port" --strict >"$TMP/c.out" 2>"$TMP/c.err"
cst=$?
[ "$cst" = 0 ] || {
	fail "bsflow-collect -r --strict exited $cst"
	tail -n 5 "$TMP/c.err"
}
grep -q 'bsf_record ingress_arbitration' "$TMP/c.out" ||
	fail "no ingress_arbitration record decoded by name"
grep -q 'bsf_record flow_regions' "$TMP/c.out" || fail "no flow_regions record decoded by name"
grep -q 'bsf_record queue_ecn' "$TMP/c.out" || fail "no queue_ecn record decoded by name"
grep -q 'bsf_record flow_region_drop' "$TMP/c.out" ||
	fail "no flow_region_drop record decoded by name"
for k in bsf_iarb_accelerated bsf_iarb_not_accelerated bsf_iarb_cause_egress_over \
	bsf_iarb_am_lat_min bsf_iarb_pb_lat_max bsf_region_total bsf_region_0_dropped \
	bsf_region_1_admitted bsf_ecn_uc_0 bsf_drop_region_pc bsf_drop_region_count \
	bsf_drop_region_bound; do
	grep -q "$k" "$TMP/c.out" || fail "no $k in bsflow-collect's output"
done
# port 3's queue marks the well-behaved flows' ECT(0) packets
awk '$1 == "bsf_ecn_uc_0" && $2 > 0 { ok = 1 } END { exit !ok }' "$TMP/c.out" ||
	fail "no CE marks counted in queue_ecn"
# every flow-region drop is by the bound (its region's state at or above
# 100 %: 10000 hundredths), in 0:5 notifications of reason 259 (a 0:5's
# records print with the discarded_ prefix), and it is the hog's region (0)
# that drops: with every drop exported (drops { limit = 1000000 }), 131 191
# of 131 212 were region 0's; the other 21 were the well-behaved region's,
# over the bound the hog's fill had shrunk (alpha x the free buffer), so at
# least 95 % of those sampled (about 400 at the default limit) are region 0's
awk '$1 == "discarded_bsf_drop_region" { n++; if ($2 == 0) r0++ }
     $1 == "discarded_bsf_drop_region_cause" && $2 != "bound" { bad = 1 }
     $1 == "discarded_bsf_drop_region_pc" && $2 < 10000 { bad = 1 }
     END { exit bad || n == 0 || r0 < 0.95 * n }' "$TMP/c.out" ||
	fail "a flow_region_drop not at its bound, or fewer than 95 % of them region 0's"
awk '/^startSample/ { code = ""; reg = 0 }
     $1 == "discardCode" { code = $2 }
     $1 == "discarded_bsf_record" && $2 == "flow_region_drop" { reg = 1 }
     /^endSample/ && reg { n++; if (code != 259) bad = 1 }
     END { exit bad || n == 0 }' "$TMP/c.out" ||
	fail "a 0:5 with a flow_region_drop record but not reason 259"
# the hog's region drops, at the latencies of the defaults (47, 87 ns)
awk '$1 == "bsf_iarb_am_lat_min" && $2 != 0 && $2 != 47 { bad = 1 }
     $1 == "bsf_iarb_pb_lat_min" && $2 != 0 && $2 != 87 { bad = 1 }
     END { exit bad }' "$TMP/c.out" || fail "SOP latencies other than 47 / 87 ns"

if [ -z "$TSHARK" ]; then
	TSHARK=$(command -v tshark)
fi
if [ -n "$TSHARK" ]; then
	HOME=$TMP
	export HOME
	"$TSHARK" -r "$TMP/rx.pcap" -d "udp.port==$port,sflow" -V >"$TMP/v.txt" 2>"$TMP/v.err" ||
		fail "tshark -V failed"
	n=$(grep -c '^InMon sFlow' "$TMP/v.txt")
	[ "$n" -ge 2 ] || fail "tshark found $n sFlow datagrams"
	nf=$("$TSHARK" -r "$TMP/rx.pcap" -T fields -e frame.number 2>/dev/null | wc -l)
	[ "$n" = "$nf" ] || fail "tshark decodes $n of $nf frames as sFlow"
	# tshark (4.0) does not skip the standard 0:1005 record by its length
	# and misreads what follows (e2e-tshark.sh); a frame it calls
	# malformed must be one with such a record before the exception
	awk '/^Frame [0-9]/ { seen = 0 }
	     /Format: Unknown \(1005\)/ { seen = 1 }
	     /^\[Malformed Packet/ && !seen { bad++ }
	     END { exit bad > 0 }' "$TMP/v.txt" ||
		fail "tshark finds a malformed frame without a 0:1005 record before"
	echo "tshark: $n datagrams, $(grep -c '^\[Malformed Packet' "$TMP/v.txt") cut short after a 0:1005 record (its known limitation)"
else
	echo "tshark not installed: framing not checked by it"
fi
e2e_finish
