#!/bin/sh
# crown inbox on a Maildir of N (5,000) small valid mails, the players of
# tests/data/state-small.yaml taking turns: wall time, and the fsyncs and
# renames it makes (strace -c, when strace is there).
#
# usage: contrib/bench-inbox.sh [CROWN] [N]
set -eu
cd "$(dirname "$0")/.."
crown=${1:-build/crown}
n=${2:-5000}
tmp=$(mktemp -d) || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT HUP INT TERM

mkdir -p "$tmp/camp" "$tmp/mail/new" "$tmp/mail/cur" "$tmp/mail/tmp"
sed 's/^  last_turn: 12$/  last_turn: 12\n  deadline: "2026-12-05T18:00:00Z"/' \
    tests/data/state-small.yaml >"$tmp/camp/state.yaml"
cp rules/maximilian.yaml "$tmp/camp/rules.yaml"
i=0
while [ $i -lt "$n" ]; do
	if [ $((i % 2)) -eq 0 ]; then
		from="Jean Danjou <danjou@example.org>"
		body="1-legion: hold
gun-1: hold"
	else
		from="Francisco Milan <milan@example.org>"
		body="2-militia: hold"
	fi
	printf 'From: %s\nTo: Umpire <umpire@example.org>\nSubject: orders %d\nDate: Sat, 05 Dec 2026 11:00:00 +0000\nMessage-ID: <m%d@example.org>\nMIME-Version: 1.0\nContent-Type: text/plain\n\n%s\n' \
	    "$from" $i $i "$body" >"$tmp/mail/new/$(printf '%08d' $i).bench"
	i=$((i + 1))
done
# the first run files and answers every mail (none was read before)
if [ -x /usr/bin/time ]; then
	/usr/bin/time -o "$tmp/time" -f "%e s wall, %U s user, %S s sys" \
	    "$crown" inbox "$tmp/camp" "$tmp/mail" --now 2026-12-05T12:00:00Z \
	    --max-answers 1000000 >"$tmp/out" 2>&1
else
	start=$(date +%s)
	"$crown" inbox "$tmp/camp" "$tmp/mail" --now 2026-12-05T12:00:00Z \
	    --max-answers 1000000 >"$tmp/out" 2>&1
	echo "$(($(date +%s) - start)) s wall" >"$tmp/time"
fi
tail -1 "$tmp/out"
echo "$n mails: $(cat "$tmp/time")"
if command -v strace >/dev/null 2>&1; then
	rm -rf "$tmp/camp/orders" "$tmp/camp/outbox"
	strace -c -f -e trace=fsync,fdatasync,rename,renameat,renameat2 \
	    -o "$tmp/strace" "$crown" inbox "$tmp/camp" "$tmp/mail" \
	    --now 2026-12-05T12:00:00Z --max-answers 1000000 >/dev/null
	grep -E 'fsync|rename|total' "$tmp/strace"
fi
