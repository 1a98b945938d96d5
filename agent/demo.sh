#!/bin/sh
# agent/demo.sh - `make demo`: run bsflowd on the model's demo scenario for
# a while with bsflow-collect receiving on a free loopback port, and show a
# per-port table (peak buffer use, discards, queue delay) refreshed as the
# datagrams arrive.
# usage: demo.sh BUILDDIR SRCDIR SECONDS
builddir=$1
srcdir=$2
seconds=${3:-20}
BSFLOWD="$builddir/agent/bsflowd"
COLLECT="$builddir/collector/bsflow-collect"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bsfdemo.XXXXXX") || exit 1
cpid=
dpid=
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
	[ -n "$cpid" ] && kill "$cpid" 2>/dev/null
	[ -n "$apid" ] && kill "$apid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# the collector first, on any free port of 127.0.0.1 (it says which);
# with a table mode of its own it draws the table, else demo.awk does
clear=0
[ -t 1 ] && clear=1
apid=
if "$COLLECT" -h 2>&1 | grep -q -- '--table'; then
	"$COLLECT" -p 0 -b 127.0.0.1 -t $((seconds + 3)) --table --no-summary \
		2>"$tmp/collect.err" &
	cpid=$!
else
	mkfifo "$tmp/out" || exit 1
	awk -v clear=$clear -f "$srcdir/agent/demo.awk" <"$tmp/out" &
	apid=$!
	"$COLLECT" -p 0 -b 127.0.0.1 -t $((seconds + 3)) --no-summary \
		>"$tmp/out" 2>"$tmp/collect.err" &
	cpid=$!
fi
i=0
port=
while [ -z "$port" ] && [ $i -lt 50 ]; do
	sleep 0.1
	port=$(sed -n 's/.*listening on udp 127\.0\.0\.1 port \([0-9]*\).*/\1/p' \
		"$tmp/collect.err" 2>/dev/null)
	i=$((i + 1))
done
if [ -z "$port" ]; then
	echo "demo: bsflow-collect did not start:" >&2
	cat "$tmp/collect.err" >&2
	exit 1
fi

# bsflowd: the demo scenario, polling every 2 s, to that port
{
	printf 'agent {\n\taddress = 127.0.0.1\n}\n'
	printf 'polling_interval = 2\n'
	printf 'collector "demo" {\n\taddress = 127.0.0.1\n\tport = %s\n}\n' "$port"
	printf 'backend = model\n'
	grep -v '^[[:space:]]*duration[[:space:]]*=' "$srcdir/etc/scenarios/demo.conf"
	# visibility (bsflowd.conf(5), VISIBILITY SECTION): high queue delay,
	# forensics after drops, congestion episodes; drop notifications
	# shared between port 0's incast, port 5's WRED flood and the rest
	cat <<'EOF'
visibility {
	forensics = yes
	delay_profile default {
		thresholds = {100us, 1ms}
	}
	congestion queues {
		high = 256K
		low = 64K
	}
	sampler port0 { ports = {0}  tickets = 5  period = 100ms }
	sampler port5 { ports = {5}  tickets = 5  period = 100ms }
	sampler others { ports = {1-4, 6, 7}  tickets = 5  period = 100ms }
	sampler drops {
		type = aggregate
		members = {port0, port5, others}
		tickets = 10
		period = 100ms
		# without it, the steady ACL and WRED drops of ports 1 and 5
		# take all 10 tickets early in each period and port 0's
		# bursts find none left
		rate_manager = yes
		rate_levels = {1, 2, 3, 4, 5}
	}
	sampler delay { tickets = 50  period = 1s }
	sampler forensics { tickets = 50  period = 1s }
	sample_drops = drops
	sample_delay = delay
	sample_forensics = forensics
}
EOF
} >"$tmp/demo.conf"
echo "demo: bsflowd runs the demo scenario for $seconds s, sending to 127.0.0.1 port $port"
echo "demo: configuration $tmp/demo.conf, bsflowd log $tmp/bsflowd.log"
"$BSFLOWD" -d -f "$tmp/demo.conf" --run-for "$seconds" 2>"$tmp/bsflowd.log" &
dpid=$!

wait "$dpid"
rc=$?
dpid=
# what was sent has arrived (loopback): stop the collector
sleep 0.3
kill "$cpid" 2>/dev/null
wait "$cpid" 2>/dev/null
cpid=
[ -n "$apid" ] && wait "$apid"
apid=
echo
echo "demo: bsflowd exited with status $rc; its last lines:"
tail -n 4 "$tmp/bsflowd.log"
exit $rc
