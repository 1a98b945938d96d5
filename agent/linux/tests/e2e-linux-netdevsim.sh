#!/bin/sh
# agent/linux/tests/e2e-linux-netdevsim.sh - backend = linux against the
# kernel's emulated switch (netdevsim) with the drop monitor and psample:
#   - a netdevsim device with 2 ports; its devlink trap tail_drop set to
#     action trap, so that netdevsim reports a packet on it every 100 ms
#     per port: NET_DM hardware alerts buffer_drops / tail_drop -> 0:5
#     with reason 259 (no_buffer_space) and the trap in the log;
#   - netdevsim's psample emulation (debugfs) with out_tc, out_tc_occ and
#     latency: 0:3 samples carrying 0:1036 (egress queue), 0:1040 (queue
#     depth) and 0:1039 (transit delay) on the netdevsim ports;
#   - dropmon reported active, psample reported, sb absent (netdevsim has
#     no shared-buffer occupancy).
# It runs in the initial network namespace (NET_DM exists only there).
# Needs root and a kernel with netdevsim, drop_monitor and psample
# (modules or built in): otherwise SKIP (exit 77) naming what is missing.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
BSFLOWD="$top_builddir/agent/bsflowd"

skip() {
	echo "SKIP: $*"
	exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root (netdevsim, devlink, the drop monitor)"
# bsflowd may load the bpf source here (bpf = auto): one at a time with the
# bpf tests, which count the programs loaded
if command -v flock >/dev/null 2>&1; then
	exec 9>"${TMPDIR:-/tmp}/bsflowd-bpf-e2e.lock"
	flock 9
fi
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
command -v devlink >/dev/null 2>&1 || skip "devlink(8) not installed (iproute2)"
command -v modprobe >/dev/null 2>&1 && modprobe -q netdevsim 2>/dev/null
command -v modprobe >/dev/null 2>&1 && modprobe -q drop_monitor 2>/dev/null
command -v modprobe >/dev/null 2>&1 && modprobe -q psample 2>/dev/null
[ -w /sys/bus/netdevsim/new_device ] ||
	skip "no netdevsim in this kernel (/sys/bus/netdevsim/new_device; CONFIG_NETDEVSIM)"
genl_has() {
	python3 - "$1" <<'PY'
import socket, struct, sys
name = sys.argv[1].encode() + b"\0"
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
attr = struct.pack("HH", 4 + len(name), 2) + name
attr += b"\0" * ((4 - len(attr) % 4) % 4)
msg = struct.pack("BBH", 3, 1, 0) + attr
s.send(struct.pack("IHHII", 16 + len(msg), 0x10, 1, 1, 0) + msg)
r = s.recv(65536)
t = struct.unpack("H", r[4:6])[0]
err = struct.unpack("i", r[16:20])[0] if t == 2 else 0
sys.exit(1 if t == 2 and err != 0 else 0)
PY
}
genl_has NET_DM || skip "no drop monitor (NET_DM generic netlink family; CONFIG_NET_DROP_MONITOR)"
genl_has psample || skip "no psample family (CONFIG_PSAMPLE)"
[ -d /sys/kernel/debug/netdevsim ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
[ -x "$BSFLOWD" ] && [ -x "$COLLECT" ] || {
	echo "FAIL: bsflowd or bsflow-collect not built"
	exit 1
}
ID=$((100 + $$ % 800))
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-nsim.XXXXXX") || exit 1
cleanup() {
	[ -n "$cpid" ] && kill "$cpid" 2>/dev/null
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null
	echo "$ID" >/sys/bus/netdevsim/del_device 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
echo "$ID 2" >/sys/bus/netdevsim/new_device || skip "cannot create a netdevsim device"
sleep 1
DEV=netdevsim/netdevsim$ID
PORTS=$(ls /sys/bus/netdevsim/devices/netdevsim$ID/net/ 2>/dev/null)
[ -n "$PORTS" ] || {
	echo "FAIL: netdevsim$ID has no netdevs"
	exit 1
}
for p in $PORTS; do ip link set "$p" up; done
devlink trap set "$DEV" trap tail_drop action trap || {
	echo "FAIL: devlink trap set $DEV trap tail_drop action trap"
	exit 1
}
D=/sys/kernel/debug/netdevsim/netdevsim$ID/psample
if [ -d "$D" ]; then
	echo 10 >"$D/rate"
	echo 1 >"$D/group_num"
	echo 1 >"$D/out_tc"
	echo 100000 >"$D/out_tc_occ_max"
	echo 5000 >"$D/latency_max"
	echo 1 >"$D/enable"
else
	skip "netdevsim without psample emulation ($D)"
fi
PLIST=$(for p in $PORTS; do printf '"%s", ' "$p"; done | sed 's/, $//')
cat >"$TMP/bsflowd.conf" <<EOC
collector "c" {
	address = 127.0.0.1
	port = $((30000 + $$ % 20000))
}
polling_interval = 1
backend = linux
linux {
	ports = {$PLIST}
	psample_group = 1
}
EOC
"$COLLECT" -j -b 127.0.0.1 -p $((30000 + $$ % 20000)) -t 8 >"$TMP/col.json" 2>"$TMP/col.err" &
cpid=$!
sleep 0.3
"$BSFLOWD" -d -f "$TMP/bsflowd.conf" --run-for 6 >"$TMP/bsflowd.log" 2>&1 &
dpid=$!
wait $dpid
dpid=
wait $cpid
cpid=
rc=0
grep 'linux:' "$TMP/bsflowd.log"
grep -q 'linux: dropmon active' "$TMP/bsflowd.log" || {
	echo "FAIL: dropmon not active"
	rc=1
}
grep -q 'linux: sb absent' "$TMP/bsflowd.log" || {
	echo "FAIL: sb not reported absent"
	rc=1
}
python3 - "$TMP/col.json" <<'PY' || rc=1
import json, sys
drops = samples = q = depth = transit = 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    for s in d.get("samples", []):
        txt = json.dumps(s)
        if s.get("discardCode") == 259:
            drops += 1
        if s.get("sampleType") == "FLOWSAMPLE":
            samples += 1
            q += "0:1036" in txt
            depth += "0:1040" in txt
            transit += "0:1039" in txt
print("0:5 with reason 259: %d; 0:3: %d (0:1036 %d, 0:1040 %d, 0:1039 %d)" %
      (drops, samples, q, depth, transit))
ok = drops > 0 and samples > 0 and q > 0 and depth > 0 and transit > 0
if not ok:
    print("FAIL: expected tail_drop notifications and samples with queue records")
sys.exit(0 if ok else 1)
PY
exit $rc
