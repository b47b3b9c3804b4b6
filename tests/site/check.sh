#!/bin/sh
# tests/site/check.sh: crown site (issue 22) as a reader sees it.  Plays
# three turns of the bundled Camerone, with one unit renamed to markup and
# a unit and a side to Markdown images of a remote host, the third turn
# drawn with a map template that adds a script, event attributes and
# remote images, makes the umpire's site and a side's, then checks that every page
# parses as HTML5 without a parse error, that every link and image
# resolves inside the site (tests/site/pages.py), that it is well-formed
# XML (xmllint: the pages are polyglot XHTML), and renders the
# index and a turn page in headless Chromium to PNG: a real picture
# (tests/site/png.py), no message on the console.  A page with a script
# error is rendered too, to show the console check catches one.  The last
# line is "site: N checks, all passed" (tests/summary.sh counts it) or
# "site: FAIL: ...".
#
# usage: tests/site/check.sh [CROWN]   (default ./crown)
set -u
bin=${1:-./crown}
py=/usr/bin/python3
here=$(dirname "$0")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
n=0

fail() {
	echo "site: FAIL: $*"
	exit 1
}

ok() {
	n=$((n + 1))
}

# headless Chromium: the page to PNG, its console on stderr
shoot() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
	    --no-first-run --disable-extensions --user-data-dir="$tmp/profile" \
	    --enable-logging=stderr --v=0 --window-size=1200,1600 \
	    --screenshot="$2" "file://$1" >"$tmp/shot.out" 2>"$tmp/shot.err"
}

# "WIDTHxHEIGHT" of the map of page $1 as Chromium lays it out in a
# window $2 px wide: a copy of the page with a script that writes the
# size into the DOM, which --dump-dom prints
mapsize() {
	sed 's|</body>|<script>var r = document.querySelector("div.mapbox > svg").getBoundingClientRect(); document.body.setAttribute("data-map", Math.round(r.width) + "x" + Math.round(r.height));</script></body>|' \
	    "$1" >"$tmp/probe.html"
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
	    --no-first-run --disable-extensions --user-data-dir="$tmp/profile" \
	    --window-size="$2",900 --dump-dom "file://$tmp/probe.html" \
	    2>/dev/null | sed -n 's/.*data-map="\([0-9]*x[0-9]*\)".*/\1/p'
}

# the console's messages of the last shot
console() {
	grep 'CONSOLE' "$tmp/shot.err"
}

# not blank: many colours, and a good share of the page inked
picture() {
	set -- $($py "$here/png.py" "$1") || return 1
	[ "$2" -ge 8 ] && [ "$3" -ge 20 ]
}

for t in xmllint chromium timeout; do
	command -v $t >/dev/null 2>&1 || fail "no $t (make deps installs it)"
done
$py -c 'import html5lib' 2>/dev/null ||
    fail "no python3-html5lib (make deps installs it)"

beacon='![b](http://127.0.0.1:9/beacon.png)'
sed -e 's/^    name: Veracruz National Guard Battalion$/    name: '"'"'<script>alert(1)<\/script> \& "x"'"'"'/' \
    -e 's|^    name: Jalapa National Guard Battalion$|    name: '"'Jalapa $beacon javascript: url(x) @import'"'|' \
    -e 's|^    name: Mexican Republic (Milán)$|    name: '"'Mexican Republic $beacon'"'|' \
    games/camerone/scenario.yaml >"$tmp/scenario.yaml"
[ "$(grep -c 'alert(1)\|beacon' "$tmp/scenario.yaml")" = 3 ] ||
    fail "cannot rename the units and the side"
# a map template of the umpire's that adds what a page must not run
cp -r templates "$tmp/tmpl"
sed 's|^<defs>$|<script>alert(2)</script><rect x="0" onload="alert(3)"/><image href="http://127.0.0.1:9/i.png"/><set attributeName="onclick" to="alert(4)"/><defs>|' \
    templates/map.svg.tmpl >"$tmp/tmpl/map.svg.tmpl"
grep -q 'alert(3)' "$tmp/tmpl/map.svg.tmpl" || fail "cannot change the map"
"$bin" new "$tmp/c" --scenario "$tmp/scenario.yaml" \
    --date 2026-03-01 >/dev/null || fail "crown new"
for t in 1 2 3; do
	tmpl=
	[ $t = 3 ] && tmpl="--templates $tmp/tmpl"
	"$bin" turn "$tmp/c" games/camerone/orders/turn-00$t/*.yaml $tmpl \
	    --date 2026-03-0$((t + 1)) >/dev/null || fail "crown turn $t"
done
"$bin" site "$tmp/c" "$tmp/out" >/dev/null || fail "crown site"
"$bin" site "$tmp/c" "$tmp/side" --side legion >/dev/null ||
    fail "crown site --side legion"
ok

# every page of both sites: HTML5, links inside the site, XML
for site in out side; do
	pages=$(cd "$tmp/$site" && find . -name '*.html' | sort)
	[ -n "$pages" ] || fail "$site: no pages"
	(cd "$tmp/$site" && $py "$OLDPWD/$here/pages.py" . $pages) \
	    >"$tmp/pages.log" 2>&1 || { cat "$tmp/pages.log"; fail "$site"; }
	ok
	(cd "$tmp/$site" && xmllint --noout $pages) ||
	    fail "$site: a page is not well-formed XML"
	ok
	if grep -l '<script' $(for p in $pages; do echo "$tmp/$site/$p"; done)
	then
		fail "$site: a page holds a script"
	fi
	ok
done
grep -q '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;' \
    "$tmp/out/index.html" || fail "the unit's name is not escaped"
grep -q 'Mexican Republic !\[b\](http://127.0.0.1:9/beacon.png)' \
    "$tmp/out/turn-000.html" || fail "the briefing's side name is not text"
# every turn keeps its map, the hostile template's without its additions
for t in 1 2 3; do
	grep -q '<svg xmlns=' "$tmp/out/turn-00$t.html" ||
	    fail "turn $t: no map"
done
if grep -l 'onload\|alert(2\|alert(3\|<image\|<set' "$tmp"/out/*.html; then
	fail "a map holds what the filter takes out"
fi
ok
# the units linked from the map and the reports, an apostrophe and all
# ("Milan's irregular horse")
grep -q '<a href="units/guerrilla-1.html"><g class="unit ' \
    "$tmp/out/turn-001.html" || fail "a unit of the map is not linked"
grep -q '<a href="units/veracruz-bn.html">&lt;script&gt;' \
    "$tmp/out/turn-001.html" || fail "a unit of a report is not linked"
ok

# the detector: a page with a script error shows on the console
printf '%s\n' '<!DOCTYPE html><html><head><title>x</title></head>' \
    '<body><p>x</p><script>nosuch();</script></body></html>' \
    >"$tmp/bad.html"
shoot "$tmp/bad.html" "$tmp/bad.png"
console >/dev/null || fail "chromium shows no console message for a " \
    "script error (is logging on?)"
ok

for p in out/index.html out/turn-001.html side/turn-002.html \
    out/turn-000.html out/turn-003.html; do
	png="$tmp/$(echo "$p" | tr / -).png"
	shoot "$tmp/$p" "$png" || fail "chromium cannot render $p"
	[ -s "$png" ] || fail "no screenshot of $p"
	if console; then
		fail "$p: messages on the console"
	fi
	picture "$png" || fail "$p renders blank: $($py "$here/png.py" "$png")"
	ok
done

# the map is drawn at the page's width, its shape kept: over 1000 px in
# a window of 1280 (the page's column is 64em), under 800 in one of 800,
# and in both as wide for its height as its viewBox
vb=$(sed -n 's/.*<svg xmlns=[^>]* viewBox="0 0 \([0-9.]*\) \([0-9.]*\)".*/\1x\2/p' \
    "$tmp/out/turn-001.html" | head -1)
[ -n "$vb" ] || fail "turn 1: the map has no viewBox"
for w in 1280 800; do
	size=$(mapsize "$tmp/out/turn-001.html" $w)
	[ -n "$size" ] || fail "chromium gives no size of the map at $w px"
	$py -c 'import sys
w, h = map(float, sys.argv[1].split("x"))
vw, vh = map(float, sys.argv[2].split("x"))
win = int(sys.argv[3])
ok = (w > 1000 if win == 1280 else w < win) and abs(w / h - vw / vh) < 0.01
sys.exit(0 if ok else 1)' "$size" "$vb" $w ||
	    fail "the map is $size px in a window of $w px (its viewBox $vb)"
	ok
done
echo "site: $n checks, all passed"
