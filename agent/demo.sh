#!/bin/sh
# agent/demo.sh - `make demo`: run bsflowd on the model's demo scenario for
# a while with bsflow-collect receiving on a free loopback port, and show a
# per-port table (peak buffer use, discards, queue delay) refreshed as the
# datagrams arrive.
# usage: demo.sh BUILDDIR SRCDIR SECONDS
#
# SPDX-License-Identifier: BSD-2-Clause
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

# bsflowd: etc/examples/demo.conf (the demo scenario, polling every 2 s,
# visibility events), sending to that port
sed "s/^\tport = 6343\$/\tport = $port/" "$srcdir/etc/examples/demo.conf" >"$tmp/demo.conf"
if ! grep -q "^	port = $port\$" "$tmp/demo.conf"; then
	echo "demo: etc/examples/demo.conf has no 'port = 6343' line to point at bsflow-collect" >&2
	exit 1
fi
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
