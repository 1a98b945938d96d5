#!/bin/sh
# agent/linux/tests/e2e-linux-bpf-reload.sh - loading and unloading the
# bpf source leaves nothing behind: in a network namespace this test
# creates (a veth pair with a tbf root), bsflowd with backend = linux and
# bpf = on is reloaded 100 times (SIGHUP after changing qdisc_poll_ms, so
# that the backend, and the BPF object with it, is closed and opened
# again).  Checks with bpftool: after the 100 reloads exactly the three
# programs (bsf_enqueue, bsf_dequeue, bsf_drop) are loaded, as before them; a reload
# with bpf = off detaches them (none left); at exit none of the programs
# or maps the daemon ever held remain (by name, from the first map id).  Serialised with e2e-linux-bpf.sh
# (a lock file), which loads the same programs.  Needs root, ip(8), tc(8),
# bpftool, python3, BPF support built and a kernel that loads it:
# otherwise SKIP (exit 77).
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${top_builddir:=.}"
BSFLOWD="$top_builddir/agent/bsflowd"
NRELOAD=${NRELOAD:-100}
NPROG=3 # bsf_enqueue, bsf_dequeue, bsf_drop

skip() {
	echo "SKIP: $*"
	exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces, BPF)"
command -v ip >/dev/null 2>&1 || skip "ip(8) not installed (iproute2)"
command -v tc >/dev/null 2>&1 || skip "tc(8) not installed (iproute2)"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
command -v flock >/dev/null 2>&1 || skip "flock(1) not installed (util-linux)"
BPFTOOL=$(command -v bpftool || ls /usr/sbin/bpftool 2>/dev/null)
[ -n "$BPFTOOL" ] || skip "bpftool not installed"
[ -x "$BSFLOWD" ] || {
	echo "FAIL: bsflowd not built"
	exit 1
}
grep -q '^#define HAVE_BPF 1' "$top_builddir/config.h" 2>/dev/null ||
	skip "bsflowd built without BPF support (see configure's output)"
exec 9>"${TMPDIR:-/tmp}/bsflowd-bpf-e2e.lock"
flock 9
A=bsfra$$
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-bpfrl.XXXXXX") || exit 1
cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	[ -n "$KEEP" ] && echo "keeping $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
ip netns add "$A" 2>"$TMP/err" || skip "cannot create a network namespace: $(cat "$TMP/err")"
ip -n "$A" link add vA type veth peer name vB 2>"$TMP/err" || skip "no veth: $(cat "$TMP/err")"
ip -n "$A" link set vA up && ip -n "$A" link set vB up || exit 1
ip netns exec "$A" tc qdisc add dev vA root handle 1: tbf rate 5mbit burst 5000 limit 30000 \
	2>"$TMP/err" || skip "tbf not available: $(tail -n 1 "$TMP/err")"

# programs named bsf_*: "COUNT PROGIDS MAPIDS"
progs() {
	# bpftool can fail while a program goes away: try again
	for _ in 1 2 3 4 5; do
		"$BPFTOOL" -j prog show >"$TMP/progs.json" 2>/dev/null && break
		sleep 0.1
	done
	python3 -c '
import json, sys
ps = [p for p in json.load(sys.stdin) if p.get("name", "").startswith("bsf_")]
maps = sorted({m for p in ps for m in p.get("map_ids", [])})
print(len(ps), ",".join(str(p["id"]) for p in ps) or "-", ",".join(map(str, maps)) or "-")' \
		<"$TMP/progs.json"
}
conf() {
	cat >"$TMP/bsflowd.conf" <<EOC
collector "c" {
	address = 127.0.0.1
	port = 6343
}
backend = linux
linux {
	ports = {"vA"}
	qdisc_poll_ms = $1
	bpf = $2
	packet = off
	tracepoint = off
}
EOC
}
# wait until the log has $1 lines matching $2 (10 s at most)
waitlog() {
	i=0
	while [ "$(grep -c "$2" "$TMP/bsflowd.log")" -lt "$1" ]; do
		i=$((i + 1))
		[ $i -gt 200 ] && return 1
		sleep 0.05
	done
	return 0
}
set -- $(progs)
before=$1
conf 10 on
ip netns exec "$A" "$BSFLOWD" -d -f "$TMP/bsflowd.conf" >"$TMP/bsflowd.log" 2>&1 &
dpid=$!
if ! waitlog 1 'linux: bpf on 1 queue'; then
	if grep -q 'bpf = on, but bpf absent' "$TMP/bsflowd.log"; then
		skip "the bpf source cannot start here: $(grep -o 'bpf absent.*' "$TMP/bsflowd.log" | head -n 1)"
	fi
	echo "FAIL: bsflowd did not start the bpf source"
	cat "$TMP/bsflowd.log"
	exit 1
fi
set -- $(progs)
echo "bsf_ programs before bsflowd: $before; with it: $1 ($2), maps $3"
allmaps=$3
rc=0
[ "$1" = $((before + NPROG)) ] || {
	echo "FAIL: $1 bsf_ programs loaded, $((before + NPROG)) expected"
	rc=1
}
n=1
while [ $n -le "$NRELOAD" ]; do
	conf $((10 + n % 2)) on
	kill -HUP $dpid
	n=$((n + 1))
	waitlog $n 'linux: bpf on 1 queue' || {
		echo "FAIL: reload $((n - 1)): the bpf source did not come back"
		tail -n 20 "$TMP/bsflowd.log"
		exit 1
	}
done
# a reload opens the new backend before it closes the old one: wait for
# the old one's programs to go (5 s at most)
i=0
while set -- $(progs) && [ "$1" != $((before + NPROG)) ] && [ $i -lt 50 ]; do
	i=$((i + 1))
	sleep 0.1
done
echo "after $NRELOAD reloads: $1 bsf_ programs ($2)"
[ "$1" = $((before + NPROG)) ] || {
	echo "FAIL: $1 bsf_ programs after $NRELOAD reloads, $((before + NPROG)) expected"
	rc=1
}
conf 10 off
kill -HUP $dpid
waitlog 1 'linux: status: bpf\|bpf off (config)' >/dev/null
sleep 0.5
set -- $(progs)
echo "after a reload with bpf = off: $1 bsf_ programs"
[ "$1" = "$before" ] || {
	echo "FAIL: bpf = off left $1 bsf_ programs loaded ($before before)"
	rc=1
}
kill $dpid
wait $dpid
dpid=
set -- $(progs)
# map ids only grow: any map of the object's names with an id from the
# first one the daemon held on was created by it (the lock keeps the other
# bpf test out)
left=$("$BPFTOOL" -j map show | python3 -c '
import json, sys
first = min((int(x) for x in sys.argv[1].split(",") if x.isdigit()), default=1 << 62)
names = ("queues", "rootidx", "leaves", "slots", "qvars", "pkts", "samples", "qevents", "drops",
         "ports", "bucket", "qstats", "bsflowd_.bss", "bsflowd_.data")
print(len([m for m in json.load(sys.stdin) if m["id"] >= first and m.get("name") in names]))' \
	"$allmaps")
echo "after exit: $1 bsf_ programs, $left of the daemon's maps left"
[ "$1" = "$before" ] && [ "$left" = 0 ] || {
	echo "FAIL: programs or maps left behind"
	rc=1
}
exit $rc
