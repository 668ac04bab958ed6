#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 38, "done when": the TUI's first screen at 80x24 in the C locale shows every activity on
# the data file, on the real IOR runs (POSIX and MPI-IO, shared file and file per process; 294
# activities under the f-hat) and on the bundled example. It opens focused on the application's
# I/O: the runtime's activities folded into one row per class below the application's, their
# count on the status line; A shows every activity and u goes back; --focus all opens on all;
# a saved session keeps the focus. The data file's activities are what `stats --focus app` lists;
# the Insights view's first findings are the data file's.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"
tui_ior_real all.h5 posixssf posixfpp mpiiossf mpiiofpp
"$BIN" convert -q -o ior.h5 "${IODFG_SRCDIR:-.}/tests/data/traces/ior" || tui_fail "convert of the example"

# data LOG DIR: the names of the log's activities on files under DIR, one a line
data()
{
    "$BIN" stats -q --focus app --format tsv "$1" | sed '/^$/q' | cut -f1 | grep -E ":$2\$" | sort
}

# shown: the names in the Activities table on the screen (its rows, between the two rules)
shown()
{
    tui_screen | sed -n '4,21p' | cut -c7-36 | sed 's/ *$//' | sort
}

# first_screen LOG DIR: every activity of the log on DIR is on the first screen
first_screen()
{
    data "$1" "$2" >want.txt
    [ "$(wc -l <want.txt)" -ge 8 ] || tui_fail "$1: only $(wc -l <want.txt) activities on $2"
    shown >shown.txt
    missing=$(comm -23 want.txt shown.txt)
    [ -z "$missing" ] || tui_fail "$1: not on the first screen: $missing"
}

tui_start_c 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" all.h5
tui_wait '[1 Activities]'
tui_wait '20 activities | 279 runtime folded (A) | 69000/69000 events'
tui_plain_screen "first screen"
first_screen all.h5 /tmp/scratch
# the application's rows first, the runtime's below them
tui_screen | sed -n 4p | grep -E '^> +[a-z0-9]+:/tmp/scratch ' >/dev/null ||
    tui_fail "the first row is not the data file's: $(tui_screen | sed -n 4p)"
last_app=$(tui_screen | sed -n '4,21p' | grep -vn 'runtime:' | tail -n 1 | cut -d: -f1)
first_rt=$(tui_screen | sed -n '4,21p' | grep -n 'runtime:' | head -n 1 | cut -d: -f1)
[ "$last_app" -lt "$first_rt" ] || tui_fail "a runtime row above the application's"
# A: every activity; u: back to the focus; W keeps it in the session file
tui_keys A
tui_wait '294 activities | 69000/69000 events'
tui_wait 'focus all: every activity'
tui_keys u
tui_wait '20 activities | 279 runtime folded (A)'
tui_keys W
tui_wait 'session saved to'
grep -x 'focus app' iodfg.session >/dev/null || tui_fail "the session has no focus line"
# the Insights view's first findings: the data file's (names lose their middle), none runtime
tui_keys i
tui_wait '[i Insights]'
tui_wait_re 'finding\(s\) over 16 case\(s\)'
tui_screen | grep -E '^ dirs: +/tmp/scratch' >/dev/null || tui_fail "Insights: the first finding's dirs"
[ "$(tui_screen | sed -n '6,10p' | grep -c ':/tmp/scratch\|:~/scratch')" = 5 ] ||
    tui_fail "Insights: the top findings are not the data file's"
tui_keys 1
tui_keys :
tui_type 'focus all'
tui_keys Enter
tui_wait '294 activities | 69000/69000 events'
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"

# --focus all opens on every activity; the session file brings the focus back
tui_start_c 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all all.h5
tui_wait '294 activities | 69000/69000 events'
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status of --focus all"
tui_start_c 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all --session iodfg.session
tui_wait '20 activities | 279 runtime folded (A)'
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status of --session"
"$BIN" tui --focus some all.h5 </dev/null >out.txt 2>err.txt && tui_fail "--focus some accepted"
grep -q "takes app or all, not 'some'" err.txt || tui_fail "--focus some: $(cat err.txt)"

# the user's focus.rules: the MPI runtime's activities are the application's there
mkdir -p cfg/iodfg
printf 'map kind = none => process\n' >cfg/iodfg/focus.rules
tui_start_c 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" all.h5
tui_wait_re 'runtime folded \(A\)'
tui_screen | tail -n 1 | grep -v '20 activities' >/dev/null || tui_fail "the user's focus.rules unused"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status with the user's focus.rules"
rm -r cfg/iodfg

# the bundled example: its data file's activities, all on the first screen
tui_start_c 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" ior.h5
tui_wait '[1 Activities]'
tui_wait_re 'runtime folded \(A\)'
first_screen ior.h5 /scratch/run
tui_keys i
tui_wait '[i Insights]'
tui_wait_re 'finding\(s\) over 16 case\(s\)'
line5=$(tui_screen | sed -n 5p)
echo "$line5" | grep -E '^> +medium +shared-file .* /scratch/run/ssf/test$' >/dev/null ||
    tui_fail "example: the first finding: $line5"
[ "$(tui_screen | sed -n '5,8p' | grep -c '/scratch/run\|~/run')" = 3 ] ||
    tui_fail "example: the top findings are not the data file's"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status of the example"
echo "PASS: the first screen shows every activity on the data file (IOR runs, example)"
