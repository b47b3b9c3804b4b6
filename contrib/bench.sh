#!/bin/sh
# make bench: crown's figures (issue 10).  Battles of 100, 1,000 and 10,000
# units a side with terrain and orders for every unit, then a 50-turn
# campaign and its `crown verify`.  Prints Markdown tables.
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

if ./crown --help 2>&1 | grep -q 'crown verify'; then
	echo
	sh contrib/bench-campaign.sh
fi
