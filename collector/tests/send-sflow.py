#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""send-sflow.py - send small hand-made sFlow v5 datagrams over UDP.

usage: send-sflow.py HOST PORT SPEC...
Each SPEC sends one datagram from agent 192.0.2.9, sub-agent 0:
  D:S      datagram sequence number D, uptime D*1000 ms, one
           counters_sample_expanded (sequence number S, source 0:1) holding
           a generic interface counter record (ifIndex 1, ifInOctets D*100)
  corrupt  a datagram whose sample length runs past its end
"""
import socket
import struct
import sys


def u32(v):
    return struct.pack('>I', v)


def datagram(dseq, sseq):
    generic = (u32(1) + u32(6) + struct.pack('>Q', 1000000000) + u32(1) + u32(3) +
               struct.pack('>Q', dseq * 100) + u32(0) * 6 +
               struct.pack('>Q', 0) + u32(0) * 6)
    assert len(generic) == 88
    rec = u32(1) + u32(len(generic)) + generic          # counter record 0:1
    body = u32(sseq) + u32(0) + u32(1) + u32(1) + rec    # seq, source 0:1, 1 record
    sample = u32(4) + u32(len(body)) + body              # 0:4
    return (u32(5) + u32(1) + bytes([192, 0, 2, 9]) + u32(0) + u32(dseq) +
            u32(dseq * 1000) + u32(1) + sample)


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    fam = socket.AF_INET6 if ':' in host else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    for spec in sys.argv[3:]:
        if spec == 'corrupt':
            d = bytearray(datagram(1, 1))
            d[32:36] = u32(4000)  # sample length: far more than the datagram
            s.sendto(bytes(d), (host, port))
        else:
            dseq, sseq = (int(x) for x in spec.split(':'))
            s.sendto(datagram(dseq, sseq), (host, port))


if __name__ == '__main__':
    main()
