#!/bin/sh
# The README's speed figures come from the benchmarks through scripts, never typed by hand: its
# section "Speed" is exactly what tests/bench/speed_section.sh makes of the committed output of
# `make bench` (tests/bench/results.txt), "Speed at scale" what tests/bench/scale_section.sh makes
# of that of `make bench-scale` (tests/bench/results-scale.txt), and "Speed as an MPI job" what
# tests/bench/mpi_section.sh makes of that of `make bench-mpi` (tests/bench/results-mpi.txt).
# Refresh them with `./dev.sh bench`, `./dev.sh bench-scale` and `./dev.sh bench-mpi`, then the
# script with the README as second argument. The benches' judgement of a row (met, by how much
# it misses) is checked too.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B="$IODFG_SRCDIR/tests/bench"

# readme_section TITLE: the README's section of that title, up to the next section's title
readme_section() {
  awk -v title="$1" '$0 == title { on = 1 } on && /^-+$/ && prev != title && prev != "" { exit }
    on { if (held) print held_line; held_line = $0; held = 1 } { prev = $0 }' "$IODFG_SRCDIR/README"
}

# table_rows FILE: the rows of a section's table (indented lines but its heading)
table_rows() { grep -c '^    [^ ]' "$1" | awk '{ print $1 - 1 }'; }
# summary_rows FILE: the rows of a bench output's SUMMARY block (but its heading)
summary_rows() { sed -n '/^=== SUMMARY/,$p' "$1" | grep -c '|' | awk '{ print $1 - 1 }'; }

sh "$B/speed_section.sh" "$B/results.txt" >"$T/want"
readme_section Speed >"$T/got"
check "README's Speed section is the script's output on tests/bench/results.txt" cmp "$T/want" "$T/got"
rows=$(summary_rows "$B/results.txt")
check "every figure row of results.txt is in the README ($rows rows)" test "$rows" -eq "$(table_rows "$T/got")"
tr '\n' ' ' <"$T/got" >"$T/got-line"
check "the Speed section's traces were recorded now" grep -q 'Trace set: .* recorded now (' "$T/got-line"
check "... and the pandas peer found the same DFG and statistics" \
  grep -q 'The pandas peer: peer_bench.py: parse with [0-9]* processes, map, pandas; the same DFG and statistics: .*: equal\.' \
  "$T/got-line"

sh "$B/scale_section.sh" "$B/results-scale.txt" >"$T/want-scale"
readme_section "Speed at scale" >"$T/got-scale"
check "README's Speed at scale section is the script's output on tests/bench/results-scale.txt" \
  cmp "$T/want-scale" "$T/got-scale"
rows=$(summary_rows "$B/results-scale.txt")
check "every row of results-scale.txt is in the README ($rows rows)" \
  test "$rows" -eq "$(table_rows "$T/got-scale")" -a "$rows" -gt 0
check "the scale table gives the machine's cores" \
  grep -q '^Measured by `make bench-scale` on 20[0-9-]* (.*, [0-9]* cores' "$T/got-scale"

# the rows' judgement (tests/bench/bench_lib.sh)
summary=$T/summary
: >"$summary"
. "$B/bench_lib.sh"
row "a" s "<= 2" 1.5 1.8
row "b" s "<= 2" 1.5 3.1
row "c" x ">= 50" 30 24
row "d" x ">= 50" 0 0
row "e" s "-" 4 5
row_not_run "f" GB "<= 4" "not run: would need 45 GB"
cat >"$T/want-rows" <<'ROWS'
a|1.5|1.8|s|<= 2|met
b|1.5|3.1|s|<= 2|not met (1.6x over)
c|30|24|x|>= 50|not met (2.1x short)
d|0|0|x|>= 50|not met
e|4|5|s|-|no goal
f|-|-|GB|<= 4|not run: would need 45 GB
ROWS
check "a row is met by its median, or says by how much it misses" cmp "$T/want-rows" "$summary"
check "best and median of runs (lower is better: the smallest)" \
  test "$(printf '3\n1\n2\n4\n' | best_median lower)" = "1 2.5"
check "best and median of runs (higher is better: the largest)" \
  test "$(printf '3\n1\n2\n' | best_median higher)" = "3 2"

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
sh "$B/scale_section.sh" "$B/results-scale.txt" "$T/README"
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
