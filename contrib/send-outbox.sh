#!/bin/sh
# send-outbox.sh: send the mail crown left in a campaign's outbox.
#
# `crown inbox` (acknowledgements, refusals) and `crown turn` (each
# player's report) deliver their messages into DIR/outbox, a Maildir:
# whole files appear in outbox/new/.  This script hands each one to a
# sendmail-compatible command, which reads the recipients from the To: and
# Cc: headers (-t), and moves it to outbox/cur/ once sent, so a message is
# sent once even when the script runs again.  A message the command
# refuses stays in new/ for the next run.
#
# Usage: send-outbox.sh [-n] [-s COMMAND] DIR
#   DIR         the campaign (or the outbox Maildir itself)
#   -n          list what would be sent; send nothing
#   -s COMMAND  the command to send with, which reads one message on its
#               standard input (default: "msmtp --read-envelope-from -t"
#               when msmtp is installed, else "sendmail -t -oi")
#
# Example, from cron after fetching and reading the mail:
#   crown inbox ~/camerone ~/Mail/camerone && contrib/send-outbox.sh ~/camerone
set -u

dry=
cmd=
while getopts ns: opt; do
	case $opt in
	n)	dry=1 ;;
	s)	cmd=$OPTARG ;;
	*)	echo "usage: send-outbox.sh [-n] [-s COMMAND] DIR" >&2
		exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 1 ]; then
	echo "usage: send-outbox.sh [-n] [-s COMMAND] DIR" >&2
	exit 2
fi

box=$1
[ -d "$box/outbox/new" ] && box=$box/outbox
if [ ! -d "$box/new" ]; then
	echo "send-outbox.sh: $1: no outbox (no new/ directory)" >&2
	exit 66
fi
mkdir -p "$box/cur" || exit 73

if [ -z "$cmd" ]; then
	if command -v msmtp >/dev/null 2>&1; then
		cmd="msmtp --read-envelope-from -t"
	elif command -v sendmail >/dev/null 2>&1; then
		cmd="sendmail -t -oi"
	elif [ -x /usr/sbin/sendmail ]; then
		cmd="/usr/sbin/sendmail -t -oi"
	elif [ -z "$dry" ]; then
		echo "send-outbox.sh: no msmtp or sendmail: give -s COMMAND" \
		    >&2
		exit 69
	fi
fi

sent=0
failed=0
for f in "$box"/new/*; do
	[ -f "$f" ] || continue
	name=${f##*/}
	to=$(sed -n '/^$/q; s/^To: //p' "$f" | head -n 1)
	subject=$(sed -n '/^$/q; s/^Subject: //p' "$f" | head -n 1)
	if [ -n "$dry" ]; then
		echo "would send $name to $to: $subject"
		continue
	fi
	# shellcheck disable=SC2086 # the command is words on purpose
	if $cmd < "$f"; then
		# Maildir: cur/ names carry flags; S is "seen"
		mv "$f" "$box/cur/$name:2,S" || exit 73
		echo "sent $name to $to: $subject"
		sent=$((sent + 1))
	else
		echo "send-outbox.sh: could not send $name to $to; kept" >&2
		failed=$((failed + 1))
	fi
done
[ -n "$dry" ] || echo "$sent sent, $failed kept for the next run"
[ "$failed" -eq 0 ]
