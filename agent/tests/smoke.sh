#!/bin/sh
# agent/tests/smoke.sh - integration smoke test of the bsflowd program:
#  - `bsflowd -t` accepts the shipped etc/bsflowd.conf (exit 0), also
#    with its visibility example uncommented;
#  - it refuses a bad file with exit 1 and a FILE:LINE: message, and a
#    missing -f file with exit 1;
#  - usage errors exit 2;
#  - a visibility port list naming none of the backend's ports is warned
#    about;
#  - `bsflowd -d --run-for 2` sends at least one datagram to a collector
#    port on 127.0.0.1 that a tiny python3 listener counts, and exits 0.
# Skips (77) without python3.  The decoding end-to-end tests are in
# collector/tests/.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
BSFLOWD="$top_builddir/agent/bsflowd"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bsfsmoke.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
	echo "FAIL: $*"
	fail=1
}

# -t on the shipped configuration
if out=$("$BSFLOWD" -t -f "$top_srcdir/etc/bsflowd.conf" 2>&1); then
	echo "ok: -t etc/bsflowd.conf: $out"
else
	bad "-t etc/bsflowd.conf exited $?: $out"
fi

# -t on the shipped file with its visibility example uncommented
sed '/^#visibility {/,/^#}/s/^#//' "$top_srcdir/etc/bsflowd.conf" >"$tmp/vis.conf"
if grep -q '^visibility {' "$tmp/vis.conf" &&
	out=$("$BSFLOWD" -t -f "$tmp/vis.conf" 2>&1); then
	echo "ok: -t etc/bsflowd.conf with its visibility example: $out"
else
	bad "-t etc/bsflowd.conf with its visibility example: $out"
fi

# -t on a bad file: exit 1 and FILE:LINE: message
printf 'polling_interval = 20\ndatagram_bytes = 50\n' >"$tmp/bad.conf"
out=$("$BSFLOWD" -t -f "$tmp/bad.conf" 2>&1)
rc=$?
want="$tmp/bad.conf:2: datagram_bytes = 50: out of range; allowed: 200..8192"
if [ $rc -eq 1 ] && [ "$out" = "$want" ]; then
	echo "ok: -t bad file: exit 1, $out"
else
	bad "-t bad file: exit $rc, message '$out', wanted exit 1 and '$want'"
fi

# -t warns when no collector is configured (the file is still valid)
printf 'polling_interval = 20\n' >"$tmp/nocoll.conf"
out=$("$BSFLOWD" -t -f "$tmp/nocoll.conf" 2>&1)
rc=$?
case "$rc:$out" in
0:*"$tmp/nocoll.conf: warning: no collector section: nothing will be sent"*)
	echo "ok: -t without a collector: warned" ;;
*) bad "-t without a collector: exit $rc, '$out', wanted exit 0 and a warning" ;;
esac

# an unclosed comment no longer hides the rest of the file
printf 'collector a {\n address = 127.0.0.1\n}\n/* old\ncollector b {\n address = ::1\n}\n' >"$tmp/open.conf"
out=$("$BSFLOWD" -t -f "$tmp/open.conf" 2>&1)
rc=$?
want="$tmp/open.conf:4: comment not closed (the /* opened here has no */)"
if [ $rc -eq 1 ] && [ "$out" = "$want" ]; then
	echo "ok: -t unclosed comment: exit 1, $out"
else
	bad "-t unclosed comment: exit $rc, '$out', wanted exit 1 and '$want'"
fi

# a FIFO is refused at once (it used to hang -t)
mkfifo "$tmp/fifo.conf"
out=$(timeout 10 "$BSFLOWD" -t -f "$tmp/fifo.conf" 2>&1)
rc=$?
if [ $rc -eq 1 ] && [ "$out" = "$tmp/fifo.conf: not a regular file" ]; then
	echo "ok: -t FIFO: exit 1, $out"
else
	bad "-t FIFO: exit $rc, '$out'"
fi

# a missing -f file is an error
out=$("$BSFLOWD" -t -f "$tmp/nonexistent.conf" 2>&1)
rc=$?
if [ $rc -eq 1 ] && [ "$out" = "$tmp/nonexistent.conf: No such file or directory" ]; then
	echo "ok: -t missing file: exit 1"
else
	bad "-t missing file: exit $rc, '$out'"
fi

# usage errors
"$BSFLOWD" --no-such-option >/dev/null 2>&1
rc=$?
if [ $rc -eq 2 ]; then echo "ok: unknown option: exit 2"; else bad "unknown option: exit $rc"; fi
"$BSFLOWD" --run-for abc >/dev/null 2>&1
rc=$?
if [ $rc -eq 2 ]; then echo "ok: --run-for abc: exit 2"; else bad "--run-for abc: exit $rc"; fi
if "$BSFLOWD" -V | grep -q '^bsflowd '; then echo "ok: -V"; else bad "-V"; fi

# a short run with a collector on 127.0.0.1
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 not installed: the run test needs it"
	[ $fail -eq 0 ] && exit 77
	exit 1
fi
python3 "$top_srcdir/agent/tests/udpcount.py" "$tmp/port" 60 >"$tmp/count" &
pypid=$!
i=0
while [ ! -s "$tmp/port" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
port=$(cat "$tmp/port" 2>/dev/null)
if [ -z "$port" ]; then
	bad "the python listener did not start"
	kill $pypid 2>/dev/null
	exit 1
fi
cat >"$tmp/run.conf" <<EOC
agent {
	address = 127.0.0.1
}
polling_interval = 1
collector "smoke" {
	address = 127.0.0.1
	port = $port
}
model {
	ports = 4
	speed = 10G
	traffic t {
		ports = {1}
		destination = fixed
		to = 0
		rate = 10%
		size = 1000
	}
}
EOC
"$BSFLOWD" -d -f "$tmp/run.conf" --run-for 2 >"$tmp/out" 2>&1
rc=$?
kill -TERM $pypid 2>/dev/null
wait $pypid
read -r _ n _ ok _ samples <"$tmp/count"
if [ $rc -eq 0 ] && [ "${n:-0}" -ge 1 ] && [ "$n" = "$ok" ]; then
	echo "ok: --run-for 2: exit 0, $n datagrams ($samples samples) received"
else
	bad "--run-for 2: exit $rc, listener saw: $(cat "$tmp/count")"
	cat "$tmp/out"
fi

# a visibility port list naming none of the backend's ports: a warning
# that names it (4 ports: 0..3), and the daemon runs
sed 's/^polling_interval = 1$/polling_interval = 0/' "$tmp/run.conf" >"$tmp/vis.conf"
printf 'visibility {\n\tdelay_profile p {\n\t\tthresholds = {5us}\n\t\tports = {4-5000}\n\t}\n}\n' \
	>>"$tmp/vis.conf"
if "$BSFLOWD" -d -f "$tmp/vis.conf" --run-for 1 >"$tmp/out" 2>&1 &&
	grep -q 'visibility: delay_profile "p": ports: none of them is one of the backend.s 4 ports (0..3)' \
		"$tmp/out"; then
	echo "ok: a visibility port list outside the backend's ports is warned about"
else
	bad "no warning for ports = {4-5000} on 4 ports:"
	cat "$tmp/out"
fi
exit $fail
