#!/bin/sh
# make bench: crown's figures (issue 10).  Battles of 100, 1,000 and 10,000
# units a side with terrain and orders for every unit, then a 50-turn
# campaign and its `crown verify`.  Prints Markdown tables.
set -eu
cd "$(dirname "$0")/.."
BENCH=build/bench
RUNS=${RUNS:-5}

echo "crown $(./crown --version | cut -d' ' -f2) on $(uname -m), $(nproc) cores;" \
    "medians of $RUNS runs"
echo
$BENCH header
for n in 100 1000; do
	$BENCH run $n "$RUNS"
done
$BENCH run 10000 3

if ./crown --help 2>&1 | grep -q 'crown verify'; then
	echo
	sh contrib/bench-campaign.sh
fi
