#!/bin/sh
# tests/e2e-visibility.sh - visibility events and samplers
# end to end: bsflowd with the built-in model and a visibility section,
# received by bsflow-collect --strict -j, checked by
# e2e-visibility-check.py.
#
# The scenario (all closed forms; a frame of L bytes takes (L + 20) * 8 ns
# at 1 Gb/s, so a 1024-byte frame takes T = 8352 ns):
#   4 ports of 1 Gb/s, 8 unicast queues, 256-byte cells, every queue may
#   hold 64 KB = 256 cells = 64 frames of 1024 bytes.  Ports 1 and 2 send
#   1024-byte frames to port 0, queue 0, at line rate for the first 0.6 %
#   (600 us: 71 whole frame times, 71 frames each) of every 100 ms, 20
#   periods (stop = 2 s): twice port 0's line rate, in phase.  Each period
#   queue 0 grows by one frame per T from empty, is full after 64 T
#   (534.5 us), drops about one frame per T until the burst ends (71 T: 142
#   arrivals - 64 queued - about 70 sent = about 8 drops), then drains in
#   64 T.
#   - congestion (high 32K = 32 frames, low 8K = 8 frames): exactly one
#     episode per period, starting at about 32 T, peak 64 frames (65536
#     bytes), ending when 8 frames are left, about 56 T after the burst:
#     duration about (71 - 32 + 56) T = 95 T = 793 us.
#   - high delay above 200 us on queue 0, through a ticket sampler of 10
#     per 100 ms: never more than 10 a ticket period.
#   - forensics on queue 0: drops keep moving the snapshot to the newest
#     drop; the last drop of a burst finds 63 or 64 frames queued, which
#     leave tagged with its event id, the last one flagged.
#   - drops through a 1-in-2 sampler: 0:5 for every second drop, the
#     others counted in the drops field.
#   Port 3 receives nothing.  Packet sampling 1-in-20 on the ingress ports
#   (0:3 samples, which must never carry visibility events).
# Checks are invariants of the scenario, never wall-clock rates: the model
# may lag the wall clock on a loaded machine, and all the times checked are
# the model's own (0:1043), so a lag changes nothing.  With a backend that
# cannot stream queue events (a model without them) the checks that need
# the streams (forensics, exact congestion) are reported as not checked.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
e2e_init visibility
E2E_INTERVAL=1
CHECK="$top_srcdir/tests/e2e-visibility-check.py"
E2E_MODEL='model {
	seed = 3
	ports = 4
	speed = 1G
	cell_size = 256
	buffer = 4M
	unicast_queues = 8
	queue_min = 0
	queue_limit = 64K
	sampling_rate = 20
	traffic burst {
		ports = {1, 2}
		destination = fixed
		to = 0
		rate = 100%
		arrival = onoff
		period = 100ms
		duty = 0.6%
		size = 1024
		dscp = 0
		flows = 4
		stop = 2s
	}
}
visibility {
	forensics = yes
	forensics_ports = {0}
	forensics_queues = {0}
	delay_profile d {
		ports = {0}
		queues = {0}
		thresholds = {200us}
	}
	congestion q {
		ports = {0}
		queues = {0}
		high = 32K
		low = 8K
	}
	sampler drops_s {
		every = 2
	}
	sample_drops = drops_s
	sampler delay_s {
		tickets = 10
		period = 100ms
	}
	sample_delay = delay_s
	default_rate = 0
}'

e2e_collect col --strict -j -b 127.0.0.1
e2e_conf "$TMP/bsflowd.conf" "127.0.0.1:$cport"
e2e_daemon bsflowd "$TMP/bsflowd.conf" 90
# until port 2 (ifIndex 3) received its 20 x 71 frames, then two more polls
# of every data source, so that the last device sample's sampler
# statistics count everything the scenario did (the queue drains 0.5 ms
# after the last arrival)
e2e_until bsflowd "$TMP/col.out" 3 ifInUcastPkts 1420 60 1
sleep 0.3
e2e_stop $cpid
if [ "$st" != 0 ]; then
	fail "bsflow-collect --strict exited $st"
	tail -n 5 "$TMP/col.err"
fi
python3 "$CHECK" "$TMP/col.out" "$TMP/bsflowd.log" || rc=1
e2e_finish
