#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 38, "done when": with groups, the Diff view's first lines tell the story (what differs
# per case, ranked by the time it explains) and name the data file and the calls that differ,
# and the top findings of the Insights view name the data file; at 80x24 in the C locale, on
# the real IOR runs (G POSIX against R MPI-IO, G shared file against R file per process) and
# on the bundled example (ssf: lseek + write against ssfpio: pwrite64).
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"
tui_ior_real all.h5 posixssf posixfpp mpiiossf mpiiofpp
"$BIN" convert -q -o ior.h5 "${IODFG_SRCDIR:-.}/tests/data/traces/ior" || tui_fail "convert of the example"

# groups LOG G R: open LOG, put the cases matching G into G and R into R, show the Diff view
groups()
{
    tui_start_c 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" "$1"
    tui_wait '[1 Activities]'
    tui_keys 6 G
    tui_type "$2"
    tui_keys Enter
    tui_keys R
    tui_type "$3"
    tui_keys Enter
    tui_keys 5
    tui_wait '[5 Diff]'
    tui_wait_re '^ 1 (!=|G\+|R\+) '
    tui_plain_screen "Diff $2 $3"
}

# line N: the screen's line N
line()
{
    tui_screen | sed -n "${1}p"
}

# POSIX against MPI-IO: the call variants first, on the data file; the lseeks 256 against 20
groups all.h5 '^posix' '^mpiio'
line 4 | grep -E '^ 1 != write in G is pwrite64 in R, on /tmp/scratch: 16 lseek \+ write per case' \
    >/dev/null || tui_fail "POSIX/MPI-IO: story line 1: $(line 4)"
line 5 | grep -E '^ 2 != read in G is pread64 in R, on /tmp/scratch' >/dev/null ||
    tui_fail "POSIX/MPI-IO: story line 2: $(line 5)"
# 80x24: three lines of the story (a fifth of the body), then the table's heading
[ "$(tui_screen | sed -n '4,6p' | grep -c '^ [1-3] != .*/tmp/scratch')" = 3 ] ||
    tui_fail "POSIX/MPI-IO: a story line not on the data file"
line 7 | grep -E '^ G/R +Activity' >/dev/null || tui_fail "the table's heading: $(line 7)"
line 8 | grep -E '^>!= +lseek:/tmp/scratch +256 +20 ' >/dev/null ||
    tui_fail "POSIX/MPI-IO: the first row: $(line 9)"
tui_keys i
tui_wait '[i Insights]'
tui_wait_re 'finding\(s\) over 8 case\(s\)'
# the first finding's directories, and the next ones' activities (names lose their middle)
tui_screen | grep -E '^ dirs: +/tmp/scratch' >/dev/null || tui_fail "POSIX/MPI-IO: the first finding's dirs"
[ "$(tui_screen | sed -n '6,8p' | grep -c ':/tmp/scratch\|:~/scratch')" = 3 ] ||
    tui_fail "POSIX/MPI-IO: the top findings do not name the data file"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"

# shared file against file per process: the story's rows and the first row on the data file
groups all.h5 'ssf_' 'fpp_'
[ "$(tui_screen | sed -n '4,6p' | grep -c '^ [1-3] != [a-z]*:/tmp/scratch: ')" = 3 ] ||
    tui_fail "SSF/FPP: the story is not the data file's"
line 8 | grep -E '^>!= +lseek:/tmp/scratch ' >/dev/null || tui_fail "SSF/FPP: the first row: $(line 9)"
tui_keys i
tui_wait '[i Insights]'
tui_wait_re 'finding\(s\) over 8 case\(s\)'
[ "$(tui_screen | sed -n '6,8p' | grep -c '/tmp/scratch\|~/scratch')" = 3 ] ||
    tui_fail "SSF/FPP: the top findings do not name the data file"
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"

# the bundled example: ssf writes with lseek + write, ssfpio with pwrite64, G+ and R+ rows
groups ior.h5 '^ssf_' '^ssfpio_'
line 4 | grep -E '^ 1 != write in G is pwrite64 in R, on /scratch/run' >/dev/null ||
    tui_fail "example: story line 1: $(line 4)"
tui_screen | grep -E '^ G\+ +write:/scratch/run ' >/dev/null || tui_fail "example: no G+ row"
tui_keys End # R's own rows have no G count: the last by it
tui_wait_re '^.R\+ +pwrite64:/scratch/run '
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"
echo "PASS: the Diff view's first lines and the top findings name the data file and the calls"
