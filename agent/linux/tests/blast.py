#!/usr/bin/env python3
# agent/linux/tests/blast.py - a UDP sender for the linux backend's
# end-to-end tests: sends SIZE-byte datagrams to DST:PORT as fast as it can
# for SECONDS (errors such as ENOBUFS are ignored) and prints how many.
#
# SPDX-License-Identifier: BSD-2-Clause
import socket
import sys
import time

dst, port, secs, size = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
buf = b"x" * size
end = time.time() + secs
n = 0
while time.time() < end:
    try:
        s.sendto(buf, (dst, port))
        n += 1
    except OSError:
        pass
print(n)
