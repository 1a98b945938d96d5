#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""gen-all-structures.py - write the sFlow test captures of bsflow-collect.

Every byte here is written by hand from the sFlow v5, drops, transit-delay
and Broadcom BST specifications (bsflowd-structures(7)); nothing
comes from bsflowd's encoder.  Fields are packed with struct.pack('>I'...)
one by one, in wire order, with their values in comments, so the expected
decoder output (data/all-structures.txt) can be written by hand too.

Run:  gen-all-structures.py OUTDIR
writes OUTDIR/all-structures.pcap (Ethernet, 6 frames: 5 sFlow datagrams,
IPv4 and IPv6 agents and transports, one 802.1Q-tagged, plus one ARP frame
that is not UDP) and OUTDIR/link-{sll,sll2,null}.pcap (datagram 1 alone,
over Linux cooked v1, v2 and BSD loopback framing).
"""
import os
import struct
import sys


def u32(v):
    return struct.pack('>I', v & 0xffffffff)


def i32(v):
    return struct.pack('>i', v)


def u64(v):
    return struct.pack('>Q', v)


def opaque(b):
    """XDR variable-length opaque: length, bytes, zero pad to 4."""
    return u32(len(b)) + b + b'\0' * ((4 - len(b) % 4) % 4)


def tag(ent, fmt):
    return (ent << 12) | fmt


def tlv(t, body):
    """sample_record / flow_record / counter_record: tag, length, body."""
    assert len(body) % 4 == 0
    return u32(t) + u32(len(body)) + body


def ipv4(s):
    return bytes(int(x) for x in s.split('.'))


def ipv6(words):
    return b''.join(struct.pack('>H', w) for w in words)


AGENT4 = ipv4('192.0.2.1')
AGENT6 = ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1])

# ---- sampled packet headers (hand-made frames) ----------------------------

# Ethernet + IPv4 + UDP, 42 bytes; on the wire 60 bytes + 4 FCS = 64.
PKT_UDP4 = (bytes.fromhex('001122334455' '66778899aabb' '0800') +
            bytes.fromhex('45' '00' '002e' '1234' '0000' '40' '11' '0000') +
            ipv4('10.0.0.1') + ipv4('10.0.0.2') +
            bytes.fromhex('04d2' '162e' '001a' '0000'))
assert len(PKT_UDP4) == 42

# Ethernet + IPv6 (tc 0xab, flow label 0x12345) + TCP SYN-ACK, 74 bytes.
PKT_TCP6 = (bytes.fromhex('001122334455' '66778899aabb' '86dd') +
            bytes.fromhex('6ab12345' '0014' '06' '40') +
            ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0x10]) +
            ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0x20]) +
            bytes.fromhex('01bb' '9c40' '00000001' '00000002' '50' '12' 'ffff'
                          '0000' '0000'))
assert len(PKT_TCP6) == 74

# Ethernet header of an ARP broadcast, 14 bytes.
PKT_ARP_HDR = bytes.fromhex('ffffffffffff' '00005e005301' '0806')


def rec_header(frame_length, stripped, hdr):
    # sampled_header: protocol 1 (Ethernet), frame_length, stripped, header<>
    return tlv(tag(0, 1), u32(1) + u32(frame_length) + u32(stripped) + opaque(hdr))


# ---- datagram 1: IPv4 agent, flow_sample_expanded with every flow record ---
#
# tshark 4.0 does not skip flow or counter records it does not know by their
# length (it reads on inside their bodies), but it does skip whole samples by
# theirs.  So that the same capture decodes in tshark without a malformed
# packet, each record tshark does not know is the last one of its sample:
# seven flow samples from data source 0:3, sequence numbers 7 to 13.

def flow_sample(seq, recs):
    body = (u32(seq) + u32(0) + u32(3) +  # seq, source 0:3
            u32(400) + u32(12800) + u32(0) +  # rate 1-in-400, pool, drops
            u32(0) + u32(1) + u32(0) + u32(3) +  # input 0:1, output 0:3
            u32(len(recs)) + b''.join(recs))
    return tlv(tag(0, 3), body)


def dgram1():
    samples = [
        flow_sample(7, [rec_header(64, 4, PKT_UDP4),
                        # extended_switch: in vlan 10 pri 3, out vlan 20 pri 5
                        tlv(tag(0, 1001), u32(10) + u32(3) + u32(20) + u32(5)),
                        tlv(tag(0, 1036), u32(2))]),  # extended_egress_queue 2
        flow_sample(8, [tlv(tag(0, 1038), opaque(b'fwd'))]),  # extended_function
        flow_sample(9, [tlv(tag(0, 1039), u32(12345))]),  # transit delay ns
        flow_sample(10, [tlv(tag(0, 1040), u32(65536))]),  # queue depth bytes
        flow_sample(11, [tlv(tag(0, 1043), u64(1700000000123456789))]),  # time ns
        flow_sample(12, [tlv(tag(4413, 1), u32(2))]),  # Broadcom egress queue
        flow_sample(13, [tlv(tag(0, 999), bytes.fromhex('deadbeef01020304'))]),
    ]
    return (u32(5) + u32(1) + AGENT4 + u32(0) + u32(1) + u32(1000) +
            u32(len(samples)) + b''.join(samples))


# ---- datagram 2: IPv4 agent, three counters_sample_expanded -----------------

def dgram2():
    generic = (u32(3) + u32(6) + u64(10000000000) + u32(1) + u32(3) +
               u64(9007199254740993) + u32(1000) + u32(10) + u32(1) + u32(2) +
               u32(0) + u32(0xffffffff) +
               u64(0xffffffffffffffff) + u32(2000) + u32(20) + u32(2) + u32(5) +
               u32(0) + u32(0))
    assert len(generic) == 88
    ethernet = b''.join(u32(v) for v in range(1, 14))
    assert len(ethernet) == 52
    name = b'eth3 "uplink"'
    bst_port = (i32(1500) + i32(-1) + i32(2500) + i32(0) +
                u32(8) + b''.join(i32(v) for v in (10000, 9000, 0, 1, 2, 3, 4, 5)) +
                u32(2) + i32(100) + i32(-1))
    assert len(bst_port) == 64
    # (records tshark does not know last in their samples, see datagram 1)
    recs = [tlv(tag(0, 1), generic), tlv(tag(0, 2), ethernet),
            tlv(tag(0, 1005), opaque(name))]
    s1 = tlv(tag(0, 4), u32(5) + u32(0) + u32(3) + u32(len(recs)) + b''.join(recs))
    s2 = tlv(tag(0, 4), u32(6) + u32(0) + u32(3) + u32(1) + tlv(tag(4413, 2), bst_port))
    dev = [tlv(tag(4413, 1), i32(4321) + i32(-1))]
    s3 = tlv(tag(0, 4), u32(9) + u32(2) + u32(1) + u32(len(dev)) + b''.join(dev))
    return (u32(5) + u32(1) + AGENT4 + u32(0) + u32(2) + u32(2000) +
            u32(3) + s1 + s2 + s3)


# ---- datagram 3: IPv4 agent, discarded_packet ------------------------------

def dgram3():
    recs = [rec_header(78, 4, PKT_TCP6),
            tlv(tag(0, 1038), opaque(b'mmu_drop')),
            tlv(tag(0, 1043), u64(1700000001000000000))]
    body = (u32(1) + u32(0) + u32(3) +  # seq 1, source 0:3
            u32(0) + u32(1) + u32(3) + u32(259) +  # drops, in, out, no_buffer_space
            u32(len(recs)) + b''.join(recs))
    return (u32(5) + u32(1) + AGENT4 + u32(0) + u32(3) + u32(3000) +
            u32(1) + tlv(tag(0, 5), body))


# ---- datagram 4: IPv6 agent, compact flow_sample and counters_sample -------

def dgram4():
    fbody = (u32(11) + u32((0 << 24) | 5) +  # seq 11, source 0:5
             u32(1000) + u32(50000) + u32(1) +  # rate, pool, drops
             u32(5) + u32((2 << 30) | 2) +  # input 5, output "multiple 2"
             u32(1) + rec_header(64, 4, PKT_ARP_HDR))
    generic = (u32(5) + u32(6) + u64(1000000000) + u32(1) + u32(3) +
               u64(123456789) + u32(11) + u32(12) + u32(13) + u32(14) +
               u32(15) + u32(16) +
               u64(987654321) + u32(21) + u32(22) + u32(23) + u32(24) +
               u32(25) + u32(1))
    cbody = u32(12) + u32((0 << 24) | 5) + u32(1) + tlv(tag(0, 1), generic)
    return (u32(5) + u32(2) + AGENT6 + u32(1) + u32(100) + u32(5000) +
            u32(2) + tlv(tag(0, 1), fbody) + tlv(tag(0, 2), cbody))


# ---- datagram 5: IPv6 agent, unknown sample type, odd ports ---------------

def dgram5():
    unknown = tlv(tag(9999, 1), bytes.fromhex('0102030405060708090a0b0c'))
    flow = tlv(tag(0, 3), u32(12) + u32(0) + u32(5) + u32(1000) + u32(51000) +
               u32(0) + u32(0) + u32(5) + u32(1) + u32(258) + u32(0))
    disc = tlv(tag(0, 5), u32(2) + u32(0) + u32(5) + u32(7) + u32(5) + u32(0) +
               u32(12345) + u32(0))
    # the unknown sample last: tshark 4.0 does not skip unknown enterprises
    return (u32(5) + u32(2) + AGENT6 + u32(1) + u32(101) + u32(6000) +
            u32(3) + flow + disc + unknown)


# ---- framing ---------------------------------------------------------------

def csum16(b):
    if len(b) % 2:
        b += b'\0'
    s = sum(struct.unpack('>%dH' % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff


def udp4(src, dst, sport, dport, payload):
    udp = struct.pack('>HHHH', sport, dport, 8 + len(payload), 0) + payload
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + len(udp), 1, 0x4000, 64, 17, 0,
                     ipv4(src), ipv4(dst))
    ip = ip[:10] + struct.pack('>H', csum16(ip)) + ip[12:]
    return ip + udp


def udp6(src, dst, sport, dport, payload):
    udp = struct.pack('>HHHH', sport, dport, 8 + len(payload), 0) + payload
    pseudo = src + dst + struct.pack('>IxxxB', len(udp), 17)
    c = csum16(pseudo + udp) or 0xffff
    udp = udp[:6] + struct.pack('>H', c) + udp[8:]
    return struct.pack('>IHBB', 0x60000000, len(udp), 17, 64) + src + dst + udp


MAC_A = bytes.fromhex('020000000001')
MAC_B = bytes.fromhex('020000000002')


def eth(ethertype, payload, vlan=None):
    if vlan is not None:
        return MAC_B + MAC_A + struct.pack('>HHH', 0x8100, vlan, ethertype) + payload
    return MAC_B + MAC_A + struct.pack('>H', ethertype) + payload


def write_pcap(path, linktype, frames):
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, linktype))
        for ts, data in frames:
            f.write(struct.pack('<IIII', ts[0], ts[1], len(data), len(data)))
            f.write(data)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else '.'
    d1 = udp4('10.0.0.1', '10.0.0.2', 50000, 6343, dgram1())
    d2 = udp4('10.0.0.1', '10.0.0.2', 50000, 6343, dgram2())
    d3 = udp4('10.0.0.1', '10.0.0.2', 50000, 6343, dgram3())
    src6 = ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1])
    dst6 = ipv6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 2])
    d4 = udp6(src6, dst6, 50001, 6343, dgram4())
    d5 = udp6(src6, dst6, 50001, 6343, dgram5())
    arp = bytes.fromhex('0001080006040001' '020000000001' '0a000001'
                        '000000000000' '0a000002')
    frames = [
        ((1700000000, 1), eth(0x0800, d1)),
        ((1700000001, 0), eth(0x0800, d2, vlan=100)),
        ((1700000002, 0), eth(0x0800, d3)),
        ((1700000003, 0), eth(0x0806, arp)),
        ((1700000004, 0), eth(0x86dd, d4)),
        ((1700000005, 0), eth(0x86dd, d5)),
    ]
    write_pcap(os.path.join(out, 'all-structures.pcap'), 1, frames)
    ts = (1700000000, 1)
    # Linux cooked v1: packet type 0 (to us), ARPHRD_ETHER, 6-byte address
    sll = struct.pack('>HHH8sH', 0, 1, 6, MAC_A + b'\0\0', 0x0800) + d1
    write_pcap(os.path.join(out, 'link-sll.pcap'), 113, [(ts, sll)])
    # Linux cooked v2: protocol, reserved, ifindex 2, ARPHRD_ETHER, type 0, len 6
    sll2 = struct.pack('>HHIHBB8s', 0x0800, 0, 2, 1, 0, 6, MAC_A + b'\0\0') + d1
    write_pcap(os.path.join(out, 'link-sll2.pcap'), 276, [(ts, sll2)])
    # BSD loopback: address family AF_INET (2) in the capturing host's order
    null = struct.pack('<I', 2) + d1
    write_pcap(os.path.join(out, 'link-null.pcap'), 0, [(ts, null)])


if __name__ == '__main__':
    main()
