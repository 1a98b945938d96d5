#!/usr/bin/env python3
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


class Stop(Exception):
    pass


def on_term(signum, frame):
    raise Stop()


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
    end = time.monotonic() + seconds
    try:
        while True:
            left = end - time.monotonic()
            if left <= 0:
                break
            s.settimeout(left)
            try:
                d = s.recv(65535)
            except socket.timeout:
                break
            n += 1
            if len(d) >= 28 and struct.unpack(">I", d[:4])[0] == 5:
                ok += 1
                atype = struct.unpack(">I", d[4:8])[0]
                off = 8 + (4 if atype == 1 else 16) + 12
                samples += struct.unpack(">I", d[off:off + 4])[0]
    except Stop:
        # what already arrived counts too: the sender may have finished
        # before this process got the CPU to read it
        s.setblocking(False)
        try:
            while True:
                d = s.recv(65535)
                n += 1
                if len(d) >= 28 and struct.unpack(">I", d[:4])[0] == 5:
                    ok += 1
                    atype = struct.unpack(">I", d[4:8])[0]
                    off = 8 + (4 if atype == 1 else 16) + 12
                    samples += struct.unpack(">I", d[off:off + 4])[0]
        except (BlockingIOError, Stop):
            pass
    print("datagrams %d versions_ok %d samples %d" % (n, ok, samples), flush=True)


if __name__ == "__main__":
    main()
