#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's commands run as written from the repository root after `./dev.sh example`:
# every line "    $ COMMAND" is run in a copy of the root (build/ and tests/ linked); the one
# that opens the terminal UI runs in tmux and is quit with q. The strace line is skipped
# where ptrace is not allowed, the OTF2 one in a build without OTF2 input. The output the
# README shows under a command is what it prints: each shown line in order, where "..." on a
# line of its own stands for lines left out and within a line for the columns left out, and
# convert's time and speed ("in 0.01 s (26,053 lines/s)") may differ.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"
: "${IODFG_BUILDDIR:?run through make check}"
# the README shows what a UTF-8 terminal prints (Σ, Δ, µ); its C-locale forms are other tests'
LC_ALL=C.UTF-8
export LC_ALL
ROOT="$TUI_TMP/root"
mkdir -p "$ROOT"
ln -s "$IODFG_BUILDDIR" "$ROOT/build"
ln -s "$IODFG_SRCDIR/tests" "$ROOT/tests"
cd "$ROOT" || tui_fail "cd"
sed -n 's/^    \$ //p' "$IODFG_SRCDIR/README" >"$TUI_TMP/commands"
[ -s "$TUI_TMP/commands" ] || tui_fail "no commands found in the README"
# the output shown under each command: $TUI_TMP/shown.N for the Nth (none: no file)
python3 - "$IODFG_SRCDIR/README" "$TUI_TMP" <<'PY'
import sys
n, out = 0, None
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.rstrip("\n")
    if line.startswith("    $ "):
        n += 1
        out = open("%s/shown.%d" % (sys.argv[2], n), "w", encoding="utf-8")
    elif out and line.startswith("    ") and line.strip():
        out.write(line[4:].rstrip() + "\n")
    else:
        out = None
PY
# shown N OUT: every line the README shows under command N is in OUT, in order
shown()
{
    [ -s "$TUI_TMP/shown.$1" ] || return 0
    python3 - "$TUI_TMP/shown.$1" "$2" <<'PY'
import re, sys
def norm(s):
    s = re.sub(r"in [0-9.]+ s \([0-9,]+ lines/s\)", "in T s (R lines/s)", s.rstrip())
    return re.sub(r" +", " ", s)
want = [norm(l) for l in open(sys.argv[1], encoding="utf-8")]
have = [norm(l) for l in open(sys.argv[2], encoding="utf-8", errors="replace")]
i = 0
for w in want:
    if w.strip() == "...":
        continue
    rx = re.compile("^" + ".*".join(re.escape(p.strip()) for p in w.split("...")) + "$")
    while i < len(have) and not rx.match(have[i].strip()):
        i += 1
    if i == len(have):
        sys.exit("README shows a line the command does not print (in this order): " + w)
    i += 1
PY
}
n=0
while IFS= read -r cmd; do
  n=$((n + 1))
  case $cmd in
    strace*)
      if ! strace -o /dev/null true 2>/dev/null; then
        echo "skip: $cmd (ptrace not allowed here)"; continue
      fi
      # a sanitizer build's traced program: LeakSanitizer does not work under ptrace
      traced_env="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;;
    *otf2*)
      if ! "$IODFG_BUILDDIR/iodfg" --version | grep -q 'OTF2 input yes'; then
        echo "skip: $cmd (built without OTF2 input)"; continue
      fi ;;
  esac
  # shellcheck disable=SC2086
  set -- $cmd
  tui=0
  { [ $# -eq 2 ] && [ "$1" = build/iodfg ]; } || [ "$1 ${2:-}" = "build/iodfg tui" ] && tui=1
  case $tui in
    1)
      tui_start 100 30 "IODFG_THEMEDIR=$IODFG_SRCDIR/themes" sh -c "$cmd"
      tui_wait '1 Activities'
      tui_keys q
      rc=$(tui_wait_exit) ;;
    0)
      # shellcheck disable=SC2086 # empty, or one NAME=VALUE word
      set +e; env ${traced_env:-} sh -c "$cmd" >"$TUI_TMP/out" 2>&1 </dev/null; rc=$?; set -e
      traced_env= ;;
  esac
  if [ "$rc" -ne 0 ]; then
    cat "$TUI_TMP/out" >&2
    tui_fail "README command failed (exit $rc): $cmd"
  fi
  if [ "$tui" = 0 ] && ! shown "$n" "$TUI_TMP/out"; then
    cat "$TUI_TMP/out" >&2
    tui_fail "README output differs: $cmd"
  fi
  echo "ok - $cmd"
done <"$TUI_TMP/commands"
echo "$n README commands ran"
