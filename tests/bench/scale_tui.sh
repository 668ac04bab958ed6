#!/bin/sh
# SPDX-License-Identifier: MIT
# The TUI part of `make bench-scale`: the real `iodfg tui LOG` in a private tmux server (200x50,
# C.UTF-8), RUNS sessions, each under `prlimit --as` and /usr/bin/time (its peak RSS). Times are
# taken from the key sent (or the program started) to the screen showing the expected exact
# counts, polling the pane every 20 ms:
#   first frame: the activities table, its status line with the activities and events that
#     iodfg stats found (STATS_TSV: its TSV on the same log; the TUI opens with --focus all, as
#     stats counts, not on the application's I/O);
#   one-rule edit: in the Rules view, the f-hat rule "map kind = file => {call}:{path:2}" edited
#     to {path:1}, then {path:3} (the keys before the last make the template invalid, so only the
#     last key changes the mapping): the status line's activities as iodfg stats --rules counts
#     them with that rule;
#   time-window filter: the filter time=A..B (the middle tenth of the log's span) to the events
#     that iodfg stats --time A..B counts.
# Prints "tui: NAME: SECONDS s" per measure and "tui: peak RSS: KIB KiB" per session; exits 1 with
# the reason on its last line.
#   scale_tui.sh LOG STATS_TSV LIMIT_KIB RUNS DIR        (IODFG_BIN: the iodfg to run)
set -eu
log=$1 stats=$2 lim=$3 runs=$4 dir=$5
: "${IODFG_BIN:?}"
command -v tmux >/dev/null 2>&1 || { echo "no tmux (Debian package tmux)"; exit 1; }
mkdir -p "$dir/cfg"
sock="iodfg-scale-$$"
term=screen
infocmp tmux-256color >/dev/null 2>&1 && term=tmux-256color
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1 || :' EXIT
timeout=${SCALE_TUI_TIMEOUT:-900}

fail() { echo "$*"; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# activities RULES_FILE|- [STATS OPTIONS]: the activities iodfg stats counts; sum: its events
activities() {
  awk -F'\t' 'NR > 1 && $0 == "" { exit } NR > 1 { n++ } END { print n + 0 }' "$1"
}
events() {
  awk -F'\t' 'NR > 1 && $0 == "" { exit } NR > 1 { s += $2 } END { print s + 0 }' "$1"
}
cli() { # cli OUT ARGS...: iodfg stats ARGS on the log, TSV into OUT, under the guard
  out=$1; shift
  prlimit --as=$((lim * 1024)) "$IODFG_BIN" stats --format tsv -o "$out" -f "$@" "$log" \
    2>"$dir/cli.err" || fail "iodfg stats $*: $(head -c 200 "$dir/cli.err" | tr '\n' ' ')"
}

# the expected counts
a2=$(activities "$stats")
total=$(events "$stats")
for d in 1 3; do
  printf 'map kind = file => {call}:{path:%s}\nmap kind = none => {call}\nmap => {call}:{kind}\n' \
    "$d" >"$dir/path$d.rules"
  cli "$dir/path$d.tsv" --rules "$dir/path$d.rules"
done
a1=$(activities "$dir/path1.tsv")
a3=$(activities "$dir/path3.tsv")
[ "$a1" != "$a2" ] && [ "$a3" != "$a1" ] ||
  fail "the rule edits would not change the activities ($a2, $a1, $a3)"
span=$("$IODFG_BIN" info "$log" | sed -n 's/^Time span.*(\([0-9.]*\) s,.*/\1/p')
window=$(awk -v s="$span" 'BEGIN { printf "%.6f..%.6f", s * 0.45, s * 0.55 }')
cli "$dir/window.tsv" --time "$window"
inwin=$(events "$dir/window.tsv")
echo "tui: expected: $a2 activities of $total events; {path:1} $a1, {path:3} $a3 activities;" \
  "time=$window: $inwin events (iodfg stats)"

# screen: the pane; wait_for ERE: poll until a line matches, fail after the timeout
screen() { tmux -L "$sock" capture-pane -p -t scale; }
wait_for() {
  end=$(awk -v t="$(now)" -v d="$timeout" 'BEGIN { printf "%d", t + d }')
  while ! screen | grep -E -q -e "$1"; do
    [ "$(date +%s)" -lt "$end" ] || { screen | tail -3; fail "no '$1' within $timeout s"; }
    sleep 0.02
  done
}
keys() { tmux -L "$sock" send-keys -t scale "$@"; }

for r in $(seq "$runs"); do
  rm -f "$dir/exit" "$dir/rss"
  printf 'cd "%s" && env TZ=UTC LC_ALL=C.UTF-8 TERM=%s XDG_CONFIG_HOME="%s/cfg" /usr/bin/time -f %%M -o "%s/rss" prlimit --as=%s "%s" tui --focus all "%s"; echo $? >"%s/exit"; exec sleep 86400\n' \
    "$dir" "$term" "$dir" "$dir" "$((lim * 1024))" "$IODFG_BIN" "$log" "$dir" >"$dir/run.sh"
  tmux -L "$sock" kill-server >/dev/null 2>&1 || :
  t0=$(now)
  tmux -L "$sock" -f /dev/null new-session -d -s scale -x 200 -y 50 "sh '$dir/run.sh'" ||
    fail "cannot start tmux"
  wait_for "^ *$a2 activities · $total/$total events"
  echo "tui: first frame: $(since "$t0") s"
  keys 7
  wait_for 'rule \(first match wins\)'
  keys j e
  wait_for 'editing rule 2'
  for d in 1 3; do
    keys BSpace BSpace "$d"
    wait_for 'rule 2 invalid'
    eval "want=\$a$d"
    t0=$(now)
    keys '}'
    wait_for "editing rule 2 .* $want activities · $total/$total events"
    echo "tui: one-rule edit to exact counts: $(since "$t0") s"
  done
  keys Escape
  wait_for "^ *$a2 activities · $total/$total events"
  keys 1 f
  wait_for 'filter \(path~RE'
  keys -l "time=$window"
  t0=$(now)
  keys Enter
  wait_for " $inwin/$total events"
  echo "tui: time-window filter to exact counts: $(since "$t0") s"
  keys q
  end=$(($(date +%s) + 60))
  while [ ! -f "$dir/exit" ]; do
    if screen | grep -q 'rules not saved'; then keys y; fi
    [ "$(date +%s)" -lt "$end" ] || fail "the TUI did not quit"
    sleep 0.1
  done
  [ "$(cat "$dir/exit")" = 0 ] || fail "the TUI exited with $(cat "$dir/exit")"
  echo "tui: peak RSS: $(tail -1 "$dir/rss") KiB"
done
