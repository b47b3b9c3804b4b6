#!/bin/sh
# contrib/demo.sh: play the first turns of a bundled campaign (make demo).
#
# Creates a campaign repository from games/$GAME/scenario.yaml in a fresh
# temporary directory, plays turns 1-3 with the bundled orders of
# games/$GAME/orders/turn-NNN/, prints each turn's report, the campaign's
# log and its verification, and says where the maps are.  Needs nothing
# but ./crown (built by `make demo` just before): no network, no git
# configuration (crown commits with its own author and the --date given).
#
#   sh contrib/demo.sh [GAME]       GAME: camerone (default), puebla,
#                                   miahuatlan
#   CROWN=path/to/crown sh contrib/demo.sh
#
# Exit status: 0, or that of the first command that failed.

set -u

top=$(cd "$(dirname "$0")/.." && pwd) || exit 1
crown=${CROWN:-$top/crown}
game=${1:-camerone}
turns=3

say() {
	printf '%s\n' "$*"
}

step() {
	printf '\n==> %s\n' "$*"
}

fail() {
	status=$1
	shift
	printf 'demo: error: %s\n' "$*" >&2
	exit "$status"
}

# Show a command, run it; on failure say which and stop with its status.
run() {
	printf '$ crown'
	for a in "$@"; do
		case $a in
		"$top"/*) printf ' %s' "${a#"$top"/}" ;;
		*) printf ' %s' "$a" ;;
		esac
	done
	printf '\n'
	"$crown" "$@"
	rc=$?
	[ "$rc" -eq 0 ] || fail "$rc" "'crown $1' failed (exit $rc); the" \
	    "campaign so far is in $campaign"
}

[ -x "$crown" ] || fail 66 "no crown program at $crown: run 'make' first"
scenario=$top/games/$game/scenario.yaml
orders=$top/games/$game/orders
games=$(cd "$top/games" 2>/dev/null && ls | tr '\n' ' ')
[ -f "$scenario" ] || fail 66 "no scenario $scenario (games: ${games% })"

# The commands the demo needs must be in this build.
missing=
for c in new turn show log verify; do
	"$crown" "$c" --help >/dev/null 2>&1 || missing="$missing $c"
done
[ -z "$missing" ] || fail 69 "this build of crown lacks the" \
    "command(s):$missing"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/crown-demo.XXXXXX") ||
    fail 73 "cannot make a temporary directory"
campaign=$tmp/$game

step "A campaign from games/$game/scenario.yaml, in $campaign"
say "(crown checks the scenario first: R1.1 organisation, R3.2 elite"
say "troops, R10.1 leader counts, R11.1 buildings; then it commits turn 0.)"
run new "$campaign" --scenario "$scenario" --date 2026-01-01T00:00:00Z

n=1
while [ "$n" -le "$turns" ]; do
	t=$(printf '%03d' "$n")
	dir=$orders/turn-$t
	set -- "$dir"/*.yaml
	[ -f "$1" ] || fail 66 "no bundled orders in $dir"
	step "Turn $n: the orders are checked, then adjudicated"
	run check "$campaign" "$@"
	run turn "$campaign" "$@" \
	    --date "2026-01-$(printf '%02d' $((n + 1)))T00:00:00Z"
	step "Turn $n: the umpire's report (turns/turn-$t/report.md)"
	report=$campaign/turns/turn-$t/report.md
	if [ -f "$report" ]; then
		cat "$report"
	else
		run show "$campaign" "$n"
	fi
	n=$((n + 1))
done

step "The campaign's history: one commit per turn"
run log "$campaign"

step "Replaying every turn from the committed orders and the secret"
run verify "$campaign"

step "Maps"
found=0
for m in "$campaign"/turns/turn-*/map.svg; do
	[ -f "$m" ] || continue
	say "  $m"
	found=1
done
[ "$found" -eq 1 ] || say "  (this build drew no maps)"
say ""
say "Open them in a web browser.  The campaign is a git repository:"
say "  git -C $campaign log --stat"
say "Players' reports are in turns/turn-NNN/report-SIDE.md.  When done:"
say "  rm -rf $tmp"
