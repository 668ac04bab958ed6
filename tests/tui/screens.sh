#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden screens: the real iodfg TUI on the recorded IOR traces, captured with tmux and compared
# with tests/tui/expected/*.screen (a unified diff on failure). The rebuild time in the status
# line is masked. Regenerate after an intended change with
#   IODFG_UPDATE_SCREENS=1 make check TESTS=tests/tui/screens.sh   (then review git diff)
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}
[ -x "$BIN" ] || tui_skip "$BIN not built"
# a fixed theme and no user configuration; the screens compare text only
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"

tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all "$DATA/traces/ior"
tui_wait '14 activities · 352/352 events · 0 unmapped'
tui_expect ior-activities-100x30
tui_keys 3; tui_wait 'successors'
tui_expect ior-graph-100x30
tui_keys o; tui_wait 'overview: 16 nodes'
tui_expect ior-graph-overview-100x30
tui_keys o; tui_wait 'successors'
tui_keys 6 G; tui_type 'cid=ssf'; tui_keys Enter; tui_wait '4 cases into G'
tui_keys R; tui_type 'cid=fpp'; tui_keys Enter; tui_wait '4 cases into R'
tui_keys 5; tui_wait 'G 4 cases: 104 events'
tui_expect ior-diff-100x30
tui_keys 8; tui_wait 'G: 4 cases, 104 events'
tui_expect ior-charz-groups-100x30
tui_keys i; tui_wait '3 difference(s)'
tui_expect ior-insights-groups-100x30
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"

tui_start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all "$DATA/traces/ior"
tui_wait '14 activities · 352/352 events · 0 unmapped'
tui_expect ior-activities-80x24
tui_keys 4; tui_wait 'max concurrency'
tui_expect ior-timeline-80x24
tui_keys j Enter; tui_wait 'Esc returns'
tui_expect ior-timeline-events-80x24
tui_keys Escape; tui_wait 'max concurrency'
tui_keys 8; tui_wait 'selection: 16 cases, 352 events'
tui_expect ior-charz-80x24
tui_keys 9; tui_wait '48 handles: 48 opened'
tui_expect ior-handles-80x24
tui_keys i; tui_wait '3 finding(s) over 16 case(s)'
tui_expect ior-insights-80x24
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"

tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all \
    "$DATA/traces/formats/fmt_tt_host1_2.st"
tui_wait '77 activities · 503/503 events · 0 unmapped'
tui_keys 9 j j j j j j; tui_wait '#7 fd 1 pid 14677 dup ← #6 fd 4 inherited'
tui_expect fmt-handles-100x30
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"
echo "PASS: screens"
