#!/bin/sh
# agent/tests/control.sh - the control socket and `bsflowd --status`:
#  - the socket is created with mode 0660 (srw-rw----);
#  - --status prints the same lines as the SIGUSR1 dump (compared by their
#    wording up to the first number, the counts move on) and --json one
#    JSON object with the collector named in the configuration;
#  - a second daemon on the same path is refused (exit 3) with the reason;
#  - an unknown request gets "error: unknown request";
#  - under a service manager ($NOTIFY_SOCKET) READY=1 comes with a
#    STATUS= one-line summary naming the backend and the datagrams sent;
#  - --status without a daemon exits 3 with a message naming the path.
# Skips (77) without python3.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
BSFLOWD="$top_builddir/agent/bsflowd"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bsfctl.XXXXXX") || exit 1
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
bad() {
	echo "FAIL: $*"
	fail=1
}
sock="$tmp/ctl.sock"
cat >"$tmp/c.conf" <<EOC
polling_interval = 1
collector tester {
	address = 127.0.0.1
	port = 9
}
EOC
# a datagram socket standing in for systemd's notify socket
python3 - "$tmp/notify" >"$tmp/notify.out" <<'EOP' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(8)
try:
    while True:
        print(s.recv(4096).decode().replace("\n", "|"), flush=True)
except socket.timeout:
    pass
EOP
npid=$!
for i in 1 2 3 4 5 6 7 8 9 10; do [ -S "$tmp/notify" ] && break; sleep 0.2; done

NOTIFY_SOCKET="$tmp/notify" "$BSFLOWD" -d -f "$tmp/c.conf" --control "$sock" --run-for 6 \
	2>"$tmp/err" &
pid=$!
for i in 1 2 3 4 5 6 7 8 9 10; do [ -S "$sock" ] && break; sleep 0.2; done
sleep 1

mode=$(ls -l "$sock" | cut -c1-10)
[ "$mode" = "srw-rw----" ] && echo "ok: socket mode $mode" || bad "socket mode $mode"

"$BSFLOWD" --status --control "$sock" >"$tmp/status.txt"
rc=$?
if [ $rc -eq 0 ] && grep -q "^configuration $tmp/c.conf, 0 reloads" "$tmp/status.txt" &&
	grep -q "^collector tester (127.0.0.1:9): [0-9]* datagrams" "$tmp/status.txt"; then
	echo "ok: --status: $(wc -l <"$tmp/status.txt") lines"
else
	bad "--status exit $rc: $(cat "$tmp/status.txt")"
fi
kill -USR1 $pid
sleep 0.5
sed -n 's/^bsflowd: status: //p' "$tmp/err" | sed 's/[0-9].*//' >"$tmp/usr1.words"
sed 's/[0-9].*//' "$tmp/status.txt" >"$tmp/status.words"
if [ -s "$tmp/usr1.words" ] && cmp -s "$tmp/usr1.words" "$tmp/status.words"; then
	echo "ok: --status and the SIGUSR1 dump say the same lines"
else
	bad "--status and SIGUSR1 differ: $(diff "$tmp/usr1.words" "$tmp/status.words")"
fi

"$BSFLOWD" --status --json --control "$sock" >"$tmp/status.json"
if python3 - "$tmp/status.json" "$tmp/c.conf" <<'EOP'; then
import json, sys
d = json.load(open(sys.argv[1]))
assert d["program"] == "bsflowd" and d["configuration"] == sys.argv[2], d
assert [c["name"] for c in d["collectors"]] == ["tester"], d["collectors"]
assert d["collectors"][0]["destination"] == "127.0.0.1:9"
assert d["collectors"][0]["datagrams"] >= 1
assert any(l.startswith("configuration ") for l in d["status"])
EOP
	echo "ok: --status --json"
else
	bad "--status --json: $(cat "$tmp/status.json")"
fi

out=$(python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"reboot\n")
print(s.recv(100).decode().strip())' "$sock")
[ "$out" = "error: unknown request" ] && echo "ok: unknown request refused" ||
	bad "unknown request: '$out'"

out=$("$BSFLOWD" -d -f "$tmp/c.conf" --control "$sock" --run-for 1 2>&1)
rc=$?
case "$rc:$out" in
3:*"control socket $sock: another bsflowd answers there"*) echo "ok: second daemon refused" ;;
*) bad "second daemon on the same socket: exit $rc: $out" ;;
esac

wait $pid
rc=$?
pid=
[ $rc -eq 0 ] || bad "daemon exit $rc: $(cat "$tmp/err")"
[ -e "$sock" ] && bad "socket file left behind"
wait $npid
if grep -q "READY=1|STATUS=running, backend model, 1 collectors, [0-9]* datagrams sent" \
	"$tmp/notify.out"; then
	echo "ok: sd_notify: $(grep READY "$tmp/notify.out")"
else
	bad "sd_notify: $(cat "$tmp/notify.out")"
fi

out=$("$BSFLOWD" --status --control "$sock" 2>&1)
rc=$?
case "$rc:$out" in
3:*"cannot reach the daemon at $sock"*) echo "ok: no daemon: exit 3" ;;
*) bad "--status without a daemon: exit $rc: $out" ;;
esac
exit $fail
