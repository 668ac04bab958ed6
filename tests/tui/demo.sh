#!/bin/sh
# SPDX-License-Identifier: MIT
# Drives tui-demo (make tui-demo) in tmux: frame, sort, search, help, themes, sanitised text,
# resize to 80x24 and below, ASCII fallback, clean exit. Shows that tests/tui/lib.sh works.
# Run: make tui-demo && IODFG_SRCDIR=<srcdir> sh <srcdir>/tests/tui/demo.sh [path/to/tui-demo]
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

DEMO=${1:-${IODFG_TUI_DEMO:-$(dirname "${IODFG_BIN:-./iodfg}")/tui-demo}}
[ -x "$DEMO" ] || tui_skip "$DEMO not built (make tui-demo)"
THEMES="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"

tui_start 100 30 "$THEMES" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$DEMO"
tui_wait '[1 Activities] 2 Transitions  3 Graph'
tui_wait 'sort: Sdur desc'
# untrusted bytes are escaped, never sent raw
tui_wait 'openat:/tmp/\e[31mevil\e[0m'
tui_wait 'read:/proc/self/\xff\xfe'
tui_wait 'stat:/home/café/日記'
tui_keys s
tui_wait 'sort: Activity asc'
tui_screen | sed -n 4p | grep -F 'close:/scratch/ssf' >/dev/null || tui_fail "not sorted by name"
tui_keys S
tui_wait 'sort: Activity desc'
tui_keys / r e a d
tui_wait '/read'
tui_keys Enter
tui_wait 'read:/usr/lib   row 5 of 14'
tui_keys n
tui_wait 'read:/proc/self/\xff\xfe   row 6 of 14'
tui_keys 4
tui_wait '[4 Timeline]'
tui_keys '?'
tui_wait 'Everywhere (keymap global)'
tui_wait 'view-activities          Show the activities table'
tui_keys Escape
tui_wait_gone 'Everywhere (keymap global)'
tui_keys t
tui_wait 'theme: light'
tui_keys x
tui_wait 'export-dot: not in the demo'
tui_resize 80 24
tui_wait '80x24'
tui_wait '[4 Timeline] 5 Dif'
tui_resize 79 24
tui_wait 'Terminal too small: 79x24'
tui_resize 100 30
tui_wait '100x30'
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"

# ASCII line drawing on vt100, monochrome with NO_COLOR
tui_start 80 24 "$THEMES" XDG_CONFIG_HOME="$TUI_TMP/cfg" TERM=vt100 NO_COLOR=1 "$DEMO"
tui_wait '--------------------'
tui_wait 'Sdur v'
tui_wait '| sort: Sdur desc |'
tui_screen -e | grep -F "$(printf '\033[1;7m iodfg')" >/dev/null || tui_fail "no reverse title"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"

# a user keymap from $XDG_CONFIG_HOME/iodfg/config, and its errors
mkdir -p "$TUI_TMP/cfg/iodfg"
printf 'bind global Q quit\nbind global q none\n' >"$TUI_TMP/cfg/iodfg/config"
tui_start 100 30 "$THEMES" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$DEMO"
tui_wait 'sort: Sdur desc'
tui_keys q s
tui_wait 'sort: Activity asc'
tui_keys Q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"
printf 'bind global q quitt\n' >"$TUI_TMP/cfg/iodfg/config"
tui_start 100 30 XDG_CONFIG_HOME="$TUI_TMP/cfg" "$DEMO"
[ "$(tui_wait_exit)" = 1 ] || tui_fail "a bad config must fail"
tui_wait "cfg/iodfg/config:1:15: unknown command 'quitt'"
echo "PASS: tui-demo"
