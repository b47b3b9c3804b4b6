#!/bin/sh
# crown-week.sh: the week's steps of every campaign under a directory, for
# a club that hosts many campaigns on one machine (doc/umpire.md, "Many
# campaigns on one host").  Installed as crown-week.
#
# For each campaign DIR/NAME/ (a directory with .git/ and state.yaml), in
# name order, under a lock of its own (flock on DIR/NAME/.git/crown-week.lock,
# so that two runs never do one campaign's week at once):
#   1. crown inbox DIR/NAME MAILROOT/NAME   the players' mail (with -m, when
#                                           that Maildir exists)
#   2. crown remind DIR/NAME                reminders as the deadline nears
#   3. crown turn DIR/NAME                  once the deadline has passed and
#                                           every side is in; with sides
#                                           missing only when the campaign's
#                                           policy is "missing: hold" (or -a):
#                                           they hold (R2.3); else it waits,
#                                           and says so once a deadline
#   4. crown-send-outbox DIR/NAME           what the steps left in the outbox
#   5. crown publish DIR/NAME               after a turn, when the campaign
#                                           has a remote origin (a forge)
# A quiet week prints nothing, so that cron mails only news; every line
# printed begins with the campaign's NAME.  One campaign failing does not
# stop the others; the exit status is 1 when any failed (they are named on
# standard error), 69 when flock is missing, 2 for a usage error.  A
# campaign whose lock another run holds, or whose crown lock (exit 75) is
# held, is skipped for this run and is no failure.
#
# The policy of a campaign is the file DIR/NAME/.git/crown-week, lines
#   missing: wait     after the deadline, play only once every side is in
#                     (the default)
#   missing: hold     after the deadline, play with the sides missing holding
#
# Usage: crown-week.sh [-a] [-m MAILROOT] [-s COMMAND] [-b DURATION]
#                      [-t TIME] DIR
#   -a           "missing: hold" for every campaign
#   -m MAILROOT  each campaign's mail is in the Maildir MAILROOT/NAME (as
#                delivered for umpire+NAME@example.org)
#   -s COMMAND   what crown-send-outbox sends with (its -s)
#   -b DURATION  crown remind's --before (default 24h)
#   -t TIME      the time (YYYY-MM-DDTHH:MM:SSZ) the steps take as now:
#                --now of inbox, remind and status, --date of turn
#
# Cron, every quarter of an hour:
#   */15 * * * * crown-week -m ~/Mail ~/campaigns
set -u

usage() {
	echo "usage: crown-week.sh [-a] [-m MAILROOT] [-s COMMAND]" \
	    "[-b DURATION] [-t TIME] DIR" >&2
	exit 2
}

hold=
mailroot=
send=
before=
now=
while getopts am:s:b:t: opt; do
	case $opt in
	a)	hold=1 ;;
	m)	mailroot=$OPTARG ;;
	s)	send=$OPTARG ;;
	b)	before=$OPTARG ;;
	t)	now=$OPTARG ;;
	*)	usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
top=$1
if [ ! -d "$top" ]; then
	echo "crown-week.sh: $top: not a directory" >&2
	exit 66
fi
command -v flock >/dev/null 2>&1 || {
	echo "crown-week.sh: no flock (util-linux) to lock each campaign" >&2
	exit 69
}

crown=${CROWN:-crown}
here=$(dirname "$0")

# crown-send-outbox, or the source tree's send-outbox.sh beside this one
sendout() {
	if [ -n "${CROWN_SEND_OUTBOX:-}" ]; then
		"$CROWN_SEND_OUTBOX" "$@"
	elif command -v crown-send-outbox >/dev/null 2>&1; then
		crown-send-outbox "$@"
	else
		sh "$here/send-outbox.sh" "$@"
	fi
}

# Each line of $1 after "$name: ".
prefix() {
	printf '%s\n' "$1" | while IFS= read -r line; do
		printf '%s: %s\n' "$name" "$line"
	done
}

# Run a step of campaign $name: its output (and errors), prefixed; its
# status.
step() {
	out=$("$@" 2>&1)
	st=$?
	[ -n "$out" ] && prefix "$out"
	return $st
}

# The campaign's policy for sides missing after the deadline.
policy() {
	if [ -n "$hold" ]; then
		echo hold
	elif [ -f "$1/.git/crown-week" ] &&
	    grep -q '^missing: *hold *$' "$1/.git/crown-week"; then
		echo hold
	else
		echo wait
	fi
}

# The week of campaign $1, named $name; fd 9 holds its lock.
week() {
	c=$1
	played=
	nowopt=
	[ -n "$now" ] && nowopt="--now=$now"
	# 1. mail in: silent when nothing came
	if [ -n "$mailroot" ] && [ -d "$mailroot/$name" ]; then
		out=$("$crown" inbox "$c" "$mailroot/$name" ${nowopt:+"$nowopt"} \
		    2>&1)
		st=$?
		if [ "$st" -ne 0 ] || ! printf '%s\n' "$out" | grep -Eqx \
		    '[0-9]+ messages?: 0 accepted, 0 late, 0 refused, [0-9]+ already read'; then
			prefix "$out"
		fi
		[ "$st" -eq 75 ] && return 75
		[ "$st" -eq 0 ] || return "$st"
	fi
	# 2. reminders
	step "$crown" remind "$c" ${nowopt:+"$nowopt"} \
	    ${before:+"--before=$before"} || return $?
	# 3. the turn, once the deadline has passed
	status=$("$crown" status "$c" ${nowopt:+"$nowopt"} 2>&1)
	st=$?
	if [ "$st" -ne 0 ]; then
		prefix "$status"
		return "$st"
	fi
	if printf '%s\n' "$status" | head -n 1 | grep -q '(passed [^)]*)$'
	then
		counts=$(printf '%s\n' "$status" | sed -n \
		    's/^\([0-9]*\) of \([0-9]*\) sides have orders in.*/\1 \2/p')
		nin=${counts% *}
		nsides=${counts#* }
		deadline=$(printf '%s\n' "$status" | head -n 1 |
		    sed 's/.*, deadline \([^ ]*\) (passed .*/\1/')
		if [ -n "$nin" ] && [ "$nin" = "$nsides" ]; then
			step "$crown" turn "$c" ${now:+"--date=$now"} || return $?
			played=1
		elif [ "$(policy "$c")" = hold ]; then
			step "$crown" turn "$c" --allow-missing \
			    ${now:+"--date=$now"} || return $?
			played=1
		elif ! grep -qx "$deadline" "$c/.git/crown-week-waiting" \
		    2>/dev/null; then
			echo "$name: the deadline $deadline has passed with" \
			    "$nin of $nsides sides in; waiting (crown turn" \
			    "$c --allow-missing plays it, the others holding)"
			echo "$deadline" > "$c/.git/crown-week-waiting"
		fi
	fi
	# 4. mail out, when there is any
	for f in "$c"/outbox/new/*; do
		[ -f "$f" ] || continue
		if [ -n "$send" ]; then
			step sendout -s "$send" "$c" || return $?
		else
			step sendout "$c" || return $?
		fi
		break
	done
	# 5. the history to the players' forge, after a turn, when the
	# campaign has a remote origin (crown publish DIR URL once made it)
	if [ -n "$played" ] &&
	    grep -q '^\[remote "origin"\]' "$c/.git/config" 2>/dev/null; then
		step "$crown" publish "$c" || return $?
	fi
	return 0
}

failed=
for c in "$top"/*/; do
	c=${c%/}
	if [ ! -d "$c/.git" ] || [ ! -f "$c/state.yaml" ]; then
		continue
	fi
	name=${c##*/}
	(
		if ! flock -n 9; then
			echo "$name: another crown-week has it; skipped"
			exit 0
		fi
		week "$c"
		st=$?
		# the campaign's lock held by another crown: next time
		[ "$st" -eq 75 ] && { echo "$name: busy; skipped"; exit 0; }
		exit $st
	) 9>"$c/.git/crown-week.lock"
	st=$?
	if [ "$st" -ne 0 ]; then
		echo "crown-week.sh: $name: failed (exit $st)" >&2
		failed="$failed $name"
	fi
done
if [ -n "$failed" ]; then
	echo "crown-week.sh: failed:$failed" >&2
	exit 1
fi
exit 0
