#!/bin/sh
# The terminal UI of the serial iodfg opens the event logs iodfg-mpi convert writes on 2 and 4
# processes and shows what it shows for the serial convert's log (the same screens, views 1, 2
# and 6), and exits with status 0.
. "${IODFG_SRCDIR:?}/tests/tui/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/mpi_lib.sh"
BIN=${IODFG_BIN:?}
D=${IODFG_TEST_DATA:?}/traces
ENV="IODFG_THEMEDIR=$IODFG_SRCDIR/themes"
cd "$TUI_TMP" || tui_fail "cd"

screens() { # screens DIR: views 1, 2 and 6 of DIR/ior.h5 into DIR/*.screen
  tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" tui --focus all "$1/ior.h5"
  tui_wait '14 activities · 352/352 events · 0 unmapped'
  tui_stable >"$1/1.screen"
  tui_keys 2; tui_wait 'Count▼'
  tui_stable >"$1/2.screen"
  tui_keys 6; tui_wait 'ssf_node1_14729'
  tui_stable >"$1/6.screen"
  tui_keys q
  [ "$(tui_wait_exit)" = 0 ] || tui_fail "the TUI on $1/ior.h5 did not exit with 0"
}

mkdir serial p2 p4
"$BIN" convert -q -o serial/ior.h5 "$D/ior" || tui_fail "iodfg convert"
job 2 convert -q -o p2/ior.h5 "$D/ior" || tui_fail "iodfg-mpi convert on 2 processes"
job 4 convert -q -o p4/ior.h5 "$D/ior" || tui_fail "iodfg-mpi convert on 4 processes"
for d in serial p2 p4; do
  screens "$d"
done
for d in p2 p4; do
  for v in 1 2 6; do
    # the log's directory is the only difference allowed
    sed "s|$d/ior.h5|serial/ior.h5|" "$d/$v.screen" | diff -u serial/$v.screen - >&2 ||
      tui_fail "view $v of the log written on ${d#p} processes differs"
  done
done
echo "ok - the TUI shows the logs of iodfg-mpi as the serial log (2 and 4 processes)"
