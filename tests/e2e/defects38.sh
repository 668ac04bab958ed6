#!/bin/sh
# SPDX-License-Identifier: MIT
# Defects of issue 38 section 5, each with its check: the man page (SYNOPSIS one command a line,
# no troff warning in the C locale); -o - is standard output, never a file named '-'; a return
# value past 64 bits is named in the message; --help and --version of a build tree name its
# source's documents; an OTF2 archive is counted as one, with its records.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B=$IODFG_BIN
MAN=$IODFG_SRCDIR/doc/iodfg.1

# ---- the man page ---------------------------------------------------------------------------
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
  for loc in C C.UTF-8; do
    LC_ALL=$loc MANWIDTH=80 man --warnings=w -l "$MAN" >"$T/man.$loc" 2>"$T/man.$loc.err" || true
    check "man page in $loc: no troff warning" sh -c "! grep . '$T/man.$loc.err'"
    check "man page in $loc: the start node's symbol" grep -q 'start node' "$T/man.$loc"
  done
  check "man page in C: [start] and [end], as the program prints them there" \
    sh -c "tr -s ' \n' '  ' <'$T/man.C' | grep -q 'start node \[start\] and an end node \[end\]'"
  sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' "$T/man.C" >"$T/synopsis"
  for cmd in convert info dfg stats characterize bandwidth handles export insights; do
    check "SYNOPSIS: iodfg $cmd starts its own line" grep -Eq "^ +iodfg +$cmd( |$)" "$T/synopsis"
  done
  check "SYNOPSIS: no two commands on one line" \
    sh -c "! grep -Eq 'iodfg +[a-z]+ .*iodfg +[a-z]' '$T/synopsis'"
else
  echo "skip: man or groff is not installed"
fi

# ---- --help and --version of a build tree that was not installed: its source's doc/ ----------
docdir=$("$B" --version | sed -n 's/^documents: //p')
# (a build tree whose prefix holds an installation names that one: skipped)
if [ -f "$(dirname "$B")/config.status" ] && ! { [ "${docdir% (*}" = "$docdir" ] && [ -d "$docdir" ]; }; then
  src=$(cd "$IODFG_SRCDIR/doc" && pwd -P)
  check "--version: the source tree's documents" test "$docdir" = "$src (this build tree's source; not installed)"
  check "--version: that directory has the documents" test -f "$src/rules.md"
  "$B" --help >"$T/help.txt"
  check "--help: man -l with the source tree's man page" grep -q "'man -l $src/iodfg.1'" "$T/help.txt"
  check "--help: no 'man iodfg' (there is no entry before install)" sh -c "! grep -q \"'man iodfg'\" '$T/help.txt'"
  check "--help: the documents' directory" grep -qx "  $src" "$T/help.txt"
else
  echo "skip: $B is installed or not in a build tree (documents: $docdir)"
fi

# ---- -o -: standard output -----------------------------------------------------------------
mkdir "$T/cwd"
(cd "$T/cwd" && "$B" export -q --format csv -o - "$IODFG_TEST_DATA/traces/ior" >"$T/export.csv")
check "export -o -: no file named '-'" test ! -e "$T/cwd/-"
"$B" export -q --format csv "$IODFG_TEST_DATA/traces/ior" >"$T/export-plain.csv"
check "export -o -: the CSV on standard output, as without -o" cmp -s "$T/export.csv" "$T/export-plain.csv"
(cd "$T/cwd" && "$B" stats -q -o - "$IODFG_TEST_DATA/traces/ior" >"$T/stats.txt")
check "stats -o -: the table on standard output" sh -c "grep -q '^write:/scratch/run ' '$T/stats.txt' && test ! -e '$T/cwd/-'"

# ---- numbers out of range are named ---------------------------------------------------------
printf '12:00:00.000001 read(3</tmp/x>, "a", 1) = 99999999999999999999999 <0.000010>\n' >"$T/big_h_1.st"
printf '12:00:00.000002 read(3</tmp/x>, "a", 1) = 1 <0.000010>\n' >>"$T/big_h_1.st"
"$B" convert -o "$T/big.h5" "$T/big_h_1.st" 2>"$T/big.err" >"$T/big.out" || true
cat "$T/big.out" "$T/big.err" >"$T/big.all"
check "return value past 64 bits: named, at its column" \
  grep -q 'big_h_1.st:1:43: the return value 99999999999999999999999 is out of range (more than 64 bits)' "$T/big.all"
check "return value past 64 bits: the other line is read" grep -q ': 1 event' "$T/big.all"
printf '12:00:00.000001 read(3</tmp/x>, "a", 1) = -%s <0.000010>\n' "$(printf '%060d' 9 | tr 0 1)" >"$T/neg_h_1.st"
"$B" convert -o "$T/neg.h5" "$T/neg_h_1.st" >"$T/neg.all" 2>&1 || true
check "a long one: its sign and start, cut" \
  grep -q 'the return value -111111111111111111111111111111111111\.\.\. is out of range' "$T/neg.all"

# ---- converting an OTF2 archive: its records, no bytes of 0 B, no name pattern ---------------
if "$B" --version | grep -q 'OTF2 input yes'; then
  "$B" convert -o "$T/otf2.h5" "$IODFG_TEST_DATA/otf2/ior_posix/traces.otf2" >"$T/otf2.out" 2>&1
  check "OTF2: an archive and its records" grep -q '^Read 1 OTF2 archive (8,745 records): 1,721 events\.' "$T/otf2.out"
  check "OTF2: no '(0 B, ...)'" sh -c "! grep -q '(0 B' '$T/otf2.out'"
  check "OTF2: no name pattern note (cases are named after locations)" \
    sh -c "! grep -q 'did not match the name pattern' '$T/otf2.out'"
  "$B" convert -o "$T/mix.h5" "$IODFG_TEST_DATA/otf2/ior_posix/traces.otf2" "$IODFG_TEST_DATA/traces/ior" >"$T/mix.out" 2>&1
  check "OTF2 and strace: both counted apart" \
    grep -q '^Read 16 trace files (41.9 KiB, 368 lines) and 1 OTF2 archive (8,745 records): 2,073 events\.' "$T/mix.out"
else
  echo "skip: built without OTF2 input"
fi

finish
