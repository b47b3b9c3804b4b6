#!/bin/sh
# tests/summary.sh LOG STATUS: the last line of make test, "N passed,
# N failed", from the log of the whole run: each cmocka group's
# "[  PASSED  ] N test(s)." and "[  FAILED  ] N test(s)" lines, and the
# verdicts of the layer check, the sizes check, the install check, the
# site check and the mail server check, which a user who is not root
# skips ("N passed, N failed, N skipped").  A run that failed without a
# failing test (a build error, a crash before cmocka's summary) counts as
# one failure.
# Exits with STATUS, or 1 when any test failed.
log=${1:?usage: summary.sh LOG STATUS}
status=${2:-0}
awk -v status="$status" '
/^\[  PASSED  \] [0-9]+ test/ { passed += $4 }
/^\[  FAILED  \] [0-9]+ test/ { failed += $4 }
/^layers: .*no cycle.*, none against the layer order$/ { passed++ }
/^layers: .*(calls up|make a cycle)/ { bad = 1 }
/^sizes: no file over [0-9]+ lines, / { passed++ }
/^sizes: .*(, over [0-9]+$|functions over [0-9]+ lines, at most)/ { bad = 1 }
/^install: [0-9]+ checks, all passed$/ { passed++ }
/^install: FAIL/ { bad = 1 }
/^site: [0-9]+ checks, all passed$/ { passed++ }
/^site: FAIL/ { bad = 1 }
/^mta: [0-9]+ checks, all passed$/ { passed++ }
/^mta: FAIL/ { bad = 1 }
/^mta: SKIP/ { skipped++ }
END {
	failed += bad
	if (status != 0 && failed == 0) {
		print "make test: a step failed outside the tests (see above)"
		failed = 1
	}
	printf "%d passed, %d failed", passed, failed
	printf skipped ? ", %d skipped\n" : "\n", skipped
	exit failed > 0 ? 1 : status
}' "$log"
