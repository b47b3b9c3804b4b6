#!/bin/sh
# instructions.sh COMMAND [ARG...]: run COMMAND under callgrind (and every
# process it starts, --trace-children=yes) and print the instructions
# they executed in all, from the "summary:" line of each process's
# output.  Its standard output goes to /dev/null; a failure of the command
# fails this.  Instruction counts, unlike times, are the same on every run.
set -eu
command -v valgrind >/dev/null 2>&1 || {
	echo "instructions.sh: no valgrind on this machine" >&2
	exit 1
}
tmp=$(mktemp -d /tmp/crown-callgrind-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=callgrind --trace-children=yes \
    --callgrind-out-file="$tmp/cg.%p" --log-file="$tmp/log.%p" \
    "$@" >/dev/null || {
	echo "instructions.sh: $* failed under callgrind" >&2
	cat "$tmp"/log.* >&2
	exit 1
}
cat "$tmp"/cg.* | awk '/^summary:/ { s += $2 } END { printf "%.0f\n", s }'
