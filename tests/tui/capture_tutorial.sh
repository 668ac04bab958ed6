#!/bin/sh
# SPDX-License-Identifier: MIT
# Regenerate the screens of doc/tutorial.md from the real iodfg TUI, driven in tmux on the
# recorded traces, so the tutorial stays true. Each screen goes into the fenced block that
# follows its marker line "<!-- screen: NAME -->" in the tutorial (the rest is left alone).
# Usage (from a build directory): IODFG_BIN=$PWD/iodfg sh SRC/tests/tui/capture_tutorial.sh
# The rebuild time in the status line is masked ("N ms") as in the golden screens.
IODFG_SRCDIR=${IODFG_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$IODFG_SRCDIR/tests/tui/lib.sh"

BIN=${IODFG_BIN:-./iodfg}
DATA=$IODFG_SRCDIR/tests/data
DOC=${TUTORIAL:-$IODFG_SRCDIR/doc/tutorial.md}
[ -x "$BIN" ] || tui_skip "$BIN not built (set IODFG_BIN)"
[ -f "$DOC" ] || tui_fail "no $DOC"
ENV="IODFG_THEMEDIR=$IODFG_SRCDIR/themes"
SHOTS="$TUI_TMP/shots"
mkdir -p "$SHOTS"
cd "$TUI_TMP" || tui_fail "cd"

shot() { tui_stable >"$SHOTS/$1.txt"; }

# 1. The paper's example: `ls` (cid a) versus `ls -l` (cid b), three runs each.
tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" "$DATA/traces/paper"
# ls does only the runtime's I/O (loader, system look-ups), which the default focus folds into
# runtime:CLASS rows; A shows every activity, the f-hat of the paper.
tui_wait '2 activities · 8 runtime folded (A) · 66/66 events'
tui_keys A; tui_wait '8 activities · 66/66 events'
shot paper-activities
tui_keys 3 o; tui_wait 'overview:'
shot paper-overview
tui_keys o 6; tui_wait 'a_host1_14637'
shot paper-cases
tui_keys G; tui_type 'cid=a'; tui_keys Enter; tui_wait '3 cases into G'
tui_keys R; tui_type 'cid=b'; tui_keys Enter; tui_wait '3 cases into R'
tui_keys 5; tui_wait 'G 3 cases'
shot paper-diff
tui_keys d; tui_wait 'differences on'
shot paper-diff-only
tui_keys q; tui_wait_exit >/dev/null

# 2. SSF versus FPP on the IOR-like traces.
tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" "$DATA/traces/ior"
tui_wait '9 activities · 6 runtime folded (A) · 352/352 events'
shot ior-activities
tui_keys 3; tui_wait 'successors'
shot ior-graph
tui_keys 4; tui_wait 'max concurrency'
shot ior-timeline
tui_keys 1 / w r i t e Enter 4; tui_wait 'write:/scratch/run   05:'
shot ior-timeline-write
tui_keys 6 G; tui_type 'cid=ssf'; tui_keys Enter; tui_wait '4 cases into G'
tui_keys R; tui_type 'cid=fpp'; tui_keys Enter; tui_wait '4 cases into R'
tui_keys 5; tui_wait 'G 4 cases'
shot ior-diff
tui_keys 8; tui_wait 'G: 4 cases, 104 events'
shot ior-charz
tui_keys 1 Home 8 l End; tui_wait 'activity write:/scratch/run'; tui_wait 'request size'
shot ior-charz-activity
tui_keys i; tui_wait 'R: 3 over 4 · 3 difference(s)'
shot ior-insights
tui_keys 1 Home Enter; tui_wait 'drilled into'
shot ior-drilled
tui_keys 5; tui_wait 'G 4 cases'
shot ior-diff-drilled
tui_keys u 7; tui_wait 'rule (first match wins)'
shot ior-rules
tui_keys q; tui_wait_exit >/dev/null

# 3. Handles of a traced shell pipeline (forks, dup2 onto 0/1, pre-created descriptors).
tui_start 100 30 "$ENV" XDG_CONFIG_HOME="$TUI_TMP/cfg" "$BIN" \
    "$DATA/traces/formats/fmt_tt_host1_2.st"
tui_wait '503/503 events'
tui_keys 9 j j j j j j; tui_wait '#7 fd 1 pid 14677 dup'
shot pipe-handles
tui_keys o; tui_wait 'never-closed only'
shot pipe-handles-open
tui_keys q; tui_wait_exit >/dev/null

# Put each shot into the block after its marker.
awk -v dir="$SHOTS" '
    /^<!-- screen: [a-z0-9-]+ -->$/ { print; name = $3; want = 1; next }
    want && /^```/ { print "```text"; f = dir "/" name ".txt"
                     while ((getline l < f) > 0) print l; close(f)
                     skip = 1; want = 0; next }
    skip && /^```$/ { print; skip = 0; next }
    skip { next }
    { print }' "$DOC" >"$TUI_TMP/tutorial.md" || tui_fail "awk"
for f in "$SHOTS"/*.txt; do
    n=$(basename "$f" .txt)
    grep -q "^<!-- screen: $n -->\$" "$DOC" || echo "note: screen $n has no marker in $DOC" >&2
done
cp "$TUI_TMP/tutorial.md" "$DOC" || tui_fail "cannot write $DOC"
echo "updated $DOC"
