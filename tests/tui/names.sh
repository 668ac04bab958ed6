#!/bin/sh
# SPDX-License-Identifier: MIT
# Names at 80 columns keep what tells them apart (issue 38): on the real IOR file-per-process run
# mapped to whole paths, the four data files' activities stay distinct in the Activities table,
# the Transitions (each node name loses its middle), the Handles' paths and the detail line;
# `>` scrolls the name column sideways to the part in the middle and `<` back; a wider terminal
# gives the names its width (both of a transition's); the Cases view shows whole case names.
# In the C locale (ASCII) and in UTF-8.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"
tui_ior_real fpp.h5 posixfpp
tui_ior_real all.h5 posixssf posixfpp mpiiossf mpiiofpp
cat >whole.rules <<'RULES'
map path ~ ^/tmp/scratch/ => {call}:{path}
map kind = file => {call}:{path:2}
map kind = none => {call}
map => {call}:{kind}
RULES

# shows_all WHAT REGEX: each of the four data files' names (test.00000000 .. 3) on screen
shows_all()
{
    tui_screen >"$TUI_TMP/screen"
    for n in 0 1 2 3; do
        pat=$(printf '%s' "$2" | sed "s/N/$n/g")
        grep -E -e "$pat" "$TUI_TMP/screen" >/dev/null ||
            tui_fail "$1: no line matches $pat"
    done
}

check_locale()
{
    start=$1
    $start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all --rules whole.rules fpp.h5
    tui_wait '[1 Activities]'
    tui_keys f
    tui_type 'path~^/tmp/scratch/posixfpp/test'
    tui_keys Enter
    tui_wait 'filter: path'
    # the writes of the four files: distinct, their call and file kept, the middle gone
    shows_all "$start: Activities" '^ +write:/tmp.*/test\.0000000N +16 '
    shows_all "$start: Activities" '^ +lseek:/tmp.*/test\.0000000N +32 '
    # the detail line of the row under the cursor keeps the file's name and the numbers
    tui_screen | sed -n 23p | grep -E 'test\.0000000[0-3]   Load: ' >/dev/null ||
        tui_fail "$start: the detail line lost the file's name"
    # sideways: the middle of the names shows, from the same column on every row
    tui_keys '>' '>'
    tui_wait 'posixfpp/test'
    tui_keys '<'
    tui_wait_gone 'posixfpp/test'
    # a transition: each of its two names loses its middle, not the other's file
    tui_keys 2
    tui_wait '[2 Transitions]'
    shows_all "$start: Transitions" 'lseek:.*test\.0000000N +write:.*test\.0000000N '
    # a handle's path (found with a regex search) keeps its file
    tui_keys 9
    tui_wait '[9 Handles]'
    tui_keys /
    tui_type 'posixfpp/test\.0+2$'
    tui_keys Enter
    tui_screen | grep -E ' open +/tmp.*/test\.00000002 ' >/dev/null ||
        tui_fail "$start: the handle's path lost its file"
    # wider: the names take the width, both of a transition's
    tui_resize 150 30
    tui_keys 2
    tui_wait 'lseek:/tmp/scratch/posixfpp/test.00000001'
    tui_screen | grep -E 'lseek:/tmp/scratch/posixfpp/test\.0000000[0-3] +write:/tmp/scratch/posixfpp/test\.0000000[0-3] ' >/dev/null ||
        tui_fail "$start: at 150 columns a transition's names are not whole"
    tui_keys q
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"

    # the cases of all four runs at 80 columns: whole names, each rank's its own
    $start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all all.h5
    tui_wait '[1 Activities]'
    tui_keys 6
    tui_wait '[6 Cases]'
    for c in mpiiofpp_node1_18440 mpiiofpp_node1_18441 mpiiossf_node1_18392 posixfpp_node1_18359; do
        tui_wait "$c"
    done
    tui_keys q
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"
}

check_locale tui_start_c
check_locale tui_start
echo "PASS: names keep the file that tells them apart at 80 columns, scroll sideways, widen"
