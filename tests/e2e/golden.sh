#!/bin/sh
# The reports of the commands (tables, TSV, JSON, DOT, in the C locale and in UTF-8) are what
# they were: every command of tests/data/golden/reports.cmds, run on the recorded traces, prints
# exactly tests/data/golden/reports.out (reports for people in both locales, TSV and JSON in C). After an intended change of a report, write the new
# file with GOLDEN_WRITE=PATH (from a build directory:
#   GOLDEN_WRITE=$PWD/reports.out make check TESTS=tests/e2e/golden.sh)
# and read its diff before committing it.
. "${IODFG_SRCDIR:?}/tests/e2e/lib.sh"
G=$IODFG_TEST_DATA/golden
cd "$IODFG_TEST_DATA/traces"
while IFS= read -r line; do
  case $line in '#'* | '') continue ;; esac
  # the symbols of reports for people differ by locale; TSV and JSON do not
  case " $line " in
    *" --format tsv "* | *" --format json "* | *" --json "*) locales=C ;;
    *) locales="C C.UTF-8" ;;
  esac
  for loc in $locales; do
    echo "### $loc: iodfg $line"
    rc=0
    # shellcheck disable=SC2086 # the line is the command's words
    LC_ALL=$loc "$IODFG_BIN" $line >"$T/out" 2>"$T/err" || rc=$?
    cat "$T/out"
    echo "## exit $rc, standard error:"
    cat "$T/err"
  done
done <"$G/reports.cmds" >"$T/reports.out"
if [ -n "${GOLDEN_WRITE:-}" ]; then
  cp "$T/reports.out" "$GOLDEN_WRITE"
  echo "wrote $GOLDEN_WRITE"
fi
if cmp -s "$G/reports.out" "$T/reports.out"; then
  ok "every report is as recorded ($(grep -c '^### ' "$T/reports.out") runs)"
else
  fail "reports differ from tests/data/golden/reports.out:"
  diff "$G/reports.out" "$T/reports.out" | head -40
fi
finish
