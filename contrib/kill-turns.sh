#!/bin/sh
# contrib/kill-turns.sh [N]: kill `crown turn` at random points N times
# (default 100) and check that each campaign is whole after it: git fsck
# --strict, main at the turn before or the turn after, and the next turn
# and crown verify pass.  Prints the figures doc/limits.md quotes.
#
# Each run copies a campaign at turn 0 with the orders of turn 1 pending,
# starts crown turn, and sends it SIGKILL after a random delay up to the
# time of a whole turn.  The stage is what the campaign shows afterwards:
# "before" (main at turn 0), "after" (main at turn 1), "done" (the run
# finished before the kill).  A run the next command refuses (exit 75,
# naming a lock of git's to remove) is tried again 3 seconds later, and
# counts as "stuck" if it is refused again; a temporary of the
# killed run still there after the next commands, as inconsistent.
set -u
cd "$(dirname "$0")/.."
N=${1:-100}
CROWN=${CROWN:-build/crown}
DATA=tests/data/campaign
T=$(mktemp -d /tmp/crown-kill-XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM

$CROWN new "$T/zero" --scenario tests/data/scenario-small.yaml \
    --rules rules/maximilian.yaml --secret-file $DATA/secret.hex \
    --date 2026-03-01 >/dev/null || exit 1
mkdir -p "$T/zero/orders/pending"
cp $DATA/french-1.yaml $DATA/republic-1.yaml "$T/zero/orders/pending/"
# the time of a whole turn, in microseconds
cp -a "$T/zero" "$T/probe"
t0=$(date +%s%N)
$CROWN turn "$T/probe" --templates templates --date 2026-03-08 >/dev/null
t1=$(date +%s%N)
span=$(( (t1 - t0) / 1000 ))
turn0=$(git -C "$T/zero" rev-parse main)
turn1=$(git -C "$T/probe" rev-parse main)

# crown turn "$@" after a killed run: a lock of git's the killed run
# made is taken for its once it has lain 2 seconds, so a run sooner is
# refused (75, counted in waited) and tried again once 3 seconds later;
# refused again, it is stuck
next() {
	out=$($CROWN turn "$@" --templates templates 2>&1)
	r=$?
	if [ $r = 75 ]; then
		waited=$((waited + 1))
		sleep 3
		out=$($CROWN turn "$@" --templates templates 2>&1)
		r=$?
	fi
	if [ $r = 75 ]; then
		stuck=$((stuck + 1))
		echo "run $i: $out" >&2
	fi
	return $r
}

before=0 after=0 done=0 bad=0 stuck=0 waited=0 i=0
while [ $i -lt "$N" ]; do
	i=$((i + 1))
	c="$T/c$i"
	cp -a "$T/zero" "$c"
	delay=$(awk -v s="$span" -v r="$(od -An -N4 -tu4 /dev/urandom)" \
	    'BEGIN { printf "%.6f", (r % (s + 1)) / 1e6 }')
	$CROWN turn "$c" --templates templates --date 2026-03-08 \
	    >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	if kill -9 $pid 2>/dev/null; then killed=1; else killed=0; fi
	wait $pid 2>/dev/null
	st=$?
	head=$(git -C "$c" rev-parse main)
	if [ "$killed" = 0 ] || [ "$st" = 0 ]; then
		stage=done
	elif [ "$head" = "$turn0" ]; then
		stage=before
	elif [ "$head" = "$turn1" ]; then
		stage=after
	else
		stage=bad
	fi
	ok=1
	git -C "$c" fsck --strict >/dev/null 2>&1 || ok=0
	[ "$stage" = bad ] && ok=0
	# the next command finishes the turn or plays it
	if [ "$head" = "$turn0" ]; then
		next "$c" --date 2026-03-08 || ok=0
	fi
	[ "$(git -C "$c" rev-parse main)" = "$turn1" ] || ok=0
	next "$c" $DATA/republic-2.yaml --allow-missing --date 2026-03-15 ||
	    ok=0
	[ "$(git -C "$c" log -1 --format=%s main | cut -d: -f1)" = "Turn 2" ] ||
	    ok=0
	$CROWN verify "$c" --templates templates >/dev/null 2>&1 || ok=0
	[ -z "$(git -C "$c" status --porcelain)" ] || ok=0
	git -C "$c" fsck --strict >/dev/null 2>&1 || ok=0
	# the next commands removed the killed run's temporaries
	left=$(find "$c" -name '.*.tmp.[0-9]*' -o -name 'crown.lock.[0-9]*')
	if [ -n "$left" ]; then
		ok=0
		echo "run $i: left $left" >&2
	fi
	if [ $ok = 1 ]; then
		eval "$stage=\$(($stage + 1))"
	else
		bad=$((bad + 1))
		echo "run $i: not consistent (stage $stage, exit $st)" >&2
		rm -rf "/tmp/crown-kill-bad-$i"
		cp -a "$c" "/tmp/crown-kill-bad-$i"
	fi
	rm -rf "$c"
done
echo "$N runs of crown turn killed at random within ${span} us:" \
    "$before killed before the commit point, $after after it," \
    "$done finished first; $bad inconsistent, $waited refused at once" \
    "for a fresh lock of git's, $stuck stuck on a lock"
[ $bad = 0 ]
