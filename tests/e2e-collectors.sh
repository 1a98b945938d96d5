#!/bin/sh
# tests/e2e-collectors.sh - several collectors, end to end:
# two IPv4 collectors receive identical datagrams; a collector whose port
# is closed (ICMP port unreachable on every datagram) does not stop or
# disturb the others; a collector on ::1 receives the same datagrams over
# IPv6 (that part skipped, saying so, when the host has no ::1).
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
e2e_init collectors
E2E_INTERVAL=1

have6=yes
python3 -c 'import socket
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.bind(("::1", 0))' 2>/dev/null || have6=no

e2e_collect a --strict -j -b 127.0.0.1
pa=$cpid
porta=$cport
e2e_collect b --strict -j -b 127.0.0.1
pb=$cpid
portb=$cport
closed=$(e2e_free_port)
set -- "127.0.0.1:$porta" "127.0.0.1:$closed" "127.0.0.1:$portb"
if [ $have6 = yes ]; then
	e2e_collect v6 --strict -j -6 -b ::1
	p6=$cpid
	set -- "$@" "::1:$cport"
else
	echo "note: no IPv6 loopback here, the ::1 collector is not tested"
fi
e2e_conf "$TMP/bsflowd.conf" "$@"
e2e_daemon bsflowd "$TMP/bsflowd.conf" 6
e2e_wait_daemon bsflowd
sleep 0.3
for p in $pa $pb ${p6:-}; do
	e2e_stop $p
	[ "$st" = 0 ] || fail "a collector (pid $p) exited $st"
done

n=$(python3 "$E2E_CHECK" count "$TMP/a.out")
[ "$n" -ge 5 ] || fail "collector A got only $n datagrams in 6 s"
python3 "$E2E_CHECK" same "$TMP/a.out" "$TMP/b.out" || fail "A and B differ"
if [ $have6 = yes ]; then
	python3 "$E2E_CHECK" same "$TMP/a.out" "$TMP/v6.out" || fail "A and ::1 differ"
fi
e2e_finish
