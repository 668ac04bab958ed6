# SPDX-License-Identifier: MIT
# tests/tui/lib.sh: helpers for TUI tests that drive a real program inside tmux.
# Source it from a test script (POSIX sh), e.g.
#   . "${IODFG_SRCDIR:-.}/tests/tui/lib.sh"
#   tui_start 100 30 "$IODFG_BIN" tui "$IODFG_TEST_DATA/example.h5"
#   tui_wait '1 Activities'          # poll until the text is on screen (fails after a timeout)
#   tui_keys s S / w r i t e Enter   # tmux key names, one per argument
#   tui_type 'path ~ ^/scratch'      # literal text
#   tui_resize 80 24; tui_wait '80x24'
#   tui_screen > got.screen          # plain text of the pane
#   tui_expect activities-sorted     # diff against tests/tui/expected/activities-sorted.screen
#                                    # (rebuild time masked; IODFG_UPDATE_SCREENS=1 rewrites)
#   tui_keys q; tui_wait_exit        # prints the exit status, fails after a timeout
# Each test gets a private tmux server (-L iodfg-$$, no config file), a fixed size, TZ=UTC,
# LC_ALL=C.UTF-8 and a pinned TERM ($TUI_TERM: tmux-256color when terminfo has it, else
# screen). The server and the temporary directory are removed on exit. Without tmux the test
# exits 77 (skipped). TUI_TIMEOUT (seconds, default 10) bounds every wait;
# IODFG_UPDATE_SCREENS=1 makes tui_expect write the expected files instead of comparing.

TUI_SOCKET="iodfg-$$"
TUI_SESSION=""
TUI_STARTS=0
TUI_TIMEOUT="${TUI_TIMEOUT:-10}"
TUI_TMP=""

tui_skip()
{
    echo "SKIP: $*" >&2
    exit 77
}

tui_fail()
{
    echo "FAIL: $*" >&2
    if [ -n "$TUI_TMP" ] && [ -n "$TUI_SESSION" ] && tui_tmux has-session -t "$TUI_SESSION" 2>/dev/null; then
        echo "--- screen ---" >&2
        tui_screen >&2
        echo "--------------" >&2
    fi
    exit 1
}

tui_tmux()
{
    tmux -L "$TUI_SOCKET" -f /dev/null "$@"
}

tui_cleanup()
{
    tmux -L "$TUI_SOCKET" -f /dev/null kill-server >/dev/null 2>&1
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TUI_SOCKET"
    if [ -n "$TUI_TMP" ]; then
        rm -rf "$TUI_TMP"
    fi
}

command -v tmux >/dev/null 2>&1 || tui_skip "tmux is not installed (Debian package tmux)"

if [ -z "${TUI_TERM:-}" ]; then
    if command -v infocmp >/dev/null 2>&1 && infocmp tmux-256color >/dev/null 2>&1; then
        TUI_TERM=tmux-256color
    else
        TUI_TERM=screen
    fi
fi

TUI_TMP=$(mktemp -d "${TMPDIR:-/tmp}/iodfg-tui.XXXXXX") || tui_fail "mktemp failed"
trap 'tui_cleanup' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# Sleep a tenth of a second between polls (falls back to 1 s where sleep is integer-only).
tui_nap()
{
    sleep 0.1 2>/dev/null || sleep 1
}

# tui_start WIDTH HEIGHT COMMAND [ARGS...]: run COMMAND in a fresh pane of that size. Extra
# environment can be passed as VAR=value words before the command (they go through env).
tui_start()
{
    _tui_w=$1
    _tui_h=$2
    shift 2
    _tui_cmd="env TZ=UTC LC_ALL=C.UTF-8 TERM=$TUI_TERM"
    for _tui_a in "$@"; do
        _tui_q=$(printf "%s" "$_tui_a" | sed "s/'/'\\\\''/g")
        _tui_cmd="$_tui_cmd '$_tui_q'"
    done
    rm -f "$TUI_TMP/exit"
    _tui_old=$TUI_SESSION
    TUI_STARTS=$((TUI_STARTS + 1))
    TUI_SESSION="tui$TUI_STARTS"
    printf '%s\n' "$_tui_cmd" >"$TUI_TMP/cmd"
    # The shell stays after the program ends (tmux may drop the last output of a pane whose
    # process exits), until the server is killed.
    printf '%s; echo $? >"%s/exit.tmp"; mv "%s/exit.tmp" "%s/exit"; exec sleep 86400\n' \
        "$_tui_cmd" "$TUI_TMP" "$TUI_TMP" "$TUI_TMP" >"$TUI_TMP/run.sh"
    tui_tmux start-server \; set-option -g default-terminal "$TUI_TERM" \; \
        set-option -g history-limit 0 \; \
        new-session -d -s "$TUI_SESSION" -x "$_tui_w" -y "$_tui_h" "sh '$TUI_TMP/run.sh'" ||
        tui_fail "cannot start tmux"
    # The previous program's session goes only now, so the server never runs empty.
    if [ -n "$_tui_old" ]; then
        tui_tmux kill-session -t "$_tui_old" >/dev/null 2>&1
    fi
}

# tui_screen: the pane as plain text (tui_screen -e keeps colours and attributes).
tui_screen()
{
    tui_tmux capture-pane -p "$@" -t "$TUI_SESSION"
}

# tui_wait TEXT [SECONDS]: poll the pane until it shows TEXT (a fixed string).
tui_wait()
{
    _tui_limit=$(( ${2:-$TUI_TIMEOUT} * 10 ))
    _tui_i=0
    while [ "$_tui_i" -lt "$_tui_limit" ]; do
        if tui_screen | grep -F -e "$1" >/dev/null 2>&1; then
            return 0
        fi
        tui_nap
        _tui_i=$((_tui_i + 1))
    done
    tui_fail "timed out waiting for '$1'"
}

# tui_wait_gone TEXT [SECONDS]: poll until TEXT is no longer on screen.
tui_wait_gone()
{
    _tui_limit=$(( ${2:-$TUI_TIMEOUT} * 10 ))
    _tui_i=0
    while [ "$_tui_i" -lt "$_tui_limit" ]; do
        if ! tui_screen | grep -F -e "$1" >/dev/null 2>&1; then
            return 0
        fi
        tui_nap
        _tui_i=$((_tui_i + 1))
    done
    tui_fail "timed out waiting for '$1' to go away"
}

# tui_keys KEY...: send tmux key names (Enter, Escape, BSpace, Up, C-r, F1, or characters).
tui_keys()
{
    tui_tmux send-keys -t "$TUI_SESSION" "$@" || tui_fail "send-keys $*"
}

# tui_type TEXT: send TEXT literally.
tui_type()
{
    tui_tmux send-keys -t "$TUI_SESSION" -l "$1" || tui_fail "send-keys -l $1"
}

# tui_resize WIDTH HEIGHT: resize the window (the program gets SIGWINCH).
tui_resize()
{
    tui_tmux resize-window -t "$TUI_SESSION" -x "$1" -y "$2" || tui_fail "resize-window $1x$2"
}

# tui_wait_exit [SECONDS]: wait for the program to end and print its exit status.
tui_wait_exit()
{
    _tui_limit=$(( ${1:-$TUI_TIMEOUT} * 10 ))
    _tui_i=0
    while [ "$_tui_i" -lt "$_tui_limit" ]; do
        if [ -f "$TUI_TMP/exit" ]; then
            cat "$TUI_TMP/exit"
            return 0
        fi
        tui_nap
        _tui_i=$((_tui_i + 1))
    done
    tui_fail "the program did not exit"
}

# tui_stable: the screen with what changes from run to run masked (the rebuild time in the
# status line, the last line; after "|" in the C locale).
tui_stable()
{
    tui_screen | sed -e '$ s/ · [0-9][0-9.]* ms/ · N ms/' -e '$ s/ | [0-9][0-9.]* ms/ | N ms/'
}

# tui_plain_screen WHAT: fails when the pane shows a \x escape (of a built-in label) or any byte
# outside ASCII (the C locale's screens)
tui_plain_screen()
{
    tui_screen >"$TUI_TMP/plain.screen"
    if grep -n '\\x[0-9a-f][0-9a-f]' "$TUI_TMP/plain.screen" >&2; then
        tui_fail "$1: a \\x escape of a built-in label"
    fi
    if LC_ALL=C grep -n "$(printf '[\200-\377]')" "$TUI_TMP/plain.screen" >&2; then
        tui_fail "$1: a non-ASCII byte"
    fi
}

# tui_expect NAME: compare the screen (tui_stable) with tests/tui/expected/NAME.screen.
tui_expect()
{
    _tui_exp="${IODFG_SRCDIR:-.}/tests/tui/expected/$1.screen"
    tui_stable >"$TUI_TMP/$1.screen"
    if [ "${IODFG_UPDATE_SCREENS:-0}" = 1 ]; then
        mkdir -p "$(dirname "$_tui_exp")" && cp "$TUI_TMP/$1.screen" "$_tui_exp"
        return 0
    fi
    diff -u "$_tui_exp" "$TUI_TMP/$1.screen" >&2 || tui_fail "screen $1 differs from $_tui_exp"
}

# tui_ior_real OUT.h5 RUN...: the real IOR runs recorded for the tests (tests/data/traces/
# ior-real.tar.xz: posixssf posixfpp mpiiossf mpiiofpp, 4 ranks each), the ones named converted
# into one event log. Skips when xz or the archive is missing.
tui_ior_real()
{
    _tui_out=$1
    shift
    _tui_tar="${IODFG_TEST_DATA:-${IODFG_SRCDIR:-.}/tests/data}/traces/ior-real.tar.xz"
    [ -f "$_tui_tar" ] || tui_skip "no $_tui_tar"
    command -v xz >/dev/null 2>&1 || tui_skip "xz is not installed (Debian package xz-utils)"
    if [ ! -d "$TUI_TMP/ior-real" ]; then
        tar -xJf "$_tui_tar" -C "$TUI_TMP" || tui_fail "cannot unpack $_tui_tar"
    fi
    _tui_files=
    for _tui_run in "$@"; do
        _tui_files="$_tui_files $TUI_TMP/ior-real/$_tui_run/*.st"
    done
    # shellcheck disable=SC2086 # the globs are the runs' traces
    "${IODFG_BIN:-./iodfg}" convert -q -f -o "$_tui_out" $_tui_files ||
        tui_fail "convert of the real IOR runs $*"
}

# tui_start_c W H ARGS...: tui_start in the C locale (LANG unset, LC_ALL=C): ASCII glyphs.
tui_start_c()
{
    _tui_cw=$1
    _tui_ch=$2
    shift 2
    tui_start "$_tui_cw" "$_tui_ch" LANG= LC_ALL=C LC_CTYPE= "$@"
}

# tui_wait_re REGEX [SECONDS]: poll the pane until a line matches the extended regex.
tui_wait_re()
{
    _tui_limit=$(( ${2:-$TUI_TIMEOUT} * 10 ))
    _tui_i=0
    while [ "$_tui_i" -lt "$_tui_limit" ]; do
        if tui_screen | grep -E -e "$1" >/dev/null 2>&1; then
            return 0
        fi
        tui_nap
        _tui_i=$((_tui_i + 1))
    done
    tui_fail "timed out waiting for a line matching '$1'"
}
