#!/bin/sh
# bench-sonic.sh - make bench: the sonic backend against a real
# redis-server (unix socket in a temp dir) holding a SONiC-shaped database
# of 64 ports x 16 queues + 8 PGs (sonic_fixture.py), fed once; bench_sonic
# polls it for BENCH_SECONDS (default 10) every BENCH_INTERVAL_MS (100) and
# prints the CPU per poll cycle and the round trips per cycle; Redis's own
# CPU per cycle from INFO.  %ABS_TOP_BUILDDIR% and %ABS_TOP_SRCDIR% are
# filled in by make.
#
# SPDX-License-Identifier: BSD-2-Clause
B='%ABS_TOP_BUILDDIR%'
S='%ABS_TOP_SRCDIR%'
REDIS=${REDIS_SERVER:-$(command -v redis-server)}
if [ -z "$REDIS" ]; then
	echo "bench-sonic: SKIP: redis-server not installed"
	exit 0
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-bench-sonic.XXXXXX") || exit 1
"$REDIS" --port 0 --unixsocket "$TMP/r.sock" --save '' --appendonly no --dir "$TMP" \
	>"$TMP/redis.log" 2>&1 &
rpid=$!
trap 'kill $rpid 2>/dev/null; rm -rf "$TMP"' EXIT
i=0
while [ $i -lt 100 ] && ! [ -S "$TMP/r.sock" ]; do
	sleep 0.05
	i=$((i + 1))
done
export SONIC_FIXTURE_PORTS=64
python3 "$S/agent/sonic/tests/sonic_fixture.py" load "$TMP/r.sock" &&
	python3 "$S/agent/sonic/tests/sonic_fixture.py" feed "$TMP/r.sock" 1 || exit 1
cpu() {
	python3 - "$TMP/r.sock" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["S"], "agent/sonic/tests"))
import sonic_fixture as f
info = f.Redis(sys.argv[1]).cmd("INFO", "cpu")
vals = dict(l.split(":", 1) for l in info.split("\r\n") if ":" in l)
print(float(vals["used_cpu_user"]) + float(vals["used_cpu_sys"]))
PY
}
export S
c0=$(cpu)
"$B/agent/sonic/bench/bench_sonic" "$TMP/r.sock" "${BENCH_SECONDS:-10}" \
	"${BENCH_INTERVAL_MS:-100}" >"$TMP/out" 2>"$TMP/err" || {
	cat "$TMP/err"
	exit 1
}
c1=$(cpu)
cat "$TMP/out"
polls=$(sed -n 's/.*; \([0-9]*\) poll cycles.*/\1/p' "$TMP/out")
python3 -c "print('  redis-server CPU per poll cycle: %.1f us' % (($c1 - $c0) * 1e6 / $polls))"
