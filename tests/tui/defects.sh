#!/bin/sh
# SPDX-License-Identifier: MIT
# The TUI's defects of issue 38, each checked at 80x24 in the C locale and in UTF-8 (unless
# said): the overview's start and end nodes in the terminal's characters, its G+/R+ tags; the
# no-terminal message on two lines (no literal \n); `iodfg --session FILE` without a log opens
# the session's log; times in the clock form the CLI prints (the Insights window, its jump's
# filter) and the time filter reads that form back; search takes a regex and says when it
# wrapped; the Diff view's cursor stays on its activity across d and a rule change.
. "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}
[ -x "$BIN" ] || tui_skip "$BIN not built"
ENV="IODFG_THEMEDIR=${IODFG_SRCDIR:-.}/themes"
cd "$TUI_TMP" || tui_fail "cd"
tui_ior_real all.h5 posixssf posixfpp mpiiossf mpiiofpp
# two small runs that differ by their write call: G+ write, R+ pwrite64
mkdir -p gr
printf '%s\n' '10:00:00.000100 openat(AT_FDCWD, "/data/f", O_WRONLY) = 3 <0.000010>' \
    '10:00:00.000200 write(3</data/f>, "ab", 2) = 2 <0.000005>' \
    '10:00:00.000300 close(3</data/f>) = 0 <0.000004>' >gr/a_h_1.st
printf '%s\n' '10:00:01.000100 openat(AT_FDCWD, "/data/f", O_WRONLY) = 3 <0.000010>' \
    '10:00:01.000200 pwrite64(3</data/f>, "ab", 2, 0) = 2 <0.000005>' \
    '10:00:01.000300 close(3</data/f>) = 0 <0.000004>' >gr/b_h_1.st
"$BIN" convert -q -o gr.h5 gr || tui_fail "convert of the G/R traces"

# no_escape WHAT: the screen holds no \x escape of a label of the program's
no_escape()
{
    if tui_screen | grep -n '\\x[0-9a-f][0-9a-f]' >&2; then
        tui_fail "$1: a \\x escape"
    fi
}

check_locale()
{
    start=$1
    # the overview: start and end nodes drawn, the groups' own activities tagged
    $start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all gr.h5
    tui_wait '[1 Activities]'
    tui_keys 6 G
    tui_type 'cid=a'
    tui_keys Enter
    tui_wait '1 cases into G'
    tui_keys 3 o
    tui_wait 'overview: '
    tui_wait 'G+ write:/data/f'
    tui_wait 'R+ pwrite64:/data/f'
    no_escape "$start: overview"
    tui_keys q
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"

    # times on the log's clock: the Insights window, its jump's filter; the filter reads them
    $start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all all.h5
    tui_wait '[1 Activities]'
    tui_keys i
    tui_wait 'finding(s)'
    tui_keys j
    tui_wait_re 'window: +07:38:50\.699678 (->|→) 07:38:57\.738686 \(7\.039008 s\)'
    tui_keys Enter
    tui_wait 'in its time window'
    tui_keys F # the filter stack (the status line is narrower than the filter)
    tui_wait '1  time=07:38:50.699678..07:38:57.738686001' # [from, to + 1 ns)
    tui_keys F BSpace f
    tui_type 'time = 07:38:51 .. 07:38:52.5'
    tui_keys Enter F
    tui_wait '1  time=07:38:51..07:38:52.5'
    tui_keys F BSpace
    tui_wait '69000/69000 events'
    # search: a regex, wrapping at the end
    tui_keys 1 /
    tui_type '^(pread64|pwrite64):/tmp'
    tui_keys Enter
    tui_wait_re '^ p(read|write)64:/tmp/scratch   Load:'
    tui_keys n n
    tui_wait 'search wrapped to the top'
    tui_keys /
    tui_type 'write:('
    tui_wait 'not a regex'
    tui_keys Escape
    tui_keys q
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"

    # the Diff view's cursor keeps its activity across d and a rule change
    $start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" --focus all all.h5
    tui_wait '[1 Activities]'
    tui_keys 6 G
    tui_type 'cid=posixssf'
    tui_keys Enter
    tui_keys R
    tui_type 'cid=mpiiossf'
    tui_keys Enter
    tui_wait '4 cases into R'
    tui_keys 5 /
    tui_type '^write:/tmp/scratch$'
    tui_keys Enter
    tui_wait 'write:/tmp/scratch  64   row'
    rows=$(tui_screen | sed -n 23p | sed 's/.* of //')
    tui_keys d # the rows both groups have go: the cursor keeps its activity
    tui_wait_re "write:/tmp/scratch  64   row [0-9]+ of [0-9]+"
    tui_wait_gone " of $rows"
    tui_wait 'write:/tmp/scratch  64   row'
    tui_keys 7 Home a
    tui_type 'map call = fsync => sync'
    tui_keys Enter 5
    tui_wait '[5 Diff]'
    tui_wait 'write:/tmp/scratch  64   row'
    tui_keys q y
    [ "$(tui_wait_exit)" = 0 ] || tui_fail "$start: exit status"
}

check_locale tui_start_c
check_locale tui_start

# --session FILE without a log: the log its log line names; none named: said so, with the file
tui_start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" tui --focus all --session saved.session gr.h5
tui_wait '[1 Activities]'
tui_keys 5 W
tui_wait 'session saved to saved.session'
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status"
grep -E "^log /.*/gr\.h5$" saved.session >/dev/null || tui_fail "the session names no log: $(cat saved.session)"
mkdir -p elsewhere
tui_start 80 24 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" sh -c "cd elsewhere && '$BIN' --session ../saved.session"
tui_wait '[5 Diff]'
tui_keys q
[ "$(tui_wait_exit)" = 0 ] || tui_fail "exit status of --session alone"
printf 'view diff\n' >nolog.session
tui_start 80 24 "$ENV" "$BIN" --focus all --session nolog.session
tui_wait 'nolog.session: no log line names the event log'
[ "$(tui_wait_exit)" = 1 ] || tui_fail "exit status of a session without a log"

# without a terminal: a message on two lines, no literal \n
"$BIN" tui gr.h5 </dev/null >out.txt 2>err.txt && tui_fail "ran without a terminal"
[ "$(wc -l <err.txt)" -eq 2 ] || tui_fail "the no-terminal message: $(cat err.txt)"
if grep -F '\n' err.txt >/dev/null; then
    tui_fail "a literal \\n in: $(cat err.txt)"
fi
echo "PASS: overview nodes and tags, clock times and their filter, regex search, Diff cursor, --session alone, no-terminal message"
