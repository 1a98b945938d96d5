#!/bin/sh
# tests/e2e-dns.sh - a name server that never answers must not stall the
# daemon.  In a network namespace this test creates (its resolv.conf,
# /etc/netns/NS/resolv.conf, names 127.0.0.1, where a UDP socket swallows
# every query), bsflowd has two collectors: one by a host name that never
# resolves, one at a literal loopback address.  The literal one must get
# datagrams from the start and without a gap while the name is pending,
# a SIGHUP reload (which looks the name up again) must be done at once,
# and SIGTERM must end the daemon at once.  A resolver that blocks takes
# 10 s or more for each (the C library's timeout), so the bounds below
# (3 s) tell the two apart on any machine, however loaded.
# Needs root and ip(8) to make the namespace, or, not root, unshare(1) and
# a kernel that allows unprivileged user namespaces: skipped otherwise.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"

if [ "$1" = userns ]; then
	# in a user, network and mount namespace of our own: this resolv.conf
	# is seen by this process tree only
	rc_file=$2
	mount --bind "$rc_file" /etc/resolv.conf || exit 77
	set -- inside
fi
if [ "$1" != inside ]; then
	command -v python3 >/dev/null 2>&1 || e2e_skip "python3 not installed"
	command -v ip >/dev/null 2>&1 || e2e_skip "ip (iproute2) not installed"
	if [ "$(id -u)" != 0 ]; then
		# not root: an unprivileged user namespace, where the kernel allows
		command -v unshare >/dev/null 2>&1 ||
			e2e_skip "needs root, or unshare(1), to create a network namespace"
		rc_file=$(mktemp "${TMPDIR:-/tmp}/bsfdns.XXXXXX") || exit 1
		echo "nameserver 127.0.0.1" >"$rc_file"
		unshare -rnm sh "$0" userns "$rc_file"
		st=$?
		rm -f "$rc_file"
		[ $st = 77 ] && e2e_skip "cannot create a user and network namespace (not root)"
		exit $st
	fi
	NS=bsfdns$$
	ip netns add "$NS" 2>/dev/null || e2e_skip "cannot create a network namespace"
	mkdir -p "/etc/netns/$NS"
	echo "nameserver 127.0.0.1" >"/etc/netns/$NS/resolv.conf"
	ip netns exec "$NS" sh "$0" inside
	st=$?
	ip netns del "$NS"
	rm -rf "/etc/netns/$NS"
	exit $st
fi

e2e_init dns
E2E_INTERVAL=1
ip link set lo up

# the name server that never answers (bound before bsflowd starts: a
# closed port would fail the lookups at once)
python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 53))
open(sys.argv[1], "w").close()
while True:
    s.recv(4096)
    with open(sys.argv[2], "a") as f:
        f.write("query\n")
' "$TMP/dns.ready" "$TMP/dns.queries" &
E2E_PIDS="$E2E_PIDS $!"
i=0
while [ ! -e "$TMP/dns.ready" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ -e "$TMP/dns.ready" ] || fail "the silent name server did not start"

lines() {
	wc -l <"$1" | tr -d ' '
}

# ms since the epoch
now_ms() {
	python3 -c 'import time; print(int(time.time() * 1000))'
}

e2e_collect good -j -b 127.0.0.1
e2e_conf "$TMP/bsflowd.conf" "stuck.bsflowd.test:6343" "127.0.0.1:$cport"
t0=$(now_ms)
e2e_daemon bsflowd "$TMP/bsflowd.conf" 120

# 1. the literal collector gets datagrams from the start
i=0
while [ "$(lines "$TMP/good.out")" -lt 1 ] && [ $i -lt 300 ]; do
	sleep 0.05
	i=$((i + 1))
done
t1=$(now_ms)
[ "$(lines "$TMP/good.out")" -ge 1 ] || fail "the literal collector got nothing"
[ $((t1 - t0)) -lt 3000 ] ||
	fail "first datagram $((t1 - t0)) ms after start: startup waited for the name server"

# 2. no gap: polling every second, the count grows at least every 3 s
prev=$(lines "$TMP/good.out")
last=$(now_ms)
end=$((last + 8000))
while [ "$(now_ms)" -lt $end ]; do
	sleep 0.2
	n=$(lines "$TMP/good.out")
	t=$(now_ms)
	if [ "$n" -gt "$prev" ]; then
		prev=$n
		last=$t
	elif [ $((t - last)) -gt 3000 ]; then
		fail "no datagram for $((t - last)) ms while the name was pending"
		break
	fi
done

# 3. a reload (which looks the name up again) is done at once
t0=$(now_ms)
kill -HUP "$dpid"
i=0
while ! grep -q "reload done" "$TMP/bsflowd.log" && [ $i -lt 300 ]; do
	sleep 0.05
	i=$((i + 1))
done
t1=$(now_ms)
grep -q "reload done" "$TMP/bsflowd.log" || fail "no 'reload done' after SIGHUP"
[ $((t1 - t0)) -lt 3000 ] || fail "reload took $((t1 - t0)) ms: it waited for the name server"
n=$(lines "$TMP/good.out")
i=0
while [ "$(lines "$TMP/good.out")" -le "$n" ] && [ $i -lt 60 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ "$(lines "$TMP/good.out")" -gt "$n" ] || fail "the literal collector stopped after the reload"

# 4. SIGTERM ends the daemon at once, with status 0
t0=$(now_ms)
kill -TERM "$dpid"
wait "$dpid"
st=$?
t1=$(now_ms)
[ "$st" = 0 ] || fail "bsflowd exited $st"
[ $((t1 - t0)) -lt 3000 ] || fail "SIGTERM took $((t1 - t0)) ms: exit waited for the name server"
grep -q "collector c2: sending to 127.0.0.1:" "$TMP/bsflowd.log" ||
	fail "the log does not say where collector c2 sends"
# the lookups went to the silent server (else this proved nothing)
[ -s "$TMP/dns.queries" ] ||
	fail "the silent name server got no query: the namespace's resolv.conf was not used"
[ "$rc" = 0 ] || cat "$TMP/bsflowd.log"
e2e_finish
