#!/bin/sh
# A section of the README from standard input (the benchmark scripts write theirs through it):
#   ... | tests/bench/readme_section.sh TITLE            print it
#   ... | tests/bench/readme_section.sh TITLE README     replace README's section TITLE with it
# A section runs from its title (a line underlined with dashes) to the next section's title;
# the input holds the whole section, its title included.
set -eu
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: ... | $0 TITLE [README]" >&2; exit 2; }
title=$1
if [ $# -eq 1 ]; then
  cat
  exit 0
fi
readme=$2
[ -f "$readme" ] || { echo "$0: $readme: no such file" >&2; exit 1; }
new="$readme.section.$$"
cat >"$new"
if ! awk -v title="$title" -v new="$new" '
  { line[NR] = $0 }
  END {
    for (i = 1; i < NR && !(line[i] == title && line[i + 1] ~ /^-+$/); i++) {}
    if (i >= NR) { print "no section \"" title "\" in the README" > "/dev/stderr"; exit 1 }
    for (j = i + 2; j < NR && !(line[j] != "" && line[j + 1] ~ /^-+$/); j++) {}
    for (k = 1; k < i; k++) print line[k]
    while ((getline l < new) > 0) print l
    for (k = j; k <= NR; k++) print line[k]
  }' "$readme" >"$readme.new.$$"; then
  rm -f "$new" "$readme.new.$$"
  exit 1
fi
rm -f "$new"
mv "$readme.new.$$" "$readme"
