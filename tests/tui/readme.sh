#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's commands run as written from the repository root after `./dev.sh example`:
# every line "    $ COMMAND" is run in a copy of the root (build/ and tests/ linked); the one
# that opens the terminal UI runs in tmux and is quit with q. The strace line is skipped
# where ptrace is not allowed.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"
: "${IODFG_BUILDDIR:?run through make check}"
ROOT="$TUI_TMP/root"
mkdir -p "$ROOT"
ln -s "$IODFG_BUILDDIR" "$ROOT/build"
ln -s "$IODFG_SRCDIR/tests" "$ROOT/tests"
cd "$ROOT" || tui_fail "cd"
sed -n 's/^    \$ //p' "$IODFG_SRCDIR/README" >"$TUI_TMP/commands"
[ -s "$TUI_TMP/commands" ] || tui_fail "no commands found in the README"
n=0
while IFS= read -r cmd; do
  n=$((n + 1))
  case $cmd in
    strace*)
      if ! strace -o /dev/null true 2>/dev/null; then
        echo "skip: $cmd (ptrace not allowed here)"; continue
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
      set +e; sh -c "$cmd" >"$TUI_TMP/out" 2>&1 </dev/null; rc=$?; set -e ;;
  esac
  if [ "$rc" -ne 0 ]; then
    cat "$TUI_TMP/out" >&2
    tui_fail "README command failed (exit $rc): $cmd"
  fi
  echo "ok - $cmd"
done <"$TUI_TMP/commands"
echo "$n README commands ran"
