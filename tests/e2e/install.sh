#!/bin/sh
# `make install` ships what --help and the man page point to, every --help fits 80 columns,
# and nothing a user reads names the papers by our internal numbers.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
: "${IODFG_BUILDDIR:?run through make check}"
D="$T/dest"
${MAKE:-make} -s -C "$IODFG_BUILDDIR" install DESTDIR="$D" >"$T/install.log" 2>&1 ||
  { cat "$T/install.log"; fail "make install"; finish; }
bin=$(find "$D" -path '*/bin/iodfg' -type f | head -n 1)
docdir=$(find "$D" -type d -path '*/doc/iodfg' | head -n 1)
check "installed: the program" test -x "$bin"
check "installed: the man page" test -n "$(find "$D" -name iodfg.1 -path '*/man1/*')"
check "installed: the themes" test -n "$(find "$D" -name dark.theme -path '*/iodfg/themes/*')"
cmds="convert info tui dfg stats characterize bandwidth handles"
{ "$bin" --help; for c in $cmds; do "$bin" "$c" --help; done; } >"$T/help.txt"
man_src="$IODFG_SRCDIR/doc/iodfg.1"
for doc in $(cat "$T/help.txt" "$man_src" | grep -o '[a-z]*\.md' | sort -u); do
  check "installed: $doc, which --help or the man page names" test -f "$docdir/$doc"
done
# The documents' directory is on a line of its own: its length is the installer's choice.
check "--help lines fit 80 columns (the documents' directory aside)" "$PY" -c '
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
sys.exit(any(len(l) > 80 and not (i and lines[i - 1].endswith(", in"))
             for i, l in enumerate(lines)))' "$T/help.txt"
check "no internal paper numbers in --help, README, man page or doc/" sh -c \
  "! grep -rniE 'seeds? ?0[0-9][0-9]' '$T/help.txt' '$IODFG_SRCDIR/README' '$man_src' '$IODFG_SRCDIR/doc'"
finish
