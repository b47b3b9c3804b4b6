#!/bin/sh
# make bench: crown's figures (issues 10 and 23).  Battles of 100, 1,000 and
# 10,000 units a side with terrain and orders for every unit, then a 50-turn
# campaign and its `crown verify`.  Times, and instructions counted by
# callgrind (valgrind; INSTR=0 skips them), which unlike times are the same
# on every run.  Prints Markdown tables.
set -eu
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
# one core, as issue 10's targets say (taskset is util-linux, on every
# Debian); the commands it starts inherit the pin
if command -v taskset >/dev/null 2>&1; then
	BENCH="taskset -c 0 build/bench"
	pinned="pinned to one core"
else
	BENCH=build/bench
	pinned="not pinned (no taskset)"
fi

echo "crown $(./crown --version | cut -d' ' -f2) on $(uname -m), $(nproc) cores," \
    "$pinned; medians of $RUNS runs"
echo
$BENCH header
for n in 100 1000; do
	$BENCH run $n "$RUNS"
done
$BENCH run 10000 3
echo
$BENCH steps 1000 "$RUNS"

# Instructions: the whole `crown resolve` and libyaml alone parsing the
# same three files (build/bench floor), both counted by callgrind, and how
# many times the floor the command costs
if [ "${INSTR:-1}" != 0 ] && command -v valgrind >/dev/null 2>&1; then
	tmp=$(mktemp -d /tmp/crown-bench-instr-XXXXXX)
	trap 'rm -rf "$tmp"' EXIT
	printf '%s\n' 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f \
	    > "$tmp/secret"
	echo
	echo "| units/side | crown resolve (M instructions) | libyaml parsing the same input (M) | ratio |"
	echo "|---:|---:|---:|---:|"
	for n in 100 1000; do
		build/bench gen $n "$tmp/$n" >/dev/null
		whole=$(sh contrib/instructions.sh build/crown resolve \
		    --state "$tmp/$n/state.yaml" --orders "$tmp/$n/a.yaml" \
		    --orders "$tmp/$n/b.yaml" --secret-file "$tmp/secret" \
		    --out "$tmp/$n/out")
		floor=$(sh contrib/instructions.sh build/bench floor "$tmp/$n")
		awk -v n=$n -v w="$whole" -v f="$floor" 'BEGIN {
		    printf "| %d | %.1f | %.1f | %.2f |\n", n, w / 1e6,
			f / 1e6, w / f }'
	done
	# crown turn, the whole turn of a campaign (commit, tag, work tree,
	# mails), on a campaign made from the battle: linear in the units
	echo
	echo "| units/side | crown turn (M instructions) | libyaml parsing its input (M) | ratio |"
	echo "|---:|---:|---:|---:|"
	for n in 1000 2000; do
		[ -d "$tmp/$n" ] || build/bench gen $n "$tmp/$n" >/dev/null
		./crown new "$tmp/c$n" --scenario "$tmp/$n/state.yaml" \
		    --secret-file "$tmp/secret" --date 2026-03-01 >/dev/null
		cp "$tmp/$n/a.yaml" "$tmp/$n/b.yaml" "$tmp/c$n/orders/pending/"
		whole=$(sh contrib/instructions.sh ./crown turn "$tmp/c$n" \
		    --date 2026-03-08)
		floor=$(sh contrib/instructions.sh build/bench floor "$tmp/$n")
		awk -v n=$n -v w="$whole" -v f="$floor" 'BEGIN {
		    printf "| %d | %.1f | %.1f | %.2f |\n", n, w / 1e6,
			f / 1e6, w / f }'
	done
elif [ "${INSTR:-1}" != 0 ]; then
	echo
	echo "(no valgrind on this machine: no instruction counts)"
fi

if ./crown --help 2>&1 | grep -q 'crown verify'; then
	echo
	sh contrib/bench-campaign.sh
fi
