#!/bin/sh
# agent/linux/tests/e2e-linux-bpf-peak.sh - the bpf source's exact peaks
# are not lost when the queue takes packets while the agent reads them:
# the agent bumps the epoch and then reads the maxima of the epoch that
# ended, while the programs already write the new one's (per CPU); they
# must not write over the ones being read.  In network namespaces this
# test creates: a veth pair with a tbf root at 1 Gbit/s on the sending
# side, the qdisc source polling only every 10 s (so that the peaks of the
# counter samples are the bpf source's), a sender of bursts of 30
# datagrams of 1000 bytes every 100 ms (each burst leaves several packets
# queued: they drain at 8.3 us each) and, on the same CPU, a sender of
# 64-byte datagrams as fast as it can (about 100 000 a second: enqueues on
# that CPU nearly all the time, also while the agent reads, on another
# CPU where there are two).  Asserts:
# every counter sample of the port during the 5 s of traffic has a 4413:2
# queue peak of at least 4 of those packets (4168 bytes of the tbf's
# 100 000-byte limit, 4.16 %).  Needs root, ip(8), tc(8), python3, netns,
# veth, tbf and a bsflowd built with BPF support on a kernel that loads
# it: otherwise SKIP (exit 77) saying why (bpf-e2e-lib.sh).
#
# SPDX-License-Identifier: BSD-2-Clause
. "$(dirname "$0")/bpf-e2e-lib.sh"
bpf_e2e_need
bpf_e2e_pair bsfp 10.74.0
bpf_e2e_up
$X tc qdisc add dev vA root handle 1: tbf rate 200mbit burst 2000 limit 100000 2>"$TMP/err" ||
	bpf_skip "tbf not available: $(tail -n 1 "$TMP/err")"
bpf_e2e_conf
sed -i 's/^linux {$/linux {\n\tqdisc_poll_ms = 10000/' "$TMP/bsflowd.conf"
bpf_e2e_start 10
# the agent on another CPU than the senders, so that it reads while they
# enqueue (on one CPU, its reads would hold them back)
[ -n "$PIN" ] && [ "$(nproc)" -ge 2 ] && taskset -p -c 1 "$dpid" >/dev/null
bpf_e2e_receiver 10.74.0.2 5001 5002
sleep 1
# 2.5 s .. 7.5 s after the daemon started
$X $PIN python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
buf = b"b" * 1000
end = time.time() + 5
while time.time() < end:
    for i in range(30):
        try:
            s.sendto(buf, (sys.argv[1], 5001))
        except OSError:
            pass
    time.sleep(0.1)' 10.74.0.2 &
s1=$!
$X $PIN python3 "$HERE/blast.py" 10.74.0.2 5002 5 64 >/dev/null
wait $s1
bpf_e2e_wait
python3 - "$TMP/col.json" "$IFX" <<'EOP' || rc=1
import json
import sys

peaks = []
for line in open(sys.argv[1]):
    d = json.loads(line)
    for s in d.get("samples", []):
        if s.get("sourceId") != "0:" + sys.argv[2]:
            continue
        for e in s.get("elements", []):
            if e.get("counterBlock_tag") == "4413:2":
                peaks.append((d["sysUpTime"], e["bst_egress_queue_uc_pc"][0]))
# samples whose window (the second before them) lies within the traffic
during = [pc for up, pc in peaks if 3600 <= up <= 7500]
print("queue peaks (hundredths of %% of the limit) during the traffic: %s" % during)
rc = 0
if len(during) < 3:
    print("FAIL: %d counter samples during the traffic, 3 or more expected" % len(during))
    rc = 1
low = [pc for pc in during if pc < 416]
if low:
    print("FAIL: %d of them below 4 packets' 4.16 %%: a window's peak lost" % len(low))
    rc = 1
sys.exit(rc)
EOP
[ "$rc" = 0 ] || tail -n 20 "$TMP/bsflowd.log"
exit $rc
