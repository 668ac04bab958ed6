#!/bin/sh
# The README's speed figures come from the benchmarks through scripts, never typed by hand: its
# section "Speed" is exactly what tests/bench/speed_section.sh makes of the committed output of
# `make bench` (tests/bench/results.txt), and "Speed as an MPI job" what tests/bench/mpi_section.sh
# makes of that of `make bench-mpi` (tests/bench/results-mpi.txt). Refresh them with
# `./dev.sh bench` and `./dev.sh bench-mpi`, then the script with the README as second argument.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B="$IODFG_SRCDIR/tests/bench"

# readme_section TITLE: the README's section of that title, up to the next section's title
readme_section() {
  awk -v title="$1" '$0 == title { on = 1 } on && /^-+$/ && prev != title && prev != "" { exit }
    on { if (held) print held_line; held_line = $0; held = 1 } { prev = $0 }' "$IODFG_SRCDIR/README"
}

sh "$B/speed_section.sh" "$B/results.txt" >"$T/want"
readme_section Speed >"$T/got"
check "README's Speed section is the script's output on tests/bench/results.txt" cmp "$T/want" "$T/got"
rows=$(sed -n '/^=== SUMMARY/,$p' "$B/results.txt" | grep -c '|')
shown=$(grep -c ' met$' "$T/got")
check "every figure row of results.txt is in the README ($rows rows)" test "$rows" -eq "$((shown + 1))"

sh "$B/mpi_section.sh" "$B/results-mpi.txt" >"$T/want-mpi"
readme_section "Speed as an MPI job" >"$T/got-mpi"
check "README's MPI speed section is the script's output on tests/bench/results-mpi.txt" \
  cmp "$T/want-mpi" "$T/got-mpi"
rows=$(grep -c 'speedup at 2' "$B/results-mpi.txt")
shown=$(grep -c 'x ([0-9.]*-[0-9.]*x) ' "$T/got-mpi")
check "every strong-scaling row of results-mpi.txt is in the README ($rows rows)" \
  test "$rows" -eq "$shown" -a "$rows" -eq 8
check "the MPI section gives its date" grep -q 'Measured by `make bench-mpi` on 20[0-9-]* (' "$T/got-mpi"
check "the MPI section gives the goal, 1.7x" grep -q '^Goal: 1.7x;' "$T/got-mpi"

# The scripts replace their section in place and leave the rest of the README alone.
cp "$IODFG_SRCDIR/README" "$T/README"
sh "$B/speed_section.sh" "$B/results.txt" "$T/README"
sh "$B/mpi_section.sh" "$B/results-mpi.txt" "$T/README"
check "updating an up-to-date README changes nothing" cmp "$IODFG_SRCDIR/README" "$T/README"
printf 'Title\n-----\ntext\n' >"$T/other"
cp "$T/other" "$T/other.orig"
st=0
sh "$B/mpi_section.sh" "$B/results-mpi.txt" "$T/other" 2>"$T/err" || st=$?
check "a README without the section is refused (exit 1, saying so)" \
  test "$st" -eq 1 -a -n "$(grep 'no section "Speed as an MPI job"' "$T/err")"
check "... and left as it was, without temporary files" \
  test "$(cmp "$T/other" "$T/other.orig" && ls "$T" | grep -c '^other')" = 2
finish
