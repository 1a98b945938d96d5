#!/bin/sh
# tests/e2e-drops.sh - dropped-packet notifications end to
# end: bsflowd with the built-in model, received by bsflow-collect
# --strict -j.
# Run 1 (drops.limit = 100; 4 ports at 1G, queues of 64 KB):
#   - port 1 sends 400 frames the forwarding pipeline drops as
#     ttl_exceeded (257) within 10 ms, port 2 300 acl (258) from 0.5 s,
#     port 3 200 blackhole_route (269) from 1 s: far more than 100 a
#     second, so most are suppressed;
#   - from 3.1 s ports 1 and 2 each send 3000 frames at line rate to port 0:
#     port 0's queue 0 overflows (no_buffer_space, 259, egress admission);
#   - at 3.5 s one more blackhole_route drop on port 3, when the bucket is
#     full again, so its notification carries the final drops count.
#   Checks (e2e-flows-check.py drops): forwarding drops carry the reason
#   of their input port and the symbol "forwarding" and no queue records,
#   buffer drops 259 with "egress_admission"/"ingress_admission", 0:1040
#   and (egress) queue 0; every reason appears; sequence numbers 1, 2, ...
#   on 2:1; notifications received + the last drops field = every drop the
#   model made (the sum of ifInDiscards and ifOutDiscards of the final
#   counters samples); never more than 100 notifications in a second (by
#   their 0:1043 timestamps).
# Run 2 (drops { max = 50, max_trip = 2, cooldown = 2 }): ttl drops at 200 a
#   second for 4 s trip the circuit breaker: bsflowd logs it, sends nothing
#   for at least the cool-down, logs the resumption, and the drops field
#   counts what it held back (sent + drops = offered again).
# Run 3: ports 1 and 2 flood port 0 with 3 000 000 64-byte frames at 10G
#   (about 1.5 million drops in 100 ms), more than the model can simulate
#   in real time on any machine: it falls more than 100 ms behind the wall
#   clock, stops holding its clock back until the agent has read its
#   event queue (4096 events), and the drop events that queue cannot hold
#   are lost; they are counted in the drops field too, so sent + drops =
#   offered still holds.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
e2e_init drops
E2E_INTERVAL=1
CHECK="$top_srcdir/tests/e2e-flows-check.py"

# base SPEED: the switch of every run, 4 ports of SPEED with queues of 64 KB
base() {
	echo "	seed = 9
	ports = 4
	speed = $1
	cell_size = 256
	buffer = 4M
	unicast_queues = 8
	queue_min = 0
	queue_limit = 64K"
}

# to_port0 NAME PORTS [KEY=VALUE...]: a traffic section from PORTS to
# port 0 with one more key line for each KEY=VALUE, in that order
to_port0() {
	echo "	traffic $1 {
		ports = {$2}
		destination = fixed
		to = 0"
	shift 2
	for kv; do
		echo "		${kv%%=*} = ${kv#*=}"
	done
	echo "	}"
}

# last START: one blackhole_route drop on port 3 at START, the end of a run
last() {
	to_port0 last 3 size=256 drop=1 drop_reason=blackhole_route packets=1 start="$1"
}

# drops_run N MIN MODE [ARGS...]: run N of the scenario in $E2E_MODEL:
# bsflow-collect --strict -j (output $TMP/colN.out, messages colN.err)
# receives from bsflowd (log $TMP/bsflowdN.log) until port 3 (ifIndex 4)
# counted MIN input discards and every data source polled once more; the
# collector must exit 0 and `e2e-flows-check.py MODE colN.out 100 ARGS`
# (100 = drops.limit) must pass.
drops_run() {
	drun=$1
	dmin=$2
	dmode=$3
	shift 3
	e2e_collect "col$drun" --strict -j -b 127.0.0.1
	e2e_conf "$TMP/bsflowd$drun.conf" "127.0.0.1:$cport"
	e2e_daemon "bsflowd$drun" "$TMP/bsflowd$drun.conf" 100
	e2e_until "bsflowd$drun" "$TMP/col$drun.out" 4 ifInDiscards "$dmin"
	sleep 0.3
	e2e_stop "$cpid"
	if [ "$st" != 0 ]; then
		fail "bsflow-collect --strict exited $st (run $drun)"
		tail -n 5 "$TMP/col$drun.err"
	fi
	python3 "$CHECK" "$dmode" "$TMP/col$drun.out" 100 "$@" || rc=1
}

# ---- run 1: every reason, rate limit, buffer drops
E2E_MODEL="drops {
	limit = 100
}
model {
$(base 1G)
$(to_port0 ttl 1 rate=10% size=256 drop=1 drop_reason=ttl_exceeded packets=400)
$(to_port0 acl 2 rate=10% size=256 drop=1 drop_reason=acl packets=300 start=500ms)
$(to_port0 bh 3 rate=662400 arrival=constant size=256 drop=1 drop_reason=blackhole_route \
	packets=600 start=1s)
$(to_port0 burst "1, 2" rate=100% arrival=constant size=1024 dscp=0 packets=3000 start=3100ms)
$(last 3500ms)
}"
# until port 3 (ifIndex 4) counted its 601 drops, the last at 3.5 s
drops_run 1 601 drops 257=400,258=300,269=601
grep 'discards\.' "$TMP/col1.err"

# ---- run 2: the circuit breaker
E2E_MODEL="drops {
	limit = 100
	max = 50
	max_trip = 2
	cooldown = 2
}
model {
$(base 1G)
$(to_port0 ttl 1 rate=1632K arrival=constant size=1000 drop=1 drop_reason=ttl_exceeded \
	packets=800)
$(last 6500ms)
}"
# until the drop at 6.5 s on port 3
drops_run 2 1 breaker 2
grep -q 'circuit breaker open' "$TMP/bsflowd2.log" || fail "no log line about the breaker opening"
grep -q 'circuit breaker closed' "$TMP/bsflowd2.log" || fail "no log line about the breaker closing"
grep 'circuit breaker' "$TMP/bsflowd2.log"

# ---- run 3: more drops than the backend's event queue holds
E2E_MODEL="model {
$(base 10G)
$(to_port0 flood "1, 2" rate=100% arrival=constant size=64 dscp=0 packets=3000000)
$(last 2500ms)
}"
# until the drop at 2.5 s on port 3
drops_run 3 1 identity
lost=$(sed -n 's/.* \([0-9]*\) drop events lost to a full queue$/\1/p' "$TMP/bsflowd3.log")
echo "run 3: $lost drop events lost to a full queue"
[ -n "$lost" ] && [ "$lost" -gt 0 ] || fail "run 3: the event queue did not overflow"
e2e_finish
