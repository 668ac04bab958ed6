#!/bin/sh
# The README's "Speed" section from the output of `make bench` (never typed by hand):
#   tests/bench/speed_section.sh BENCH_OUTPUT            print the section
#   tests/bench/speed_section.sh BENCH_OUTPUT README     replace the section in README
# The section runs from the line "Speed" (with its underline) to the next section's title.
set -eu
[ $# -ge 1 ] && [ -f "$1" ] || { echo "usage: $0 BENCH_OUTPUT [README]" >&2; exit 2; }
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
    /^trace set: / { sub(/^trace set: /, ""); traces = $0 }
    /^engine log: / { sub(/^engine log: /, ""); engine = $0 }
    /^load: .* at the start$/ { load0 = $2 }
    /^load: .* at the end$/ { load1 = $2 }
    /^--- the pandas peer / { peer = $0; sub(/^--- the pandas peer \(/, "", peer); sub(/\).*/, "", peer)
      sub(/.*\//, "", peer) }
    /^peer check: / { sub(/^peer check: /, ""); check = $0 }
    /^=== SUMMARY/ { summary = 1; next }
    summary && /^measure\|/ { next }
    summary && /\|/ { n++; split($0, f, "|"); m[n] = f[1]; b[n] = f[2]; md[n] = f[3]
      g[n] = f[5] == "-" ? "-" : f[5] " " f[4]; s[n] = f[6]; if (length(f[1]) > w) w = length(f[1]) }
    END {
      if (!n) { print "no SUMMARY block in the bench output" > "/dev/stderr"; exit 1 }
      print "Speed"
      print "-----"
      wrap("Measured by `make bench` on " date " (" machine "), best and median of " runs " runs," \
        " load average " load0 " at the start and " load1 " at the end;" \
        " tests/bench/speed_section.sh writes this section from its output, and `./dev.sh bench`" \
        " installs, builds and runs it. Trace set: " traces ".")
      if (peer != "")
        wrap("The pandas peer: " peer "; " check ".")
      wrap("Engine and UI: " engine ".")
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

# the section's text (its status kept), then printed or put in place of README's
text=$(section) || exit 1
printf '%s\n\n' "$text" | sh "$(dirname "$0")/readme_section.sh" Speed ${2:+"$2"}
