#!/bin/sh
# SPDX-License-Identifier: MIT
# The Call sites view (L) in the real TUI (tmux) over the recorded strace -k trace of
# tests/tools/callsites.c (tests/data/traces/callsites): the sites ranked by time with the
# figures `iodfg callsites` gives (tests/e2e/callsites.sh), Enter filters the session to a site
# and Backspace removes that filter, at 80x24 in the C locale and in UTF-8; G/R groups; and a log
# without stacks says how to record them.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}/traces/callsites
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
SRC=$(cd "${IODFG_SRCDIR:-.}" && pwd)/tests/tools/callsites.c
cd "$TUI_TMP" || tui_fail "cd"

# row SITE CALLS: the screen has a row of call site SITE with CALLS calls
row()
{
    tui_screen | grep -E " $1 .* $2 " >/dev/null
}

# wait_row SITE CALLS
wait_row()
{
    _i=0
    until row "$1" "$2"; do
        _i=$((_i + 1))
        [ "$_i" -lt 100 ] || { tui_screen >&2; tui_fail "no row '$1' with $2 calls"; }
        tui_nap
    done
}

# sites LOCALE...: the view, Enter on the top site, Backspace
sites()
{
    what=$1
    shift
    tui_start 80 24 "$@" "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" "$DATA/stacks_node1_1.st"
    tui_wait '336/336 events'
    tui_keys L
    tui_wait '[L Sites]'
    tui_wait '336 events, 336 with a stack, 300 with a call site'
    # the figures of tests/e2e/callsites.sh, most time first
    wait_row write_header 200
    wait_row write_payload 32
    wait_row append_log 10
    wait_row read_back 36
    row '\(no fra.*program\)' 25 ||
        tui_fail "$what: no row of the events without a frame of the program"
    tui_screen | sed -n 5p | grep -Eq '^(>|▶)write:.*write_header .* 200 ' ||
        tui_fail "$what: write_header is not the first row"
    tui_wait 'file:line unknown at 0x'
    [ "$what" = C ] && tui_plain_screen "the Call sites view in the C locale"
    # Enter: a filter on the site, in the status line, and the counts of that site alone
    tui_keys Enter
    tui_wait 'filtered to call site write_header (Backspace removes it)'
    tui_wait '200/336 events'
    tui_wait 'filter: site~^write'
    tui_wait '200 events, 200 with a stack, 200 with a call site'
    wait_row write_header 200
    row write_payload 32 && tui_fail "$what: the filter kept write_payload"
    # Backspace: the filter goes, every site is back
    tui_keys BSpace
    tui_wait '336/336 events'
    tui_wait_gone 'filter: site~'
    wait_row write_payload 32
    wait_row read_back 36
    # a: the selected activity's sites only (the Activities cursor: the most time)
    tui_keys 1 Home L a
    tui_wait '(a: all)'
    tui_wait_gone 'read_back'
    wait_row write_header 200
    tui_keys a
    wait_row read_back 36
    tui_keys q
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$what: exit status"
}

sites C LANG= LC_ALL=C LC_CTYPE=
sites UTF-8

# G/R groups: the sites only one group has (G: the run with stacks, R: the one without)
"$BIN" convert -q -o "$TUI_TMP/both.h5" "$DATA" || tui_fail "convert"
tui_start 120 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" "$TUI_TMP/both.h5"
tui_wait '1 Activities'
tui_keys 6 /; tui_type 'stacks'; tui_keys Enter g /; tui_type 'plain'; tui_keys Enter r
tui_wait 'G 1 R 1'
tui_keys L
tui_wait 'G: 336 events, 336 with a stack'
tui_wait 'R: 336 events, 0 with a stack'
tui_screen | grep -E 'G only .* write_header .* 200 ' >/dev/null || { tui_screen >&2; tui_fail "groups: write_header only in G"; }
tui_screen | grep -E 'R only .*\(no stack\)' >/dev/null || tui_fail "groups: R's events have no stack"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "groups: exit status"

# a log without stacks: how to record them
tui_start 80 24 LANG= LC_ALL=C "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" "$DATA/plain_node1_1.st"
tui_wait '336/336 events'
tui_keys L
tui_wait 'this log has no call stacks: record with strace -f -k ...'
tui_wait 'strace -f -k -tt -T -y -o run.st PROGRAM'
tui_plain_screen "no stacks"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "no stacks: exit status"
# a function name with a terminal escape: shown escaped by the one sanitiser, filtered exactly
printf 'write(3</d/f>, "x", 64) = 64 <0.000010>\n > /lib/libc.so.6(__write+0x4f) [0xf838f]\n > /home/u/prog(evil\033[31mred+0x40) [0x1239]\n' >"$TUI_TMP/evil_node1_1.st"
tui_start 80 24 LANG= LC_ALL=C "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" "$TUI_TMP/evil_node1_1.st"
tui_wait '1/1 events'
tui_keys L
tui_wait 'evil\e[31mred'
tui_plain_screen "an escape in a function name"
tui_keys Enter
tui_wait 'filtered to call site evil\e[31mred'
tui_wait '1/1 events'
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "escape: exit status"

# recorded now where ptrace allows: file:line from the program's debug information (libdw)
PROG=$(dirname "$BIN")/tests/tools/callsites
if [ -x "$PROG" ] && "$BIN" --version | grep -q 'libdw yes' && command -v strace >/dev/null 2>&1 &&
    strace -f -k -o /dev/null true 2>/dev/null; then
    mkdir -p "$TUI_TMP/out"
    # a sanitizer build of the program: LeakSanitizer does not work under ptrace
    ASAN_OPTIONS=detect_leaks=0 strace -f -k -tt -T -y -o "$TUI_TMP/live_node1_1.st" "$PROG" \
        "$TUI_TMP/out" || tui_fail "strace -k"
    line=$(grep -n 'write(fd, h, sizeof h)' "$SRC" | cut -d: -f1)
    [ -n "$line" ] || tui_fail "no write_header line in $SRC"
    tui_start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" "$TUI_TMP/live_node1_1.st"
    tui_wait '1 Activities'
    tui_keys L
    tui_wait '[L Sites]'
    tui_wait "write_header      callsites.c:$line"
    tui_keys q
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "live: exit status"
else
    echo "# live recording skipped: no ptrace, strace -k, libdw or tests/tools/callsites"
fi
echo "ok - the Call sites view"
