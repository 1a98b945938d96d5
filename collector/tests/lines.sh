#!/bin/sh
# collector/tests/lines.sh - bsflow-collect's sflowtool habits on
# collector/tests/data/all-structures.pcap, whose values are those written
# by gen-all-structures.py (not by bsflow-collect):
#  - -l: the CSV lines of a drop (no_buffer_space, in 1, out 3, frame 78),
#    of a 4413:2 record (1500 and 2500 hundredths, queue 0 at 10000), of a
#    transit delay (12345 ns) and a queue depth (65536 bytes);
#  - -g: every line starts with the agent, data source and sample type;
#  - --type, --reason, --agent, --source keep only matching samples;
#  - -w - writes the same pcap as -w FILE and nothing else to stdout;
#  - -W (--write-drops) puts the dropped packet (74 bytes) in its own
#    file, pcapng, with the drop's reason and where in its comment (read
#    back by this script's pcapng parser and by tshark's frame.comment);
#    strings from the wire that are not UTF-8 text (Latin-1 bytes, NUL,
#    control bytes) come out in the comment valid UTF-8 and whole;
#  - -f HOST/PORT forwards every datagram (a second bsflow-collect counts
#    them);
#  - -W to a file that cannot be made or written: exit 1, named;
#  - usage errors exit 64 (-W - with another output on stdout, -w and -W
#    naming one file).
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
PCAP="$top_srcdir/collector/tests/data/all-structures.pcap"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsfc-lines.XXXXXX") || exit 1
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$TMP"' EXIT
rc=0
fail() {
	echo "FAIL: $*"
	rc=1
}
want_line() { # FILE LINE
	if grep -qxF "$2" "$1"; then echo "ok: $2"; else fail "missing line '$2'"; fi
}

"$COLLECT" -l -r "$PCAP" --no-summary >"$TMP/l.txt" || fail "-l exit $?"
want_line "$TMP/l.txt" "DROP,192.0.2.1,0:3,no_buffer_space,1,3,78"
grep -q '^CNTR,192\.0\.2\.1,0:3,,,,,,1500,2500,10000;' "$TMP/l.txt" &&
	echo "ok: CNTR line with the 4413:2 values" || fail "no CNTR line with 1500,2500,10000"
want_line "$TMP/l.txt" "FLOW,192.0.2.1,0:3,400,1,3,,,,12345"
want_line "$TMP/l.txt" "FLOW,192.0.2.1,0:3,400,1,3,,,65536,"

"$COLLECT" -g -r "$PCAP" --no-summary >"$TMP/g.txt" || fail "-g exit $?"
n=$(grep -cv '^\(192\.0\.2\.1\|2001:db8::1\) \(-\|[0-9]*:[0-9]*\) [A-Z_]* ' "$TMP/g.txt")
[ "$n" = 0 ] && [ -s "$TMP/g.txt" ] && echo "ok: -g: every line prefixed" ||
	fail "-g: $n lines without the agent/source/type prefix"
grep -q '^192\.0\.2\.1 0:3 FLOWSAMPLE sourceId 0:3$' "$TMP/g.txt" &&
	echo "ok: -g sourceId line" || fail "-g: no '192.0.2.1 0:3 FLOWSAMPLE sourceId 0:3'"

out=$("$COLLECT" -l -r "$PCAP" --no-summary --type drop | cut -d, -f1 | sort -u)
[ "$out" = DROP ] && echo "ok: --type drop" || fail "--type drop: $out"
out=$("$COLLECT" -l -r "$PCAP" --no-summary --reason no_buffer_space)
[ "$out" = "DROP,192.0.2.1,0:3,no_buffer_space,1,3,78" ] && echo "ok: --reason" ||
	fail "--reason no_buffer_space: $out"
out=$("$COLLECT" -l -r "$PCAP" --no-summary --agent 2001:db8::1 | cut -d, -f2 | sort -u)
[ "$out" = "2001:db8::1" ] && echo "ok: --agent" || fail "--agent: $out"
out=$("$COLLECT" -l -r "$PCAP" --no-summary --source 2:1 --source 0:5 | cut -d, -f3 | sort -u |
	tr '\n' ' ')
[ "$out" = "0:5 2:1 " ] && echo "ok: --source twice" || fail "--source 2:1 --source 0:5: $out"

"$COLLECT" -w "$TMP/w.pcap" -q -r "$PCAP" --no-summary || fail "-w FILE exit $?"
"$COLLECT" -w - -r "$PCAP" --no-summary >"$TMP/stdout.pcap" 2>"$TMP/w.err" || fail "-w - exit $?"
cmp -s "$TMP/w.pcap" "$TMP/stdout.pcap" && echo "ok: -w - is the pcap alone" ||
	fail "-w - differs from -w FILE"

# The packets of a -w pcap (argument 1) and of a -W pcapng (argument 2),
# read back: "PCAP_PACKETS", "PCAPNG_PACKETS ORIG_LEN TIME_NS" of the
# first, then its comment, which must be valid UTF-8 (pcapng's rule).
cat >"$TMP/readback.py" <<'EOP'
import struct, sys
d = open(sys.argv[1], "rb").read()
i, n = 24, 0
while i < len(d):
    incl, orig = struct.unpack("<II", d[i + 8:i + 16])
    n += 1
    i += 16 + incl
print(n)
# pcapng: section header, interface (Ethernet, if_tsresol 9), packets
d = open(sys.argv[2], "rb").read()
i, pk = 0, []
while i < len(d):
    t, L = struct.unpack("<II", d[i:i + 8])
    assert L % 4 == 0 and struct.unpack("<I", d[i + L - 4:i + L])[0] == L
    if i == 0:
        assert t == 0x0A0D0D0A and struct.unpack("<I", d[8:12])[0] == 0x1A2B3C4D
    elif t == 1:
        assert struct.unpack("<H", d[i + 8:i + 10])[0] == 1
        assert b"\x09\x00\x01\x00\x09" in d[i + 16:i + L]
    elif t == 6:
        hi, lo, cap, orig = struct.unpack("<IIII", d[i + 12:i + 28])
        o = i + 28 + (cap + 3) // 4 * 4
        com = ""
        while o < i + L - 4:
            code, ln = struct.unpack("<HH", d[o:o + 4])
            if code == 1:
                com = d[o + 4:o + 4 + ln].decode("utf-8")
            if code == 0:
                break
            o += 4 + (ln + 3) // 4 * 4
        pk.append((orig, (hi << 32 | lo), com))
    i += L
print(len(pk), pk[0][0], pk[0][1])
sys.stdout.buffer.write(pk[0][2].encode("utf-8") + b"\n")
EOP

# -W: the drop's packet (frame 78 bytes less 4 stripped = 74) apart, in
# pcapng with its comment (gen-all-structures.py's drop: no_buffer_space,
# agent 192.0.2.1, input 1, output 3, function mmu_drop, at
# 1700000001.000000000 from its 0:1043); -w keeps the two sampled packets
"$COLLECT" -q -r "$PCAP" --no-summary -w "$TMP/f.pcap" -W "$TMP/d.pcapng" ||
	fail "-W exit $?"
want='drop reason no_buffer_space (259); agent 192.0.2.1; input 1; output 3; function mmu_drop'
out=$(python3 "$TMP/readback.py" "$TMP/f.pcap" "$TMP/d.pcapng")
[ "$(echo "$out" | head -n 2 | tr '\n' ' ')" = "2 1 74 1700000001000000000 " ] &&
	[ "$(echo "$out" | sed -n 3p)" = "$want" ] &&
	echo "ok: -W: 2 sampled packets in -w, the 74-byte drop apart, pcapng, its comment" ||
	fail "-W: $out"
if command -v tshark >/dev/null 2>&1; then
	c=$(tshark -r "$TMP/d.pcapng" -T fields -e frame.len -e frame.comment 2>/dev/null)
	[ "$c" = "$(printf '74\t%s' "$want")" ] && echo "ok: -W: tshark reads the comment" ||
		fail "-W: tshark: '$c'"
	"$COLLECT" -r "$PCAP" -W - | tshark -r - -T fields -e frame.comment >"$TMP/c" 2>/dev/null
	[ "$(cat "$TMP/c")" = "$want" ] && echo "ok: -W - | tshark -r -" || fail "-W -: $(cat "$TMP/c")"
else
	echo "tshark not installed: -W not read by tshark"
fi

# -W with wire strings that are not UTF-8 text: a drop (datagram 3's, at
# 1700000002 from its capture) whose 0:1038 function is "caf", Latin-1
# e-acute (0xe9), NUL, '"', '\', newline, "end"; whose 0:1041 trap group
# is "l2" and 0x01, its trap name 0xff (Latin-1 y-diaeresis) and DEL
# (0x7f); whose 0:1042 reason is "SKB", NUL, "DROP".  The comment is valid
# UTF-8 and whole: 0x80 and up as the Latin-1 character (U+00E9 is c3 a9,
# U+00FF c3 bf), the rest escaped as in the JSON output.
python3 - "$top_srcdir/collector/tests/gen-all-structures.py" "$TMP/wire.pcap" <<'EOP'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("gen", sys.argv[1])
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)
recs = [g.rec_header(78, 4, g.PKT_TCP6),
        g.tlv(g.tag(0, 1038), g.opaque(b'caf\xe9\x00"\\\nend')),
        g.tlv(g.tag(0, 1041), g.opaque(b'l2\x01') + g.opaque(b'\xff\x7f')),
        g.tlv(g.tag(0, 1042), g.opaque(b'SKB\x00DROP'))]
body = (g.u32(1) + g.u32(0) + g.u32(3) +  # seq 1, source 0:3
        g.u32(0) + g.u32(1) + g.u32(3) + g.u32(259) +  # drops, in, out, reason
        g.u32(len(recs)) + b''.join(recs))
dg = (g.u32(5) + g.u32(1) + g.AGENT4 + g.u32(0) + g.u32(3) + g.u32(3000) +
      g.u32(1) + g.tlv(g.tag(0, 5), body))
frame = g.eth(0x0800, g.udp4('10.0.0.1', '10.0.0.2', 50000, 6343, dg))
g.write_pcap(sys.argv[2], 1, [((1700000002, 0), frame)])
EOP
"$COLLECT" -q -r "$TMP/wire.pcap" --no-summary -w "$TMP/wf.pcap" -W "$TMP/w.pcapng" ||
	fail "-W (wire strings) exit $?"
want=$(printf 'drop reason no_buffer_space (259); agent 192.0.2.1; input 1; output 3; function caf\303\251\\u0000\\"\\\\\\nend; trap l2\\u0001/\303\277\\u007f; reason SKB\\u0000DROP')
out=$(python3 "$TMP/readback.py" "$TMP/wf.pcap" "$TMP/w.pcapng" 2>&1)
# (printf, not echo: sh's echo would read the backslashes)
[ "$(printf '%s\n' "$out" | head -n 2 | tr '\n' ' ')" = "0 1 74 1700000002000000000 " ] &&
	[ "$(printf '%s\n' "$out" | sed -n 3p)" = "$want" ] &&
	echo "ok: -W: wire strings in the comment as valid UTF-8, whole" ||
	fail "-W (wire strings): '$out', wanted '$want'"
if command -v tshark >/dev/null 2>&1; then
	c=$(tshark -r "$TMP/w.pcapng" -T fields -e frame.comment 2>/dev/null)
	[ "$c" = "$want" ] && echo "ok: -W: tshark reads that comment whole" ||
		fail "-W (wire strings): tshark: '$c', wanted '$want'"
fi

# -W to a file that cannot be made, or written
for w in "$TMP/no/such/dir/d.pcapng" /dev/full; do
	"$COLLECT" -q -r "$PCAP" --no-summary -W "$w" >/dev/null 2>"$TMP/err"
	st=$?
	[ $st = 1 ] && grep -q "^bsflow-collect: -W $w: " "$TMP/err" && echo "ok: -W $w: exit 1, named" ||
		fail "-W $w: exit $st: $(cat "$TMP/err")"
done

# -f: forward to a second collector
"$COLLECT" -p 0 -b 127.0.0.1 -t 30 -j >"$TMP/fwd.out" 2>"$TMP/fwd.err" &
pid=$!
port=
for i in $(seq 50); do
	port=$(sed -n 's/.*listening on udp .* port \([0-9]*\)$/\1/p' "$TMP/fwd.err")
	[ -n "$port" ] && break
	sleep 0.1
done
sent=$("$COLLECT" -j -r "$PCAP" --no-summary -f "127.0.0.1/$port" -f "127.0.0.1/$port" | wc -l)
for i in $(seq 50); do
	[ "$(wc -l <"$TMP/fwd.out")" -ge $((2 * sent)) ] && break
	sleep 0.1
done
kill $pid
wait $pid
pid=
got=$(wc -l <"$TMP/fwd.out")
[ "$sent" -gt 0 ] && [ "$got" = $((2 * sent)) ] && echo "ok: -f twice: $got of 2 x $sent" ||
	fail "-f: received $got, wanted 2 x $sent"

for args in "-f nohost" "--type foo" "--source 3" "--reason not_a_reason" "-w - -j" "-l -j" \
	"-W - -j" "-W - -w -" "-W - --table" "-w $TMP/same.pcap -W $TMP/same.pcap"; do
	# shellcheck disable=SC2086
	"$COLLECT" $args -r "$PCAP" >/dev/null 2>&1
	st=$?
	[ $st = 64 ] && echo "ok: '$args': exit 64" || fail "'$args': exit $st, wanted 64"
done
exit $rc
