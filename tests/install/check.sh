#!/bin/sh
# tests/install/check.sh: make install into a scratch DESTDIR, then look
# at what a user gets: the program, crown-send-outbox, crown-week and its
# systemd unit and timer, the rules, the
# templates, every bundled game's files, the man page with its data
# directory filled in, and a bash completion that completes commands and
# each command's options.  The last line is "install: N checks, all
# passed" or "install: FAIL ..." (tests/summary.sh counts it).
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
prefix=/usr/local
root=$tmp/root
n=0
fail() {
	echo "install: FAIL: $*"
	exit 1
}
ok() {
	n=$((n + 1))
}
make -s --no-print-directory install DESTDIR="$root" PREFIX=$prefix \
    >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "make install"; }
ok
bin=$root$prefix/bin
data=$root$prefix/share/crown
[ -x "$bin/crown" ] && "$bin/crown" --version >/dev/null ||
    fail "$bin/crown does not run"
ok
[ -x "$bin/crown-send-outbox" ] || fail "no crown-send-outbox"
cmp -s contrib/send-outbox.sh "$bin/crown-send-outbox" ||
    fail "crown-send-outbox is not contrib/send-outbox.sh"
ok
[ -x "$bin/crown-week" ] && cmp -s contrib/crown-week.sh "$bin/crown-week" ||
    fail "crown-week is not contrib/crown-week.sh"
ok
for f in crown-week.service crown-week.timer; do
	cmp -s "contrib/systemd/$f" "$data/systemd/$f" ||
	    fail "$data/systemd/$f differs from contrib/systemd/$f"
done
ok
for f in rules/*.yaml templates/*; do
	[ -f "$f" ] || continue
	cmp -s "$f" "$data/$f" || fail "$data/$f differs from $f"
done
ok
for f in $(find games -type f | sort); do
	cmp -s "$f" "$data/$f" || fail "$data/$f differs from $f"
done
ok
man=$root$prefix/share/man/man1/crown.1
grep -q "$prefix/share/crown" "$man" && ! grep -q '@DATADIR@' "$man" ||
    fail "$man does not name $prefix/share/crown"
ok
comp=$root$prefix/share/bash-completion/completions/crown
command -v bash >/dev/null || fail "no bash to try the completion"
# complete "crown ro" and "crown orders --s"
got=$(bash -c '. "$1"
	COMP_WORDS=(crown ro); COMP_CWORD=1; _crown; echo "${COMPREPLY[*]}"
	COMP_WORDS=(crown orders --s); COMP_CWORD=2; _crown
	echo "${COMPREPLY[*]}"' sh "$comp") || fail "$comp does not load"
[ "$got" = "roster
--side --shorthand" ] || fail "$comp completes: $got"
ok
# every command of the program is in the completion
for c in $("$bin/crown" --help 2>&1 | awk '/^  crown [a-z]+/{print $2}'); do
	grep -q "^	$c)" "$comp" || fail "$comp lacks $c"
done
ok
echo "install: $n checks, all passed"
