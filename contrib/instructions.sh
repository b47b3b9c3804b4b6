#!/bin/sh
# instructions.sh [--zero-before=FUNCTION] COMMAND [ARG...]: run COMMAND
# under callgrind (and every process it starts, --trace-children=yes) and
# print the instructions they executed in all, from the "summary:" line of
# each process's output.  A forked child starts with its parent's counts:
# --zero-before=FUNCTION zeroes a process's counts where it enters
# FUNCTION, the first a child runs, so that they are not counted twice.  Its standard output goes to /dev/null; a
# failure of the command fails this.  Instruction counts, unlike times, are
# the same on every run.
set -eu
zero=
case "${1:-}" in
--zero-before=*)
	zero=$1
	shift
	;;
esac
command -v valgrind >/dev/null 2>&1 || {
	echo "instructions.sh: no valgrind on this machine" >&2
	exit 1
}
tmp=$(mktemp -d /tmp/crown-callgrind-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=callgrind --trace-children=yes \
    --callgrind-out-file="$tmp/cg.%p" --log-file="$tmp/log.%p" $zero \
    "$@" >/dev/null || {
	echo "instructions.sh: $* failed under callgrind" >&2
	cat "$tmp"/log.* >&2
	exit 1
}
cat "$tmp"/cg.* | awk '/^summary:/ { s += $2 } END { printf "%.0f\n", s }'
