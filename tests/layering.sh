#!/bin/sh
# SPDX-License-Identifier: MIT
# Layering check (doc/architecture.md, "Layers"): the front-ends cli, tui and mpi are siblings
# over the shared command line (cmdline), the reports (report), the engine and io;
# cmdline -> report -> engine -> model <- io. Read from the #include lines and from the
# front-ends' program sources in the Makefile fragments. Also fails on third-party headers
# outside their corner and on printing or exiting below the front-ends.
#
# An include is resolved as the compiler does (for "": the file's folder first; then src/, then
# include/; both are -I directories).
# Edges between folders of src/:
#   - a public header include/iodfg/NAME.h belongs to the layer of
#     src/{model,io,engine,report}/NAME.c (else NAME_*.c), so the check follows new modules by
#     itself; model may include model, io model and io, engine model and engine, report model,
#     engine and report, cmdline and the front-ends any;
#   - a header inside src/ is private to its folder (src/tui/term/ and src/tui/views/ are the
#     tui's), with two exceptions: a front-end may include src/cmdline/ (never the reverse), and
#     cli may include the TUI's entry, $TUI_ENTRY;
#   - a front-end's program compiles only its own folder's files and src/cmdline's (iodfg:
#     src/cli, and src/tui as it links the TUI anyway; libiodfg_tui.a: src/tui; iodfg-mpi:
#     src/mpi).
set -u
top=${IODFG_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1

# The one header of src/tui that the iodfg binary's command line may include to start the
# terminal UI and list its keys and themes.
TUI_ENTRY=src/tui/tui_main.h

bad=0
report() { echo "layering: $1"; bad=1; }

files=$(find src include -type f \( -name '*.[ch]' -o -name '*.def' \) | LC_ALL=C sort)
srcs=$(printf '%s\n' "$files" | grep '^src/.*\.[ch]$')
# every include edge between folders and every front-end program's foreign source, one awk
# pass (a process per file or per include line took most of a minute on a busy machine)
out=$(printf '%s\n' "$files" | LC_ALL=C awk -v tui_entry="$TUI_ENTRY" '
function layer_of_path(p,   a) { split(p, a, "/"); return a[2] }
function known(l) { return l == "model" || l == "io" || l == "engine" || l == "report" || l == "cmdline" || frontend(l) }
function frontend(l) { return l == "cli" || l == "tui" || l == "mpi" }
function public_ok(from, to) {
  if (from == "model") return to == "model"
  if (from == "io") return to == "model" || to == "io"
  if (from == "engine") return to == "model" || to == "engine"
  if (from == "report") return to == "model" || to == "engine" || to == "report"
  if (from == "cmdline") return to != "cmdline"
  return frontend(from)
}
function add_layer(tab, key, l) { if (index(" " tab[key] " ", " " l " ") == 0) tab[key] = tab[key] (tab[key] == "" ? "" : " ") l }
function edge(file, target, msg) {
  print file ": " msg
}
function dir_of(p) { sub(/\/[^\/]*$/, "", p); return p }
{ exists[$0] = 1; list[++nf] = $0 }
END {
  # the layer of each public header from where its module code lives
  for (i = 1; i <= nf; i++) {
    p = list[i]
    if (p !~ /^src\/(model|io|engine|report)\/[^\/]*\.c$/) continue
    l = layer_of_path(p); base = p; sub(/^.*\//, "", base); sub(/\.c$/, "", base)
    add_layer(exact, base, l)
    while (match(base, /_[^_]*$/)) { base = substr(base, 1, RSTART - 1); add_layer(prefix, base, l) }
  }
  for (i = 1; i <= nf; i++) {
    p = list[i]
    if (p !~ /^include\/iodfg\/[^\/]*\.h$/) continue
    name = p; sub(/^.*\//, "", name); sub(/\.h$/, "", name)
    l = (name in exact) ? exact[name] : ((name in prefix) ? prefix[name] : "")
    if (l == "") print p ": no src/*/" name ".c or src/*/" name "_*.c tells its layer"
    else if (index(l, " ")) print p ": its module files live in several layers (" l ")"
    else pub[p] = l
  }
  for (i = 1; i <= nf; i++) {
    f = list[i]
    if (f !~ /^src\/.*\.[ch]$/) continue
    from = layer_of_path(f)
    if (!known(from)) { if (!(from in told)) print "src/" from ": a folder doc/architecture.md does not name as a layer (add it to tests/layering.sh)"; told[from] = 1; continue }
    while ((getline line < f) > 0) {
      if (line !~ /^[ \t]*#[ \t]*include[ \t]*["<]/) continue
      inc = line; sub(/^[ \t]*#[ \t]*include[ \t]*/, "", inc)
      q = substr(inc, 1, 1); inc = substr(inc, 2); sub(q == "<" ? ">.*$" : "\".*$", "", inc)
      # a path with ../ would hide the folder it reaches from this check
      if (inc ~ /(^|\/)\.\.\//) { print f ": #include \"" inc "\": name another folder from src/ or iodfg/, not with ../"; continue }
      t = ""
      if (q == "\"" && (dir_of(f) "/" inc) in exists) t = dir_of(f) "/" inc
      else if (("src/" inc) in exists) t = "src/" inc
      else if (("include/" inc) in exists) t = "include/" inc
      if (t == "") continue # system, library or generated (config.h)
      if (t ~ /^include\//) {
        if ((t in pub) && !public_ok(from, pub[t]))
          edge(f, t, from " code includes " t " of the " pub[t] " layer")
        continue
      }
      to = layer_of_path(t)
      if (to == from) continue
      if (from == "cli" && t == tui_entry) continue
      if (frontend(from) && to == "cmdline") continue # the command line both programs share
      if (frontend(from) && frontend(to))
        edge(f, t, from " includes " t ": the front-ends are siblings (" (from == "cli" && to == "tui" ? "cli may include only the TUI entry " tui_entry : "no front-end includes another") ")")
      else
        edge(f, t, from " includes " t ", private to src/" to)
    }
    close(f)
  }
  # the front-ends programs compile their own folder only
  prog["iodfg"] = "cli"; prog["libiodfg_tui_a"] = "tui"; prog["iodfg_mpi"] = "mpi"
  cmd = "ls src/*/*.am tests/tests.am Makefile.am 2>/dev/null"
  while ((cmd | getline am) > 0) {
    cont = 0
    while ((getline line < am) > 0) {
      if (!cont) {
        owner = ""
        if (match(line, /^[a-z_]+_SOURCES[ \t]*\+?=/)) {
          v = substr(line, 1, RLENGTH); sub(/_SOURCES.*$/, "", v)
          if (v in prog) owner = prog[v]
        }
      }
      cont = (line ~ /\\[ \t]*$/)
      if (owner == "") continue
      ntok = split(line, tok, /[ \t=\\+]+/)
      for (k = 1; k <= ntok; k++) {
        if (tok[k] !~ /^src\//) continue
        to = layer_of_path(tok[k])
        # iodfg links the TUI (its tui command), so it may compile TUI files too; both programs
        # compile the shared command line (src/cmdline)
        if (to != owner && to != "cmdline" && !(owner == "cli" && to == "tui"))
          edge(am, tok[k], "the " owner " program compiles " tok[k] ": front-ends share code through the engine, not through another front-end")
      }
    }
    close(am)
  }
  close(cmd)
}')
[ -n "$out" ] && { printf '%s\n' "$out" | sed 's/^/layering: /'; bad=1; }

# third-party headers in their corner; one grep per header over every file
only_in() { # only_in PATTERN ALLOWED-PATHS(regex) MESSAGE
  # shellcheck disable=SC2086
  hits=$(grep -HnE "$1" $srcs | grep -vE "^($2)" || true)
  [ -z "$hits" ] || { printf '%s\n' "$hits"; report "$3"; }
}
only_in '#include <hdf5.h>' 'src/io/store' '<hdf5.h> only in src/io/store*'
# MPI lives in src/mpi/ (iodfg-mpi); the MPI build of <hdf5.h> brings its types to
# src/io/store_par.c, which only iodfg-mpi links.
only_in '#include [<"]mpi\.h[>"]' 'src/mpi/' '<mpi.h> only in src/mpi/'
only_in '#include <pcre2.h>' 'src/engine/rules|src/engine/filter|src/io/casename\.c' \
  '<pcre2.h> only in rules, filters and io/casename.c'
only_in '#include [<"](n?curses\.h|ncursesw/)' 'src/tui/term/' 'curses only in src/tui/term/'
# shellcheck disable=SC2046
grep -HnE '#include <(n?curses\.h|ncursesw/)' $(printf '%s\n' "$srcs" | grep '^src/tui/term/' |
  grep -v '^src/tui/term/curses\.h$') && report "include curses through src/tui/term/curses.h"
lib=$(printf '%s\n' "$srcs" | grep -E '^src/(model|io|engine)/[^/]*\.c$')
# shellcheck disable=SC2086
grep -HnE '(^|[^_a-z])(printf|puts|putchar|perror|exit|abort)\(|fprintf\((stderr|stdout)' $lib |
  grep -vE '^\S+:[0-9]+:\s*(//|/?\*)' && report "library code never prints or exits"
# the terminal code paints view models and reads the app through its accessors (app.h)
# shellcheck disable=SC2046
grep -Hn 'app->' $(printf '%s\n' "$srcs" | grep -E '^src/tui/term/[^/]*\.c$') &&
  report "the terminal code reads struct tui_app only through app.h's functions"
[ $bad -eq 0 ] && echo "layering: ok"
exit $bad
