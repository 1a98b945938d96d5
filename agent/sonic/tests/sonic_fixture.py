#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""sonic_fixture.py - a SONiC-shaped Redis database for the sonic backend's
tests, written with raw RESP over redis-server's unix socket.

  sonic_fixture.py load SOCK [GEN]   the maps, buffer configuration and
                                     watermark tables (GEN: object ids of
                                     generation GEN, as after a config
                                     reload)
  sonic_fixture.py feed SOCK PHASE [GEN]  the counters and watermarks of
                                     PHASE, as syncd's flex counters
                                     write them
  sonic_fixture.py get SOCK DB KEY   one hash, as JSON
  sonic_fixture.py notify SOCK FLAGS CONFIG SET notify-keyspace-events
  sonic_fixture.py breakout SOCK     port 31 (Ethernet124) leaves the maps
                                     and port 32 (Ethernet128, index 33)
                                     comes, with its queues, PGs and the
                                     counters of phase 0 (as a breakout)
  sonic_fixture.py dbconfig SOCK     a database_config.json on stdout
  sonic_fixture.py configdb -        a config_db.json (the ports) on stdout

The expected values of the tests are computed from the numbers below
(expected_*), independently of bsflowd.

Shape: 32 front-panel ports Ethernet0..Ethernet124 (index 1..32, so
ifIndex 1..32), one inband port (role Inb, left out), 16 queues per port
(0-7 unicast, 8-15 multicast), 8 PGs, pools:
  ingress_lossless_pool  ingress dynamic 12 MiB
  egress_lossless_pool   egress  static  16 MiB
  egress_lossy_pool      egress  dynamic 12 MiB
profiles:
  egress_lossless_profile  static_th 1 MiB          queues 3-4
  egress_lossy_profile     dynamic_th 1 (alpha 2)   queues 0-2, 5-7, and
                           multicast 8-15 on even ports only
  ingress_lossless_profile dynamic_th 1, xoff 38816  PGs 3-4
  ingress_lossy_profile    dynamic_th -1 (alpha 1/2) PG 0
PGs 1, 2, 5, 6, 7 and the odd ports' multicast queues have no binding
(allocation unknown).  Malformed on purpose: Ethernet124's
SAI_PORT_STAT_IF_IN_ERRORS is "n/a"; Ethernet8 queue 1's watermark is
"garbage"; Ethernet12 queue 2 has no counters at all.

APPL_DB (the buffer manager's tables, which take precedence over
CONFIG_DB object by object): every pool and profile copied, but
ingress_lossless_pool is 10 MiB there (the dynamic model shrank it), a
profile pg_lossless_100000_5m_profile (dynamic_th 0, xoff 40960) made by
the dynamic model is bound to PGs 3-4 of ports 0..7 (whose CONFIG_DB
binding has profile "NULL"), and Ethernet4's queues 5-7 are bound to
egress_lossless_profile.

Drops: every queue's SAI_QUEUE_STAT_DROPPED_PACKETS / _BYTES; three drop
counters (CONFIG_DB DEBUG_COUNTER): DEBUG_0 port ingress "RX_LEGIT"
(SMAC_EQUALS_DMAC), DEBUG_1 port egress (EGRESS_VLAN_FILTER and L3_ANY:
no single sFlow code), DEBUG_2 switch ingress "SW_TTL" (TTL).
"""
import json
import os
import socket
import sys

CONFIG_DB, APPL_DB, COUNTERS_DB, ASIC_DB = 4, 0, 2, 1
NPORTS = int(os.environ.get("SONIC_FIXTURE_PORTS", "32"))  # the benchmark: 64
MIB = 1 << 20
POOLS = {  # name: (type, mode, size)
    "ingress_lossless_pool": ("ingress", "dynamic", 12 * MIB),
    "egress_lossless_pool": ("egress", "static", 16 * MIB),
    "egress_lossy_pool": ("egress", "dynamic", 12 * MIB),
}
PROFILES = {  # name: fields
    "egress_lossless_profile": {"pool": "egress_lossless_pool", "size": "0",
                                "static_th": str(1 * MIB)},
    "egress_lossy_profile": {"pool": "egress_lossy_pool", "size": "1518",
                             "dynamic_th": "1"},
    "ingress_lossless_profile": {"pool": "ingress_lossless_pool", "size": "1248",
                                 "xon": "1248", "xoff": "38816", "dynamic_th": "1"},
    "ingress_lossy_profile": {"pool": "ingress_lossless_pool", "size": "0",
                              "dynamic_th": "-1"},
}
CTR = ["IF_IN_OCTETS", "IF_IN_UCAST_PKTS", "IF_IN_MULTICAST_PKTS", "IF_IN_BROADCAST_PKTS",
       "IF_IN_DISCARDS", "IF_IN_ERRORS", "IF_IN_UNKNOWN_PROTOS", "IF_OUT_OCTETS",
       "IF_OUT_UCAST_PKTS", "IF_OUT_MULTICAST_PKTS", "IF_OUT_BROADCAST_PKTS",
       "IF_OUT_DISCARDS", "IF_OUT_ERRORS"]
# the sFlow 0:1 names bsflow-collect prints, in the same order
CTR_SFLOW = ["ifInOctets", "ifInUcastPkts", "ifInMulticastPkts", "ifInBroadcastPkts",
             "ifInDiscards", "ifInErrors", "ifInUnknownProtos", "ifOutOctets",
             "ifOutUcastPkts", "ifOutMulticastPkts", "ifOutBroadcastPkts",
             "ifOutDiscards", "ifOutErrors"]
USER_WM = 777777  # sentinel values in USER_ / PERSISTENT_WATERMARKS
PERSIST_WM = 888888
APPL_POOL_SIZE = {"ingress_lossless_pool": 10 * MIB}  # APPL_DB's, where it differs
DYN_PG_PORTS = 8  # ports 0..7: PGs 3-4 on the dynamic model's profile
DYN_PG_XOFF = 40960
SWITCH_OID = "oid:0x21000000000000"
# drop counters: name: (type, alias, reasons, stat field, sFlow code)
DEBUG_COUNTERS = {
    "DEBUG_0": ("PORT_INGRESS_DROPS", "RX_LEGIT", ["SMAC_EQUALS_DMAC"],
                "SAI_PORT_STAT_IN_CONFIGURED_DROP_REASONS_0_DROPPED_PKTS", 293),
    "DEBUG_1": ("PORT_EGRESS_DROPS", "", ["EGRESS_VLAN_FILTER", "L3_ANY"],
                "SAI_PORT_STAT_OUT_CONFIGURED_DROP_REASONS_0_DROPPED_PKTS", 2**32 - 1),
    "DEBUG_2": ("SWITCH_INGRESS_DROPS", "SW_TTL", ["TTL"],
                "SAI_SWITCH_STAT_IN_CONFIGURED_DROP_REASONS_0_DROPPED_PKTS", 257),
}


def port_name(i):
    return "Ethernet%d" % (4 * i)


def port_oid(i, gen=0):
    return "oid:0x1%02x00000000%04x" % (gen, i + 1)


def queue_oid(i, q, gen=0):
    return "oid:0x15%02x000000%04x%02x" % (gen, i + 1, q)


def pg_oid(i, g, gen=0):
    return "oid:0x1a%02x000000%04x%02x" % (gen, i + 1, g)


def pool_oid(name, gen=0):
    return "oid:0x18%02x00000000%04x" % (gen, sorted(POOLS).index(name) + 1)


# ---- expected values (closed forms of the numbers above) ----

def dyn_alloc(th, pool_size):
    """alpha / (1 + alpha) x pool, alpha = 2^th, rounded down"""
    if th >= 0:
        return pool_size * (1 << th) // ((1 << th) + 1)
    return pool_size // ((1 << -th) + 1)


def pool_size(name):
    """the size in force: APPL_DB's"""
    return APPL_POOL_SIZE.get(name, POOLS[name][2])


def queue_alloc(i, q):
    if q in (3, 4) or (i == 1 and q in (5, 6, 7)):  # APPL_DB: Ethernet4 5-7
        return 1 * MIB
    if q < 8 or i % 2 == 0:
        return dyn_alloc(1, 12 * MIB)  # 8 MiB
    return None


def pg_alloc(i, g):
    """(shared, headroom) allocation, on the 10 MiB ingress pool of APPL_DB"""
    ing = pool_size("ingress_lossless_pool")
    if g in (3, 4) and i < DYN_PG_PORTS:  # the dynamic model's profile
        return dyn_alloc(0, ing), DYN_PG_XOFF
    if g in (3, 4):
        return dyn_alloc(1, ing), 38816
    if g == 0:
        return dyn_alloc(-1, ing), None  # no xoff
    return None, None


def queue_drops(i, q, phase):
    """(packets, bytes) dropped by queue q of port i"""
    p = phase * (i + 1) * (q + 3) + q
    return p, p * 1500 + 64 * q


def dbg_value(name, i, phase):
    """drop counter name's packets: port i's, or the switch's (i None)"""
    if name == "DEBUG_0":
        return (i + 1) * 100 + phase * 7
    if name == "DEBUG_1":
        return (i + 1) * 10 + phase * 3
    return 5000 + phase * 11


def counter(i, k, phase):
    return (i + 1) * 1000003 * (k + 1) + phase * (i + 1) * (k + 7) * 1009


def queue_wm(i, q, phase):
    return (phase + 1) * 65536 * (1 + (i + q) % 4) + q


def pg_wm(i, g, phase):
    return (phase + 1) * 32768 * (1 + (i + g) % 3)


def pg_hr(i, g, phase):
    return (phase + 1) * 4096 + g


def pool_wm(name, phase):
    return (phase + 1) * MIB + sorted(POOLS).index(name) * 4096


def pct(used, alloc):
    if used is None or alloc is None or alloc == 0:
        return -1
    return min(10000, used * 10000 // alloc)


def malformed_queue(i, q):
    """the queues whose watermark is unknown on purpose"""
    return (i, q) in ((2, 1), (3, 2))


# ---- RESP ----

class Redis:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.buf = b""
        self.sent = 0

    def send(self, *args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(a), a))
        self.s.sendall(b"".join(out))
        self.sent += 1

    def _line(self):
        while b"\r\n" not in self.buf:
            d = self.s.recv(65536)
            if not d:
                raise EOFError("redis closed the connection")
            self.buf += d
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def read(self):
        line = self._line()
        t, rest = line[:1], line[1:]
        if t == b"+":
            return rest.decode()
        if t == b"-":
            raise RuntimeError(rest.decode())
        if t == b":":
            return int(rest)
        if t == b"$":
            n = int(rest)
            if n < 0:
                return None
            while len(self.buf) < n + 2:
                self.buf += self.s.recv(65536)
            v, self.buf = self.buf[:n], self.buf[n + 2:]
            return v.decode()
        if t == b"*":
            n = int(rest)
            return None if n < 0 else [self.read() for _ in range(n)]
        raise RuntimeError("bad reply %r" % line)

    def flush(self):
        """read every pending reply"""
        out = [self.read() for _ in range(self.sent)]
        self.sent = 0
        return out

    def cmd(self, *args):
        self.flush()
        self.send(*args)
        return self.flush()[0]

    def hset(self, key, fields):
        args = ["HSET", key]
        for k, v in fields.items():
            args += [k, v]
        self.send(*args)


def load(r, gen=0):
    r.send("SELECT", CONFIG_DB)
    r.send("FLUSHDB")
    for i in range(NPORTS):
        r.hset("PORT|" + port_name(i), {"alias": "etp%d" % (i + 1), "index": i + 1,
                                         "speed": 100000, "admin_status": "up",
                                         "lanes": ",".join(str(4 * i + k) for k in range(4)),
                                         "mtu": 9100})
    r.hset("PORT|Ethernet-IB0", {"index": 99, "speed": 10000, "role": "Inb",
                                 "admin_status": "up"})
    for name, (typ, mode, size) in POOLS.items():
        r.hset("BUFFER_POOL|" + name, {"type": typ, "mode": mode, "size": size})
    for name, f in PROFILES.items():
        f = dict(f)
        # the old reference form on one, the new on the others
        if name == "egress_lossy_profile":
            f["pool"] = "[BUFFER_POOL|%s]" % f["pool"]
        r.hset("BUFFER_PROFILE|" + name, f)
    lossless_even = ",".join(port_name(i) for i in range(16, NPORTS))
    for i in range(16):
        r.hset("BUFFER_QUEUE|%s|3-4" % port_name(i), {"profile": "egress_lossless_profile"})
    # ports 16..31 in one key, with the old reference form
    r.hset("BUFFER_QUEUE|%s|3-4" % lossless_even,
           {"profile": "[BUFFER_PROFILE|egress_lossless_profile]"})
    for i in range(NPORTS):
        n = port_name(i)
        r.hset("BUFFER_QUEUE|%s|0-2" % n, {"profile": "egress_lossy_profile"})
        r.hset("BUFFER_QUEUE|%s|5-7" % n, {"profile": "egress_lossy_profile"})
        if i % 2 == 0:
            r.hset("BUFFER_QUEUE|%s|8-15" % n, {"profile": "egress_lossy_profile"})
        r.hset("BUFFER_PG|%s|3-4" % n, {"profile": "NULL" if i < DYN_PG_PORTS
                                          else "ingress_lossless_profile"})
        r.hset("BUFFER_PG|%s|0" % n, {"profile": "ingress_lossy_profile"})
    for name, (typ, alias, reasons, stat, code) in DEBUG_COUNTERS.items():
        r.hset("DEBUG_COUNTER|" + name, {"type": typ, "alias": alias} if alias else
               {"type": typ})
        for reason in reasons:
            r.hset("DEBUG_COUNTER_DROP_REASON|%s|%s" % (name, reason), {"NULL": "NULL"})

    r.send("SELECT", APPL_DB)
    r.send("FLUSHDB")
    for i in range(NPORTS):
        r.hset("PORT_TABLE:" + port_name(i), {"oper_status": "up" if i % 2 == 0 else "down",
                                              "admin_status": "up"})
    # the buffer manager's tables: keys with ':', references plain or
    # "[BUFFER_*_TABLE:x]"
    for name, (typ, mode, size) in POOLS.items():
        r.hset("BUFFER_POOL_TABLE:" + name, {"type": typ, "mode": mode,
                                             "size": pool_size(name)})
    for name, f in PROFILES.items():
        f = dict(f)
        if name == "ingress_lossy_profile":
            f["pool"] = "[BUFFER_POOL_TABLE:%s]" % f["pool"]
        r.hset("BUFFER_PROFILE_TABLE:" + name, f)
    r.hset("BUFFER_PROFILE_TABLE:pg_lossless_100000_5m_profile",
           {"pool": "ingress_lossless_pool", "xon": "18432", "xoff": str(DYN_PG_XOFF),
            "size": "59392", "dynamic_th": "0"})
    for i in range(DYN_PG_PORTS):
        r.hset("BUFFER_PG_TABLE:%s:3-4" % port_name(i),
               {"profile": "pg_lossless_100000_5m_profile"})
    r.hset("BUFFER_QUEUE_TABLE:%s:5-7" % port_name(1), {"profile": "egress_lossless_profile"})

    r.send("SELECT", ASIC_DB)
    r.send("FLUSHDB")
    r.hset("ASIC_STATE:SAI_OBJECT_TYPE_SWITCH:" + SWITCH_OID,
           {"SAI_SWITCH_ATTR_INIT_SWITCH": "true"})

    r.send("SELECT", COUNTERS_DB)
    r.send("FLUSHDB")
    pm = {port_name(i): port_oid(i, gen) for i in range(NPORTS)}
    pm["Ethernet-IB0"] = "oid:0x1000000000999"
    r.hset("COUNTERS_PORT_NAME_MAP", pm)
    qm, qt, gm = {}, {}, {}
    for i in range(NPORTS):
        for q in range(16):
            qm["%s:%d" % (port_name(i), q)] = queue_oid(i, q, gen)
            qt[queue_oid(i, q, gen)] = ("SAI_QUEUE_TYPE_UNICAST" if q < 8
                                        else "SAI_QUEUE_TYPE_MULTICAST")
        for g in range(8):
            gm["%s:%d" % (port_name(i), g)] = pg_oid(i, g, gen)
    r.hset("COUNTERS_QUEUE_NAME_MAP", qm)
    r.hset("COUNTERS_QUEUE_TYPE_MAP", qt)
    r.hset("COUNTERS_PG_NAME_MAP", gm)
    r.hset("COUNTERS_BUFFER_POOL_NAME_MAP", {p: pool_oid(p, gen) for p in POOLS})
    r.hset("COUNTERS_DEBUG_NAME_PORT_STAT_MAP",
           {n: c[3] for n, c in DEBUG_COUNTERS.items() if c[0].startswith("PORT")})
    r.hset("COUNTERS_DEBUG_NAME_SWITCH_STAT_MAP",
           {n: c[3] for n, c in DEBUG_COUNTERS.items() if c[0].startswith("SWITCH")})
    for oid in watched_oids(gen):
        r.hset("USER_WATERMARKS:" + oid, {"SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": USER_WM})
        r.hset("PERSISTENT_WATERMARKS:" + oid,
               {"SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": PERSIST_WM})
    r.flush()


def watched_oids(gen=0):
    """the objects whose USER_ / PERSISTENT_WATERMARKS the tests watch"""
    return [queue_oid(0, 3, gen), queue_oid(5, 7, gen), pg_oid(1, 3, gen),
            pool_oid("egress_lossy_pool", gen)]


def feed(r, phase, gen=0):
    """one flex-counter poll: COUNTERS:<oid> and PERIODIC_WATERMARKS"""
    r.send("SELECT", COUNTERS_DB)
    for i in range(NPORTS):
        feed_port(r, i, phase, gen)
    for p in POOLS:
        f = {"SAI_BUFFER_POOL_STAT_WATERMARK_BYTES": pool_wm(p, phase)}
        r.hset("COUNTERS:" + pool_oid(p, gen), f)
        r.hset("PERIODIC_WATERMARKS:" + pool_oid(p, gen), f)
    r.hset("COUNTERS:" + SWITCH_OID,
           {c[3]: dbg_value(n, None, phase) for n, c in DEBUG_COUNTERS.items()
            if c[0].startswith("SWITCH")})
    r.flush()


def feed_port(r, i, phase, gen=0):
    """port i's objects (COUNTERS_DB selected)"""
    f = {"SAI_PORT_STAT_" + c: counter(i, k, phase) for k, c in enumerate(CTR)}
    f["SAI_PORT_STAT_DOT3_STATS_FCS_ERRORS"] = counter(i, 20, phase)
    if i == 31:
        f["SAI_PORT_STAT_IF_IN_ERRORS"] = "n/a"
    for name, c in DEBUG_COUNTERS.items():
        if c[0].startswith("PORT"):
            f[c[3]] = dbg_value(name, i, phase)
    r.hset("COUNTERS:" + port_oid(i, gen), f)
    for q in range(16):
        if (i, q) == (3, 2):
            continue  # no counters at all
        wm = "garbage" if (i, q) == (2, 1) else queue_wm(i, q, phase)
        dp, db = queue_drops(i, q, phase)
        r.hset("COUNTERS:" + queue_oid(i, q, gen),
               {"SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": wm,
                "SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES": 0,
                "SAI_QUEUE_STAT_DROPPED_PACKETS": dp,
                "SAI_QUEUE_STAT_DROPPED_BYTES": db})
        r.hset("PERIODIC_WATERMARKS:" + queue_oid(i, q, gen),
               {"SAI_QUEUE_STAT_SHARED_WATERMARK_BYTES": wm})
    for g in range(8):
        f = {"SAI_INGRESS_PRIORITY_GROUP_STAT_SHARED_WATERMARK_BYTES": pg_wm(i, g, phase),
             "SAI_INGRESS_PRIORITY_GROUP_STAT_XOFF_ROOM_WATERMARK_BYTES":
                 pg_hr(i, g, phase)}
        r.hset("COUNTERS:" + pg_oid(i, g, gen), f)
        r.hset("PERIODIC_WATERMARKS:" + pg_oid(i, g, gen), f)


def breakout(r):
    """port 31 leaves, port 32 comes (maps, counters of phase 0)"""
    gone, new = NPORTS - 1, NPORTS
    r.send("SELECT", CONFIG_DB)
    r.send("DEL", "PORT|" + port_name(gone))
    r.hset("PORT|" + port_name(new), {"alias": "etp%d" % (new + 1), "index": new + 1,
                                      "speed": 100000, "admin_status": "up"})
    r.send("SELECT", APPL_DB)
    r.hset("PORT_TABLE:" + port_name(new), {"oper_status": "up", "admin_status": "up"})
    r.send("SELECT", COUNTERS_DB)
    feed_port(r, new, 0)
    r.send("HDEL", "COUNTERS_PORT_NAME_MAP", port_name(gone))
    r.hset("COUNTERS_PORT_NAME_MAP", {port_name(new): port_oid(new)})
    r.hset("COUNTERS_QUEUE_NAME_MAP", {"%s:%d" % (port_name(new), q): queue_oid(new, q)
                                       for q in range(16)})
    r.hset("COUNTERS_QUEUE_TYPE_MAP", {queue_oid(new, q): "SAI_QUEUE_TYPE_UNICAST" if q < 8
                                       else "SAI_QUEUE_TYPE_MULTICAST" for q in range(16)})
    r.hset("COUNTERS_PG_NAME_MAP", {"%s:%d" % (port_name(new), g): pg_oid(new, g)
                                    for g in range(8)})
    r.flush()


def dbconfig(sock):
    return json.dumps({
        "INSTANCES": {"redis": {"hostname": "127.0.0.1", "port": 6379,
                                "unix_socket_path": sock, "persistence_for_warm_boot": "yes"}},
        "DATABASES": {
            "APPL_DB": {"id": APPL_DB, "separator": ":", "instance": "redis"},
            "ASIC_DB": {"id": ASIC_DB, "separator": ":", "instance": "redis"},
            "COUNTERS_DB": {"id": COUNTERS_DB, "separator": ":", "instance": "redis"},
            "CONFIG_DB": {"id": CONFIG_DB, "separator": "|", "instance": "redis"},
            "STATE_DB": {"id": 6, "separator": "|", "instance": "redis"},
        },
        "VERSION": "1.0"}, indent=4)


def config_db_json():
    """CONFIG_DB as SONiC saves it (/etc/sonic/config_db.json): the ports"""
    ports = {port_name(i): {"alias": "etp%d" % (i + 1), "index": str(i + 1),
                            "speed": "100000", "admin_status": "up"} for i in range(NPORTS)}
    ports["Ethernet-IB0"] = {"index": "99", "role": "Inb"}
    return json.dumps({"DEVICE_METADATA": {"localhost": {"hwsku": "test"}}, "PORT": ports},
                      indent=4)


def main():
    cmd, sock = sys.argv[1], sys.argv[2]
    if cmd == "dbconfig":
        print(dbconfig(sock))
        return
    if cmd == "configdb":
        print(config_db_json())
        return
    r = Redis(sock)
    if cmd == "load":
        load(r, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    elif cmd == "feed":
        feed(r, int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    elif cmd == "notify":
        print(r.cmd("CONFIG", "SET", "notify-keyspace-events", sys.argv[3]))
    elif cmd == "breakout":
        breakout(r)
    elif cmd == "get":
        r.cmd("SELECT", sys.argv[3])
        v = r.cmd("HGETALL", sys.argv[4])
        print(json.dumps(dict(zip(v[0::2], v[1::2]))))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
