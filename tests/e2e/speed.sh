#!/bin/sh
# The README's speed figures come from `make bench` through tests/bench/speed_section.sh: its
# Speed section is exactly what the script makes of the committed output tests/bench/results.txt
# (refresh both with `./dev.sh bench`, then the script with the README as second argument).
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
S="$IODFG_SRCDIR/tests/bench/speed_section.sh"
R="$IODFG_SRCDIR/tests/bench/results.txt"
sh "$S" "$R" >"$T/want"
awk '$0 == "Speed" { on = 1 } on && /^-+$/ && prev != "Speed" && prev != "" { exit }
  on { if (held) print held_line; held_line = $0; held = 1 } { prev = $0 }' \
  "$IODFG_SRCDIR/README" >"$T/got"
check "README's Speed section is the script's output on tests/bench/results.txt" cmp "$T/want" "$T/got"
rows=$(sed -n '/^=== SUMMARY/,$p' "$R" | grep -c '|')
shown=$(grep -c ' met$' "$T/got")
check "every figure row of results.txt is in the README ($rows rows)" test "$rows" -eq "$((shown + 1))"
# The script replaces the section in place and leaves the rest of the README alone.
cp "$IODFG_SRCDIR/README" "$T/README"
sh "$S" "$R" "$T/README"
check "updating an up-to-date README changes nothing" cmp "$IODFG_SRCDIR/README" "$T/README"
finish
