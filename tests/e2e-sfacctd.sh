#!/bin/sh
# tests/e2e-sfacctd.sh - a production collector accepts what
# bsflowd sends: pmacct's sfacctd, on a free loopback port with a minimal
# config (print plugin, counters to a file, debug log), receives a run on
# the e2e scenario with packet sampling (1-in-20 on every port) and
# dropped-packet notifications on, so that datagrams mix 0:3/0:4 samples
# with 0:5 and bsflowd's own event samples; its log must show the
# datagrams received and no error or warning, and it must count every flow
# sample bsflowd sent: sfacctd stops reading a datagram at the first
# sample type it does not know, so one 0:5 ahead of a 0:3 loses the 0:3
# (bsflowd puts standard samples first).  The flow samples are counted on
# both sides: the packets of sfacctd's print output (one a sample, not
# renormalized) against the 0:1/0:3 samples bsflow-collect received on a
# second collector.  Skips (77) without sfacctd.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/e2e-lib.sh"
[ -n "$SFACCTD" ] || SFACCTD=$(command -v sfacctd || ls /usr/sbin/sfacctd 2>/dev/null)
[ -n "$SFACCTD" ] && [ -x "$SFACCTD" ] || e2e_skip "sfacctd not found (apt-get install pmacct)"
e2e_init sfacctd

port=$(e2e_free_port)
cat >"$TMP/sfacctd.conf" <<EOC
daemonize: false
debug: true
logfile: $TMP/sfacctd.log
pidfile: $TMP/sfacctd.pid
sfacctd_ip: 127.0.0.1
sfacctd_port: $port
plugins: print
print_output_file: $TMP/flows.txt
print_refresh_time: 1
print_output: csv
print_output_file_append: true
aggregate: src_host, dst_host
sfacctd_counter_file: $TMP/counters.json
sfacctd_counter_output: json
EOC
# in its own session: sfacctd signals its whole process group when it stops
command -v setsid >/dev/null 2>&1 || e2e_skip "setsid not found (util-linux)"
setsid "$SFACCTD" -f "$TMP/sfacctd.conf" >"$TMP/sfacctd.out" 2>&1 &
spid=$!
E2E_PIDS="$E2E_PIDS $spid"
E2E_KILL="$spid"
i=0
while ! grep -q "waiting for sFlow data" "$TMP/sfacctd.log" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 $spid 2>/dev/null; then
		echo "FAIL: sfacctd did not start"
		cat "$TMP/sfacctd.out" "$TMP/sfacctd.log" 2>/dev/null | tail -n 20
		exit 1
	fi
	sleep 0.1
done

E2E_MODEL="sampling {
	default = 20
}
drops {
	limit = 1000
}
$E2E_MODEL"
e2e_collect col -j -b 127.0.0.1
e2e_conf "$TMP/bsflowd.conf" "127.0.0.1:$port" "127.0.0.1:$cport"
e2e_daemon bsflowd "$TMP/bsflowd.conf" 5
e2e_wait_daemon bsflowd
sleep 1
# sfacctd stops on SIGINT (it ignores SIGTERM); bounded wait, then KILL
kill -INT $spid
i=0
while kill -0 $spid 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if kill -0 $spid 2>/dev/null; then
	fail "sfacctd did not stop on SIGINT"
	kill -KILL $spid
fi
wait $spid
e2e_stop $cpid

n=$(grep -c "Received sFlow packet" "$TMP/sfacctd.log")
[ "$n" -ge 3 ] || fail "sfacctd logged only $n received sFlow datagrams"
if grep -n "too big\|ERROR\|WARN\|discarding unknown packet\|discarding unknown sFlow" \
	"$TMP/sfacctd.log" | head -n 5 | grep .; then
	fail "sfacctd complained"
fi
# samples of types sfacctd 1.7 does not know, as bsflow-collect saw them
other=$(python3 -c 'import json, sys
n = 0
for line in open(sys.argv[1]):
    for s in json.loads(line).get("samples", []):
        n += s["sampleType_tag"] not in ("0:1", "0:2", "0:3", "0:4")
print(n)' "$TMP/col.out")
skipped=$(grep -c "discarding unknown v5 sample" "$TMP/sfacctd.log")
if [ "$skipped" -gt "$other" ]; then
	fail "sfacctd skipped $skipped samples as unknown, only $other are of types it does not know"
	grep -n "discarding unknown v5 sample" "$TMP/sfacctd.log" | head -n 3
fi
# every flow sample bsflowd sent reached sfacctd's print plugin
sent=$(python3 -c 'import json, sys
n = 0
for line in open(sys.argv[1]):
    for s in json.loads(line).get("samples", []):
        n += s["sampleType_tag"] in ("0:1", "0:3")
print(n)' "$TMP/col.out")
got=$(awk -F, 'NR > 0 && $1 ~ /^[0-9.]+$/ { n += $3 } END { print n + 0 }' "$TMP/flows.txt" 2>/dev/null)
echo "flow samples: bsflowd sent $sent (bsflow-collect), sfacctd counted $got"
[ "$sent" -ge 100 ] || fail "only $sent flow samples sent: is packet sampling on?"
[ "$got" = "$sent" ] || fail "sfacctd counted $got flow samples of the $sent sent"
e2e_finish
