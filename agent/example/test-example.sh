#!/bin/sh
# agent/example/test-example.sh - the example backend plugin end to end,
# built the way a vendor builds one: the header and bsflowd-backend.pc are
# installed with `make install-pkgincludeHEADERS install-pkgconfigDATA
# DESTDIR=...`, the plugin is compiled out of the tree with the flags
# `pkg-config --cflags bsflowd-backend` gives (-std=c11 -pedantic, all
# warnings errors), then bsflowd loads it and bsflow-collect receives:
#   - bsflowd -t prints the plugin's check report;
#   - counters samples of its two ports (ifIndex 101, 102) with what the
#     example reports: ifSpeed 10G, 1 Gb/s of octets each way (so more
#     than 0 after a poll), 0:2 with dot3StatsFCSErrors 7 (at most 10 s
#     in) and the half-duplex counters unknown (all ones), the port names;
#   - drop notifications (0:5) from its event thread, pushed every 100 ms,
#     with reason 259 and 0:1038 "example_drop";
#   - a bad option is refused by -t with FILE:LINE.
#
# SPDX-License-Identifier: BSD-2-Clause
. "$top_srcdir/tests/e2e-lib.sh"
e2e_init example
command -v pkg-config >/dev/null 2>&1 || e2e_skip "pkg-config not installed"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || e2e_skip "no C compiler ($CC)"

# install the header and the .pc file only
inst="$TMP/inst"
env -u MAKEFLAGS -u MFLAGS ${MAKE:-make} -s -C "$top_builddir" \
	install-pkgincludeHEADERS install-pkgconfigDATA DESTDIR="$inst" >"$TMP/install.log" 2>&1 || {
	cat "$TMP/install.log"
	fail "make install of the header and the .pc file failed"
	exit 1
}
pc=$(find "$inst" -name bsflowd-backend.pc | head -n 1)
[ -n "$pc" ] || {
	fail "bsflowd-backend.pc not installed"
	exit 1
}
cflags=$(PKG_CONFIG_LIBDIR=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR="$inst" \
	pkg-config --cflags bsflowd-backend) || fail "pkg-config --cflags bsflowd-backend failed"
abi=$(PKG_CONFIG_LIBDIR=$(dirname "$pc") pkg-config --variable=abi_version bsflowd-backend)
[ "$abi" = 3 ] || fail "bsflowd-backend.pc: abi_version '$abi', not 3"
# the example is built from a copy, away from the tree's headers
mkdir "$TMP/src"
cp "$top_srcdir/agent/example/backend_example.c" "$TMP/src/"
# shellcheck disable=SC2086
(cd "$TMP/src" && "$CC" -std=c11 -pedantic -Wall -Wextra -Werror -Wno-unused-parameter \
	$cflags -shared -fPIC -o "$TMP/backend_example.so" backend_example.c -lpthread) \
	>"$TMP/cc.log" 2>&1 || {
	cat "$TMP/cc.log"
	fail "the example does not build against the installed header ($cflags)"
	exit 1
}

e2e_collect col -j -b 127.0.0.1
E2E_MODEL="backend = \"$TMP/backend_example.so\"
plugin {
	option = {\"drop_interval_ms=100\"}
}"
e2e_conf "$TMP/ex.conf" "127.0.0.1:$cport"
"$BSFLOWD" -t -f "$TMP/ex.conf" >"$TMP/t.out" 2>&1 || fail "bsflowd -t refused the example"
grep -q "backend example: 2 ports, a drop event every 100 ms" "$TMP/t.out" ||
	fail "bsflowd -t: no check report: $(cat "$TMP/t.out")"
e2e_daemon ex "$TMP/ex.conf" 60
e2e_until ex "$TMP/col.out" 102 ifInOctets 1 30 1
e2e_stop "$cpid"

python3 - "$TMP/col.out" <<'PYEOF' || rc=1
import json, sys
ports, drops, bad = {}, 0, []
for line in open(sys.argv[1]):
    if not line.strip():
        continue
    for s in json.loads(line).get("samples", []):
        tag = s.get("sampleType_tag")
        els = s.get("elements", [])
        if tag == "0:4":
            g = next((e for e in els if e.get("counterBlock_tag") == "0:1"), None)
            if g is None:
                continue
            eth = next((e for e in els if e.get("counterBlock_tag") == "0:2"), {})
            name = next((e.get("ifName") for e in els if "ifName" in e), None)
            ports.setdefault(g["ifIndex"], []).append((g, eth, name))
        elif tag == "0:5":
            drops += 1
            syms = [v for e in els for k, v in e.items() if k.endswith("symbol")]
            if syms != ["example_drop"]:
                bad.append("0:5 function records %r, not ['example_drop']" % syms)
            reason = s.get("discardCode")
            if reason not in (259, "259"):
                bad.append("0:5 reason %r, not 259" % reason)
for ifx, name in ((101, "ex0"), (102, "ex1")):
    if ifx not in ports:
        bad.append("no counters of ifIndex %d" % ifx)
        continue
    g, eth, nm = ports[ifx][-1]
    if g.get("ifSpeed") != 10000000000:
        bad.append("ifIndex %d: ifSpeed %r" % (ifx, g.get("ifSpeed")))
    if not g.get("ifInOctets", 0) > 0 or g.get("ifInOctets") != g.get("ifOutOctets"):
        bad.append("ifIndex %d: octets in %r out %r" % (ifx, g.get("ifInOctets"), g.get("ifOutOctets")))
    if eth.get("dot3StatsFCSErrors") != 7:
        bad.append("ifIndex %d: dot3StatsFCSErrors %r, not 7" % (ifx, eth.get("dot3StatsFCSErrors")))
    if eth.get("dot3StatsLateCollisions") != 4294967295:
        bad.append("ifIndex %d: dot3StatsLateCollisions %r, not unknown" % (ifx, eth.get("dot3StatsLateCollisions")))
    if nm != name:
        bad.append("ifIndex %d: name %r, not %r" % (ifx, nm, name))
if drops < 3:
    bad.append("only %d drop notifications" % drops)
for b in bad:
    print("FAIL: " + b)
print("example: counters of %s, %d drop notifications" % (sorted(ports), drops))
sys.exit(1 if bad else 0)
PYEOF

# a bad option: refused by -t, FILE:LINE of the plugin section
E2E_MODEL="backend = \"$TMP/backend_example.so\"
plugin {
	option = {\"drop_interval_ms=fast\"}
}"
e2e_conf "$TMP/bad.conf" "127.0.0.1:9"
if "$BSFLOWD" -t -f "$TMP/bad.conf" >"$TMP/bad.out" 2>&1; then
	fail "bsflowd -t accepted drop_interval_ms=fast"
fi
line=$(grep -n '^plugin {' "$TMP/bad.conf" | cut -d: -f1)
grep -q "^$TMP/bad.conf:$line: example: drop_interval_ms = fast: not a number" "$TMP/bad.out" ||
	fail "bad option: $(cat "$TMP/bad.out")"
e2e_finish
