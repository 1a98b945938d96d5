#!/bin/sh
# collector/tests/output-unchanged.sh - bsflow-collect's text and JSON
# output stays byte for byte what it was before its output layer was
# rewritten for speed (printing straight into the output buffer, keys of
# known length, numbers and addresses formatted by hand).
#
# data/demo-3s.pcap is 3 s of the demo (etc/examples/demo.conf, counters
# every second: standard, Broadcom and bsflowd's own counter records,
# sampled packets with their extended records, drop notifications, and
# bsflowd's visibility event samples); all-structures.pcap holds every
# standard structure (gen-all-structures.py).  The expected outputs
# (demo-3s.txt.gz, demo-3s.json.gz, all-structures.json; the text of
# all-structures is decode-pcap.sh's all-structures.txt) were written by
# bsflow-collect at commit 48b1c92, before the rewrite, with TZ=UTC.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=.}"
COLLECT="$top_builddir/collector/bsflow-collect"
DATA="$top_srcdir/collector/tests/data"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsfc-unchanged.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
TZ=UTC
export TZ
rc=0

command -v gzip >/dev/null 2>&1 || {
	echo "SKIP: gzip not installed"
	exit 77
}

# same NAME EXPECTED OPTIONS...: the output of bsflow-collect OPTIONS must
# equal the file EXPECTED (gzip-compressed if it ends in .gz)
same() {
	name=$1
	expected=$2
	shift 2
	"$COLLECT" --no-summary "$@" >"$TMP/got" 2>"$TMP/err"
	st=$?
	if [ $st -ne 0 ]; then
		echo "FAIL: $name: exit status $st"
		cat "$TMP/err"
		rc=1
		return
	fi
	case $expected in
	*.gz) gzip -dc "$expected" >"$TMP/want" ;;
	*) cp "$expected" "$TMP/want" ;;
	esac
	if cmp -s "$TMP/want" "$TMP/got"; then
		echo "ok: $name ($(wc -c <"$TMP/got") bytes)"
	else
		echo "FAIL: $name: output differs; first differences:"
		diff "$TMP/want" "$TMP/got" | head -n 20
		rc=1
	fi
}

same "demo text" "$DATA/demo-3s.txt.gz" -r "$DATA/demo-3s.pcap"
same "demo JSON" "$DATA/demo-3s.json.gz" -j -r "$DATA/demo-3s.pcap"
same "all structures text" "$DATA/all-structures.txt" -r "$DATA/all-structures.pcap"
same "all structures JSON" "$DATA/all-structures.json" -j -r "$DATA/all-structures.pcap"

# stdout and stderr one stream (as on a terminal): written per datagram,
# not in batches; the capture has no gap to report, so nothing else shows
"$COLLECT" --no-summary -j -r "$DATA/demo-3s.pcap" >"$TMP/one" 2>&1
gzip -dc "$DATA/demo-3s.json.gz" | cmp -s - "$TMP/one" || {
	echo "FAIL: demo JSON written per datagram differs"
	rc=1
}
exit $rc
