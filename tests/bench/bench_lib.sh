# SPDX-License-Identifier: MIT
# Helpers of the benchmark scripts (run.sh, scale.sh): summary rows and best/median. Source it
# after setting $summary, the file the SUMMARY block is made of.

# row NAME UNIT GOAL BEST MEDIAN: one line of the summary. GOAL is like "<= 100" or ">= 6" (met
# when the median meets it; otherwise the status says by how much it misses: "3.1x over" the
# bound, or "2.2x short" of the floor), or "-" (no goal).
row() {
  met=$(awk -v g="$3" -v m="$5" 'BEGIN { if (g == "-") { print "no goal"; exit }
    split(g, p, " ")
    if (p[1] == "<=") { if (m <= p[2]) print "met"; else printf "not met (%.2gx over)\n", m / p[2] }
    else if (m >= p[2]) print "met"
    else if (m > 0) printf "not met (%.2gx short)\n", p[2] / m
    else print "not met" }')
  printf '%s|%s|%s|%s|%s|%s\n' "$1" "$4" "$5" "$2" "$3" "$met" >>"$summary"
}

# row_not_run NAME UNIT GOAL WHY: a row whose measure could not be taken, and why.
row_not_run() {
  printf '%s|-|-|%s|%s|%s\n' "$1" "$2" "$3" "$4" >>"$summary"
}

# best_median lower|higher: the best and the median of the numbers on standard input.
best_median() {
  sort -g | awk -v dir="$1" '{ v[NR] = $1 } END {
    if (!NR) { print "- -"; exit }
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.3g %.3g\n", (dir == "lower") ? v[1] : v[NR], m }'
}
