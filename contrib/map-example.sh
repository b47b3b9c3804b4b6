#!/bin/sh
# contrib/map-example.sh: the example map of the players' guide
# (make map-example).
#
# Plays turns 1-3 of the bundled game Miahuatlán with its bundled orders
# and a fixed secret in a temporary campaign, and renders the map of turn
# 3 with rsvg-convert (librsvg2-bin) to doc/map-example.png, at one and
# a half times the map's size.  The same crown gives the same map; the
# PNG's bytes depend on the rsvg-convert and fonts installed.
#
#   sh contrib/map-example.sh [OUT.png]
#   CROWN=path/to/crown sh contrib/map-example.sh
#
# Exit status: 0, or that of the first command that failed.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
crown=${CROWN:-$top/crown}
out=${1:-$top/doc/map-example.png}
game=miahuatlan
turns=3

[ -x "$crown" ] || { echo "map-example: no crown at $crown: run make" >&2;
    exit 66; }
command -v rsvg-convert >/dev/null 2>&1 || {
    echo "map-example: rsvg-convert is missing (Debian: librsvg2-bin)" >&2
    exit 69; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/crown-map-XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
printf '%064d\n' 1 >"$tmp/secret.hex"
"$crown" new "$tmp/camp" --scenario "$top/games/$game/scenario.yaml" \
    --secret-file "$tmp/secret.hex" --date 2026-03-01 >/dev/null
t=1
while [ "$t" -le "$turns" ]; do
	cp "$top/games/$game/orders/turn-00$t"/*.yaml "$tmp/camp/orders/pending/"
	"$crown" turn "$tmp/camp" --date "2026-03-0${t}T12:00:00Z" >/dev/null
	t=$((t + 1))
done
rsvg-convert -z 1.5 -f png -o "$out" "$tmp/camp/turns/turn-00$turns/map.svg"
echo "map-example: $out, the map of turn $turns of $game"
