#!/bin/sh
# SPDX-License-Identifier: MIT
# The TUI in the C locale (LANG unset, LC_ALL=C) and with --ascii: every view, the overview,
# help, a G/R comparison, the I/O page and the Heatmap's bands show the program's own labels in plain ASCII. A
# built-in glyph that leaked through would appear as a \x escape or a non-ASCII byte. A path
# from a trace that is not ASCII is still escaped, and only it.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

LOG="$TUI_TMP/ior.h5"
"${IODFG_BIN:-./iodfg}" convert -q -o "$LOG" "${IODFG_TEST_DATA:-tests/data}/traces/ior" ||
    tui_fail "convert of the recorded IOR traces"
THEMES="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"

visit_all()
{
    for v in 1 2 3 4 5 6 7 8 9 H O L i; do
        tui_keys "$v"
        tui_wait "[$v "
        sleep 0.3
        tui_plain_screen "$1, view $v"
    done
    # the Insights view (the last above) jumps to its first finding's evidence and back
    tui_keys Enter
    tui_wait 'Backspace comes back'
    tui_plain_screen "$1, a jump to the evidence"
    tui_keys BSpace
    tui_wait 'back: filters and selection'
    # groups: mark the first case G and the last R, then the comparison and the I/O page
    tui_keys 6 g End r 5
    tui_wait 'G 1 case'
    tui_plain_screen "$1, Diff with groups"
    tui_keys 8
    tui_wait 'G: 1 case'
    tui_plain_screen "$1, I/O page with groups"
    tui_keys i
    tui_wait 'difference(s)'
    tui_plain_screen "$1, Insights with groups"
    tui_keys H
    tui_wait 'per cell, up to'
    tui_plain_screen "$1, Heatmap with groups"
    tui_keys 1 o
    sleep 0.5
    tui_plain_screen "$1, overview"
    tui_keys Escape '?'
    tui_wait 'quit'
    tui_plain_screen "$1, help"
    tui_keys q q
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$1: exit status"
}

tui_start 120 35 LANG= LC_ALL=C LC_CTYPE= "$THEMES" XDG_CONFIG_HOME="$TUI_TMP/cfg" \
    "${IODFG_BIN:-./iodfg}" "$LOG"
tui_wait '1 Activities'
visit_all "LC_ALL=C"

tui_start 120 35 "$THEMES" XDG_CONFIG_HOME="$TUI_TMP/cfg" "${IODFG_BIN:-./iodfg}" --ascii "$LOG"
tui_wait '1 Activities'
visit_all "--ascii"

# a trace path that is not ASCII: escaped in the C locale, the labels around it are not
mkdir -p "$TUI_TMP/t"
printf '%s\n' \
    '10:00:00.000100 openat(AT_FDCWD, "/home/caf\303\251/x", O_RDONLY) = 3 <0.000010>' \
    '10:00:00.000200 read(3</home/caf\303\251/x>, "ab", 2) = 2 <0.000005>' \
    '10:00:00.000300 close(3</home/caf\303\251/x>) = 0 <0.000004>' >"$TUI_TMP/t/c_host1_1.st"
"${IODFG_BIN:-./iodfg}" convert -q -o "$TUI_TMP/cafe.h5" "$TUI_TMP/t/c_host1_1.st" ||
    tui_fail "convert of the non-ASCII trace"
tui_start 120 35 LANG= LC_ALL=C "$THEMES" XDG_CONFIG_HOME="$TUI_TMP/cfg" \
    "${IODFG_BIN:-./iodfg}" "$TUI_TMP/cafe.h5"
tui_wait 'read:/home/caf\xc3\xa9'
tui_screen | grep -v 'caf\\xc3\\xa9' >"$TUI_TMP/rest"
if grep -n '\\x' "$TUI_TMP/rest" >&2; then
    tui_fail "a \\x escape outside the trace's path"
fi
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"
echo "PASS: twelve views, overview, help and groups in plain ASCII (C locale and --ascii)"
