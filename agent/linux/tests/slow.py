#!/usr/bin/env python3
# agent/linux/tests/slow.py - a paced UDP sender for the bpf end-to-end
# test: SIZE-byte datagrams to DST:PORT every GAP_MS milliseconds for
# SECONDS (a rate well below the shaper's, so the queue stays near empty).
#
# SPDX-License-Identifier: BSD-2-Clause
import socket
import sys
import time

dst, port, secs, size, gap = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), \
    int(sys.argv[4]), float(sys.argv[5]) / 1000.0
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
buf = b"y" * size
end = time.time() + secs
n = 0
while time.time() < end:
    s.sendto(buf, (dst, port))
    n += 1
    time.sleep(gap)
print(n)
