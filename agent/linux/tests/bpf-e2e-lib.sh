# agent/linux/tests/bpf-e2e-lib.sh - what the bpf source's end-to-end
# tests (e2e-linux-bpf*.sh) and its benchmark (bench-bpf.sh) share,
# sourced by them: the checks that SKIP with the reason (root, ip, tc,
# python3, a build with BPF support, the kernel's BTF, namespaces, veth),
# the lock the bpf tests take (they count the programs loaded), a veth
# pair between two network namespaces made here ($A with vA, $B with vB,
# NET.1 and NET.2, no IPv6 so that only the test's packets cross), a UDP
# receiver, and starting and reaping bsflowd and bsflow-collect -j.
# Sets COLLECT, BSFLOWD, HERE, TMP, X (run in $A), IFX (vA's ifindex), PIN, rc.
# BPF_SKIP_RC: the exit status of a skip (77; the benchmark's 0).
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
: "${BSFLOWD:=$top_builddir/agent/bsflowd}"
HERE="$top_srcdir/agent/linux/tests"
rc=0
# PIN: runs a command on CPU 0 where taskset is installed
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c 0"

bpf_skip() {
	echo "SKIP: $*"
	exit "${BPF_SKIP_RC:-77}"
}

# bpf_e2e_need: everything the tests need, else SKIP saying why; then the
# lock (one bpf test at a time)
bpf_e2e_need() {
	[ "$(id -u)" = 0 ] || bpf_skip "needs root (network namespaces, tc, BPF)"
	command -v ip >/dev/null 2>&1 || bpf_skip "ip(8) not installed (iproute2)"
	command -v tc >/dev/null 2>&1 || bpf_skip "tc(8) not installed (iproute2)"
	command -v python3 >/dev/null 2>&1 || bpf_skip "python3 not installed"
	[ -x "$BSFLOWD" ] && [ -x "$COLLECT" ] || {
		echo "FAIL: bsflowd or bsflow-collect not built"
		exit 1
	}
	grep -q '^#define HAVE_BPF 1' "$top_builddir/config.h" 2>/dev/null ||
		bpf_skip "bsflowd built without BPF support (see configure's output)"
	[ -r /sys/kernel/btf/vmlinux ] || bpf_skip "no kernel BTF (/sys/kernel/btf/vmlinux)"
	if command -v flock >/dev/null 2>&1; then
		exec 9>"${TMPDIR:-/tmp}/bsflowd-bpf-e2e.lock"
		flock 9
	fi
}

bpf_e2e_cleanup() {
	for p in $cpid $dpid $rpid $spid; do
		kill "$p" 2>/dev/null
	done
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	[ -n "$KEEP" ] && echo "keeping $TMP" || rm -rf "$TMP"
}

# bpf_e2e_pair TAG NET: the namespaces and the veth pair, vA up with
# NET.1, vB with NET.2
bpf_e2e_pair() {
	A=$1a$$
	B=$1b$$
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-$1.XXXXXX") || exit 1
	trap bpf_e2e_cleanup EXIT
	trap 'exit 1' INT TERM
	ip netns add "$A" 2>"$TMP/err" || bpf_skip "cannot create a network namespace: $(cat "$TMP/err")"
	ip netns add "$B" || bpf_skip "cannot create a second network namespace"
	ip link add vA$$ type veth peer name vB$$ 2>"$TMP/err" || bpf_skip "no veth: $(cat "$TMP/err")"
	ip link set vA$$ netns "$A" && ip link set vB$$ netns "$B" || exit 1
	ip -n "$A" link set vA$$ name vA && ip -n "$B" link set vB$$ name vB || exit 1
	for n in "$A" "$B"; do
		ip netns exec "$n" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 2>/dev/null
		ip -n "$n" link set lo up
	done
	ip -n "$A" addr add "$2.1/24" dev vA && ip -n "$B" addr add "$2.2/24" dev vB || exit 1
	X="ip netns exec $A"
	IFX=$($X cat /sys/class/net/vA/ifindex)
}

bpf_e2e_up() {
	ip -n "$A" link set vA up && ip -n "$B" link set vB up || exit 1
}

# bpf_e2e_htb: on vA an htb root (default class 1:20) under a parent 1:1 of
# 8 Mbit/s with two leaves, 1:10 at 2 Mbit/s and 1:20 at 6 Mbit/s (their
# qdiscs are the test's); SKIP without htb
bpf_e2e_htb() {
	$X tc qdisc add dev vA root handle 1: htb default 20 2>"$TMP/err" ||
		bpf_skip "htb not available: $(tail -n 1 "$TMP/err")"
	$X tc class add dev vA parent 1: classid 1:1 htb rate 8mbit ceil 8mbit &&
		$X tc class add dev vA parent 1:1 classid 1:10 htb rate 2mbit ceil 2mbit &&
		$X tc class add dev vA parent 1:1 classid 1:20 htb rate 6mbit ceil 6mbit || exit 1
}

# bpf_e2e_receiver ADDR PORT...: a UDP receiver in $B reading them all
bpf_e2e_receiver() {
	ip netns exec "$B" python3 -c '
import select, socket, sys
socks = []
for p in sys.argv[2:]:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((sys.argv[1], int(p)))
    socks.append(s)
while True:
    for s in select.select(socks, [], [])[0]:
        s.recv(2048)' "$@" &
	rpid=$!
}

# bpf_e2e_conf [TEXT]: $TMP/bsflowd.conf: the collector on 127.0.0.1:6343,
# counters every second, TEXT (more settings), and the linux backend on vA
# with the bpf source and neither the packet, tracepoint nor drop monitor
# source
bpf_e2e_conf() {
	cat >"$TMP/bsflowd.conf" <<EOC
collector "c" {
	address = 127.0.0.1
	port = 6343
}
polling_interval = 1
${1:-}
backend = linux
linux {
	ports = {"vA"}
	bpf = on
	packet = off
	tracepoint = off
	dropmon = off
}
EOC
}

# bpf_e2e_start SECONDS: bsflow-collect -j into $TMP/col.json, bsflowd
# with $TMP/bsflowd.conf for SECONDS; SKIP if the bpf source cannot start
bpf_e2e_start() {
	$X "$COLLECT" --strict -j -b 127.0.0.1 -p 6343 -t $(($1 + 2)) >"$TMP/col.json" \
		2>"$TMP/col.err" &
	cpid=$!
	sleep 0.3
	$X "$BSFLOWD" -d -f "$TMP/bsflowd.conf" --run-for "$1" >"$TMP/bsflowd.log" 2>&1 &
	dpid=$!
	sleep 1.5
	if ! kill -0 $dpid 2>/dev/null; then
		wait $dpid
		dpid=
		if grep -q 'bpf = on, but bpf absent' "$TMP/bsflowd.log"; then
			bpf_skip "the bpf source cannot start here: $(grep -o 'bpf absent.*' "$TMP/bsflowd.log" | head -n 1)"
		fi
		echo "FAIL: bsflowd exited"
		cat "$TMP/bsflowd.log"
		exit 1
	fi
}

# bpf_e2e_wait: both exit 0 (else rc=1, saying why)
bpf_e2e_wait() {
	wait $dpid
	st=$?
	dpid=
	wait $cpid
	cst=$?
	cpid=
	[ "$st" = 0 ] || {
		echo "FAIL: bsflowd exited $st"
		rc=1
	}
	[ "$cst" = 0 ] || {
		echo "FAIL: bsflow-collect --strict exited $cst"
		tail -n 5 "$TMP/col.err"
		rc=1
	}
}
