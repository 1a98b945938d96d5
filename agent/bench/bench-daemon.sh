#!/bin/sh
# agent/bench/bench-daemon.sh - benchmark of bsflowd's export path
# run by `make bench` as agent/bench/bench-daemon
# (a copy with the build and source directories filled in).
#
# bsflowd runs the built-in model with 1024 ports x 8 unicast queues,
# polled every second, for BENCH_SECONDS (default 60) with light traffic
# (every port sends 0.01 % of 1 Gb/s to a random port) so that the export
# dominates; bsflow-collect -q counts what arrives on a loopback port.
# Prints bsflowd's CPU seconds (user + system, from getrusage of the child)
# and peak RSS, the datagrams and samples received, and datagrams and
# samples per CPU second.  Then bsflowd on its default scenario (the model's
# demo scenario, what it runs without a configuration file) for
# BENCH_DEMO_SECONDS (default 20): the share of one core it takes to run
# the model in real time and export.  Figures only: nothing here passes or
# fails on a number.
#
# SPDX-License-Identifier: BSD-2-Clause
top_builddir=${top_builddir:-%ABS_TOP_BUILDDIR%}
top_srcdir=${top_srcdir:-%ABS_TOP_SRCDIR%}
SECONDS_RUN=${BENCH_SECONDS:-60}
BSFLOWD="$top_builddir/agent/bsflowd"
COLLECT="$top_builddir/collector/bsflow-collect"
command -v python3 >/dev/null 2>&1 || {
	echo "bench-daemon: python3 not installed, skipped"
	exit 0
}
for p in "$BSFLOWD" "$COLLECT"; do
	[ -x "$p" ] || {
		echo "bench-daemon: $p not built" >&2
		exit 1
	}
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-bench.XXXXXX") || exit 1
cpid=
trap '[ -n "$cpid" ] && kill $cpid 2>/dev/null; rm -rf "$TMP"' EXIT

"$COLLECT" -p 0 -b 127.0.0.1 -q --summary -t $((SECONDS_RUN + 60)) >"$TMP/col.out" \
	2>"$TMP/col.err" &
cpid=$!
i=0
port=
while [ -z "$port" ] && [ $i -lt 300 ]; do
	sleep 0.1
	port=$(sed -n 's/.*listening on udp .* port \([0-9]*\)$/\1/p' "$TMP/col.err")
	i=$((i + 1))
done
[ -n "$port" ] || {
	echo "bench-daemon: bsflow-collect did not start" >&2
	exit 1
}

cat >"$TMP/bsflowd.conf" <<EOF
agent {
	address = "127.0.0.1"
}
polling_interval = 1
collector bench {
	address = "127.0.0.1"
	port = $port
}
model {
	seed = 1
	ports = 1024
	speed = 1G
	unicast_queues = 8
	sampling_rate = 0
	traffic light {
		ports = {0-1023}
		destination = uniform
		rate = 0.01%
		arrival = poisson
		size = 512
		flows = 4
	}
}
EOF

# run_daemon CONF SECONDS: bsflowd as a child of python3; its exit status
# and rusage go to $TMP/rusage, its log to $TMP/bsflowd.log
run_daemon() {
	python3 - "$BSFLOWD" "$1" "$2" >"$TMP/rusage" 2>"$TMP/bsflowd.log" <<'EOF'
import resource, subprocess, sys
rc = subprocess.call([sys.argv[1], "-f", sys.argv[2], "-d", "--run-for", sys.argv[3]])
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(rc, r.ru_utime, r.ru_stime, r.ru_maxrss)
EOF
}
run_daemon "$TMP/bsflowd.conf" "$SECONDS_RUN"
sleep 1
kill -TERM $cpid 2>/dev/null
wait $cpid
cpid=

read -r drc utime stime maxrss <"$TMP/rusage"
if [ "$drc" != 0 ]; then
	echo "bench-daemon: bsflowd exited $drc" >&2
	tail -n 20 "$TMP/bsflowd.log" >&2
	exit 1
fi
dgrams=$(sed -n 's/^datagrams //p' "$TMP/col.out")
samples=$(sed -n 's/^samples //p' "$TMP/col.out")
missing=$(sed -n 's/^datagramsMissing //p' "$TMP/col.out")
sent=$(sed -n 's/.*collector bench .*: \([0-9]*\) datagrams.*/\1/p' "$TMP/bsflowd.log" | tail -n 1)
python3 - "$utime" "$stime" "$maxrss" "${dgrams:-0}" "${samples:-0}" "$SECONDS_RUN" \
	"${sent:--1}" "${missing:--1}" <<'EOF'
import sys
ut, st, rss = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
dg, sm, secs = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
sent, missing = int(sys.argv[7]), int(sys.argv[8])
cpu = ut + st
print("bsflowd, model 1024 ports x 8 queues, polling 1 s, %d s:" % secs)
print("  cpu_seconds          %.2f (user %.2f, system %.2f), %.1f %% of one core"
      % (cpu, ut, st, 100.0 * cpu / secs))
print("  peak_rss_kb          %d" % rss)
print("  datagrams_sent       %s (bsflowd's count)" % (sent if sent >= 0 else "?"))
print("  datagrams_received   %d (%s missing by sequence number)"
      % (dg, missing if missing >= 0 else "?"))
print("  samples_received     %d (expected about %d: 1025 sources x %d polls)"
      % (sm, 1025 * secs, secs))
if cpu > 0:
    print("  datagrams_per_cpu_s  %.0f" % (dg / cpu))
    print("  samples_per_cpu_s    %.0f" % (sm / cpu))
EOF

# the default scenario in real time, exporting to the same collector port
# (nobody listens any more: the datagrams are sent all the same)
DEMO_RUN=${BENCH_DEMO_SECONDS:-20}
{
	printf 'agent {\n\taddress = "127.0.0.1"\n}\n'
	printf 'collector bench {\n\taddress = "127.0.0.1"\n\tport = %s\n}\n' "$port"
	printf 'backend = model\n'
	grep -v '^[[:space:]]*duration[[:space:]]*=' "$top_srcdir/etc/scenarios/demo.conf"
} >"$TMP/demo.conf"
run_daemon "$TMP/demo.conf" "$DEMO_RUN"
read -r drc utime stime maxrss <"$TMP/rusage"
if [ "$drc" != 0 ]; then
	echo "bench-daemon: bsflowd on the demo scenario exited $drc" >&2
	tail -n 20 "$TMP/bsflowd.log" >&2
	exit 1
fi
lag=$(sed -n 's/.*simulation lag \([0-9.]*\) ms.*/\1/p' "$TMP/bsflowd.log" | tail -n 1)
python3 - "$utime" "$stime" "$maxrss" "$DEMO_RUN" "${lag:-?}" <<'EOF'
import sys
ut, st, rss, secs = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
cpu = ut + st
print("bsflowd, default scenario (etc/scenarios/demo.conf, about 236 000 packets/s), %d s:" % secs)
print("  cpu_seconds          %.2f (user %.2f, system %.2f), %.1f %% of one core"
      % (cpu, ut, st, 100.0 * cpu / secs))
print("  peak_rss_kb          %d" % rss)
print("  simulation_lag_ms    %s (at the end)" % sys.argv[5])
EOF
