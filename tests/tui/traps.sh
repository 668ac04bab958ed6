#!/bin/sh
# SPDX-License-Identifier: MIT
# The TUI's traps, each as a user met it: a key of another view says where it works; `c` on a
# case compares its cid with the rest; a single group is compared with every other case; the
# status line does not count filtered events as unmapped; `T` writes base units from every
# table; the overview of a graph too big for the terminal shows its most frequent part and
# says what it hid; `?` says that it scrolls and explains the columns; a damaged event log
# ends with one message and status 1, without HDF5's noise.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-tests/data}
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"
"$BIN" convert -q -o ior.h5 "$DATA/traces/ior" || tui_fail "convert"

tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all ior.h5
tui_wait '[1 Activities]'

# a key bound only in another view says where it works, and nothing else happens
tui_keys G
tui_wait 'G (group-g-match) works in 6 Cases'
tui_screen | grep -F 'cases into G' >/dev/null && tui_fail "G opened a prompt outside Cases"

# one group only: R is every other case, as in the CLI
tui_keys 6 Home g 5
tui_wait 'G 1 case: 26 events'
tui_wait 'R 15 cases: 326 events'

# c: the selected case's cid against the rest; the Diff then has rows only one side has
tui_keys 6 Home c
tui_wait 'G = cid fpp (4 cases), R = every other case'
tui_keys 5
tui_wait 'G 4 cases'
tui_wait 'R 12 cases'
tui_screen | grep -E '^.(G\+|R\+|=) ' >/dev/null || tui_fail "no G+/R+/= rows in the Diff"
tui_keys 6 C 5
tui_wait 'G 0 cases'

# a filter: the events it drops are not "unmapped"
tui_keys 1 f
tui_type 'call=write'
tui_keys Enter
tui_wait 'filter: call=write'
tui_screen | grep -F '32/352 events' | grep -F ' 0 unmapped' >/dev/null ||
    tui_fail "filtered events counted as unmapped"
tui_keys BSpace
tui_wait '352/352 events'

# T: every table exports exact numbers in base units and plain column names
for v in 1 2 6 9; do
    tui_keys "$v" T
    tui_wait 'export TSV to'
    tui_keys Enter
    tui_wait 'wrote'
done
tui_keys 6 g 5 T
tui_wait 'export TSV to'
tui_keys Enter
tui_wait 'wrote'
n=0
for f in iodfg-*.tsv; do
    n=$((n + 1))
    [ "$(wc -l <"$f")" -gt 1 ] || tui_fail "$f has no rows"
    if LC_ALL=C grep -n "$(printf '[\200-\377]')" "$f" | grep -v '^[0-9]*:.*[●■]' |
        head -1 | grep . >&2; then
        tui_fail "$f: a non-ASCII display glyph"
    fi
    if sed 1d "$f" | tr '\t' '\n' | grep -E '^-?[0-9.]+ ?(ns|us|ms|s|B|KiB|MiB|GiB|%)$' >&2; then
        tui_fail "$f: a display unit instead of a base unit"
    fi
done
[ "$n" -eq 5 ] || tui_fail "$n TSV files, wanted 5"
grep -F 'span_ns' iodfg-cases-*.tsv >/dev/null || tui_fail "Cases TSV has no span_ns"
grep -F 'lifetime_ns' iodfg-handles-*.tsv >/dev/null || tui_fail "Handles TSV has no lifetime_ns"
grep -F 'g_dur_sum_ns' iodfg-diff-*.tsv >/dev/null || tui_fail "Diff TSV has no g_dur_sum_ns"

# ?: a scroll hint, and the columns explained at the end of the list
tui_keys '?'
tui_wait 'lines 1-'
tui_wait 'Esc back'
tui_keys End
tui_wait 'Columns and figures'
tui_wait 'maximum concurrency'
tui_wait 'stair-case'
tui_keys Escape q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"

# the overview of 46 activities at 100 columns: the most frequent part, and what was hidden
printf 'map => {call}:{path}\n' >full.rules
tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all --rules full.rules ior.h5
tui_wait '46 activities'
tui_keys 3 o
tui_wait 'hidden to fit'
tui_screen | grep -F 'too wide' >/dev/null && tui_fail "overview refused instead of fitting"
tui_screen | grep -F 'openat:/etc/ld.so.cache' >/dev/null || tui_fail "no boxes in the overview"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status (overview)"

# damaged event logs: bytes overwritten where `stats` then fails; the TUI says the same in one
# message, with status 1 and nothing from HDF5's own teardown
tried=0
for off in 1000 1500 2000 2500 3000 3500 4000 5000 6000; do
    cp ior.h5 bad.h5
    printf '\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377' |
        dd of=bad.h5 bs=1 seek="$off" conv=notrunc 2>/dev/null
    if "$BIN" stats bad.h5 >/dev/null 2>&1; then
        continue
    fi
    tried=$((tried + 1))
    rm -f err.txt
    tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" sh -c \
        "'$BIN' bad.h5 2>err.txt; echo \"exit \$?\" >>err.txt"
    i=0
    while ! grep -q '^exit ' err.txt 2>/dev/null && [ $i -lt 100 ]; do
        tui_nap
        i=$((i + 1))
    done
    grep -q '^exit 1$' err.txt || { cat err.txt >&2; tui_fail "damaged at $off: not exit 1"; }
    grep -q 'bad.h5' err.txt || tui_fail "damaged at $off: the file is not named"
    if grep -n 'HDF5' err.txt >&2 || [ "$(wc -l <err.txt)" -ne 2 ]; then
        tui_fail "damaged at $off: more than one message"
    fi
done
[ "$tried" -gt 0 ] || tui_fail "no damaged variant found"
# cases of two clocks: the Timeline and the I/O page keep one clock, name it and say what
# they left out
mkdir -p clocks
for r in 1 2; do
    printf '%s\n' "10:00:0$r.000100 openat(AT_FDCWD, \"/s/x\", O_RDONLY) = 3 <0.000010>" \
        "10:00:0$r.000200 read(3</s/x>, \"ab\", 2) = 2 <0.000005>" \
        "10:00:0$r.000300 close(3</s/x>) = 0 <0.000004>" >"clocks/tod_host1_$r.st"
done
printf '%s\n' '1700000000.000100 openat(AT_FDCWD, "/s/x", O_RDONLY) = 3 <0.000010>' \
    '1700000000.000200 read(3</s/x>, "ab", 2) = 2 <0.000005>' \
    '1700000000.000300 close(3</s/x>) = 0 <0.000004>' >clocks/epoch_host1_3.st
"$BIN" convert -q -o clocks.h5 clocks/*.st 2>/dev/null || tui_fail "convert (clocks)"
tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all clocks.h5
tui_wait '1 Activities'
tui_keys 4
tui_wait 'time-of-day clock'
tui_wait '1 case of other clocks not shown'
tui_screen | grep -F 'epoch_host1_3' >/dev/null && tui_fail "an epoch case on the time-of-day axis"
tui_keys 8
tui_wait 'selection: 2 cases'
tui_wait '1 case of other clocks left out'
# offsets without lseek: the read's pattern is flagged as inferred, not shown as a fact
found=0
for i in 1 2 3; do
    tui_keys End
    sleep 0.3
    tui_screen | grep -F 'read: 100% of offsets inferred (no lseek traced)' >/dev/null && found=1
    [ "$found" = 1 ] && break
    tui_keys l
    sleep 0.5
done
[ "$found" = 1 ] || tui_fail "inferred offsets not flagged on the I/O page"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status (clocks)"
echo "PASS: traps ($tried damaged logs)"
