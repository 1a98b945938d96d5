#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""e2e-udp2pcap.py - a UDP receiver that saves every datagram into a pcap.

  e2e-udp2pcap.py ADDRESS OUT.pcap PORTFILE

Binds ADDRESS (IPv4) port 0, writes the port it got into PORTFILE, then
writes each received datagram as an Ethernet/IPv4/UDP frame (the real
source and destination addresses and ports, UDP checksum 0) into OUT.pcap
until SIGTERM or SIGINT.  The end-to-end tests use it to show what bsflowd
sent to independent decoders (tshark) without capturing on an interface.
"""
import signal
import socket
import struct
import sys
import time

running = True


def stop(signum, frame):
    global running
    running = False


def ip_checksum(hdr):
    s = 0
    for i in range(0, len(hdr), 2):
        s += (hdr[i] << 8) | hdr[i + 1]
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def frame(src, sport, dst, dport, payload, ident):
    udp = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), ident & 0xFFFF, 0x4000, 64, 17, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    ip = ip[:10] + struct.pack("!H", ip_checksum(ip)) + ip[12:]
    eth = b"\x02\x00\x00\x00\x00\x02" + b"\x02\x00\x00\x00\x00\x01" + b"\x08\x00"
    return eth + ip + udp


def main():
    addr, out, portfile = sys.argv[1:4]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((addr, 0))
    s.settimeout(0.2)
    port = s.getsockname()[1]
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    with open(out, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        f.flush()
        with open(portfile, "w") as pf:
            pf.write("%d\n" % port)
        n = 0
        while running:
            try:
                data, (src, sport) = s.recvfrom(65535)
            except socket.timeout:
                continue
            except InterruptedError:
                continue
            fr = frame(src, sport, addr, port, data, n)
            t = time.time()
            f.write(struct.pack("<IIII", int(t), int((t % 1) * 1e6), len(fr), len(fr)) + fr)
            f.flush()
            n += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
