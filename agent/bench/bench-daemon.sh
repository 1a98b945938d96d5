#!/bin/sh
# agent/bench/bench-daemon.sh - benchmark of bsflowd's polling and export
# run by `make bench` as agent/bench/bench-daemon
# (a copy with the build and source directories filled in).
#
# bsflowd polls N ports x 8 unicast queues every second for BENCH_SECONDS
# (default 30) each run, sending to bsflow-collect -q on a loopback port:
#   bench 1024, bench 4096  the bench backend (backend_bench.c: simulates
#                           nothing, its reads answer at once), so the
#                           figure is bsflowd's own cost;
#   model 1024              the switch model with light traffic (every port
#                           sends 0.01 % of 1 Gb/s to a random port): the
#                           model's share is its figure less bench 1024's;
#   bench 4096, 8192-byte datagrams: what packing several port samples in
#                           a datagram saves (a port sample with bsflowd's
#                           own records is 1340 bytes: one in a 1400-byte
#                           datagram, six in 8192);
#   model drops             ACL drops at 0.5, 1, 2 and 4 M a second: the
#                           drop events lost and the share of a core.
# For each: bsflowd's CPU seconds (user + system, getrusage of the child)
# as a share of one core, its peak resident memory (VmHWM), its wake-ups a
# second (voluntary context switches), the datagrams and samples sent and
# received.  The goals are printed next to the figures (2 % of a core and
# 16 MB for 1024 ports, 5 % for 4096).  Then bsflowd on its default
# scenario (the model's demo scenario, what it runs without a configuration
# file) for BENCH_DEMO_SECONDS (default 20): the share of one core it
# takes to run the model in real time and export.  Figures only: nothing
# here passes or fails on a number.
#
# SPDX-License-Identifier: BSD-2-Clause
top_builddir=${top_builddir:-%ABS_TOP_BUILDDIR%}
top_srcdir=${top_srcdir:-%ABS_TOP_SRCDIR%}
SECONDS_RUN=${BENCH_SECONDS:-30}
BSFLOWD="$top_builddir/agent/bsflowd"
COLLECT="$top_builddir/collector/bsflow-collect"
PLUGIN="$top_builddir/agent/bench/.libs/backend_bench.so"
command -v python3 >/dev/null 2>&1 || {
	echo "bench-daemon: python3 not installed, skipped"
	exit 0
}
for p in "$BSFLOWD" "$COLLECT" "$PLUGIN"; do
	[ -e "$p" ] || {
		echo "bench-daemon: $p not built" >&2
		exit 1
	}
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-bench.XXXXXX") || exit 1
cpid=
trap '[ -n "$cpid" ] && kill $cpid 2>/dev/null; rm -rf "$TMP"' EXIT

# start_collector: bsflow-collect -q on a free loopback port ($port)
start_collector() {
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
}

stop_collector() {
	sleep 1
	kill -TERM $cpid 2>/dev/null
	wait $cpid
	cpid=
}

# conf_head PORT [EXTRA]: the agent, the interval and the collector
conf_head() {
	printf 'agent {\n\taddress = "127.0.0.1"\n}\npolling_interval = 1\n%s' "$2"
	printf 'collector bench {\n\taddress = "127.0.0.1"\n\tport = %s\n}\n' "$1"
}

# run_daemon CONF SECONDS: bsflowd as a child of python3; its exit status,
# rusage, peak RSS (VmHWM, read from /proc while it runs: the rusage peak
# would count the python3 it was forked from) and context switches go to
# $TMP/rusage, its log to $TMP/bsflowd.log
run_daemon() {
	python3 - "$BSFLOWD" "$1" "$2" >"$TMP/rusage" 2>"$TMP/bsflowd.log" <<'EOF'
import resource, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "-f", sys.argv[2], "-d", "--run-for", sys.argv[3]])
hwm = 0
while p.poll() is None:
    try:
        for line in open("/proc/%d/status" % p.pid):
            if line.startswith("VmHWM:"):
                hwm = max(hwm, int(line.split()[1]))
    except OSError:
        pass
    time.sleep(0.2)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(p.returncode, r.ru_utime, r.ru_stime, hwm, r.ru_nvcsw, r.ru_nivcsw)
EOF
	read -r drc utime stime hwm vcsw ivcsw <"$TMP/rusage"
	if [ "$drc" != 0 ]; then
		echo "bench-daemon: bsflowd exited $drc" >&2
		tail -n 20 "$TMP/bsflowd.log" >&2
		exit 1
	fi
}

# report NAME SOURCES GOAL_PCT GOAL_MB: one run's figures
report() {
	dgrams=$(sed -n 's/^datagrams //p' "$TMP/col.out")
	samples=$(sed -n 's/^samples //p' "$TMP/col.out")
	missing=$(sed -n 's/^datagramsMissing //p' "$TMP/col.out")
	sent=$(sed -n 's/.*collector bench .*: \([0-9]*\) datagrams.*/\1/p' "$TMP/bsflowd.log" |
		tail -n 1)
	python3 - "$1" "$2" "$3" "$4" "$utime" "$stime" "$hwm" "$vcsw" "${dgrams:-0}" \
		"${samples:-0}" "$SECONDS_RUN" "${sent:--1}" "${missing:--1}" <<'EOF'
import sys
name, nsrc, goal, goal_mb = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
ut, st, hwm, vcsw = float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8])
dg, sm, secs, sent, missing = [int(v) for v in sys.argv[9:14]]
cpu = ut + st
pct = 100.0 * cpu / secs
print("bsflowd, %s, polling 1 s, %d s:" % (name, secs))
print("  cpu_seconds          %.2f (user %.2f, system %.2f), %.2f %% of one core%s"
      % (cpu, ut, st, pct, " (goal <= %s %%: %.2f of it)" % (goal, pct / float(goal))
                           if goal != "-" else ""))
print("  peak_rss_kb          %d%s" % (hwm, " (goal <= %s MB: %.2f of it)"
                                      % (goal_mb, hwm / 1024.0 / float(goal_mb))
                                      if goal_mb != "-" else ""))
print("  wakeups_per_s        %.1f (voluntary context switches)" % (vcsw / float(secs)))
print("  datagrams_sent       %s (bsflowd's count)" % (sent if sent >= 0 else "?"))
print("  datagrams_received   %d (%s missing by sequence number)"
      % (dg, missing if missing >= 0 else "?"))
print("  samples_received     %d (expected about %d: %d sources x %d polls)"
      % (sm, nsrc * secs, nsrc, secs))
if cpu > 0:
    print("  samples_per_cpu_s    %.0f" % (sm / cpu))
EOF
}

# bench NAME PORTS [EXTRA]: the bench backend
bench() {
	start_collector
	{
		conf_head "$port" "$3"
		printf 'backend = "%s"\nplugin {\n\toption = {"ports=%s", "queues=8"}\n}\n' \
			"$PLUGIN" "$2"
	} >"$TMP/bsflowd.conf"
	run_daemon "$TMP/bsflowd.conf" "$SECONDS_RUN"
	stop_collector
}

bench bench1024 1024
report "bench backend 1024 ports x 8 queues" 1025 2 16
cpu_bench=$(echo "$utime $stime" | awk '{print $1 + $2}')
bench bench4096 4096
report "bench backend 4096 ports x 8 queues" 4097 5 -
bench bench4096j 4096 "datagram_bytes = 8192
"
report "bench backend 4096 ports x 8 queues, 8192-byte datagrams" 4097 - -

start_collector
{
	conf_head "$port"
	cat <<EOF
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
} >"$TMP/bsflowd.conf"
run_daemon "$TMP/bsflowd.conf" "$SECONDS_RUN"
stop_collector
report "model 1024 ports x 8 queues, light traffic" 1025 - -
python3 - "$utime" "$stime" "$cpu_bench" "$SECONDS_RUN" <<'EOF'
import sys
ut, st, bench, secs = [float(v) for v in sys.argv[1:5]]
print("  model_share          %.2f %% of one core (the model run less the bench backend's)"
      % (100.0 * (ut + st - bench) / secs))
EOF

# drop events at 0.5, 1, 2 and 4 M drops a second: port 0 sends 64-byte
# frames to port 1 at 336, 672, 1344 and 2688 Mb/s, all dropped by an ACL,
# for BENCH_DROP_SECONDS (default 10) each; lost = the drop events the
# agent never read (lost to a full queue) over all the drops the model
# made; and bsflowd's share of a core.  A drop event is lost only when the
# model falls 100 ms behind the wall clock (the machine cannot keep up).
DROP_RUN=${BENCH_DROP_SECONDS:-10}
echo "bsflowd, model, ACL drops of 64-byte frames, $DROP_RUN s each:"
for rate in 0.5:336M 1:672M 2:1344M 4:2688M; do
	start_collector
	{
		conf_head "$port"
		printf 'model {\n\tseed = 1\n\tports = 8\n\tspeed = 10G\n\tunicast_queues = 8\n'
		printf '\tsampling_rate = 0\n\ttraffic acl {\n\t\tports = {0}\n'
		printf '\t\tdestination = fixed\n\t\tto = 1\n\t\trate = %s\n\t\tsize = 64\n' "${rate#*:}"
		printf '\t\tdrop = 100%%\n\t\tdrop_reason = acl\n\t}\n}\n'
	} >"$TMP/bsflowd.conf"
	run_daemon "$TMP/bsflowd.conf" "$DROP_RUN"
	stop_collector
	line=$(grep 'drop events, .* events lost to a full queue' "$TMP/bsflowd.log" | tail -n 1)
	lag=$(sed -n 's/.*simulation lag \([0-9.]*\) ms.*/\1/p' "$TMP/bsflowd.log" | tail -n 1)
	python3 - "${rate%%:*}" "$utime" "$stime" "$DROP_RUN" "${lag:-?}" "$line" <<'EOF'
import re, sys
rate, ut, st = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
secs, lag, line = int(sys.argv[4]), sys.argv[5], sys.argv[6]
m = re.search(r"(\d+) drop events, .*; (\d+) events lost to a full queue", line)
read, lost = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
total = read + lost
print("  %-4s M drops/s: %5.2f %% lost (%d of %d), %5.1f %% of one core, lag %s ms at the end"
      % (rate, 100.0 * lost / total if total else 0.0, lost, total,
         100.0 * (ut + st) / secs, lag))
EOF
done

# the default scenario in real time, exporting to a port nobody listens
# on any more (the datagrams are sent all the same)
DEMO_RUN=${BENCH_DEMO_SECONDS:-20}
{
	printf 'agent {\n\taddress = "127.0.0.1"\n}\n'
	printf 'collector bench {\n\taddress = "127.0.0.1"\n\tport = %s\n}\n' "$port"
	printf 'backend = model\n'
	grep -v '^[[:space:]]*duration[[:space:]]*=' "$top_srcdir/etc/scenarios/demo.conf"
} >"$TMP/demo.conf"
run_daemon "$TMP/demo.conf" "$DEMO_RUN"
lag=$(sed -n 's/.*simulation lag \([0-9.]*\) ms.*/\1/p' "$TMP/bsflowd.log" | tail -n 1)
python3 - "$utime" "$stime" "$hwm" "$DEMO_RUN" "${lag:-?}" <<'EOF'
import sys
ut, st, rss, secs = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
cpu = ut + st
print("bsflowd, default scenario (etc/scenarios/demo.conf, about 236 000 packets/s), %d s:" % secs)
print("  cpu_seconds          %.2f (user %.2f, system %.2f), %.1f %% of one core"
      % (cpu, ut, st, 100.0 * cpu / secs))
print("  peak_rss_kb          %d" % rss)
print("  simulation_lag_ms    %s (at the end)" % sys.argv[5])
EOF
