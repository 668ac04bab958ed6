#!/bin/sh
# SPDX-License-Identifier: MIT
# A live rule edit in two tiers (issue 39): the status line shows the first tier's exact counts
# at once, marked "stats computing…" (or "edges, stats computing…" when the mapping leaves
# events out) while the second tier waits (IODFG_TUI_SECOND_TIER_MS holds it here), then the
# full results without the mark; the Activities view then equals a fresh start on the edited
# rules. The second tier runs on a background thread (IODFG_TUI_SECOND_HOLD_MS keeps each one
# running a while here): it shows its progress, a further edit meanwhile shows its own exact
# counts at once, the stale second tier is dropped rather than published, and the screen then
# equals a fresh start on the last rules. In UTF-8 and in the C locale.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
LOG=$DATA/traces/ior
cd "$TUI_TMP" || tui_fail "cd"

# the activities iodfg stats counts with f-hat's file rule at {path:D}
rules() { # rules D
    printf 'map kind = file => {call}:{path:%s}\nmap kind = none => {call}\n' "$1"
    echo 'map => {call}:{kind}'
}
activities() { # activities RULES_FILE: iodfg stats' activities and events, "A E"
    "$BIN" stats --format tsv -f --rules "$1" "$LOG" |
        awk -F'\t' 'NR > 1 && $0 == "" { exit } NR > 1 { n++; s += $2 } END { print n + 0, s + 0 }'
}
rules 3 >path1.rules
rules 2 >path2.rules
rules 1 >path3.rules
set -- $(activities path1.rules)
a1=$1 e1=$2
set -- $(activities path3.rules)
a3=$1
[ "$a3" != "$a1" ] || tui_fail "the second edit would not change the activities ($a3)"
set -- $(activities path2.rules)
a2=$1 total=$2
[ "$a1" != "$a2" ] || tui_fail "the edit would not change the activities ($a1)"
closes=$("$BIN" stats --format tsv -f --rules path2.rules "$LOG" | awk -F'\t' '$1 ~ /^close:/ { s += $2 } END { print s + 0 }')
[ "$closes" -gt 0 ] || tui_fail "no close calls in $LOG"

# In the Rules view, rule 1's {path:2} made {path:D}: the keys before the last leave the rule
# invalid, so only the last one changes the mapping.
edit_rule1() # edit_rule1 D
{
    tui_wait "$a2 activities"
    tui_keys 7
    tui_wait 'rule (first match wins)'
    tui_keys Home e
    tui_wait 'editing rule 1'
    tui_keys End Left BSpace
    tui_wait 'rule 1 invalid'
    tui_keys "$1"
}

# The screen saved in SCREEN equals a fresh start on RULES (COLUMNS wide), which shows ACTS
# activities.
same_as_fresh() # same_as_fresh START COLUMNS RULES ACTS SCREEN
{
    $1 "$2" 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all --rules "$3" "$LOG"
    tui_wait_re "^ *$4 activities"
    tui_stable | sed '$d' >fresh.screen
    diff fresh.screen "$5" >&2 || tui_fail "$1: $5 differs from a fresh start on $3"
    tui_keys q
    tui_wait_exit >/dev/null
}

check_locale()
{
    start=$1 dots=$2
    $start 100 30 "$ENV" IODFG_TUI_SECOND_TIER_MS=4000 XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all \
        --rules path2.rules "$LOG"
    edit_rule1 3
    # the first tier at once: exact counts, the rest marked pending
    tui_wait_re "editing rule 1 .* $a1 activities .* $e1/$total events .* stats computing$dots" 3
    tui_screen | tail -1 | grep -F 'edges,' >/dev/null && tui_fail "$start: edges pending"
    # the second tier after the pause: the same counts, nothing pending
    tui_wait_gone 'computing'
    tui_screen | tail -1 | grep -E "editing rule 1 .* $a1 activities .* $e1/$total events" \
        >/dev/null || tui_fail "$start: the full counts differ from the first tier's"
    tui_keys Enter 1
    tui_wait '[1 Activities]'
    tui_wait_re "^ *$a1 activities"
    tui_stable | sed '$d' >edited.screen
    # a rule that drops events (the closes): the edges are pending too
    tui_keys 7
    tui_wait 'rule (first match wins)'
    tui_keys Home e
    tui_wait 'editing rule 1'
    tui_keys C-u
    tui_type 'drop call = close'
    tui_wait_re "editing rule 1 .* $((total - closes))/$total events .* edges, stats computing"
    tui_wait_gone 'computing'
    tui_keys Escape q y
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"
    # the final screen equals a fresh start on the edited rules
    same_as_fresh "$start" 100 path1.rules "$a1" edited.screen
}

# An edit, then another while the first one's second tier runs (each runs 4 s here).
check_superseded()
{
    start=$1 dots=$2 bar=$3
    $start 140 30 "$ENV" IODFG_TUI_SECOND_HOLD_MS=4000 XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" \
        --focus all --rules path2.rules "$LOG"
    edit_rule1 3
    # its second tier runs in the background, with its progress
    tui_wait_re "editing rule 1 .* $a1 activities .* stats computing$dots ~[0-9]+% $bar" 3
    # the second edit's exact counts while the first one's second tier still runs
    tui_keys BSpace 1
    tui_wait_re "editing rule 1 .* $a3 activities .* stats computing$dots" 3
    # the stale second tier is dropped: the computing mark stays until the last edit's is in
    tui_wait_gone 'computing' 20
    tui_screen | tail -1 | grep -E "editing rule 1 .* $a3 activities" >/dev/null ||
        tui_fail "$start: a stale second tier was published: $(tui_screen | tail -1)"
    tui_keys Enter 1
    tui_wait '[1 Activities]'
    tui_wait_re "^ *$a3 activities"
    tui_stable | sed '$d' >superseded.screen
    tui_keys q y
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"
    same_as_fresh "$start" 140 path3.rules "$a3" superseded.screen
}

check_locale tui_start '…'
check_locale tui_start_c '\.\.\.'
check_superseded tui_start '…' '[█░]+'
check_superseded tui_start_c '\.\.\.' '[#-]+'
echo "PASS: a live rule edit shows exact counts at once, then the full results; a further edit supersedes a running second tier"
