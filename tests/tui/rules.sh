#!/bin/sh
# SPDX-License-Identifier: MIT
# Rules that cannot silently do nothing (issue 38): each rule shows the keys and events it
# maps; `a` on the last line inserts above the catch-all rule (below it a rule never matches),
# and says so; a rule an earlier one takes every key of is marked "shadowed by rule N"; the hint
# line lists the edit keys and `?` lists the Rules keys first. In the C locale and in UTF-8.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"

check_locale()
{
    start=$1
    $start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" "$DATA/traces/ior"
    tui_wait '[1 Activities]'
    tui_keys 7
    tui_wait 'rule (first match wins)'
    tui_wait 'maps: keys   events'
    # the bundled traces: all 352 events on files (46 keys); a rule that matches no key says
    # so, and one whose keys an earlier rule takes (here the catch-all's) names that rule
    tui_wait_re '2  map kind = file => \{call\}:\{path:2\} +46 keys +352 ev'
    tui_wait_re '4  map kind = none => \{call\} +matches no key'
    tui_wait_re '6  map => \{call\}:\{kind\} +shadowed by rule 2'
    tui_wait 'a add'
    tui_screen | sed -n 23p | grep -E 'a add.*e edit.*d delete.*J/K move.*w save.*u undo' \
        >/dev/null || tui_fail "$start: the hint line lacks the edit keys"
    # a on the catch-all (the last line): the new rule goes above it
    tui_keys End a
    tui_wait 'added above the catch-all rule on line 6'
    tui_type 'map path ~ ^/scratch/ => data'
    tui_keys Enter
    tui_wait_re '6  map path ~ \^/scratch/ => data +shadowed by rule 2'
    tui_wait_re '7  map => \{call\}:\{kind\}'
    # ? lists this view's keys first
    tui_keys '?'
    tui_screen | sed -n 3p | grep -F '7 Rules (keymap rules)' >/dev/null ||
        tui_fail "$start: ? does not list the Rules keys first"
    tui_wait_re 'a +rule-add +Add a rule \(above a catch-all\)'
    tui_keys Escape q y
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"
}

check_locale tui_start_c
check_locale tui_start
echo "PASS: rules show what they map, a inserts above the catch-all, shadowed rules are marked"
