#!/bin/sh
# make layers: the object files' symbol graph (nm) has no cycle between
# files or between folders, and no file calls up the layer order of
# doc/design.md:
#   main, cmd  >  history, mail, report  >  engine  >  model  >  io
# A file may call files of its own layer or of any layer below.
#
# usage: tests/layers/check.sh OBJDIR   (OBJDIR holds LAYER/FILE.o)
set -u
obj=${1:?usage: check.sh OBJDIR}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

rank() {
	case $1 in
	main|cmd/*) echo 5 ;;
	history/*|mail/*|report/*) echo 4 ;;
	engine/*) echo 3 ;;
	model/*) echo 2 ;;
	io/*) echo 1 ;;
	*) echo 0 ;;
	esac
}

# "symbol file" for what each object defines and what it uses
cd "$obj" || exit 1
for o in main.o */*.o; do
	[ -f "$o" ] || continue
	f=${o%.o}
	nm -g --defined-only "$o" | awk -v f="$f" 'NF >= 3 { print $3, f }'
	nm -u "$o" | awk -v f="$f" '{ print $2, f }' >>"$tmp/uses"
done | sort >"$tmp/defs"
sort -o "$tmp/uses" "$tmp/uses"
# "caller callee symbol", one line a call between two files
join "$tmp/uses" "$tmp/defs" | awk '$2 != $3 { print $2, $3, $1 }' |
    sort >"$tmp/calls"

status=0
# against the layer order
while read -r from to sym; do
	if [ "$(rank "$from")" -lt "$(rank "$to")" ]; then
		echo "layers: $from calls up to $to ($sym)"
		status=1
	fi
done <"$tmp/calls"
# cycles: tsort names the files of each loop it finds
awk '{ print $1, $2 }' "$tmp/calls" | sort -u >"$tmp/edges"
if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/loops"; then
	echo "layers: the calls between files make a cycle:"
	sed -n 's/^tsort: \([^:]*\)$/  \1/p' "$tmp/loops" | sort -u
	status=1
fi
# and no cycle between folders either (history, mail and report share a
# rank, so the order alone does not keep them from calling round)
awk '{ a = $1; b = $2; sub(/\/.*/, "", a); sub(/\/.*/, "", b);
    if (a != b) print a, b }' "$tmp/edges" | sort -u >"$tmp/folders"
if ! tsort "$tmp/folders" >/dev/null 2>"$tmp/floops"; then
	echo "layers: the calls between folders make a cycle:"
	sed -n 's/^tsort: \([^:]*\)$/  \1/p' "$tmp/floops" | sort -u
	status=1
fi
[ $status -eq 0 ] && echo "layers: $(wc -l <"$tmp/edges") calls between" \
    "files, no cycle between files or folders, none against the layer" \
    "order"
exit $status
