#!/bin/sh
# A 50-turn campaign of the bench battle (100 units a side), then the time
# of `crown verify` over it.
set -eu
cd "$(dirname "$0")/.."
dir=$(mktemp -d /tmp/crown-bench-campaign-XXXXXX)
trap 'rm -rf "$dir"' EXIT
build/bench gen 100 "$dir/gen" >/dev/null
./crown new "$dir/c" --scenario "$dir/gen/state.yaml" \
    --date 2026-01-01T00:00:00Z >/dev/null
t=1
while [ $t -le 50 ]; do
	for s in a b; do
		printf 'game: Bench\nturn: %d\nside: %s\norders:\n' $t $s \
		    > "$dir/$s.yaml"
		grep -E '^  - unit:' "$dir/gen/$s.yaml" | head -40 | \
		    sed 's/$/\n    actions: [hold]/' >> "$dir/$s.yaml"
	done
	./crown turn "$dir/c" "$dir/a.yaml" "$dir/b.yaml" \
	    --date "2026-01-$(printf %02d $(( (t % 28) + 1 )))T00:00:00Z" \
	    >/dev/null
	t=$((t + 1))
done
start=$(date +%s.%N)
./crown verify "$dir/c" >/dev/null
end=$(date +%s.%N)
echo "| campaign | turns | crown verify (s) |"
echo "|---|---:|---:|"
awk -v a="$start" -v b="$end" 'BEGIN { printf "| bench, 100 units a side | 50 | %.2f |\n", b - a }'
