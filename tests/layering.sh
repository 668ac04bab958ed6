#!/bin/sh
# Layering check (doc/architecture.md): cli, tui, mpi -> report -> engine -> model <- io, and the
# front-ends -> engine, io. Each public header's layer is where its module's code lives
# (include/iodfg/NAME.h belongs to the folder of src/{model,io,engine,report}/NAME.c, else
# NAME_*.c), so the check cannot go stale as modules come.
# Also fails on third-party headers outside their corner and on printing or exiting below the UI.
set -u
top=${IODFG_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1
bad=0
report() { echo "layering: $1"; bad=1; }

# layer_of NAME: the layer (model, io, engine, report) of include/iodfg/NAME.h, or "" when
# no module file says, or "ambiguous" when module files live in several layers.
layer_of() {
  dirs=$(ls src/model/"$1".c src/io/"$1".c src/engine/"$1".c src/report/"$1".c 2>/dev/null |
    cut -d/ -f2 | sort -u)
  [ -n "$dirs" ] || dirs=$(ls src/model/"$1"_*.c src/io/"$1"_*.c src/engine/"$1"_*.c \
    src/report/"$1"_*.c 2>/dev/null | cut -d/ -f2 | sort -u)
  case $(printf '%s\n' "$dirs" | grep -c .) in
    0) echo "" ;;
    1) echo "$dirs" ;;
    *) echo ambiguous ;;
  esac
}

# allowed FROM TO: whether code in layer FROM may include a public header of layer TO.
allowed() {
  case "$1:$2" in
    model:model | io:model | io:io | engine:model | engine:engine) return 0 ;;
    report:model | report:engine | report:report) return 0 ;;
    tui:model | tui:io | tui:engine | tui:report | cli:* | mpi:*) return 0 ;;
    *) return 1 ;;
  esac
}

layers=$(mktemp)
trap 'rm -f "$layers"' EXIT
for h in include/iodfg/*.h; do
  name=$(basename "$h" .h)
  layer=$(layer_of "$name")
  case $layer in
    "") report "$h: no src/*/$name.c or src/*/${name}_*.c tells its layer" ;;
    ambiguous) report "$h: its module files live in several layers" ;;
    *) echo "$name $layer" >>"$layers" ;;
  esac
done

for f in $(find src -name '*.[ch]' | sort); do
  from=$(echo "$f" | cut -d/ -f2)
  for name in $(sed -n 's/^#include [<"]iodfg\/\([a-z0-9_]*\)\.h[>"].*/\1/p' "$f"); do
    to=$(awk -v n="$name" '$1 == n {print $2}' "$layers")
    [ -n "$to" ] || continue # reported above
    allowed "$from" "$to" || report "$f: $from code includes iodfg/$name.h of the $to layer"
  done
done

for f in $(find src -name '*.[ch]' | sort); do
  case $f in
    src/io/store*) ;;
    *) grep -Hn '#include <hdf5.h>' "$f" && report "$f: <hdf5.h> only in src/io/store*" ;;
  esac
  # MPI lives in src/mpi/ (iodfg-mpi); the MPI build of <hdf5.h> brings its types to
  # src/io/store_par.c, which only iodfg-mpi links.
  case $f in
    src/mpi/*) ;;
    *) grep -HnE '#include [<"]mpi\.h[>"]' "$f" && report "$f: <mpi.h> only in src/mpi/" ;;
  esac
  case $f in
    src/mpi/*) grep -Hn 'include.*tui/' "$f" && report "$f: iodfg-mpi links no terminal UI" ;;
    src/tui/*) grep -HnE '#include "(cli|mpi)/' "$f" && report "$f: the TUI includes no other front-end" ;;
    src/report/*) grep -HnE '#include "(cli|tui|mpi)/' "$f" && report "$f: the reports are below the front-ends" ;;
  esac
  case $f in
    src/engine/rules* | src/engine/filter* | src/io/casename.c) ;;
    *) grep -Hn '#include <pcre2.h>' "$f" && report "$f: <pcre2.h> only in rules, filters and io/casename.c" ;;
  esac
  case $f in
    src/tui/term/curses.h) ;;
    src/tui/term/*) grep -HnE '#include <(n?curses\.h|ncursesw/)' "$f" &&
      report "$f: include curses through src/tui/term/curses.h" ;;
    *) grep -HnE '#include [<"](n?curses\.h|ncursesw/)' "$f" && report "$f: curses only in src/tui/term/" ;;
  esac
done
for f in src/model/*.c src/io/*.c src/engine/*.c src/report/*.c; do
  [ -f "$f" ] || continue
  grep -HnE '(^|[^_a-z])(printf|puts|putchar|perror|exit|abort)\(|fprintf\((stderr|stdout)' "$f" |
    grep -vE '^\S+:[0-9]+:\s*(//|/?\*)' && report "$f: library code never prints or exits"
done
# views and the terminal code read the app through its functions (app.h): struct tui_app is in
# app_priv.h, for the app's own files only
for f in $(find src -name '*.[ch]' | sort); do
  case $f in
    src/tui/app*.c | src/tui/app_priv.h) ;;
    *) grep -Hn '#include "tui/app_priv.h"' "$f" && report "$f: struct tui_app is the app's own (app.h has its functions)" ;;
  esac
done
# the front-ends are siblings: the program's main reaches the TUI through its entry
# (tui/tui_main.h) only, and in src/tui only that entry uses the command line's shared helpers
for f in $(find src/cli src/tui -name '*.[ch]' | sort); do
  case $f in
    src/cli/*) grep -HnE '#include "tui/' "$f" | grep -v '"tui/tui_main.h"' &&
      report "$f: the command line includes of the TUI only its entry, tui/tui_main.h" ;;
    src/tui/tui_main.c) ;;
    src/tui/*) grep -HnE '#include "(cli/)?cli[a-z_]*\.h"' "$f" && report "$f: the TUI includes no command-line header (only its entry, tui_main.c, does)" ;;
  esac
done
[ $bad -eq 0 ] && echo "layering: ok"
exit $bad
