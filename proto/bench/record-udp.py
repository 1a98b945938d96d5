#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""record-udp.py - record UDP datagrams arriving on 127.0.0.1 into a pcap.

For make bench-compare: bsflowd sends its demo datagrams here and the
reference decoders read the capture.  Binds any free port, writes its
number to PORTFILE, and writes every datagram received as an Ethernet /
IPv4 / UDP frame (addresses 127.0.0.1, the source port as received) until
SIGINT or SIGTERM.

usage: record-udp.py PORTFILE OUT.pcap
"""
import signal
import socket
import struct
import sys
import time


def frame(payload, sport, dport):
    udp = struct.pack('>HHHH', sport, dport, 8 + len(payload), 0) + payload
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                     bytes([127, 0, 0, 1]), bytes([127, 0, 0, 1]))
    s = sum(struct.unpack('>10H', ip))
    s = (s & 0xFFFF) + (s >> 16)
    s = (s & 0xFFFF) + (s >> 16)
    ip = ip[:10] + struct.pack('>H', ~s & 0xFFFF) + ip[12:]
    return bytes(12) + b'\x08\x00' + ip + udp


def main():
    portfile, out = sys.argv[1], sys.argv[2]
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    sock.bind(('127.0.0.1', 0))
    port = sock.getsockname()[1]
    stop = []
    signal.signal(signal.SIGINT, lambda *a: stop.append(1))
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    sock.settimeout(0.2)
    with open(out, 'wb') as f:
        # pcap: magic, version 2.4, zone, sigfigs, snaplen, Ethernet
        f.write(struct.pack('<IHHiIII', 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        with open(portfile, 'w') as p:
            p.write('%d\n' % port)
        while not stop:
            try:
                data, src = sock.recvfrom(65535)
            except socket.timeout:
                continue
            except InterruptedError:
                continue
            fr = frame(data, src[1], port)
            t = time.time()
            f.write(struct.pack('<IIII', int(t), int((t % 1) * 1e6), len(fr), len(fr)))
            f.write(fr)


if __name__ == '__main__':
    main()
