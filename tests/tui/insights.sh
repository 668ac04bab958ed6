#!/bin/sh
# SPDX-License-Identifier: MIT
# The Insights view (i) on the recorded pattern programs (tests/data/traces/insights): the
# findings ranked, Enter jumps to the evidence (filter, selection, view: Cases for imbalance,
# the I/O page for random access, Graph for an lseek -> write edge, Timeline for a window),
# Backspace comes back with the filters and selection as before, also two jumps deep; P loads
# the hpc rule preset and u takes it back.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}
[ -x "$BIN" ] || tui_skip "$BIN not built"
cd "$TUI_TMP" || tui_fail "cd"

# row_has PATTERN WHAT: a line of the screen matches the (basic) regex PATTERN
row_has()
{
    tui_screen | grep -q -e "$1" || { tui_screen >&2; tui_fail "$2"; }
}
row_lacks()
{
    if tui_screen | grep -q -e "$1"; then
        tui_screen >&2
        tui_fail "$2"
    fi
}
CUR=$(printf '\342\226\266') # the cursor glyph of a table row in UTF-8

tui_start 100 30 "IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes" XDG_CONFIG_HOME="$TUI_TMP/cfg" \
    "$BIN" --focus all "$DATA/traces/insights"
tui_wait '21 activities · 1242/1242 events · 0 unmapped'
tui_keys i
tui_wait '15 finding(s) over 17 case(s), 1242 event(s)'
row_has "^$CUR *high *imbalance *82.0%" "the worst finding first, under the cursor"
row_has '^ numbers: *worst_ns 107059000 *median_ns 19319000 *ratio 5.542' "the finding's numbers"
row_has '^ cases: *imbalance_host1_3$' "the evidence's worst case"
row_has 'Enter shows the evidence in 6 Cases' "where Enter goes"

# imbalance: the Cases view, filtered to the run compared, its worst case selected
tui_keys Enter
tui_wait 'imbalance: filtered to run imbalance (Backspace comes back)'
row_has '\[6 Cases\]' "imbalance opens the Cases view"
row_has 'filter: cid=imbalance' "the run's filter"
row_has "^$CUR *imbalance_host1_3 " "the worst case selected"
tui_keys BSpace
tui_wait 'back: filters and selection as before the jump'
row_has '\[i Insights\]' "Backspace returns to Insights"
row_has '1242/1242 events · 0 unmapped · [0-9.]* ms$' "no filter after coming back"
row_has "^$CUR *high *imbalance" "the cursor where it was"

# random access: the I/O page, filtered to the case; then two jumps deep and back twice
tui_keys j j j j j j j
tui_wait 'Enter shows the evidence in 8 I/O'
tui_keys Enter
tui_wait 'random-access: filtered to 1 case(s)'
row_has '\[8 I/O\]' "random access opens the I/O page"
row_has 'filter: name=random_host1_0$' "the case's filter"
tui_keys i
tui_wait '4 finding(s) over 1 case(s), 149 event(s)'
tui_keys j j
tui_wait 'Enter shows the evidence in 4 Timeline'
tui_keys Enter
tui_wait 'bursty: filtered to all 1 case(s) in its time window'
row_has '\[4 Timeline\]' "a window opens the Timeline"
row_has 'filter: name=random_host1_0  *time=[0-9][0-9]:' "the window's filter on top, on the log's clock"
tui_keys BSpace
tui_wait 'back: filters and selection as before the jump'
row_has '\[i Insights\]' "the first Backspace: the Insights view of the first jump"
row_has 'filter: name=random_host1_0$' "the first Backspace: the window's filter gone"
row_has "^$CUR *low *bursty" "the first Backspace: the cursor on bursty"
tui_keys BSpace
tui_wait '15 finding(s) over 17 case(s)'
row_has '1242/1242 events · 0 unmapped · [0-9.]* ms$' "the second Backspace: no filter"
row_has "^$CUR *low *random-access" "the second Backspace: the cursor on random access"
tui_keys BSpace
tui_wait 'no filter to remove'

# an edge: the Graph view around lseek with the cursor on its edge to write
tui_keys Home j j j j j j j j j
tui_wait 'seek-io (low): lseek then read/write'
tui_keys Enter
tui_wait 'seek-io: filtered to 1 case(s)'
row_has '\[3 Graph\]' "an edge opens the Graph view"
row_has '│ lseek:/tmp/iop ' "the edge's source in the centre"
row_has "│${CUR}write:/tmp/iop " "the cursor on the edge's target"
tui_keys BSpace
tui_wait 'back: filters and selection as before the jump'

# rule presets: P offers the engine's presets; hpc goes into the live rules, u takes it back
tui_keys P
tui_wait 'rule preset (default, hpc)'
tui_type hpc
tui_keys Enter
tui_wait 'rules: preset hpc loaded (u undoes)'
tui_keys 7
tui_wait '# hpc: the f-hat with per-process names folded'
tui_keys u
tui_wait 'undone'
tui_wait_gone '# hpc: the f-hat'
tui_keys P
tui_type nosuch
tui_keys Enter
tui_wait 'rule-preset: no preset called nosuch'
tui_keys q # the rules are as loaded again: nothing to save
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"

# the user's insights.conf, as `iodfg insights` reads it: imbalance needs a ratio of 10 now
mkdir -p "$TUI_TMP/cfg/iodfg"
printf '# stricter\nimbalance-ratio = 10\n' >"$TUI_TMP/cfg/iodfg/insights.conf"
tui_start 100 30 "IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes" XDG_CONFIG_HOME="$TUI_TMP/cfg" \
    "$BIN" --focus all "$DATA/traces/insights"
tui_wait '21 activities'
tui_keys i
tui_wait '14 finding(s) over 17 case(s), 1242 event(s)'
row_lacks ' imbalance  ' "insights.conf's threshold applies in the TUI"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status with insights.conf"
# a bad thresholds file stops before the screen opens, with file:line:col
printf 'imbalance-ratio = x\n' >"$TUI_TMP/bad.conf"
if "$BIN" tui --thresholds "$TUI_TMP/bad.conf" "$DATA/traces/insights" 2>"$TUI_TMP/bad.err"; then
    tui_fail "a bad --thresholds file accepted"
fi
grep -q 'bad.conf:1:' "$TUI_TMP/bad.err" || { cat "$TUI_TMP/bad.err" >&2; tui_fail "file:line of the bad threshold"; }
echo "PASS: insights view, jumps to the evidence and back, rule presets, insights.conf"
