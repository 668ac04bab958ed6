#!/bin/sh
# End-to-end on traces recorded now: each pattern of tests/tools/iopattern under strace, then
# the same checks as on the recorded traces (tests/e2e/insights_checks.sh).
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/insights_checks.sh"
IOP=${IODFG_IOPATTERN:?}
if ! command -v strace >/dev/null 2>&1; then echo "SKIP: strace is not installed"; exit 77; fi
if ! strace -f -o /dev/null true 2>/dev/null; then echo "SKIP: ptrace is not permitted here"; exit 77; fi
sh "$IODFG_SRCDIR/tests/tools/record_insights.sh" "$IOP" "$T/tr" "$T/work"
insights_checks "$T/tr"
insights_table "$T/tr"
finish
