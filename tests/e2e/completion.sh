#!/bin/sh
# The shell completions: bash's function called with COMP_WORDS as bash-completion calls it, and
# zsh's driven in an interactive zsh through tmux (skipped without zsh or tmux): subcommands,
# options (from --help), option values, theme names and input files.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
BASH_COMP=$IODFG_SRCDIR/contrib/completion/bash/iodfg
ZSH_DIR=$IODFG_SRCDIR/contrib/completion/zsh
PATH=$(dirname "$IODFG_BIN"):$PATH
export PATH
command -v bash >/dev/null 2>&1 || { echo "SKIP: bash is missing"; exit 77; }
mkdir "$T/d" "$T/d/sub"
: >"$T/d/run.h5"; : >"$T/d/a_h_1.st"; : >"$T/d/notes.txt"; : >"$T/d/ev.csv"

# comp WORD...: the completions bash offers for the last word, one a line, sorted
comp() {
  cd "${COMP_DIR:-$T/d}" && bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
           _iodfg 2>/dev/null; printf "%s\n" "${COMPREPLY[@]}"' _ "$BASH_COMP" "$@" | sort
}
has() { # has WANT WORD...: WANT (a line) is among the completions
  want=$1; shift
  comp "$@" | grep -qx -- "$want"
}
is() { # is "A B C" WORD...: exactly these completions
  want=$(printf '%s\n' $1 | sort); shift
  test "$(comp "$@")" = "$want"
}
check "bash: subcommands" has export iodfg ''
check "bash: 'ex' -> export" is "export" iodfg ex
check "bash: export's options from its --help" has --format iodfg export --fo
check "bash: analysis options of export" has --per-pid iodfg export --per
check "bash: export --format values" is "perfetto csv xes" iodfg export --format ''
check "bash: info --format values" is "table json" iodfg info --format ''
check "bash: dfg --format values" is "dot tsv json" iodfg dfg --format ''
check "bash: stats --sort values" has dur_p95 iodfg stats --sort dur_
check "bash: the pictures' --format values" is "svg png tsv json" iodfg heatmap --format ''
check "bash: offsets --color values" is "case rw" iodfg offsets --color ''
check "bash: heatmap --rows values" is "case host cid activity" iodfg heatmap --rows ''
check "bash: theme names from iodfg --list-themes" has dark iodfg tui --theme ''
check "bash: the tui's options without a subcommand" has --theme iodfg --the
check "bash: --version" has --version iodfg --vers
listed=$("$IODFG_BIN" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1; next } on && /^$/ { exit }')
mkdir "$T/empty"
COMP_DIR=$T/empty check "bash: the subcommands are exactly those of iodfg --help" is "$listed" iodfg ''
check "bash: 'ins' -> insights" is "insights" iodfg ins
check "bash: insights --only rule names from insights --list" has seek-io iodfg insights --only ''
check "bash: insights --skip rule names" is "small-io seek-io shared-file stair-case straggler" iodfg insights --skip s
check "bash: insights --threshold names with =" has small-size= iodfg insights --threshold small-
check "bash: characterize --threshold takes a number, no names" is "" iodfg characterize --threshold ''
check "bash: --rules offers the presets" has hpc iodfg stats --rules ''
check "bash: convert --csv-columns roles" has start= iodfg convert --csv-columns ''
check "bash: logs, traces, CSV and directories; not other files" \
  is "$T/d/a_h_1.st $T/d/ev.csv $T/d/run.h5 $T/d/sub" iodfg info "$T/d/"
check "bash: convert takes no .h5" is "$T/d/a_h_1.st $T/d/ev.csv $T/d/sub" iodfg convert "$T/d/"

# zsh: type into an interactive zsh and read the screen
if ! command -v zsh >/dev/null 2>&1 || ! command -v tmux >/dev/null 2>&1; then
  echo "# zsh or tmux missing: zsh completion not tested"
  finish
fi
check "zsh: the completion parses" zsh -n "$ZSH_DIR/_iodfg"
S="iodfg-comp-$$"
tm() { tmux -L "$S" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; [ -n "${KEEP_T:-}" ] || rm -rf "$T"' EXIT
cat >"$T/zshrc" <<EOF
PS1='ready%% '
fpath=($ZSH_DIR \$fpath)
autoload -U compinit && compinit -u -d $T/zcompdump
cd $T/d
EOF
tm new-session -d -x 150 -y 30 "env -i PATH='$PATH' HOME='$T' TERM=xterm zsh -f -i"
screen_has() { # screen_has TEXT: poll the pane until TEXT shows (5 s)
  n=0
  while [ $n -lt 50 ]; do
    tm capture-pane -p | grep -qF -- "$1" && return 0
    n=$((n + 1)); sleep 0.1
  done
  tm capture-pane -p; return 1
}
screen_lacks() { ! tm capture-pane -p | grep -qF -- "$1"; }
ztab() { # ztab LINE: a cleared screen, LINE typed, Tab pressed
  tm send-keys C-u "clear" Enter
  tm send-keys "$1" Tab
}
tm send-keys ". $T/zshrc" Enter
check "zsh: started with the completion" screen_has 'ready%'
ztab 'iodfg export --format '
check "zsh: export --format values" screen_has perfetto
check "zsh: export --format values (xes)" screen_has xes
ztab 'iodfg ex'
check "zsh: 'ex' -> export" screen_has 'iodfg export'
ztab 'iodfg insights --only seek'
check "zsh: insights --only rule names" screen_has 'iodfg insights --only seek-io'
ztab 'iodfg dfg --rules hp'
check "zsh: --rules presets" screen_has 'iodfg dfg --rules hpc'
ztab 'iodfg tui --theme '
check "zsh: theme names" screen_has colorblind
ztab 'iodfg stats --tra'
check "zsh: options from --help" screen_has 'iodfg stats --transitions'
ztab 'iodfg info '
check "zsh: logs and traces" screen_has run.h5
check "zsh: not other files" screen_lacks notes.txt
finish
