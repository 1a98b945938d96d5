#!/bin/sh
# tests/e2e-congestion.sh - bsflowd end to end on a known
# scenario (e2e-lib.sh: port 0 congested 2:1, the other ports idle),
# received by bsflow-collect --strict -j:
#   - every port's and the device's counters sample at the polling
#     interval, with contiguous sample sequence numbers;
#   - BST 10000 on the congested queue's peak, 0 on idle queues, 1250 for
#     port 0's egress unicast (256 of 8 x 256 cells), the own queue record
#     with the same cells, and the queue delay of a full queue;
#   - interface counters at the generator rates (1 %), ifOutDiscards at
#     the closed-form drop rate (half of what arrives at port 0).
#   - the same BST percentages and queue delays as bsflow-sim reports for
#     the same scenario on virtual time (bsflow-sim --json), whose own
#     counts match the closed forms.
# The closed forms are in e2e-lib.sh and e2e-check.py.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
e2e_init congestion
E2E_INTERVAL=1
SECONDS_RUN=8

e2e_collect col --strict -j -b 127.0.0.1
e2e_conf "$TMP/bsflowd.conf" "127.0.0.1:$cport"
e2e_daemon bsflowd "$TMP/bsflowd.conf" $SECONDS_RUN
e2e_wait_daemon bsflowd
sleep 0.3
e2e_stop $cpid
if [ "$st" != 0 ]; then
	fail "bsflow-collect --strict exited $st"
	tail -n 5 "$TMP/col.err"
fi
SIM="$top_builddir/agent/model/bsflow-sim"
sim=
if [ -x "$SIM" ]; then
	printf '%s\n' "$E2E_MODEL" >"$TMP/scenario.conf"
	if "$SIM" -f "$TMP/scenario.conf" --duration 2 --json >"$TMP/sim.json" 2>"$TMP/sim.err"; then
		sim="$TMP/sim.json"
	else
		fail "bsflow-sim failed on the scenario"
		cat "$TMP/sim.err"
	fi
else
	fail "$SIM not built"
fi
# the largest lag of the model behind the wall clock that bsflowd logged
# (a warning beyond 100 ms, and the status at exit)
E2E_LAG_MS=$(sed -n -e 's/.*simulation is \([0-9.]*\) ms behind.*/\1/p' \
	-e 's/.*simulation lag \([0-9.]*\) ms behind.*/\1/p' "$TMP/bsflowd.log" |
	sort -g | tail -n 1)
E2E_LAG_MS=${E2E_LAG_MS:-0} python3 "$E2E_CHECK" congestion "$TMP/col.out" $E2E_INTERVAL $sim || rc=1
e2e_finish
