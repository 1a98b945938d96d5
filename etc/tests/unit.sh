#!/bin/sh
# etc/tests/unit.sh - the systemd unit as built (etc/bsflowd.service):
#  - it runs bsflowd with -f and the configured configuration path, checks
#    the file with -t before starting and before a reload, is Type=notify
#    with a watchdog, and runs as the user bsflowd;
#  - `systemd-analyze verify` accepts it alone, with each of the linux
#    backend's drop-ins and with the sonic backend's (etc/systemd/*.conf);
#  - `systemd-analyze security --offline=yes` rates each, printed; the unit
#    alone (the model backend) must rate 2.5 ("OK") or better.
# The unit's programs are pointed at this build's bsflowd (verify checks
# that they exist) and its man pages at man/out/.  Skips (77) without
# systemd-analyze (apt-get install systemd).
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
SA=$(command -v systemd-analyze)
if [ -z "$SA" ]; then
	echo "SKIP: systemd-analyze not installed (apt-get install systemd)"
	exit 77
fi
unit="$top_builddir/etc/bsflowd.service"
[ -f "$unit" ] || {
	echo "FAIL: $unit not built"
	exit 1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bsfunit.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() {
	echo "FAIL: $*"
	fail=1
}

# what the unit says, from the Makefile's configured paths
conf=$(sed -n 's/^ExecStart=[^ ]*bsflowd -f \([^ ]*\) .*/\1/p' "$unit")
case $conf in
*/bsflowd.conf) echo "ok: ExecStart reads $conf" ;;
*) bad "ExecStart does not pass -f .../bsflowd.conf: $(grep ^ExecStart= "$unit")" ;;
esac
for want in "Type=notify" "WatchdogSec=" "User=bsflowd" \
	"ExecStartPre=.*bsflowd -t -f $conf" "ExecReload=.*bsflowd -t -f $conf" \
	'ExecReload=/bin/kill -HUP \$MAINPID' "EnvironmentFile=-/etc/default/bsflowd" \
	"CapabilityBoundingSet=$"; do
	if grep -q "^$want" "$unit"; then echo "ok: $want"; else bad "no line $want"; fi
done

# the man pages the unit's Documentation= names, where man finds them
mkdir -p "$tmp/man/man5" "$tmp/man/man8"
cp "$top_builddir/man/out/bsflowd.8" "$tmp/man/man8/" 2>/dev/null
cp "$top_builddir/man/out/bsflowd.conf.5" "$tmp/man/man5/" 2>/dev/null
MANPATH="$tmp/man"
export MANPATH
manopt=
if ! command -v man >/dev/null 2>&1; then
	echo "note: man is not installed: Documentation= not checked"
	manopt=--man=no
fi

# analyze the unit, then the unit with each drop-in (after linux.conf, as
# documented); the drop-ins' settings are appended as a drop-in would be
analyze() { # name, drop-in files...
	name=$1
	shift
	d="$tmp/$name"
	mkdir -p "$d"
	sed -E "s#^(Exec[A-Za-z]*=)[^ ]*/bsflowd #\\1$top_builddir/agent/bsflowd #" "$unit" >"$d/bsflowd.service"
	for f in "$@"; do
		cat "$top_srcdir/etc/systemd/$f" >>"$d/bsflowd.service"
	done
	if out=$(cd "$d" && "$SA" verify $manopt ./bsflowd.service 2>&1) && [ -z "$out" ]; then
		echo "ok: systemd-analyze verify: $name"
	else
		bad "systemd-analyze verify: $name: $out"
	fi
	score=$(cd "$d" && "$SA" security --offline=yes ./bsflowd.service 2>&1 |
		sed -n 's/.*Overall exposure level for bsflowd.service: \([0-9.]*\).*/\1/p')
	if [ -z "$score" ]; then
		bad "systemd-analyze security: $name: no score"
		score=99
	fi
	echo "exposure: $name: $score"
}

analyze model
model=$score
if awk -v s="$model" 'BEGIN { exit !(s <= 2.5) }'; then
	echo "ok: the unit alone (model backend) rates $model <= 2.5"
else
	bad "the unit alone (model backend) rates $model, above 2.5"
fi
analyze linux linux.conf
analyze linux+dropmon linux.conf linux-dropmon.conf
analyze linux+tracepoint linux.conf linux-tracepoint.conf
analyze linux+bpf linux.conf linux-bpf.conf
analyze linux+all linux.conf linux-dropmon.conf linux-tracepoint.conf linux-bpf.conf
analyze sonic sonic.conf
# the sonic drop-in gives the socket's group and nothing more
for want in "SupplementaryGroups=redis" "PrivateUsers=no"; do
	grep -q "^$want$" "$top_srcdir/etc/systemd/sonic.conf" || bad "sonic.conf: no line $want"
done
if grep -q "^\(Capability\|Ambient\|Restrict\|ReadWrite\|DeviceAllow\)" \
	"$top_srcdir/etc/systemd/sonic.conf"; then
	bad "sonic.conf grants more than the socket's group"
fi
exit $fail
