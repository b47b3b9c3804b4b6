#!/bin/sh
# A 50-turn campaign of the bench battle (100 units a side, every unit
# moving every turn), then the time of `crown verify` over it and, with
# valgrind (INSTR=0 skips it), its instructions counted by callgrind, every
# process it starts included; and of `crown site` over it: whole, then
# after turn 51 (issue 22).  KEEP=1 keeps the campaign (its directory is
# printed on standard error).
set -eu
cd "$(dirname "$0")/.."
PIN=
if command -v taskset >/dev/null 2>&1; then
	PIN="taskset -c 0"
fi
dir=$(mktemp -d /tmp/crown-bench-campaign-XXXXXX)
[ -n "${KEEP:-}" ] && echo "keeping $dir" >&2 || trap 'rm -rf "$dir"' EXIT
build/bench gen 100 "$dir/gen" >/dev/null
./crown new "$dir/c" --scenario "$dir/gen/state.yaml" \
    --date 2026-01-01T00:00:00Z >/dev/null
# every unit moves each turn: one inch back on odd turns, forward again on
# even ones (each move rolls its dice and draws on the map), so a turn has
# 200 moves and the lines never meet
t=1
while [ $t -le 50 ]; do
	for s in a b; do
		printf 'game: Bench\nturn: %d\nside: %s\norders:\n' $t $s \
		    > "$dir/$s.yaml"
		awk -v side=$s -v t=$t '
		    $0 ~ "side: " side "," {
			match($0, /id: [a-z0-9]+/); id = substr($0, RSTART + 4,
			    RLENGTH - 4)
			match($0, /x: [0-9.]+/); x = substr($0, RSTART + 3,
			    RLENGTH - 3)
			match($0, /y: [0-9.]+/); y = substr($0, RSTART + 3,
			    RLENGTH - 3)
			back = (side == "a") ? -1 : 1
			if (t % 2 == 1)
				y += back
			printf "  - unit: %s\n    actions:\n", id
			printf "      - move: {to: [%s, %.2f]}\n", x, y
		    }' "$dir/gen/state.yaml" >> "$dir/$s.yaml"
	done
	$PIN ./crown turn "$dir/c" "$dir/a.yaml" "$dir/b.yaml" \
	    --date "2026-01-$(printf %02d $(( (t % 28) + 1 )))T00:00:00Z" \
	    >/dev/null
	t=$((t + 1))
done
# crown verify, on one core (it replays one turn after another)
start=$(date +%s.%N)
$PIN ./crown verify "$dir/c" >/dev/null
end=$(date +%s.%N)
instr=
if [ "${INSTR:-1}" != 0 ] && command -v valgrind >/dev/null 2>&1; then
	instr=$(sh contrib/instructions.sh ./crown verify "$dir/c")
fi
# the web site of the 50 turns, whole
s0=$(date +%s.%N)
$PIN ./crown site "$dir/c" "$dir/site" >"$dir/site.out"
s1=$(date +%s.%N)
# the cost of durability (issue 17): turn 51 under strace, which counts
# the fsync calls of crown and libgit2 and the wall time spent in them
fsync_line="| fsync | not measured: no strace on this machine | | |"
if command -v strace >/dev/null 2>&1; then
	for s in a b; do
		sed "s/^turn: .*/turn: 51/" "$dir/$s.yaml" > "$dir/$s-51.yaml"
	done
	t0=$(date +%s.%N)
	strace -f -w -c -e trace=fsync,fdatasync -o "$dir/strace" \
	    $PIN ./crown turn "$dir/c" "$dir/a-51.yaml" "$dir/b-51.yaml" \
	    --date 2026-02-21T00:00:00Z >/dev/null
	t1=$(date +%s.%N)
	fsync_line=$(awk -v a="$t0" -v b="$t1" '
	    $NF == "fsync" || $NF == "fdatasync" { s += $2; n += $4 }
	    END { printf "| one turn under strace | %.0f ms | %d | %.0f ms |",
		(b - a) * 1000, n, s * 1000 }' "$dir/strace")
fi
[ -f "$dir/a-51.yaml" ] || {
	for s in a b; do
		sed "s/^turn: .*/turn: 51/" "$dir/$s.yaml" > "$dir/$s-51.yaml"
	done
	$PIN ./crown turn "$dir/c" "$dir/a-51.yaml" "$dir/b-51.yaml" \
	    --date 2026-02-21T00:00:00Z >/dev/null
}
# the site again after turn 51: only what the turn changed
s2=$(date +%s.%N)
$PIN ./crown site "$dir/c" "$dir/site" >"$dir/site2.out"
s3=$(date +%s.%N)
echo "| campaign | turns | crown verify (s) | crown verify (M instructions) |"
echo "|---|---:|---:|---:|"
awk -v a="$start" -v b="$end" -v i="$instr" 'BEGIN {
    printf "| bench, 100 units a side, all moving | 50 | %.2f | %s |\n",
	b - a, i == "" ? "not counted" : sprintf("%.0f", i / 1e6) }'
echo
echo "| crown site | pages and files | written | time (s) | size |"
echo "|---|---:|---:|---:|---:|"
size=$(du -sk "$dir/site" | awk '{ print $1 }')
awk -v a="$s0" -v b="$s1" -v c="$s2" -v d="$s3" -v k="$size" \
    -v one="$(cat "$dir/site.out")" -v two="$(cat "$dir/site2.out")" '
    function n(s, i) { split(s, w, " "); return w[i] }
    BEGIN {
	printf "| whole, 50 turns | %s | %s | %.2f | |\n", n(one, 2), n(one, 6),
	    b - a
	printf "| after turn 51 | %s | %s | %.2f | %d KiB |\n", n(two, 2),
	    n(two, 6), d - c, k
    }'
echo
echo "| durability | whole turn | fsync calls | in fsync |"
echo "|---|---:|---:|---:|"
echo "$fsync_line"
