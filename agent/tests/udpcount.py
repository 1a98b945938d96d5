#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""udpcount.py - count sFlow datagrams arriving on a UDP port on 127.0.0.1.

usage: udpcount.py PORTFILE SECONDS
Binds 127.0.0.1 on a free port, writes the port number to PORTFILE, then
counts datagrams for SECONDS or until SIGTERM, and prints
"datagrams N versions_ok M samples S" (versions_ok: datagrams that start
with version 5; samples: the sum of their sample counts).
"""
import os
import signal
import socket
import struct
import sys
import time


STOP = []


def on_term(signum, frame):
    STOP.append(signum)  # a flag: an exception could land in the middle of counting


def main():
    portfile, seconds = sys.argv[1], float(sys.argv[2])
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    signal.signal(signal.SIGTERM, on_term)
    tmp = portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % s.getsockname()[1])
    os.rename(tmp, portfile)
    n = ok = samples = 0

    def count(d):
        nonlocal n, ok, samples
        n += 1
        if len(d) >= 28 and struct.unpack(">I", d[:4])[0] == 5:
            ok += 1
            atype = struct.unpack(">I", d[4:8])[0]
            off = 8 + (4 if atype == 1 else 16) + 12
            samples += struct.unpack(">I", d[off:off + 4])[0]

    end = time.monotonic() + seconds
    while not STOP:
        left = end - time.monotonic()
        if left <= 0:
            break
        # short waits, so that SIGTERM is seen soon
        s.settimeout(min(left, 0.05))
        try:
            count(s.recv(65535))
        except socket.timeout:
            pass
    # what already arrived counts too: the sender may have finished before
    # this process got the CPU to read it
    s.setblocking(False)
    try:
        while True:
            count(s.recv(65535))
    except BlockingIOError:
        pass
    print("datagrams %d versions_ok %d samples %d" % (n, ok, samples), flush=True)


if __name__ == "__main__":
    main()
