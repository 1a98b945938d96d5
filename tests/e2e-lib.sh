# tests/e2e-lib.sh - shared by the end-to-end tests
# (tests/e2e-*.sh), sourced, not run.
#
# Each test runs bsflowd with the built-in model on a scenario whose
# outcome is known, sends to bsflow-collect (or another receiver) on a
# free loopback port, and checks what arrived.  Everything stays on
# 127.0.0.1 / ::1.  Helpers here:
#   e2e_init NAME        temp dir $TMP, cleanup trap, python3 check
#   e2e_collect NAME ARGS  bsflow-collect -p 0 in the background; sets
#                        $cpid and $cport (read from its "listening" line)
#   e2e_stop PID         SIGTERM and wait; sets $st
#   e2e_conf FILE PORTS... a bsflowd.conf with one collector per port and
#                        the scenario in $E2E_MODEL
#   e2e_daemon NAME CONF SECONDS  bsflowd -f CONF -d --run-for SECONDS in
#                        the background; sets $dpid
#   fail MESSAGE         record a failure (the test exits 1 at the end)
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
BSFLOWD="$top_builddir/agent/bsflowd"
E2E_CHECK="$top_srcdir/tests/e2e-check.py"
rc=0
E2E_PIDS=

fail() {
	echo "FAIL: $*"
	rc=1
}

e2e_skip() {
	echo "SKIP: $*"
	exit 77
}

e2e_init() {
	command -v python3 >/dev/null 2>&1 || e2e_skip "python3 not installed"
	[ -x "$COLLECT" ] || {
		echo "FAIL: $COLLECT not built"
		exit 1
	}
	[ -x "$BSFLOWD" ] || {
		echo "FAIL: $BSFLOWD not built"
		exit 1
	}
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-$1.XXXXXX") || exit 1
	trap 'e2e_cleanup' EXIT
	trap 'exit 1' INT TERM
}

e2e_cleanup() {
	for p in $E2E_PIDS; do
		kill "$p" 2>/dev/null
	done
	for p in $E2E_KILL; do # programs that ignore SIGTERM
		kill -KILL "$p" 2>/dev/null
	done
	if [ "$rc" != 0 ] && [ -n "$E2E_KEEP" ]; then
		echo "keeping $TMP"
	else
		rm -rf "$TMP"
	fi
}

# e2e_collect NAME ARGS...: output in $TMP/NAME.out, messages in NAME.err
e2e_collect() {
	name=$1
	shift
	: >"$TMP/$name.err" # exists before the child opens it
	"$COLLECT" -p 0 -t 120 "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	cpid=$!
	E2E_PIDS="$E2E_PIDS $cpid"
	cport=
	i=0
	while [ $i -lt 300 ]; do
		cport=$(sed -n 's/.*listening on udp .* port \([0-9]*\)$/\1/p' "$TMP/$name.err" |
			head -n 1)
		[ -n "$cport" ] && return 0
		kill -0 $cpid 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	echo "FAIL: $name: bsflow-collect did not start"
	cat "$TMP/$name.err"
	exit 1
}

e2e_stop() {
	kill -TERM "$1" 2>/dev/null
	wait "$1"
	st=$?
}

# e2e_free_port: a UDP port nothing listens on (bound and released).
e2e_free_port() {
	python3 -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# The scenario: 4 ports of 1 Gb/s, 8 unicast queues, 256-byte cells; every
# queue may hold 64 KB (256 cells: 8 frames of 8192 bytes) above a minimum
# of 0.  Ports 1 and 2 each send 8192-byte frames at line rate, evenly
# spaced, to port 0, queue 0 (DSCP 0): port 0 is congested 2:1, its queue 0
# is always full, half of what arrives is dropped; ports 1-3 transmit
# nothing.  Large frames keep the model's work small (45000 events/s), so
# that it keeps up with the wall clock even under sanitizers.  Closed forms
# (a frame of L bytes takes (L + 20) * 8 bits on the wire):
#   frames/s per input = 1e9 / (8212 * 8) = 15221.6
#   port 0 out frames/s = drops/s = 15221.6
#   queue 0 peak = 256 of 256 cells (BST 10000), 65536 bytes
#   port 0 egress unicast: 256 of 8 x 256 cells (BST 1250)
#   device: 256 of 16384 cells (BST 156)
#   queue 0 sojourn ~ 8 frame times = 8 * 65.696 us = 525.6 us
E2E_MODEL='model {
	seed = 1
	ports = 4
	speed = 1G
	cell_size = 256
	buffer = 4M
	unicast_queues = 8
	queue_min = 0
	queue_limit = 64K
	sampling_rate = 0
	traffic congest {
		ports = {1, 2}
		destination = fixed
		to = 0
		rate = 100%
		arrival = constant
		size = 8192
		dscp = 0
		flows = 4
	}
}'

# e2e_conf FILE ADDR:PORT... [-- EXTRA]: polling every $E2E_INTERVAL s.
e2e_conf() {
	f=$1
	shift
	{
		echo "# written by $(basename "$0")"
		echo "agent {"
		echo "	address = \"127.0.0.1\""
		echo "}"
		echo "polling_interval = ${E2E_INTERVAL:-1}"
		n=0
		for c in "$@"; do
			n=$((n + 1))
			addr=${c%:*}
			port=${c##*:}
			echo "collector c$n {"
			echo "	address = \"$addr\""
			echo "	port = $port"
			echo "}"
		done
		echo "$E2E_MODEL"
	} >"$f"
}

# e2e_daemon NAME CONF SECONDS
e2e_daemon() {
	"$BSFLOWD" -f "$2" -d --run-for "$3" >"$TMP/$1.log" 2>&1 &
	dpid=$!
	E2E_PIDS="$E2E_PIDS $dpid"
}

# e2e_until NAME FILE IFINDEX FIELD MIN [TIMEOUT [EXTRA]]: for a daemon
# started with a generous --run-for (a bound, not the plan), wait until the
# counters samples in bsflow-collect -j output FILE show ifIndex IFINDEX's
# FIELD (a 0:1 counter) at MIN or more, and then until every data source
# has sent 1 + EXTRA (default 0) more counters samples, so that the last
# sample of each counts all the scenario did (EXTRA polls more for what
# settles after it, such as a draining queue); then stop bsflowd with
# SIGTERM (it flushes and exits 0) and wait for it like e2e_wait_daemon.
# The built-in model runs behind the wall clock on a loaded machine
# (sanitizers, parallel tests): waiting for what the scenario does, not
# for a fixed time, keeps such runs deterministic.  Fails after TIMEOUT
# seconds (default 90).
e2e_until() {
	python3 -c '
import json, sys, time
path, ifx, field, want, limit = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
extra = int(sys.argv[6])
end = time.monotonic() + limit
reached = None  # data sources and their sample counts when MIN was reached
pos, buf, seen = 0, "", {}
while time.monotonic() < end:
    with open(path) as f:
        f.seek(pos)
        buf += f.read()
        pos = f.tell()
    *lines, buf = buf.split("\n")
    for line in lines:
        if not line.strip():
            continue
        for s in json.loads(line).get("samples", []):
            if s.get("sampleType_tag") != "0:4":
                continue
            seen[s["sourceId"]] = seen.get(s["sourceId"], 0) + 1
            for e in s.get("elements", []):
                if (reached is None and e.get("counterBlock_tag") == "0:1" and
                        e.get("ifIndex") == ifx and e.get(field, 0) >= want):
                    reached = dict(seen)
    if reached is not None and all(seen[k] > n + extra for k, n in reached.items()):
        sys.exit(0)
    time.sleep(0.1)
print("FAIL: ifIndex %d %s did not reach %d (then %d more polls of every source) in %d s" % (ifx, field, want, 1 + extra, limit))
sys.exit(1)
' "$2" "$3" "$4" "$5" "${6:-90}" "${7:-0}" || rc=1
	kill -TERM "$dpid" 2>/dev/null
	e2e_wait_daemon "$1"
}

# e2e_wait_daemon: wait for $dpid; fail unless it exited 0.
e2e_wait_daemon() {
	wait "$dpid"
	dst=$?
	if [ "$dst" != 0 ]; then
		fail "bsflowd exited $dst"
		tail -n 20 "$TMP/$1.log"
	fi
}

e2e_finish() {
	[ "$rc" = 0 ] && echo "PASS"
	exit $rc
}
