#!/bin/sh
# SPDX-License-Identifier: MIT
# Drives the real iodfg TUI in tmux on the recorded IOR traces: every view, sort, search,
# drill-down and undo, a rule edited to an invalid regex (caret) and fixed (tables change),
# G and R marks and the diff markers, a DOT export checked with dot, 80x24 and back, the quit
# prompt for unsaved rules, a session file round trip, exit status 0.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"

tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all "$DATA/traces/ior"
tui_wait '[1 Activities] 2 Tra'
tui_wait '14 activities · 352/352 events · 0 unmapped'
tui_wait 'Σdur▼'
# the theme key cycles the shipped themes in order and comes back round
tui_keys t; tui_wait 'theme: light'
tui_keys t t t t; tui_wait 'theme: default'
# every view
tui_keys 2; tui_wait 'Count▼'; tui_wait_re 'lseek:/scratch/run +write:/scratch/run '
tui_keys 3; tui_wait 'predecessors'; tui_wait 'successors'
# the whole-graph overview: boxes, layers, back edges along the right; j scrolls, o goes back
tui_keys o; tui_wait 'overview: 16 nodes in 14 layers, 3 back edges'
tui_wait '│openat:/etc/ld.so.cache 16│'; tui_wait 'rows 1-25 of 73'
tui_keys j; tui_wait 'rows 2-26 of 73'
tui_keys o; tui_wait 'predecessors'
tui_keys 4; tui_wait 'concurrency'; tui_wait 'max concurrency 2'; tui_wait 'stair-case 0.'
tui_keys 5; tui_wait 'no groups: mark cases in 6 Cases'
tui_keys 6; tui_wait 'ssf_node1_14729'
tui_keys 7; tui_wait 'rule (first match wins)'
tui_keys '?'; tui_wait 'Everywhere (keymap global)'
tui_keys Escape; tui_wait 'rule (first match wins)'
# sort and search in the activities table
tui_keys 1 s; tui_wait 'rd%▼'
tui_keys S; tui_wait 'rd%▲'
tui_screen | sed -n 4p | grep -F 'close:/usr/lib' >/dev/null || tui_fail "not sorted by rd% up"
tui_keys S
tui_keys / p r e a d; tui_wait '/pread'
tui_keys Enter; tui_wait 'pread64:/usr/lib   Load:'
tui_keys n; tui_wait 'pread64:/scratch/run   Load:'
# drill down and back
tui_keys Home Enter
tui_wait 'drilled into fsync:/scratch/run'
tui_wait 'fsync:/scratch/run/fpp'
tui_wait 'filter: path~^/scratch/run(/|$)  call=fsync'
tui_keys u; tui_wait '14 activities · 352/352 events'
tui_keys C-r; tui_wait 'call=fsync'
tui_keys BSpace BSpace; tui_wait '15 activities · 352/352 events · 0 unmapped ·'
tui_keys u u u; tui_wait_gone 'fsync:/scratch/run/fpp'
# a rule edited to an invalid regex: caret, last valid rules stay; fixed: tables change
tui_keys 7 a
tui_type 'map path ~ ^/scratch/(run => {call}:S'
tui_wait '^ invalid regex: missing closing parenthesis'
tui_wait 'rule 2 invalid — last valid rules in force · 14 activities'
tui_keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
tui_type ') => {call}:S'
tui_wait_gone 'invalid regex'
tui_keys Enter 1
tui_wait 'fsync:S'
tui_wait 'openat:S'
# G and R, diff markers
tui_keys 6 G; tui_type 'cid=ssf'; tui_keys Enter; tui_wait '4 cases into G'
tui_keys R; tui_type '^fpp_'; tui_keys Enter; tui_wait '4 cases into R'
tui_keys 5; tui_wait 'G 4 cases: 104 events'
tui_wait ' =    write:S'
tui_keys 1 Home Enter; tui_wait 'G+   fsync:/scratch/run/ssf'; tui_wait 'R+   fsync:/scratch/run/fpp'
tui_screen -e | grep -F "$(printf '\033[32m')" >/dev/null || tui_fail "no green"
tui_keys 5 d; tui_wait 'differences only'
tui_wait_gone ' =    '
# DOT export, validated with dot
tui_keys x; tui_wait 'export DOT to › iodfg-diff-1.dot'
tui_keys Enter; tui_wait 'wrote iodfg-diff-1.dot'
grep -F 'map call = fsync path ~ ^/scratch/run(/|$) => {call}:{path:3}' iodfg-diff-1.dot \
    >/dev/null || tui_fail "rules not in the DOT comment"
if command -v dot >/dev/null 2>&1; then
    dot -Tsvg iodfg-diff-1.dot >/dev/null || tui_fail "dot rejects the export"
fi
tui_keys 1 T Enter; tui_wait 'wrote iodfg-activities-2.tsv'
head -1 iodfg-activities-2.tsv | grep -F 'activity' >/dev/null || tui_fail "TSV header"
# 80x24 and back
tui_resize 80 24; tui_wait '[1 Activities]'; tui_wait 'Σdur'
tui_resize 79 24; tui_wait 'Terminal too small: 79x24'
tui_resize 100 30; tui_wait 'Activity'
# session and the quit prompt (rules changed and not saved)
tui_keys W; tui_wait 'session saved to iodfg.session'
tui_keys q; tui_wait 'rules not saved'
tui_keys x; tui_wait_gone 'rules not saved'
tui_keys q; tui_wait 'rules not saved'; tui_keys y
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"
grep -F 'g ssf_node1_14729' iodfg.session >/dev/null || tui_fail "session lacks G"

# the session restores rules, filters, groups and the view
tui_start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" tui --focus all --session iodfg.session \
    "$DATA/traces/ior"
tui_wait 'G 4 R 4'
tui_wait 'fsync:/scratch/run/ssf'
tui_keys q; tui_wait 'rules not saved'; tui_keys w
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status after w"
grep -F '{call}:S' iodfg.rules >/dev/null || tui_fail "rules not saved"

# the Characterisation view: metrics, charts, Wright et al. 2013 table, time-share bars, the selected
# activity's access patterns and sizes; Δt, servers and threshold keys; G vs R side by side
tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all "$DATA/traces/ior"
tui_wait '14 activities · 352/352 events · 0 unmapped'
tui_keys 8; tui_wait 'selection: 16 cases, 352 events'
tui_wait '[8 I/O]'
tui_wait 'N, volume (Eq. 4)                4.04 MiB   4.00 MiB'
tui_wait 'bandwidth: read ▲ write ▼ (full 500 MiB/s)'
tui_screen | grep -F '█' >/dev/null || tui_fail "no read cells in the chart"
tui_screen | grep -F '▒' >/dev/null || tui_fail "no write cells in the chart"
tui_keys End; tui_wait 'access   ops cons  seq rand unkn unal   median'
tui_wait 'activity fsync:/scratch/run'
tui_wait 'no reads or writes with a known size'
tui_wait 'stair-case 0.011 · 2 queued'
tui_keys Home 1 j 8 End; tui_wait 'activity write:/scratch/run'
tui_wait 'request size'
tui_wait ' write     32  '
tui_keys h; tui_wait 'activity fsync:/scratch/run'
tui_keys l l l End; tui_wait 'activity read:/scratch/run'
tui_wait ' read      32  '
tui_wait '64.0 KiB–128 KiB'
tui_keys Home b; tui_wait 'servers by case (16)'
tui_keys b; tui_wait 'servers by file'
tui_keys b; tui_wait 'servers by host (1)'
tui_keys c; tui_wait 'c = 1.00 KiB'
tui_keys C; tui_wait 'c = 0 B'
tui_keys +; tui_wait 'Δt 500 µs, 117 bins'
tui_keys - -; tui_wait 'Δt 2.00 ms, 30 bins'
tui_keys 0; tui_wait 'Δt 1.00 ms (auto), 59 bins'
# groups: G and R side by side, then one after the other at 80 columns
tui_keys 6 G; tui_type 'cid=ssf'; tui_keys Enter; tui_wait '4 cases into G'
tui_keys R; tui_type 'cid=fpp'; tui_keys Enter; tui_wait '4 cases into R'
tui_keys 8; tui_wait 'G: 4 cases, 104 events, time-of-day clock        R: 4 cases, 104 events, time-of-day clock'
tui_resize 80 24; tui_wait 'G: 4 cases, 104 events'
tui_wait_gone 'R: 4 cases'
tui_keys End; tui_wait 'fpp_node1_14745     99.6 MiB/s  222 MiB/s'
# a filter recomputes it
tui_keys f; tui_type 'call=write'; tui_keys Enter; tui_wait '1 activities · 32/352 events'
tui_keys Home; tui_wait 'G: 4 cases, 16 events'
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status (characterisation)"

# the Handles view on a traced shell pipeline: forks, dup2 onto 0/1, pre-created descriptors
tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all \
    "$DATA/traces/formats/fmt_tt_host1_2.st"
tui_wait '77 activities · 503/503 events · 0 unmapped'
tui_keys 9; tui_wait '[9 Handles]'
tui_wait '78 handles: 62 opened, 7 dup, 5 pre-created, 4 inherited · ! 2 never closed'
tui_wait '/etc/ld.so.cache   #1 fd 3 pid 14676 open (no parent)   openat O_RDONLY|O_CLOEXEC'
tui_screen | sed -n 5p | grep -E '^▶ +14676 +3 +open +/etc/ld.so.cache +1.10 ms +428 µs +3 ' \
    >/dev/null || tui_fail "handle 1 row"
# the child's stdout: a dup2 of its inherited copy of the pipe's write end
tui_keys j j j j j j
tui_wait 'pipe:[19029]   #7 fd 1 pid 14677 dup ← #6 fd 4 inherited ← #4 fd 4 pid 14676 open   dup2'
tui_screen | sed -n 11p | grep -E '^▶ +14677 +1 +dup +pipe:\[19029\] +7.72 ms +15.0 ms +4 +– +3 B' \
    >/dev/null || tui_fail "handle 7 row"
# never closed only, sorted by the marker; search
tui_keys o; tui_wait '2 handles: 0 opened, 2 dup, 0 pre-created, 0 inherited · ! 2 never closed · never-closed only (o)'
tui_screen | sed -n 5p | grep -E '^(▶| )! +14678 +11 +dup +pipe:\[18990\] +9.45 ms +– +2 ' \
    >/dev/null || tui_fail "never-closed row"
tui_keys o; tui_wait '78 handles'
tui_keys s Home; tui_wait '!▼'
tui_screen | sed -n 5,6p | grep -cE '^(▶| )! ' | grep -qx 2 || tui_fail "never-closed handles not first"
tui_keys / L C _ N A M E; tui_wait '/LC_NAME'
tui_keys Enter; tui_wait '/usr/lib/locale/C.utf8/LC_NAME   #29 fd 3 pid 14677 open (no parent)   openat O_RDONLY|O_CLOEXEC'
# Enter filters the analysis to the handle's path; Backspace removes the filter again
tui_keys Enter; tui_wait 'filtered to the path of handle'
tui_wait '3 activities · 9/503 events · 0 unmapped'
tui_wait 'filter: path=/usr/lib/locale/C.utf8/LC_NAME'
tui_keys BSpace; tui_wait '77 activities · 503/503 events · 0 unmapped'
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status (handles)"

# the overview in ASCII line drawing on a vt100 at 80x24
tui_start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" TERM=vt100 "$BIN" --focus all "$DATA/traces/ior"
tui_wait '14 activities · 352/352 events · 0 unmapped'
tui_keys 3 o; tui_wait '|openat:/etc/ld.so.cache 16|'; tui_wait '+-------------+------------+'
tui_screen | grep -F 'v16' >/dev/null || tui_fail "no ASCII arrowhead with its count"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status (overview)"
# a rules file or session saved under the name of the log the UI was opened on: refused, the log
# stays (the save replaced it). The session file becomes the log (a hard link) once the UI is open:
# a session given that cannot be read stops the UI before it starts.
"$BIN" convert -q -o run.h5 "$DATA/traces/ior" || tui_fail "convert run.h5"
cp run.h5 run.orig
tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" tui --focus all --session ./run.h5 run.h5
[ "$(tui_wait_exit)" = 1 ] || tui_fail "exit status (a log given as the session)"
tui_wait 'run.h5:1:'
tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" tui --focus all --session ./s.session run.h5
tui_wait '14 activities · 352/352 events · 0 unmapped'
ln -f run.h5 s.session
tui_keys 7 w; tui_wait 'save rules to'
tui_keys C-u; tui_type 'run.h5'; tui_keys Enter
tui_wait 'the output is also an input: not replaced'
tui_keys W; tui_wait 'the output is also the input run.h5'
tui_keys q; tui_keys y
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status (save over the log)"
cmp -s run.h5 run.orig || tui_fail "the log was replaced"
echo "PASS: tui"
