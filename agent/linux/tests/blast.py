#!/usr/bin/env python3
# agent/linux/tests/blast.py - a UDP sender for the linux backend's
# end-to-end tests: sends SIZE-byte datagrams to DST:PORT for SECONDS,
# as fast as it can, or at PPS datagrams a second (in bursts every 2 ms)
# when given; with PRIO, from a socket of that SO_PRIORITY (an htb root
# puts a packet whose priority names one of its leaf classes, major << 16
# | minor, into that class).  Errors such as ENOBUFS are ignored.  Prints
# how many it sent.
# Usage: blast.py DST PORT SECONDS SIZE [PPS [PRIO]]
#
# SPDX-License-Identifier: BSD-2-Clause
import socket
import sys
import time

dst, port, secs, size = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
pps = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
if len(sys.argv) > 6:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_PRIORITY, int(sys.argv[6], 0))
buf = b"x" * size
start = time.time()
end = start + secs
n = 0
while True:
    now = time.time()
    if now >= end:
        break
    if pps > 0:
        due = int((now - start) * pps) + 1
        if n >= due:
            time.sleep(0.002)
            continue
    else:
        due = n + 1
    while n < due:
        try:
            s.sendto(buf, (dst, port))
        except OSError:
            pass
        n += 1
print(n)
