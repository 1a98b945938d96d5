#!/bin/sh
# proto/bench/bench-compare.sh - `make bench-compare`: bsflowd's encoder and
# bsflow-collect against the public reference tools, in paired runs.
#   encode  proto/bench/bench_compare.c built against hsflowd's src/sflow
#           library compiled from HSFLOW_SRC (a checkout of
#           github.com/sflow/host-sflow, never copied into this tree)
#   decode  bsflow-collect -j / text against SFLOWTOOL -j / text on the same
#           capture of make demo's configuration (etc/examples/demo.conf:
#           the demo scenario with packet sampling, drop notifications and
#           visibility events): CPU seconds (user + system) of each, in
#           turn, RUNS pairs; the median of the pair ratios
# usage: bench-compare.sh BUILDDIR SRCDIR SFLOWTOOL HSFLOW_SRC [CAPTURE]
# Without SFLOWTOOL or HSFLOW_SRC it says what it needs and exits 0.
#
# SPDX-License-Identifier: BSD-2-Clause
builddir=$1
srcdir=$2
sflowtool=$3
hsflow=$4
capture=$5
runs=${RUNS:-5}
repeat=${REPEAT:-40}

if [ -z "$sflowtool" ] || [ -z "$hsflow" ] || [ ! -x "$sflowtool" ] ||
	[ ! -f "$hsflow/src/sflow/sflow_api.h" ]; then
	cat <<'EOF'
bench-compare: needs the reference tools, built outside this tree:
  make bench-compare SFLOWTOOL=/path/to/sflowtool HSFLOW_SRC=/path/to/host-sflow
  SFLOWTOOL   a built sflowtool (github.com/sflow/sflowtool)
  HSFLOW_SRC  a checkout of hsflowd's source (github.com/sflow/host-sflow);
              its src/sflow library is compiled here at bench time
  CAPTURE     optional: a pcap of sFlow datagrams to decode (default: make
              demo's configuration recorded for DEMO_SECONDS, 20)
nothing run.
EOF
	exit 0
fi
command -v python3 >/dev/null 2>&1 || {
	echo "bench-compare: python3 is needed for the paired decode runs" >&2
	exit 1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bsfcmp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
CC=${CC:-cc}

# ---- encode
lib="$hsflow/src/sflow"
echo "== encode (hsflowd library from $hsflow)"
# shellcheck disable=SC2086 # CFLAGS is a list of words
$CC -O2 -std=gnu11 -D_GNU_SOURCE -DSTDC_HEADERS -DSFL_USE_32BIT_INDEX -w \
	-I"$srcdir" -I"$builddir" -I"$lib" -o "$tmp/bench_compare" \
	"$srcdir/proto/bench/bench_compare.c" "$lib/sflow_agent.c" \
	"$lib/sflow_sampler.c" "$lib/sflow_poller.c" "$lib/sflow_notifier.c" \
	"$lib/sflow_receiver.c" "$lib/sflow_xdr.c" "$builddir/proto/libsflow.a" ||
	exit 1
"$tmp/bench_compare" || exit 1

# ---- decode
if [ -z "$capture" ]; then
	capture="$tmp/demo.pcap"
	echo "== recording the demo scenario for ${DEMO_SECONDS:-20} s"
	python3 "$srcdir/proto/bench/record-udp.py" "$tmp/port" "$capture" &
	rpid=$!
	i=0
	while [ ! -s "$tmp/port" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	port=$(cat "$tmp/port" 2>/dev/null)
	[ -n "$port" ] || {
		echo "bench-compare: the recorder did not start" >&2
		exit 1
	}
	# make demo's configuration (sampling, drops, visibility events),
	# sending to the recorder
	sed "s/^\tport = 6343\$/\tport = $port/" "$srcdir/etc/examples/demo.conf" \
		>"$tmp/demo.conf"
	grep -q "^	port = $port\$" "$tmp/demo.conf" || {
		echo "bench-compare: etc/examples/demo.conf has no 'port = 6343' line" >&2
		kill "$rpid"
		exit 1
	}
	"$builddir/agent/bsflowd" -d -f "$tmp/demo.conf" \
		--run-for "${DEMO_SECONDS:-20}" 2>"$tmp/bsflowd.log" || {
		echo "bench-compare: bsflowd failed:" >&2
		tail -n 5 "$tmp/bsflowd.log" >&2
		kill "$rpid"
		exit 1
	}
	sleep 0.3
	kill -INT "$rpid"
	wait "$rpid"
fi
python3 - "$builddir/collector/bsflow-collect" "$sflowtool" "$capture" "$runs" \
	"$repeat" "$tmp" <<'EOF'
import os, resource, struct, subprocess, sys
collect, sflowtool, capture, runs, repeat, tmp = sys.argv[1:7]
runs, repeat = int(runs), int(repeat)
# the capture repeated, so each run decodes long enough to be timed
data = open(capture, 'rb').read()
big = os.path.join(tmp, 'big.pcap')
with open(big, 'wb') as f:
    f.write(data[:24])
    for _ in range(repeat):
        f.write(data[24:])
n, off = 0, 24
while off + 16 <= len(data):
    n += 1
    off += 16 + struct.unpack('<I', data[off + 8:off + 12])[0]
n *= repeat
def cpu(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.devnull, 'wb') as null:
        subprocess.run(argv, stdout=null, stderr=null, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
def med(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2
print('== decode %d datagrams (%s repeated %d times), median of %d pairs' %
      (n, os.path.basename(capture), repeat, runs))
for name, a, b in (('JSON', [collect, '-j', '--no-summary', '-r', big], [sflowtool, '-j', '-r', big]),
                   ('text', [collect, '--no-summary', '-r', big], [sflowtool, '-r', big]),
                   ('decode only (-q)', [collect, '-q', '--no-summary', '-r', big], None)):
    ta, tb, r = [], [], []
    cpu(a)
    if b:
        cpu(b)
    for _ in range(runs):
        ta.append(cpu(a))
        if b:
            tb.append(cpu(b))
            r.append(tb[-1] / ta[-1])
    line = '  %-17s bsflow-collect %8.0f datagrams/s' % (name, n / med(ta))
    if b:
        line += ', sflowtool %8.0f datagrams/s, ratio %.2f (min %.2f, max %.2f)' % (
            n / med(tb), med(r), min(r), max(r))
    print(line)
EOF
