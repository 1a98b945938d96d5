#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""gen-capture.py - writes capture.pcap, the small capture replay.conf plays.

  gen-capture.py [OUT.pcap]     (default: capture.pcap next to this script)

2800 Ethernet frames, recorded at 1 Gb/s pace, stored with their first 64
bytes (the replay reads the length of each frame from the pcap record, not
from the bytes kept):
  - 2400 frames of 1500 bytes in 3 bursts of 800, alternating VLAN 10 and
    VLAN 20 (ports 1 and 2 in replay.conf), 10.0.0.1/10.0.0.2 -> 192.0.2.1
    UDP (port 5 by the egress map): played ten times faster, two inputs at
    10 Gb/s each into one 10 Gb/s port, a 2:1 burst that builds port 5's
    queue to about 600 KB;
  - 400 frames of 200 bytes, untagged, IPv6 2001:db8::1 -> 2001:db8::2
    (port 6 by the egress map), evenly spread: light traffic.
Deterministic: the same bytes every run.
"""
import os
import struct
import sys

SNAP = 64


def ip4_header(src, dst, length):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, length, 0, 0x4000, 64, 17, 0,
                      bytes(src), bytes(dst))
    s = sum(struct.unpack("!10H", hdr))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return hdr[:10] + struct.pack("!H", ~s & 0xFFFF) + hdr[12:]


def frame_v4(vlan, src_last, size):
    eth = bytes([2, 0, 0, 0, 0, 0xaa]) + bytes([2, 0, 0, 0, 0, src_last])
    eth += struct.pack("!HHH", 0x8100, vlan, 0x0800)
    ip_len = size - 18 - 4  # Ethernet + VLAN tag, FCS not in the capture
    ip = ip4_header([10, 0, 0, src_last], [192, 0, 2, 1], ip_len)
    udp = struct.pack("!HHHH", 40000 + src_last, 5001, ip_len - 20, 0)
    return eth + ip + udp


def frame_v6(size):
    eth = bytes([2, 0, 0, 0, 0, 0xbb]) + bytes([2, 0, 0, 0, 0, 9]) + struct.pack("!H", 0x86DD)
    pl = size - 14 - 40
    ip6 = struct.pack("!IHBB", 0x60000000, pl, 17, 64)
    ip6 += bytes.fromhex("20010db8000000000000000000000001")
    ip6 += bytes.fromhex("20010db8000000000000000000000002")
    udp = struct.pack("!HHHH", 40009, 5002, pl, 0)
    return eth + ip6 + udp


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "capture.pcap")
    recs = []  # (time ns, wire length, bytes)
    t0 = 1700000000 * 10**9
    gap = (1500 + 20) * 8  # ns per 1500-byte frame at 1 Gb/s, per input
    for b in range(3):
        start = t0 + b * 12_000_000  # a burst every 12 ms
        for i in range(400):
            for k, (vlan, src) in enumerate(((10, 1), (20, 2))):
                recs.append((start + i * gap + k, 1500, frame_v4(vlan, src, 1500)))
    for i in range(400):
        recs.append((t0 + i * 100_000 + 7, 200, frame_v6(200)))
    recs.sort(key=lambda r: r[0])
    with open(out, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, SNAP, 1))
        for t, length, data in recs:
            kept = data[:SNAP] + bytes(max(0, min(SNAP, length) - len(data)))
            f.write(struct.pack("<IIII", t // 10**9, (t % 10**9) // 1000, len(kept), length))
            f.write(kept)


main()
