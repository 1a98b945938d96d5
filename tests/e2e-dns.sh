#!/bin/sh
# tests/e2e-dns.sh - a name server that never answers must not stall the
# daemon.  In a network namespace this test creates (its resolv.conf,
# /etc/netns/NS/resolv.conf, names 127.0.0.1, where the test's name server
# listens), bsflowd has three collectors: one by a host name that never
# resolves, one at a literal loopback address, and one by a name that
# resolves at start, after which the name server hangs for it too.  The
# literal one must get datagrams from the start and without a gap while
# the name is pending, a SIGHUP reload (which looks the names up again)
# must be done at once, the resolved one must keep getting datagrams at
# its last address while its new lookup hangs, and SIGTERM must end the
# daemon at once.  A resolver that blocks takes 10 s or more for each
# (the C library's timeout), so the bounds below (3 s) tell the two apart
# on any machine, however loaded.
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

# the name server (bound before bsflowd starts: a closed port would fail
# the lookups at once): it never answers for stuck.bsflowd.test, and
# answers for known.bsflowd.test (127.0.0.1; no IPv6 address) only while
# $TMP/dns.answer exists, then hangs for it too; it logs every query
: >"$TMP/dns.answer"
python3 -c '
import os, socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 53))
open(sys.argv[1], "w").close()
while True:
    q, peer = s.recvfrom(4096)
    i, labels = 12, []
    while i < len(q) and q[i]:
        labels.append(q[i + 1:i + 1 + q[i]].decode("ascii", "replace"))
        i += 1 + q[i]
    name = ".".join(labels).lower()
    qtype = struct.unpack("!H", q[i + 1:i + 3])[0] if i + 3 <= len(q) else 0
    with open(sys.argv[2], "a") as f:
        f.write("%s %d\n" % (name, qtype))
    if name != "known.bsflowd.test" or not os.path.exists(sys.argv[3]):
        continue
    question = q[12:i + 5]
    answer = b""
    if qtype == 1:
        answer = b"\xc0\x0c" + struct.pack("!HHIH", 1, 1, 60, 4) + socket.inet_aton("127.0.0.1")
    head = q[:2] + struct.pack("!HHHHH", 0x8180, 1, 1 if answer else 0, 0, 0)
    s.sendto(head + question + answer, peer)
' "$TMP/dns.ready" "$TMP/dns.queries" "$TMP/dns.answer" &
E2E_PIDS="$E2E_PIDS $!"
i=0
while [ ! -e "$TMP/dns.ready" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ -e "$TMP/dns.ready" ] || fail "the name server did not start"

lines() {
	wc -l <"$1" | tr -d ' '
}

# ms since the epoch
now_ms() {
	python3 -c 'import time; print(int(time.time() * 1000))'
}

e2e_collect known -j -b 127.0.0.1
kport=$cport
e2e_collect good -j -b 127.0.0.1
e2e_conf "$TMP/bsflowd.conf" "stuck.bsflowd.test:6343" "127.0.0.1:$cport" \
	"known.bsflowd.test:$kport"
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

# 3. the name that resolved gets datagrams; then the name server hangs
# for it too, and a reload (which looks both names up again) is done at
# once, and its collector keeps getting datagrams at the last address
i=0
while [ "$(lines "$TMP/known.out")" -lt 1 ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ "$(lines "$TMP/known.out")" -ge 1 ] || fail "known.bsflowd.test was not resolved and sent to"
rm -f "$TMP/dns.answer"
kq=$(grep -c "^known.bsflowd.test " "$TMP/dns.queries")
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
# the reload's lookup of known.bsflowd.test hangs: it keeps its address
k=$(lines "$TMP/known.out")
t0=$(now_ms)
while [ "$(lines "$TMP/known.out")" -le $((k + 2)) ] && [ $(($(now_ms) - t0)) -lt 5000 ]; do
	sleep 0.1
done
[ "$(lines "$TMP/known.out")" -gt $((k + 2)) ] ||
	fail "known.bsflowd.test's collector got no datagram while its lookup hung after the reload"
[ "$(grep -c "^known.bsflowd.test " "$TMP/dns.queries")" -gt "$kq" ] ||
	fail "the reload did not look known.bsflowd.test up again (no query)"

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
# the lookups went to the test's name server (else this proved nothing)
grep -q "^stuck.bsflowd.test " "$TMP/dns.queries" ||
	fail "the name server got no query: the namespace's resolv.conf was not used"
[ "$rc" = 0 ] || cat "$TMP/bsflowd.log"
e2e_finish
