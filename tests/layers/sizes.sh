#!/bin/sh
# make layers, the sizes: no .c file of adjudicator/ over MAXFILE lines
# (1,500), and at most MAXLONG (5) functions over MAXFUNC lines (120),
# counted from a function's opening brace in column 1 to its closing one
# (style(9) puts both there).  Prints every file and function over, and
# fails when there are too many.
#
# usage: tests/layers/sizes.sh [SRCDIR]   (default: adjudicator)
set -u
src=${1:-adjudicator}
maxfile=${MAXFILE:-1500}
maxfunc=${MAXFUNC:-120}
maxlong=${MAXLONG:-5}
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT HUP INT TERM

find "$src" -name '*.c' | sort >"$tmp"
status=0
while read -r f; do
	n=$(wc -l <"$f")
	if [ "$n" -gt "$maxfile" ]; then
		echo "sizes: $f has $n lines, over $maxfile"
		status=1
	fi
done <"$tmp"
long=$(xargs awk -v max="$maxfunc" '
	FNR == 1 { start = 0 }
	/^[A-Za-z_][A-Za-z_0-9]*\(/ { name = $0; sub(/\(.*/, "", name) }
	/^\{/ { start = FNR }
	/^\}/ && start {
		if (FNR - start + 1 > max)
			printf "%s:%d: %s has %d lines\n", FILENAME, start,
			    name, FNR - start + 1
		start = 0
	}' <"$tmp")
nlong=0
[ -n "$long" ] && nlong=$(printf '%s\n' "$long" | wc -l)
if [ "$nlong" -gt "$maxlong" ]; then
	printf '%s\n' "$long" | sed 's/^/sizes: /'
	echo "sizes: $nlong functions over $maxfunc lines, at most $maxlong"
	status=1
fi
[ $status -eq 0 ] && echo "sizes: no file over $maxfile lines," \
    "$nlong functions over $maxfunc (at most $maxlong)"
exit $status
