#!/bin/sh
# SPDX-License-Identifier: MIT
# The Heatmap (H) and Offsets (O) views at 80x24, in UTF-8 and in the C locale (plain ASCII
# then), on the bundled IOR example and on the real IOR runs (POSIX and MPI-IO, shared file and
# file per process): golden screens. Enter on a Heatmap cell filters to its case and time
# window, Backspace comes back; with more cases than rows the rows aggregate and say how many
# make one; X writes SVG snapshots of the Timeline, Heatmap and Offsets views that xmllint
# accepts, and a PNG through rsvg-convert when it is installed. Regenerate the screens with
#   IODFG_UPDATE_SCREENS=1 make check TESTS=tests/tui/pictures.sh   (then review git diff)
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"
CFG="XDG_CONFIG_HOME=$TUI_TMP/cfg"
C_LOCALE="LANG= LC_ALL=C LC_CTYPE="

# the real IOR runs, all four in one log
tar -xJf "$DATA/traces/ior-real.tar.xz" || tui_fail "unpacking the real IOR runs"
"$BIN" convert -q -o real.h5 ior-real/posixssf ior-real/posixfpp ior-real/mpiiossf \
    ior-real/mpiiofpp || tui_fail "convert of the real IOR runs"

# expect_cut NAME: tui_expect with the status line cut after the rebuild time (the filters that
# follow are cut to the width, at a column that moves with the time's digits)
expect_cut()
{
    _exp="${IODFG_SRCDIR:-.}/tests/tui/expected/$1.screen"
    tui_stable | sed '$ s/\( N ms\) · filter: .*/\1 · filter: .../' >"$TUI_TMP/$1.screen"
    if [ "${IODFG_UPDATE_SCREENS:-0}" = 1 ]; then
        cp "$TUI_TMP/$1.screen" "$_exp"
        return 0
    fi
    diff -u "$_exp" "$TUI_TMP/$1.screen" >&2 || tui_fail "screen $1 differs from $_exp"
}

# both NAME LOG LOCALE: the Heatmap and Offsets views of LOG, compared with NAME-heatmap-80x24
# and NAME-offsets-80x24 (-c in the C locale)
both()
{
    sfx=""
    if [ "$3" = c ]; then
        sfx="-c"
        # shellcheck disable=SC2086
        tui_start 80 24 $C_LOCALE "$ENV" "$CFG" "$BIN" --focus all "$2"
    else
        tui_start 80 24 "$ENV" "$CFG" "$BIN" --focus all "$2"
    fi
    tui_wait 'unmapped'
    tui_keys H
    tui_wait 'per cell, up to'
    tui_expect "$1-heatmap-80x24$sfx"
    [ "$3" = c ] && tui_plain_screen "$1 heatmap in the C locale"
    tui_keys O
    tui_wait 'offsets: '
    tui_expect "$1-offsets-80x24$sfx"
    [ "$3" = c ] && tui_plain_screen "$1 offsets in the C locale"
    tui_keys q
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$1 $3: exit status"
}

both ior "$DATA/traces/ior" utf8
both ior "$DATA/traces/ior" c
both real "$TUI_TMP/real.h5" utf8
both real "$TUI_TMP/real.h5" c

# Enter on a cell: the case ssf_node1_14729 and the bin where its first write starts; back
tui_start 80 24 "$ENV" "$CFG" "$BIN" --focus all "$DATA/traces/ior"
tui_wait '352/352 events'
tui_keys H
tui_wait 'per cell, up to'
tui_keys j j j j j j j j Right Right Right Right Right
tui_wait 'ssf_node1_14729 · 0.0050 … 0.0061 s · 33.0 KiB · busy 135 µs · 4 calls'
tui_keys Enter
tui_wait 'filtered to 1 case and one bin of time (Backspace comes back)'
tui_wait '4 activities · 4/352 events'
expect_cut ior-heatmap-cell-80x24
tui_keys F
tui_wait 'name=ssf_node1_14729'
tui_wait 'time=@'
tui_keys F
tui_keys BSpace
tui_wait 'back: filters and heatmap as before the cell'
tui_wait '352/352 events'
tui_screen | grep -q 'filter:' && tui_fail "a filter stayed after Backspace"
tui_screen | grep -q '16 cases, one per row' || tui_fail "the rows as before"

# the snapshots: X and the proposed name in the Timeline, Heatmap and Offsets views
tui_keys 4
tui_wait 'max concurrency'
tui_keys X
tui_wait 'snapshot to'
tui_keys Enter
tui_wait 'wrote iodfg-timeline-1.svg'
tui_keys H X
tui_wait 'snapshot to'
tui_keys Enter
tui_wait 'wrote iodfg-heatmap-1.svg'
tui_keys O X
tui_wait 'snapshot to'
tui_keys Enter
tui_wait 'wrote iodfg-offsets-1.svg'
tui_keys X
tui_wait 'snapshot to'
tui_keys C-u
tui_type 'iodfg-heatmap-1.svg'
tui_keys Enter
tui_wait 'the file exists and is kept'
# the snapshot states the focus in force: all activities, then the application's I/O after A
tui_keys A
tui_wait 'runtime folded'
tui_keys X
tui_wait 'snapshot to'
tui_keys C-u
tui_type 'focus-app.svg'
tui_keys Enter
tui_wait 'wrote focus-app.svg'
tui_keys A
tui_wait 'focus all: every activity'
grep -q "focus: the application&apos;s I/O (runtime classes folded)\|focus: the application's I/O (runtime classes folded)" focus-app.svg ||
    tui_fail "the snapshot under the focus app does not say so"
grep -q 'focus: all activities' iodfg-heatmap-1.svg || tui_fail "the snapshot does not state the focus"
if command -v rsvg-convert >/dev/null 2>&1; then
    tui_keys X
    tui_wait 'snapshot to'
    tui_keys C-u
    tui_type 'offsets.png'
    tui_keys Enter
    tui_wait 'wrote offsets.png'
    [ "$(head -c 4 offsets.png | od -An -c | tr -d ' ')" = '211PNG' ] ||
        tui_fail "offsets.png is no PNG"
else
    echo "NOTE: rsvg-convert is not installed: no PNG written" >&2
fi
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"
for f in iodfg-timeline-1.svg iodfg-heatmap-1.svg iodfg-offsets-1.svg; do
    grep -q 'log: ior' "$f" || tui_fail "$f does not name the log"
    if command -v xmllint >/dev/null 2>&1; then
        xmllint --noout "$f" || tui_fail "xmllint rejects $f"
    fi
done
command -v xmllint >/dev/null 2>&1 || echo "NOTE: xmllint is not installed: SVGs not checked" >&2

# many cases: rows aggregate and say how many make one
sh "${IODFG_SRCDIR:-.}/tests/tools/gen_cases.sh" "$TUI_TMP/many" 300 ||
    tui_fail "generating the cases"
tui_start 80 24 "$ENV" "$CFG" "$BIN" --focus all "$TUI_TMP/many"
tui_wait 'unmapped'
tui_keys H
tui_wait '296 cases in 15 rows of 20'
tui_screen | grep -q '^▶a_n000_20001 \.\. ' || tui_fail "an aggregated row's label"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"
echo "PASS: pictures"
