#!/bin/sh
# tests/mta/check.sh: a campaign's mail through a real mail server.  It
# starts a Postfix of its own (tests/mta/main.cf, master.cf) in a scratch
# directory, listening on 127.0.0.1 at a free port and nowhere else, that
# delivers the mail of camp.test into a Maildir a mailbox: the umpire's
# and each player's.  Then, as an umpire and two players would:
#
#  1. `crown new` Camerone with `--umpire "Umpire <umpire@camp.test>"`,
#     a player for each side (Danjou with a password, Milan with an
#     OpenPGP key made in a throwaway GnuPG home); their briefings sent
#     with contrib/send-outbox.sh through Postfix's sendmail, and
#     delivered to each player;
#  2. each round of mails (tests/mta/mails/R-*.eml, round R) submitted by
#     SMTP as the players' clients write them, delivered to the umpire,
#     read by `crown inbox`; each mail gets the verdict its X-Test field
#     names, and its answer, sent with send-outbox.sh, is delivered to
#     its sender with the Subject of that verdict and the line its
#     X-Test-Answer field names (tests/mta/mail.py says more);
#  3. `crown turn` plays the orders of the last round, and each player's
#     report is delivered to him.
#
# Every wait for a delivery is a poll with a timeout (MTA_TIMEOUT, 30
# seconds); on a failure the mail server's log is printed, and
# MTA_KEEP=1 keeps the scratch directory.  Postfix is
# stopped at the end whatever happens, and the test checks that no
# process of it is left.  Postfix runs only as root: a user who is not
# gets "mta: SKIP: ..." and status 0.  The last line is "mta: N checks,
# all passed" (tests/summary.sh counts it) or "mta: FAIL: ...".
#
# usage: tests/mta/check.sh [CROWN]   (default ./crown)
set -u
bin=${1:-./crown}
here=$(dirname "$0")
py=/usr/bin/python3
postfix=/usr/sbin/postfix
sendmail=/usr/sbin/sendmail
timeout=${MTA_TIMEOUT:-30}
n=0
top=
started=

if [ "$(id -u)" != 0 ]; then
	echo "mta: SKIP: not root: Postfix runs as root only (make test as" \
	    "root installs it and runs this test)"
	exit 0
fi
fail() {
	echo "mta: FAIL: $*"
	if [ -s "$top/log/maillog" ]; then
		echo "mta: the mail server's log:"
		sed 's/^/  /' "$top/log/maillog"
	fi
	exit 1
}
ok() {
	n=$((n + 1))
}
for t in $postfix $sendmail $py gpg gpgconf; do
	command -v "$t" >/dev/null 2>&1 ||
	    fail "no $t (make test-deps installs it)"
done

# The processes of this test's Postfix: every one has its configuration
# directory in its environment (MAIL_CONFIG), so none is taken for
# another Postfix of the machine.
ours() {
	grep -l -z -x -F "MAIL_CONFIG=$top/conf" /proc/[0-9]*/environ \
	    2>/dev/null | sed 's|^/proc/||; s|/environ$||'
}

# Stop Postfix and wait until no process of it is left (at most 10 s;
# then each is killed by its id).
stop() {
	[ -n "$started" ] || return 0
	started=
	$postfix -c "$top/conf" stop >/dev/null 2>&1
	i=0
	while [ -n "$(ours)" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	left=$(ours)
	[ -z "$left" ] && return 0
	kill -KILL $left 2>/dev/null
	return 1
}

gpg_stop() {
	for h in "$top/gnupg" "$top/camp/.git/crown-gnupg"; do
		[ -d "$h" ] && GNUPGHOME=$h gpgconf --kill all >/dev/null 2>&1
	done
	return 0
}

cleanup() {
	stop
	gpg_stop
	if [ -n "${MTA_KEEP:-}" ]; then
		echo "mta: kept $top"
	else
		rm -rf "$top"
	fi
}

top=$(mktemp -d) || exit 1
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
# the virtual delivery agent runs as nobody: it must reach mail/
chmod 755 "$top"
mkdir -p "$top/conf" "$top/queue" "$top/data" "$top/mail" "$top/log" &&
    chown postfix "$top/data" &&
    chown nobody:nogroup "$top/mail" || fail "cannot make $top"
mkdir -m 700 "$top/gnupg" || fail "cannot make $top/gnupg"

# 0. Postfix, on a free port of 127.0.0.1
port=$($py "$here/mail.py" port) || fail "no free port"
for f in main.cf master.cf; do
	sed -e "s|@TOP@|$top|g" -e "s|@PORT@|$port|g" \
	    -e "s|@UID@|$(id -u nobody)|g" -e "s|@GID@|$(id -g nobody)|g" \
	    "$here/$f" >"$top/conf/$f" || fail "cannot write $f"
done
for p in umpire danjou milan; do
	echo "$p@camp.test $p/"
done >"$top/conf/vmailbox"
started=1
$postfix -c "$top/conf" start >"$top/log/start" 2>&1 ||
    fail "postfix -c $top/conf start: $(cat "$top/log/start")"
master=$(tr -d ' \n' <"$top/queue/pid/master.pid")
heard=$($py "$here/mail.py" listeners "$master")
[ "$heard" = "127.0.0.1:$port" ] ||
    fail "Postfix listens on '$heard', not on 127.0.0.1:$port alone"
ok
submit=$sendmail' -C '$top/conf' -t -oi'

# The number of messages in the Maildir of each address given.
count() {
	for a in "$@"; do
		ls "$top/mail/$a/new" 2>/dev/null
	done | wc -l
}

# Wait until the Maildirs of the addresses given hold N messages.
wait_for() {
	want=$1
	shift
	i=0
	while [ "$(count "$@")" -lt "$want" ]; do
		[ $i -ge $((timeout * 10)) ] &&
		    fail "after ${timeout}s, $(count "$@") messages of $want" \
			"in the Maildirs of $*"
		sleep 0.1
		i=$((i + 1))
	done
}

# Send the outbox through Postfix, and wait for every message sent to
# arrive in the players' Maildirs.
send_outbox() {
	before=$(count danjou milan)
	sh contrib/send-outbox.sh -s "$submit" "$top/camp" \
	    >"$top/send.out" 2>&1 ||
	    fail "send-outbox.sh: $(cat "$top/send.out")"
	sent=$(sed -n 's/^\([0-9]*\) sent, 0 kept for the next run$/\1/p' \
	    "$top/send.out")
	[ -n "$sent" ] && [ "$sent" -gt 0 ] ||
	    fail "send-outbox.sh sent nothing: $(cat "$top/send.out")"
	wait_for $((before + sent)) danjou milan
}

# 1. the campaign, its players, their briefings
"$bin" new "$top/camp" --scenario games/camerone/scenario.yaml \
    --umpire "Umpire <umpire@camp.test>" >"$top/out" 2>&1 ||
    fail "crown new: $(cat "$top/out")"
echo "a password of Danjou's" >"$top/password-danjou"
"$bin" roster "$top/camp" add legion "Jean Danjou <danjou@camp.test>" \
    --password-file "$top/password-danjou" >"$top/out" 2>&1 ||
    fail "crown roster add danjou: $(cat "$top/out")"
GNUPGHOME=$top/gnupg gpg --batch --pinentry-mode loopback --passphrase '' \
    --quick-gen-key "Francisco Milán <milan@camp.test>" default default \
    never >"$top/out" 2>&1 || fail "gpg: $(cat "$top/out")"
fpr=$(GNUPGHOME=$top/gnupg gpg --batch --with-colons --list-keys \
    milan@camp.test 2>/dev/null | awk -F: '/^fpr/ { print $10; exit }')
GNUPGHOME=$top/gnupg gpg --batch --armor --export "$fpr" >"$top/milan.asc"
"$bin" roster "$top/camp" add republic \
    "Francisco Milán <milan@camp.test>" --openpgp "$fpr" \
    --key-file "$top/milan.asc" >"$top/out" 2>&1 ||
    fail "crown roster add milan: $(cat "$top/out")"
ok
send_outbox
# Each player's Maildir holds a message To him with that Subject.
delivered() {
	$py "$here/mail.py" list "$top/mail/$1" >"$top/list" ||
	    fail "cannot read $1's Maildir"
	grep -q -x "$2	To: .*<$1@camp.test>" "$top/list" ||
	    fail "no '$2' to $1 in his Maildir: $(cat "$top/list")"
}
for p in danjou milan; do
	delivered $p 'Subject: \[Camerone\] Briefing for .*'
done
ok

# 2. the players' mail, round by round
rounds=$(cd "$here/mails" && ls *.eml | sed 's/-.*//' | sort -n -u)
[ -n "$rounds" ] || fail "no mails in $here/mails"
for r in $rounds; do
	mails=$(ls "$here/mails/$r"-*.eml)
	before=$(count umpire)
	: >"$top/ids"
	for m in $mails; do
		id=$($py "$here/mail.py" send "$port" "$top" "$m" \
		    2>"$top/out") || fail "${m##*/}: not sent: $(cat "$top/out")"
		echo "$id $m" >>"$top/ids"
	done
	wait_for $((before + $(wc -l <"$top/ids"))) umpire
	# more mails from one player in a turn than --max-answers' default
	"$bin" inbox "$top/camp" "$top/mail/umpire" --max-answers 20 \
	    >"$top/inbox.out" 2>&1 ||
	    fail "crown inbox: $(cat "$top/inbox.out")"
	send_outbox
	while read -r id m; do
		name=${m##*/}
		verdict=$(sed -n 's/^X-Test: \([a-z]*\).*/\1/p' "$m")
		answer=$(sed -n 's/^X-Test-Answer: //p' "$m")
		from=$(sed -n 's/^From: .*<\(.*\)@camp\.test>$/\1/p' "$m")
		# the Subject of crown's answer to a mail of that verdict
		case $verdict in
		accepted) subject='\[Camerone\] Turn 1: orders accepted for .*' ;;
		refused) subject='\[Camerone\] Turn 1: orders not accepted' ;;
		*) fail "$name: X-Test: no verdict crown gives: '$verdict'" ;;
		esac
		file=$($py "$here/mail.py" find "$top/mail/umpire" "$id") ||
		    fail "$name: not in the umpire's Maildir"
		grep -q "^new/$file: ${verdict}[:,]" "$top/inbox.out" ||
		    fail "$name: not $verdict: $(cat "$top/inbox.out")"
		$py "$here/mail.py" answer "$top/mail/$from" "$id" \
		    >"$top/answer" 2>&1 ||
		    fail "$name: no answer in $from's Maildir"
		grep -q -x "To: .*<$from@camp.test>" "$top/answer" ||
		    fail "$name: answered to $(sed -n 1p "$top/answer")"
		grep -q -x "Subject: $subject" "$top/answer" ||
		    fail "$name: answered $(sed -n 2p "$top/answer")"
		# from the umpire crown new was given
		grep -q -x "From: Umpire <umpire@camp.test>" "$top/answer" ||
		    fail "$name: answered $(sed -n 3p "$top/answer")"
		[ -z "$answer" ] || sed 's/^[[:space:]]*//; s/[[:space:]]*$//' \
		    "$top/answer" | grep -q -F -x -e "$answer" ||
		    fail "$name: no line '$answer' in the answer:" \
			"$(cat "$top/answer")"
		ok
	done <"$top/ids"
done

# 3. the turn, and each player's report
"$bin" turn "$top/camp" >"$top/out" 2>&1 ||
    fail "crown turn: $(cat "$top/out")"
send_outbox
for p in danjou milan; do
	delivered $p 'Subject: \[Camerone\] Turn 1: report for .*'
done
ok
# the orders of the last round were played, not those it replaced
git -C "$top/camp" show main:orders/turn-001/legion.yaml >"$top/played" \
    2>&1 || fail "no orders of legion in turn 1: $(cat "$top/played")"
[ "$(grep -c -x '  *- fire: veracruz-bn' "$top/played")" = 1 ] &&
    grep -q -x '  *- reload' "$top/played" ||
    fail "turn 1 played other orders of legion: $(cat "$top/played")"
ok

# nothing bounced, nothing waits for another try
grep -E 'status=(bounced|deferred)' "$top/log/maillog" >"$top/out" &&
    fail "mail not delivered: $(cat "$top/out")"
ok

stop || fail "Postfix left running after postfix stop; killed"
ok
echo "mta: $n checks, all passed"
