#!/bin/sh
# SPDX-License-Identifier: MIT
# The call sites of a strace -k trace in the real TUI (tmux): the selected activity's sites in
# its detail line, and a rule on the live `site` field that splits the write activity by the
# function that issues it (tests/data/traces/callsites, from tests/tools/callsites.c).
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"

tui_start 200 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" "$DATA/traces/callsites/stacks_node1_1.st"
tui_wait '[1 Activities] 2 Tra'
tui_wait '336/336 events'
# the write activity on the program's files: its sites, most time first
tui_keys / w r i t e; tui_wait '/write'
tui_keys Enter
tui_wait 'sites: write_header 200 · write_payload 32 · append_log 10'
# a live rule on the site field splits it
tui_keys 7 a
tui_type 'map site ~ ^write_header$ => header-writes'
tui_keys Enter 1
tui_wait 'header-writes'
tui_keys Home # the most time: the split-off header writes
tui_wait 'header-writes   Load:'
tui_wait 'sites: write_header 200'
tui_wait_gone 'sites: write_header 200 · write_payload'
tui_keys q; tui_wait 'rules not saved'; tui_keys y
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"
echo "ok - call sites in the TUI"
