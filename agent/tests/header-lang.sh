#!/bin/sh
# agent/tests/header-lang.sh - the installed backend header compiles on
# its own in the languages and modes a vendor may use: as C++ (g++ or
# another C++ compiler found by configure, -std=c++11 -pedantic, warnings
# as errors: the extern "C" block, no C-only constructs) and as strict ISO
# C with clang (-std=c11 -pedantic: no GNU extensions besides the guarded
# format attribute).  Each compiler missing is said; both missing: SKIP.
#
# SPDX-License-Identifier: BSD-2-Clause
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bsf-hdr.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/bsflowd"
cp "$top_srcdir/agent/backend.h" "$TMP/bsflowd/"
cat >"$TMP/use.c" <<'CEOF'
#include <bsflowd/backend.h>

/* every helper used, so that nothing is left unchecked */
int bsf_header_use(void);

int bsf_header_use(void)
{
	struct bsf_event ev[2];
	struct bsf_if_counters c;
	struct bsf_eth_counters e;
	struct bsf_port_buffers pb;
	struct bsf_device_buffers db;
	struct bsf_port_delays pd;

	bsf_event_init(&ev[0]);
	bsf_event_init(&ev[1]);
	bsf_event_copy(bsf_event_slot(ev, 1), &ev[0]);
	bsf_if_counters_init(&c);
	bsf_eth_counters_init(&e);
	bsf_port_buffers_init(&pb);
	bsf_device_buffers_init(&db);
	bsf_port_delays_init(&pd);
	return (int)BSF_FITS(&e, struct bsf_eth_counters, symbol_errors) +
	       (int)BSF_BACKEND_ABI_VERSION;
}
CEOF
ran=0
rc=0
if [ -n "$BSF_CXX" ]; then
	cp "$TMP/use.c" "$TMP/use.cc"
	if "$BSF_CXX" -std=c++11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$TMP" \
		"$TMP/use.cc" >"$TMP/cxx.log" 2>&1; then
		echo "ok: backend.h as C++ ($BSF_CXX -std=c++11 -pedantic)"
	else
		echo "FAIL: backend.h as C++ ($BSF_CXX):"
		cat "$TMP/cxx.log"
		rc=1
	fi
	ran=1
else
	echo "no C++ compiler: backend.h not checked as C++"
fi
if [ -n "$BSF_CLANG" ]; then
	if "$BSF_CLANG" -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$TMP" \
		"$TMP/use.c" >"$TMP/clang.log" 2>&1; then
		echo "ok: backend.h as ISO C11 ($BSF_CLANG -std=c11 -pedantic)"
	else
		echo "FAIL: backend.h as ISO C11 ($BSF_CLANG):"
		cat "$TMP/clang.log"
		rc=1
	fi
	ran=1
else
	echo "no clang: backend.h not checked with clang -pedantic"
fi
if [ $ran = 0 ]; then
	echo "SKIP: neither a C++ compiler nor clang installed"
	exit 77
fi
exit $rc
