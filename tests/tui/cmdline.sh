#!/bin/sh
# SPDX-License-Identifier: MIT
# What lnav, k9s and lazygit users expect over SSH (issue 38): `:` runs any command by its name
# (commands.def) with Tab completion and its help shown as it is typed, a command that asks for
# something takes it after its name (:export-dot FILE, :filter path~^/p/, :preset hpc), a
# command of another view says where it works; `y` copies the selected row's name to the local
# clipboard with OSC 52 (tmux takes it with set-clipboard on), sanitised, and says the terminal
# may not support it. In the C locale and in UTF-8, at 80x24.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"
# a path with an escape sequence in it: copied as text, never as the escape
mkdir -p evil
printf '%s\n' '10:00:00.000100 openat(AT_FDCWD, "/tmp/e\33[31mvil", O_RDONLY) = 3 <0.000010>' \
    '10:00:00.000200 read(3</tmp/e\33[31mvil>, "ab", 2) = 2 <0.000005>' >evil/e_h_1.st
"$BIN" convert -q -o evil.h5 evil/e_h_1.st || tui_fail "convert of the odd path"

check_locale()
{
    start=$1
    $start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" "$DATA/traces/ior"
    tui_wait '[1 Activities]'
    tui_tmux set-option -g set-clipboard on
    # Tab completes the common start, then each candidate; the help follows the typing
    tui_keys :
    tui_wait 'Tab: view-activities'
    tui_type 'exp'
    tui_keys Tab
    tui_wait ':export-'
    tui_wait 'Tab: export-dot export-tsv'
    tui_keys Tab
    tui_wait 'export-dot: Export what is shown as DOT'
    tui_keys Escape
    # the argument answers what the command asks
    tui_keys :
    tui_type 'filter path~^/scratch'
    tui_wait 'add-filter: Add a filter'
    tui_keys Enter
    tui_wait 'filter: path~^/scratch'
    tui_keys :
    tui_type 'pres'
    tui_keys Tab
    tui_type 'h'
    tui_keys Tab
    tui_wait ':preset hpc'
    tui_keys Enter
    tui_wait 'preset hpc loaded'
    tui_keys :
    tui_type "export-dot $TUI_TMP/out.dot"
    tui_keys Enter
    tui_wait "wrote $TUI_TMP/out.dot"
    grep -F digraph "$TUI_TMP/out.dot" >/dev/null || tui_fail "$start: no DOT written"
    rm -f "$TUI_TMP/out.dot"
    tui_keys : ; tui_type 'zoom-in' ; tui_keys Enter
    tui_wait 'zoom-in works in 4 Timeline'
    tui_keys : ; tui_type 'nosuch' ; tui_keys Enter
    tui_wait 'nosuch: no such command'
    # y: the selected activity's name on the clipboard (tmux's buffer here)
    tui_keys y
    tui_wait 'the terminal may not support it'
    [ "$(tui_tmux show-buffer)" = "fsync:/scratch/run" ] ||
        tui_fail "$start: y copied '$(tui_tmux show-buffer)'"
    tui_keys q y # the preset changed the rules: quit without saving them
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"

    $start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" evil.h5
    tui_wait '[1 Activities]'
    tui_keys y
    tui_wait 'may not support it'
    [ "$(tui_tmux show-buffer)" = 'openat:/tmp/e\e[31mvil' ] ||
        tui_fail "$start: the copied name is not sanitised: $(tui_tmux show-buffer | od -c | head -2)"
    tui_keys q
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"
}

check_locale tui_start_c
check_locale tui_start
echo "PASS: : runs commands by name with Tab and help, y copies the name with OSC 52"
