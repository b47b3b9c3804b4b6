#!/bin/sh
# send-outbox.sh: send the mail crown left in a campaign's outbox.
#
# `crown inbox` (acknowledgements, refusals) and `crown turn` (each
# player's report) deliver their messages into DIR/outbox, a Maildir:
# whole files appear in outbox/new/.  This script hands each one to a
# sendmail-compatible command, which reads the recipients from the To: and
# Cc: headers (-t), and moves it to outbox/cur/ once sent, so a message is
# sent once even when the script runs again.  A message the command
# refuses stays in new/ for the next run.  With nothing to send it prints
# nothing.
#
# Usage: send-outbox.sh [-n] [-s COMMAND] DIR
#   DIR         the campaign (or the outbox Maildir itself)
#   -n          list what would be sent (recipient and subject decoded);
#               send nothing
#   -s COMMAND  the command to send with, a shell command line that reads
#               one message on its standard input (default: "msmtp
#               --read-envelope-from -t" when msmtp is installed, else
#               "sendmail -t -oi")
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

# The header h of a message, unfolded and with its RFC 2047 encoded words
# decoded (B and Q; UTF-8 kept, ISO-8859-1 made UTF-8), as a person
# reads it: GMime encodes a subject or name that is not ASCII.
header() {
	LC_ALL=C awk -v h="$1" '
	BEGIN {
		b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
		    "0123456789+/"
		for (i = 1; i < 256; i++)
			ord[sprintf("%c", i)] = i
		hex = "0123456789ABCDEF"
	}
	function unb64(s,    i, v, n, bits, out) {
		out = ""; n = 0; bits = 0
		for (i = 1; i <= length(s); i++) {
			v = index(b64, substr(s, i, 1)) - 1
			if (v < 0)
				continue
			n = n * 64 + v; bits += 6
			if (bits >= 8) {
				bits -= 8
				out = out sprintf("%c", int(n / 2 ^ bits))
				n = n % (2 ^ bits)
			}
		}
		return out
	}
	function unq(s,    i, c, out) {
		out = ""
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "_")
				c = " "
			else if (c == "=" && i + 2 <= length(s)) {
				c = sprintf("%c", \
				    (index(hex, toupper(substr(s, i + 1, 1))) \
				    - 1) * 16 + \
				    index(hex, toupper(substr(s, i + 2, 1))) - 1)
				i += 2
			}
			out = out c
		}
		return out
	}
	function latin1(s,    i, b, out) {
		out = ""
		for (i = 1; i <= length(s); i++) {
			b = ord[substr(s, i, 1)]
			if (b < 128)
				out = out substr(s, i, 1)
			else
				out = out sprintf("%c%c", 192 + int(b / 64), \
				    128 + b % 64)
		}
		return out
	}
	function decode(s,    out, pre, w, p, cs, enc, txt, dec, prev) {
		out = ""; prev = 0
		while (match(s, /=\?[^?]+\?[BbQq]\?[^?]*\?=/)) {
			pre = substr(s, 1, RSTART - 1)
			w = substr(s, RSTART + 2, RLENGTH - 4)
			s = substr(s, RSTART + RLENGTH)
			# blanks between two encoded words are dropped
			if (!(prev && pre ~ /^[ \t]*$/))
				out = out pre
			p = index(w, "?"); cs = tolower(substr(w, 1, p - 1))
			enc = substr(w, p + 1, 1); txt = substr(w, p + 3)
			dec = (enc == "B" || enc == "b") ? unb64(txt) : unq(txt)
			if (cs == "iso-8859-1" || cs == "latin1")
				dec = latin1(dec)
			out = out dec; prev = 1
		}
		return out s
	}
	/^\r?$/ { exit }
	/^[ \t]/ { if (on) v = v $0; next }
	{ on = 0 }
	tolower(substr($0, 1, length(h) + 1)) == tolower(h) ":" && !done {
		v = substr($0, length(h) + 2); on = 1; done = 1
	}
	END { sub(/\r$/, "", v); sub(/^[ \t]+/, "", v); print decode(v) }
	' "$2"
}

sent=0
failed=0
for f in "$box"/new/*; do
	[ -f "$f" ] || continue
	name=${f##*/}
	to=$(header To "$f")
	subject=$(header Subject "$f")
	if [ -n "$dry" ]; then
		echo "would send $name to $to: $subject"
		continue
	fi
	# a shell command line, so that -s may quote, pipe or redirect
	if sh -c "$cmd" < "$f"; then
		# Maildir: cur/ names carry flags; S is "seen"
		mv "$f" "$box/cur/$name:2,S" || exit 73
		echo "sent $name to $to: $subject"
		sent=$((sent + 1))
	else
		echo "send-outbox.sh: could not send $name to $to; kept" >&2
		failed=$((failed + 1))
	fi
done
# an empty outbox says nothing, so that cron mails only news
[ -n "$dry" ] || [ $((sent + failed)) -eq 0 ] ||
    echo "$sent sent, $failed kept for the next run"
[ "$failed" -eq 0 ]
