#!/bin/sh
# Replace one section of the README with the text of a file, in place (the benchmark scripts
# write their sections through it):
#   tests/bench/readme_section.sh TITLE NEW_TEXT README
# A section runs from its title (a line underlined with dashes) to the next section's title;
# NEW_TEXT holds the whole section, its title included.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 TITLE NEW_TEXT README" >&2; exit 2; }
for f in "$2" "$3"; do
  [ -f "$f" ] || { echo "$0: $f: no such file" >&2; exit 1; }
done
title=$1 new=$2 readme=$3
awk -v title="$title" -v new="$new" '
  { line[NR] = $0 }
  END {
    for (i = 1; i < NR && !(line[i] == title && line[i + 1] ~ /^-+$/); i++) {}
    if (i >= NR) { print "no section \"" title "\" in the README" > "/dev/stderr"; exit 1 }
    for (j = i + 2; j < NR && !(line[j] != "" && line[j + 1] ~ /^-+$/); j++) {}
    for (k = 1; k < i; k++) print line[k]
    while ((getline l < new) > 0) print l
    for (k = j; k <= NR; k++) print line[k]
  }' "$readme" >"$readme.new.$$" || { rm -f "$readme.new.$$"; exit 1; }
mv "$readme.new.$$" "$readme"
