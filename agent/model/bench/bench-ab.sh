#!/bin/sh
# bench-ab.sh - make bench-ab: build bench_ab.c with two builds of the
# switch model, the other build's (BASE, side A) and this one's (side B,
# its library's symbols renamed B_... with objcopy so that both link into
# one program), and run it.  Each side is compiled against its own
# build's headers (config.h, and the source tree its Makefile names), but
# the side's code is this tree's: BASE must offer the same public model
# API (model.h, scenario.h, traffic.h), as a build of any commit that
# changed only the engine does.
# Usage: bench-ab.sh BASE_BUILD_DIR THIS_BUILD_DIR [bench_ab arguments]
# Environment: CC, CFLAGS, LIBS (the libraries libmodel.a needs), NM,
# OBJCOPY.
#
# SPDX-License-Identifier: BSD-2-Clause
set -e
if [ $# -lt 2 ]; then
	echo "usage: bench-ab.sh BASE_BUILD_DIR THIS_BUILD_DIR [RUNS [VIRTUAL_MS [CHUNK_US]]]" >&2
	exit 2
fi
base=$1
this=$2
shift 2
: "${CC:=cc}" "${NM:=nm}" "${OBJCOPY:=objcopy}"
srcdir_of() {
	sed -n 's/^abs_top_srcdir = //p' "$1/Makefile"
}
for d in "$base" "$this"; do
	if [ ! -f "$d/Makefile" ] || [ ! -f "$d/agent/model/libmodel.a" ] || [ -z "$(srcdir_of "$d")" ]; then
		echo "bench-ab: $d: not a configured bsflowd build directory with agent/model/libmodel.a (run make there first)" >&2
		exit 2
	fi
done
base_src=$(srcdir_of "$base")
this_src=$(srcdir_of "$this")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-ab.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# (NM may carry options, as libtool's "nm -B")
$NM -g --defined-only "$this/agent/model/libmodel.a" >"$tmp/nm"
awk 'NF == 3 { print $3 }' "$tmp/nm" | sort -u >"$tmp/syms"
if ! grep -qx model_run "$tmp/syms"; then
	# without the renaming both sides would run one of the two engines
	echo "bench-ab: $NM found no model_run in $this/agent/model/libmodel.a" >&2
	exit 1
fi
awk '{ print $1, "B_" $1 }' "$tmp/syms" >"$tmp/redefine"
awk '{ print "#define", $1, "B_" $1 }' "$tmp/syms" >"$tmp/rename.h"
"$OBJCOPY" --redefine-syms="$tmp/redefine" "$this/agent/model/libmodel.a" "$tmp/libmodel_b.a"
ab=$this_src/agent/model/bench
# shellcheck disable=SC2086 # CFLAGS and LIBS are lists
{
	$CC $CFLAGS -std=c11 -DSIDE=A -I"$base" -I"$base_src" -c "$ab/bench_ab_side.c" -o "$tmp/side_a.o"
	$CC $CFLAGS -std=c11 -DSIDE=B -include "$tmp/rename.h" -I"$this" -I"$this_src" \
		-c "$ab/bench_ab_side.c" -o "$tmp/side_b.o"
	$CC $CFLAGS -std=c11 -I"$this" -I"$this_src" -c "$ab/bench_ab.c" -o "$tmp/bench_ab.o"
	$CC $CFLAGS -o "$tmp/bench_ab" "$tmp/bench_ab.o" "$tmp/side_a.o" "$tmp/side_b.o" \
		"$base/agent/model/libmodel.a" "$tmp/libmodel_b.a" $LIBS
}
echo "A: $base (sources $base_src)"
echo "B: $this (sources $this_src)"
"$tmp/bench_ab" "$@"
