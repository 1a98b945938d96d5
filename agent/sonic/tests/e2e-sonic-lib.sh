# agent/sonic/tests/e2e-sonic-lib.sh - shared by the sonic backend's
# end-to-end tests, sourced after tests/e2e-lib.sh and e2e_init:
#   redis_start        redis-server on the unix socket $SOCK in $TMP (no
#                      persistence); sets $rpid; fails the test if it does
#                      not come up
#   mark NAME          "NAME <unix time>" appended to $EV (the checkers
#                      read the windows of the test from it)
#   sonic_conf FILE LINES  the tests' bsflowd.conf (below)
#
# SPDX-License-Identifier: BSD-2-Clause
REDIS=${REDIS_SERVER:-$(command -v redis-server)}
[ -n "$REDIS" ] && [ -x "$REDIS" ] || e2e_skip "redis-server not installed (Debian: redis-server)"
SOCK="$TMP/redis.sock"
EV="$TMP/events"

redis_start() {
	"$REDIS" --port 0 --unixsocket "$SOCK" --save '' --appendonly no \
		--dir "$TMP" >>"$TMP/redis.log" 2>&1 &
	rpid=$!
	E2E_PIDS="$E2E_PIDS $rpid"
	i=0
	while [ $i -lt 100 ] && ! [ -S "$SOCK" ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -S "$SOCK" ] || {
		echo "FAIL: redis-server did not start"
		cat "$TMP/redis.log"
		exit 1
	}
}

now() { python3 -c 'import time; print("%.3f" % time.time())'; }
mark() { echo "$1 $(now)" >>"$EV"; }

# sonic_conf FILE LINES: a bsflowd.conf polling every second and sending
# to bsflow-collect ($cport) in datagrams of 8000 bytes, backend = sonic
# on $TMP/database_config.json read every 0.5 s, LINES more in its section
sonic_conf() {
	cat >"$1" <<EOF2
agent {
	address = "127.0.0.1"
}
polling_interval = 1
datagram_bytes = 8000
collector c1 {
	address = "127.0.0.1"
	port = $cport
}
backend = sonic
sonic {
	database_config = "$TMP/database_config.json"
	poll_interval = 0.5s
$2
}
EOF2
}
