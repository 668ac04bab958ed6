#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's "Speed at scale" section from the output of `make bench-scale` (never typed by
# hand):
#   tests/bench/scale_section.sh SCALE_OUTPUT            print the section
#   tests/bench/scale_section.sh SCALE_OUTPUT README     replace the section in README
set -eu
[ $# -ge 1 ] && [ -f "$1" ] || { echo "usage: $0 SCALE_OUTPUT [README]" >&2; exit 2; }
out=$1

section() {
  awk '
    # wrap(TEXT): TEXT printed in lines of at most 96 columns, broken at blanks
    function wrap(t,   w, n, i, line) {
      n = split(t, w, " "); line = ""
      for (i = 1; i <= n; i++) {
        if (line != "" && length(line) + 1 + length(w[i]) > 96) { print line; line = w[i] }
        else line = line == "" ? w[i] : line " " w[i]
      }
      if (line != "") print line
    }
    /^machine: / { sub(/^machine: /, ""); machine = $0 }
    /^date: / { date = $2 }
    /^runs: / { runs = $2 }
    /^cases: / { cases = $2 }
    /^profile: / { sub(/^profile: /, ""); profile = $0 }
    /^load: .* at the start$/ { load0 = $2 }
    /^=== SUMMARY/ { summary = 1; l = $0; sub(/.*; load /, "", l); split(l, a, " "); load1 = a[1]; next }
    summary && /^measure\|/ { next }
    summary && /\|/ { n++; split($0, f, "|"); m[n] = f[1]; b[n] = f[2]; md[n] = f[3]
      g[n] = f[5] == "-" ? "-" : f[5] " " f[4]; s[n] = f[6]; if (length(f[1]) > w) w = length(f[1]) }
    END {
      if (!n) { print "no SUMMARY block in the bench-scale output" > "/dev/stderr"; exit 1 }
      print "Speed at scale"
      print "--------------"
      wrap("Measured by `make bench-scale` on " date " (" machine "), best and median of " runs \
        " runs, load average " load0 " at the start and " load1 " at the end;" \
        " tests/bench/scale_section.sh writes this section from its output. Each log has " cases \
        " cases written straight into HDF5 by tests/bench/bench_scale_log, replaying " profile \
        " (their calls, paths, sizes and durations; a path only one process used becomes each" \
        " case'"'"'s own). The TUI is the real program driven in tmux (tests/bench/scale_tui.sh)," \
        " its counts checked against iodfg stats. Every run is under `prlimit --as`, and a size" \
        " whose estimated memory does not fit is not run.")
      print ""
      printf "    %-" w "s %7s %7s  %s\n", "measure", "best", "median", "goal"
      for (i = 1; i <= n; i++) {
        row = sprintf("    %-" w "s %7s %7s  %-19s %s", m[i], b[i], md[i], g[i], s[i])
        sub(/ +$/, "", row)
        print row
      }
      print ""
    }' "$out"
}

text=$(section) || exit 1
printf '%s\n\n' "$text" | sh "$(dirname "$0")/readme_section.sh" "Speed at scale" ${2:+"$2"}
