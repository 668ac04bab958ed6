#!/bin/sh
# End-to-end: iodfg on a login node as support staff use it, where the locale may be C, input
# is not a terminal, and traces, file names and paths belong to somebody else.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
D=$IODFG_TEST_DATA/traces
"$IODFG_BIN" convert -q -o "$T/ior.h5" "$D/ior"

# expect STATUS DESCRIPTION PATTERN COMMAND...: the exit status and a line of stderr
expect() {
  want=$1; d=$2; pat=$3; shift 3
  set +e; "$@" >"$T/out" 2>"$T/err" </dev/null; rc=$?; set -e
  if [ "$rc" -eq "$want" ] && grep -q -- "$pat" "$T/err"; then ok "$d"; else
    fail "$d (exit $rc, wanted $want)"; cat "$T/err"; fi
}

# The terminal UI without a terminal refuses at once instead of spinning.
expect 2 "no terminal: refused with status 2" "needs a terminal" \
  timeout 10 "$IODFG_BIN" "$T/ior.h5"
expect 2 "no terminal (tui): refused" "needs a terminal" timeout 10 "$IODFG_BIN" tui "$T/ior.h5"
# `iodfg [tui options] LOG`: the synopsis' optional `tui`
printf 'map => {call}\n' >"$T/r.rules"
expect 2 "iodfg --rules F LOG is the TUI" "needs a terminal" \
  timeout 10 "$IODFG_BIN" --rules "$T/r.rules" "$T/ior.h5"
expect 2 "iodfg --theme dark LOG is the TUI" "needs a terminal" \
  timeout 10 "$IODFG_BIN" --theme dark "$T/ior.h5"
expect 1 "a missing log is named" "cannot open 'nope.h5'" "$IODFG_BIN" nope.h5

finish
