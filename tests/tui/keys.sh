#!/bin/sh
# SPDX-License-Identifier: MIT
# Keys the terminal sends as escape sequences (issue 38): with TERM=xterm-256color inside tmux,
# whose End is ESC [ 4 ~ (xterm's terminfo says ESC O F), End goes to the last row and nothing
# else happens (it was read as Esc [ 4 ~: a threshold lowered, the Timeline shown); an escape
# sequence the program does not know, or one cut short, is dropped whole, never read as keys; a
# lone Esc still closes a prompt. In the C locale and in UTF-8, at 80x24.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}
[ -x "$BIN" ] || tui_skip "$BIN not built"
infocmp xterm-256color >/dev/null 2>&1 || tui_skip "no terminfo entry xterm-256color"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"

# untouched WHAT: still the Activities view, no threshold changed, no view left
untouched()
{
    tui_screen >"$TUI_TMP/screen"
    grep -F '[1 Activities]' "$TUI_TMP/screen" >/dev/null || tui_fail "$1: the view changed"
    if grep -E 'paths [0-9]+%|acts [0-9]+%' "$TUI_TMP/screen" >/dev/null; then
        tui_fail "$1: a threshold changed"
    fi
}

check_locale()
{
    start=$1
    $start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" TERM=xterm-256color "$BIN" --focus all \
        "$DATA/traces/ior"
    tui_wait '[1 Activities]'
    tui_wait 'fsync:/scratch/run   Load:'
    tui_keys End # ESC [ 4 ~ from tmux
    tui_wait 'close:/usr/lib   Load:' # the last row (by sum of durations)
    untouched "$start: End"
    tui_keys Home
    tui_wait 'fsync:/scratch/run   Load:'
    # sequences no key has: a function key beyond F12, a mouse report, bracketed paste's start
    tui_tmux send-keys -t "$TUI_SESSION" -H 1b 5b 39 39 7e
    tui_tmux send-keys -t "$TUI_SESSION" -H 1b 5b 4d 20 21 21
    tui_tmux send-keys -t "$TUI_SESSION" -H 1b 5b 32 30 30 7e
    tui_keys j
    tui_wait 'write:/scratch/run   Load:' # the key after them still works
    untouched "$start: unknown sequences"
    # Esc alone still cancels a prompt
    tui_keys /
    tui_wait_re '^ /'
    tui_keys Escape
    tui_wait '14 activities'
    untouched "$start: Esc"
    tui_keys q
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"
}

check_locale tui_start_c
check_locale tui_start
echo "PASS: End under xterm-256color in tmux, unknown escape sequences dropped whole, Esc"
