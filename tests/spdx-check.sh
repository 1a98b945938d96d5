#!/bin/sh
# tests/spdx-check.sh - every source file carries the licence's SPDX line.
#
#   tests/spdx-check.sh          list the files that lack it; exit 1 if any
#   tests/spdx-check.sh --fix    add it where it is missing, then check
#
# The files: C sources and headers, shell, Python and awk scripts,
# automake/autoconf inputs (*.am, *.mk, *.ac, *.in), configuration files
# (*.conf), manual pages, .ci/run and the Debian packaging scripts.  Each
# must contain "SPDX-License-Identifier: BSD-2-Clause"; an eBPF program
# (a .c file in a bpf/ directory), loaded into the kernel, which wants a
# GPL-compatible licence for some helpers, must instead carry
# "SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)" and declare
# "Dual BSD/GPL" in its license section.
#
# --fix puts the line at the end of the file's leading comment, in its
# syntax: " * SPDX-..." before the " */" closing a C comment, "# SPDX-..."
# after a shebang and the "#" lines that follow it, '.\" SPDX-...' after
# a manual page's leading comment lines; a file with no leading comment
# gets a one-line comment at the top (after a shebang).  It never touches
# an eBPF program's license section.
#
# The files are those git tracks: outside a git checkout (a release
# tarball, make distcheck) the check skips (77), saying so.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
cd "$top_srcdir" || exit 1
SPDX="SPDX-License-Identifier: BSD-2-Clause"
SPDX_BPF="SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)"
fix=0
case ${1:-} in
--fix) fix=1 ;;
"") ;;
*)
	echo "usage: $0 [--fix]" >&2
	exit 2
	;;
esac

if [ ! -e .git ] || ! command -v git >/dev/null 2>&1; then
	echo "SKIP: $top_srcdir is not a git checkout (the files to check are the tracked ones)"
	exit 77
fi

list_files() {
	git ls-files | while IFS= read -r f; do
		case $f in
		*/corpus/* | */data/*) ;;
		*.c | *.h | *.sh | *.py | *.awk | *.am | *.mk | *.ac | *.in | *.conf) echo "$f" ;;
		man/*.[1-8] | .ci/run | debian/rules | debian/*.postinst | debian/*.postrm | \
			debian/*.preinst | debian/*.prerm | debian/*.default) echo "$f" ;;
		esac
	done
}

is_bpf() {
	case $1 in */bpf/*.c) return 0 ;; esac
	return 1
}

# Insert line (the whole comment line, in the file's syntax) into file f.
add_line() { # file, kind (c | hash | roff), text
	f=$1 kind=$2 text=$3
	tmp="$f.spdx.$$"
	case $kind in
	c)
		awk -v text="$text" '
		done == 0 && NR == 1 && !/^\/\*/ { print "/* " text " */"; done = 1 }
		done == 0 && /\*\// {
			if ($0 ~ /^[ \t]*\*\/[ \t]*$/) { print " *"; print " * " text; print; done = 1; next }
			print; print "/* " text " */"; done = 1; next
		}
		{ print }' "$f" >"$tmp"
		;;
	hash)
		awk -v text="$text" '
		done == 0 && NR == 1 && /^#!/ { print; shebang = 1; next }
		done == 0 && /^#/ && !/^#!/ { incomment = 1; print; next }
		done == 0 {
			if (incomment) print "#"
			print "# " text
			done = 1
		}
		{ print }
		END { if (done == 0) { if (incomment) print "#"; print "# " text } }' "$f" >"$tmp"
		;;
	roff)
		awk -v text="$text" '
		done == 0 && /^\.\\"/ { print; next }
		done == 0 { print ".\\\" " text; done = 1 }
		{ print }' "$f" >"$tmp"
		;;
	esac
	cat "$tmp" >"$f" && rm -f "$tmp"
}

kind_of() {
	case $1 in
	*.c | *.h) echo c ;;
	man/*.[1-8]) echo roff ;;
	*) echo hash ;;
	esac
}

missing=0
checked=0
for f in $(list_files); do
	[ -f "$f" ] || continue
	checked=$((checked + 1))
	want=$SPDX
	is_bpf "$f" && want=$SPDX_BPF
	if ! grep -qF "$want" "$f"; then
		if [ $fix = 1 ]; then
			add_line "$f" "$(kind_of "$f")" "$want"
			echo "fixed: $f"
		fi
		if ! grep -qF "$want" "$f"; then
			echo "missing: $f: no \"$want\" line"
			missing=$((missing + 1))
		fi
	fi
	if is_bpf "$f" && grep -q 'SEC("license")' "$f" && ! grep -q '"Dual BSD/GPL"' "$f"; then
		echo "wrong: $f: its license section must say \"Dual BSD/GPL\""
		missing=$((missing + 1))
	fi
done
echo "spdx-check: $checked files, $missing without their SPDX line"
if [ $missing -gt 0 ] && [ $fix = 0 ]; then
	echo "(tests/spdx-check.sh --fix adds it)"
fi
[ $missing = 0 ]
