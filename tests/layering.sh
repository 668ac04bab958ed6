#!/bin/sh
# Layering check (DESIGN.md): cli/tui -> engine -> model <- io. Fails on a wrong #include edge,
# on third-party headers outside their corner, and on printing or exiting below the UI.
set -u
top=${IODFG_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1
bad=0
report() { echo "layering: $1"; bad=1; }

ENGINE_H='rules|filter|dfg|stats|diff|export|analysis|sanitize|format|metrics|characterize|bandwidth|access'
IO_H='strace|store|ingest|casename|atomicfile'
for f in src/model/*.[ch]; do
  grep -HnE "#include [<\"](iodfg/($ENGINE_H|$IO_H)\.h|hdf5\.h|pcre2\.h|curses\.h|ncurses)" "$f" &&
    report "$f: the model includes nothing from io, engine or third-party libraries"
done
for f in src/io/*.[ch]; do
  grep -HnE "#include [<\"]iodfg/($ENGINE_H)\.h" "$f" && report "$f: io must not include the engine"
  case $f in src/io/store*) ;; *) grep -Hn '#include <hdf5.h>' "$f" && report "$f: <hdf5.h> only in src/io/store*.c" ;; esac
  case $f in src/io/casename.c) ;; *) grep -Hn '#include <pcre2.h>' "$f" && report "$f: <pcre2.h> only in rules/filter and io/casename.c" ;; esac
done
for f in src/engine/*.[ch]; do
  grep -HnE "#include [<\"]iodfg/($IO_H)\.h" "$f" && report "$f: the engine must not include io"
  grep -Hn '#include <hdf5.h>' "$f" && report "$f: <hdf5.h> only in src/io/store*.c"
  case $f in src/engine/rules*|src/engine/filter*) ;; *) grep -Hn '#include <pcre2.h>' "$f" && report "$f: <pcre2.h> only in rules/filter" ;; esac
done
for f in src/model/*.c src/io/*.c src/engine/*.c; do
  [ -f "$f" ] || continue
  grep -HnE '(^|[^_a-z])(printf|puts|putchar|perror|exit|abort)\(|fprintf\((stderr|stdout)|(curses|ncurses)\.h' "$f" |
    grep -vE '^\S+:[0-9]+:\s*(//|/?\*)' && report "$f: library code never prints or exits"
done
for f in src/tui/*.[ch]; do
  [ -f "$f" ] || continue
  grep -HnE '#include [<"](n?curses\.h|ncursesw/)' "$f" && report "$f: curses only in src/tui/term/"
done
for f in src/tui/term/*.[ch]; do
  [ -f "$f" ] || continue
  case $f in src/tui/term/curses.h) continue ;; esac
  grep -HnE '#include <(n?curses\.h|ncursesw/)' "$f" && report "$f: include curses through src/tui/term/curses.h"
done
[ $bad -eq 0 ] && echo "layering: ok"
exit $bad
