#!/bin/sh
# SPDX-License-Identifier: MIT
# The Timeline on the real IOR runs (issue 38): with the data file's writes selected, from
# opening the Timeline to the writes at full zoom in at most 4 keys (4 0 p p: the view, fit
# the activity's events, twice into the burst at the concurrency peak); zoom centres on the
# selected activity's events (after 0, + + + keeps them in view), 0 again fits the whole log;
# a legend of the density glyphs and one sentence for peak against max concurrency; times on
# the log's clock (07:38:..), as the CLI prints them, in the heading and the event list, which
# opens at the time cursor. In the C locale and in UTF-8, at 80x24.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"
tui_ior_real all.h5 posixssf posixfpp mpiiossf mpiiofpp

# busy CASE: the number of busy cells of the case's row (the columns right of its label)
busy()
{
    tui_screen | grep -F " $1 " | head -n 1 | cut -c 23- | tr -d ' \n' | wc -c
}

check_locale()
{
    start=$1
    $start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" all.h5
    tui_wait '[1 Activities]'
    # select the data file's writes (a regex search), then count the keys
    tui_keys /
    tui_type '^write:/tmp/scratch$'
    tui_keys Enter
    tui_wait 'write:/tmp/scratch   Load:'
    tui_keys 4 # 1: the Timeline (the whole log)
    tui_wait 'of a bin busy'
    tui_wait 'peak '
    tui_screen | sed -n 3p | grep -E 'write:/tmp/scratch +07:38:[0-9.]+ .+ 07:38:[0-9.]+ +bin 1[0-9]{2} ms' \
        >/dev/null || tui_fail "$start: the heading is not on the log's clock: $(tui_screen | sed -n 3p)"
    tui_wait 'max concurrency 4 = most at once'
    tui_wait '= mean calls in flight in its bin'
    tui_keys 0 # 2: fit the writes (not the whole log)
    tui_wait_re 'bin 3[0-9.]+ ms'
    tui_keys p # 3: into the burst at the peak
    tui_wait_re 'bin [0-9.]+ ms '
    tui_keys p # 4: closer: the single writes
    tui_wait_re 'bin [0-9.]+ (us|µs) '
    for c in posixssf_node1_18297 posixssf_node1_18298 posixssf_node1_18299 posixssf_node1_18302; do
        n=$(busy "$c")
        [ "$n" -ge 10 ] || tui_fail "$start: $c shows $n busy bins at full zoom, not its writes"
    done
    # the time cursor (where zooms centre) is on the peak; . moves it a bin later
    tui_wait_re 'cursor 07:38:5[0-9]\.[0-9]{6}'
    before=$(tui_screen | grep -oE 'cursor 07:38:5[0-9]\.[0-9]{6}')
    tui_keys .
    tui_wait_gone "$before"
    tui_wait_re 'cursor 07:38:5[0-9]\.[0-9]{6}'
    # Enter lists that case's writes from the time cursor on, on the log's clock
    tui_keys j j j j Enter
    tui_wait 'write:/tmp/scratch in posixssf_node1_18297'
    tui_screen | grep -E '07:38:5[0-9]\.[0-9]{6} .* 16\.0 KiB +write' >/dev/null ||
        tui_fail "$start: the events' start is not on the log's clock"
    tui_keys Escape
    tui_wait 'of a bin busy'
    # 0 fits the activity again, 0 once more the whole log; + zooms around the writes
    tui_keys 0
    tui_wait_re 'bin 3[0-9.]+ ms'
    tui_keys 0
    tui_wait_re 'bin 1[0-9]{2} ms'
    tui_keys 0 + + +
    tui_wait_re 'bin 4[0-9.]+ ms'
    n=$(busy posixssf_node1_18297)
    [ "$n" -ge 1 ] || tui_fail "$start: after 0 + + + the writes left the window"
    tui_keys q
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"
}

check_locale tui_start_c
check_locale tui_start
echo "PASS: the Timeline reaches the data file's writes at full zoom in 4 keys, on the log's clock"
