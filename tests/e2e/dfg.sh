#!/bin/sh
# End-to-end: `iodfg dfg` on recorded traces: Sankaran et al. 2024's ls / ls -l example (structure and G/R
# colouring), the IOR-like run with a rule file, hostile paths, and every error path.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
D=$IODFG_TEST_DATA/traces
R=$IODFG_TEST_DATA/rules
B=$IODFG_BIN

# Every DOT file goes through Graphviz when it is installed.
if command -v dot >/dev/null 2>&1; then HAVE_DOT=1; else
  HAVE_DOT=; echo "# Graphviz 'dot' not installed: DOT files are not checked with dot -Tsvg"
fi
dot_ok() { # dot_ok FILE: Graphviz accepts FILE
  [ -z "$HAVE_DOT" ] && return 0
  dot -Tsvg "$1" >"$1.svg" 2>"$1.err" && test -s "$1.svg" && ! test -s "$1.err"
}
# names FILE GROUPS_EXPR: activity names of a JSON export (sorted, one per line)
names() { json "$1" '"\n".join(sorted(a["activity"] for a in j["activities"]))'; }

# ---- Sankaran et al. 2024, section IV: C_a (ls), C_b (ls -l), C_x (both) under f-hat -------------------
"$B" dfg -q --format json --case cid=a "$D/paper" >"$T/a.json"
"$B" dfg -q --format json --case cid=b "$D/paper" >"$T/b.json"
"$B" dfg -q --format json "$D/paper" >"$T/x.json"
names "$T/a.json" >"$T/a.names"
names "$T/b.json" >"$T/b.names"
check "paper: C_a has 3 traces" test "$(json "$T/a.json" 'j["traces"]')" = 3
check "paper: C_x has 6 traces" test "$(json "$T/x.json" 'j["traces"]')" = 6
check "paper: every activity of ls is one of ls -l" test -z "$(comm -23 "$T/a.names" "$T/b.names")"
check "paper: ls -l alone reads nsswitch.conf, passwd, group, /usr/share (zoneinfo)" \
  test "$(comm -13 "$T/a.names" "$T/b.names" | tr '\n' ' ')" = \
  "read:/etc/group read:/etc/nsswitch.conf read:/etc/passwd read:/usr/share "
check "paper: the zoneinfo read is what maps to read:/usr/share" \
  grep -q 'read(3</usr/share/zoneinfo/' "$D/paper/b_host1_14649.st"
# L(C_a) = <●, read:/usr/lib x3, read:/proc/filesystems x2, read:/etc/locale.alias x2, write, ■>^3
check "paper: DFG of C_a is the ls trace three times" "$PY" -c '
import json,sys
j=json.load(open(sys.argv[1]))
got=sorted((t["from"],t["to"],t["count"],t["cases"]) for t in j["transitions"])
ul,pf,la,w="read:/usr/lib","read:/proc/filesystems","read:/etc/locale.alias","write:/dev/null"
want=sorted([("●",ul,3,3),(ul,ul,6,3),(ul,pf,3,3),(pf,pf,3,3),(pf,la,3,3),(la,la,3,3),
             (la,w,3,3),(w,"■",3,3)])
sys.exit(got!=want)' "$T/a.json"
check "paper: C_x edges add up (● -> read:/usr/lib seen 6 times)" test "$(json "$T/x.json" \
  '[t["count"] for t in j["transitions"] if t["from"]=="●"]')" = "[6]"

# Partition colouring G = C_a, R = C_b.
"$B" dfg -q --format json --green cid=a --red cid=b "$D/paper" >"$T/gr.json"
check "G/R: the four ls -l-only activities are red (R+)" test "$(json "$T/gr.json" \
  '" ".join(sorted(a["activity"] for a in j["groups"]["activities"] if a["side"]=="red" and a["marker"]=="R+"))')" = \
  "read:/etc/group read:/etc/nsswitch.conf read:/etc/passwd read:/usr/share"
check "G/R: no node is green (G-only)" test "$(json "$T/gr.json" \
  'sum(a["side"]=="green" for a in j["groups"]["activities"])')" = 0
check "G/R: the rest is in both (=, or != when 1.5x apart per case)" test "$(json "$T/gr.json" \
  'sorted(set(a["marker"] for a in j["groups"]["activities"]))')" = "['!=', '=', 'R+']"
check "G/R: write:/dev/null, 1 against 4 writes per case, is changed (!=)" test "$(json "$T/gr.json" \
  '[(a["side"],a["marker"]) for a in j["groups"]["activities"] if a["activity"]=="write:/dev/null"]')" = \
  "[('changed', '!=')]"
check "G/R: read:/usr/lib, the same per case, is =" test "$(json "$T/gr.json" \
  '[a["marker"] for a in j["groups"]["activities"] if a["activity"]=="read:/usr/lib"]')" = "['=']"
check "G/R: the single green edge is read:/etc/locale.alias -> write (as in the paper)" \
  test "$(json "$T/gr.json" '[(t["from"],t["to"][:11]) for t in j["groups"]["transitions"] if t["side"]=="green"]')" = \
  "[('read:/etc/locale.alias', 'write:/dev/')]"
check "G/R: group sizes" test "$(json "$T/gr.json" '(j["groups"]["g_cases"],j["groups"]["r_cases"])')" = "(3, 3)"
"$B" dfg -q --green cid=a --red cid=b -o "$T/gr.dot" "$D/paper"
check "G/R DOT: passwd node is red and marked [R]" grep -q '\[R\] read:/etc/passwd.*color="#d7191c"' "$T/gr.dot"
check "G/R DOT: no node marked [G]" sh -c "! grep -q 'label=\"\\[G\\]' '$T/gr.dot'"
check "G/R DOT: comment names the groups" grep -q '^// green (G, 3 cases): cid=a' "$T/gr.dot"
check "G/R DOT: dot -Tsvg accepts it" dot_ok "$T/gr.dot"
"$B" dfg -q --green cid=a --red cid=b --palette colorblind -o "$T/cb.dot" "$D/paper"
check "colour-blind palette: orange instead of red" grep -q '\[R\] read:/etc/passwd.*color="#e69f00"' "$T/cb.dot"
check "colour-blind DOT: dot -Tsvg accepts it" dot_ok "$T/cb.dot"
# --green alone: R is every other case.
"$B" dfg -q --format json --green cid=a "$D/paper" >"$T/g1.json"
check "--green alone: R = the other cases" test "$(json "$T/g1.json" 'j["groups"]["r_cases"]')" = 3

# Statistics colouring, pruning and every shade produce valid DOT.
"$B" dfg -q -o "$T/x.dot" "$D/paper"
check "DOT: paper labels (Load, DR)" grep -q 'Load: .*DR: ' "$T/x.dot"
check "DOT: rules in the comment" grep -q '^// rules: default f-hat' "$T/x.dot"
check "DOT: edge counts" grep -q 'start -> a0 \[label="6"\]' "$T/x.dot"
check "DOT: dot -Tsvg accepts it" dot_ok "$T/x.dot"
for s in bytes count mc dr none; do
  "$B" dfg -q --color $s -o "$T/shade-$s.dot" "$D/paper"
  check "DOT --color $s: dot -Tsvg accepts it" dot_ok "$T/shade-$s.dot"
done
"$B" dfg -q --min-edge 3 --format json "$D/paper" >"$T/pruned3.json"
check "--min-edge 3: all 15 edges (each seen 3+ times)" test "$(json "$T/pruned3.json" 'len(j["transitions"])')" = 15
# every way from ● to ■ passes an edge seen 3 times: nothing stays connected
"$B" dfg -q --min-edge 4 --format json "$D/paper" >"$T/pruned4.json"
check "--min-edge 4: no ●->■ path survives, so nothing is shown" test "$(json "$T/pruned4.json" \
  '(len(j["activities"]),len(j["transitions"]))')" = "(0, 0)"
"$B" dfg -q --top-activities 2 --filter 'path~^/(usr|proc)' -o "$T/top.dot" "$D/paper"
check "--top-activities and --filter in the DOT comment" grep -q '^// filter: top=2' "$T/top.dot"
check "pruned DOT: dot -Tsvg accepts it" dot_ok "$T/top.dot"
"$B" dfg -q --format tsv "$D/paper" >"$T/x.tsv"
check "TSV: activities header" test "$(head -n 1 "$T/x.tsv" | cut -f 1-3)" = "$(printf 'activity\tcount\tcases')"
check "TSV: transitions after a blank line" test "$(sed -n '/^$/{n;p;}' "$T/x.tsv" | cut -f 1,2)" = "$(printf 'from\tto')"

# ---- IOR-like run: pread64/pwrite64 (pio) vs lseek + read/write ---------------------------
"$B" dfg -q --format json --rules "$R/scratch_run.rules" --green cid=ssfpio,fpppio \
  --red cid=ssf,fpp "$D/ior" >"$T/ior.json"
check "ior: pio groups have pread64/pwrite64 on the scratch files" test "$(json "$T/ior.json" \
  '" ".join(sorted(a["activity"] for a in j["groups"]["activities"] if a["g_count"]>0 and "scratch/" in a["activity"] and a["activity"].startswith("p")))')" = \
  "pread64:scratch/fpp pread64:scratch/ssf pwrite64:scratch/fpp pwrite64:scratch/ssf"
check "ior: no lseek in the pio groups" test "$(json "$T/ior.json" \
  'sum(a["g_count"] for a in j["groups"]["activities"] if a["activity"].startswith("lseek"))')" = 0
check "ior: lseek only in the read/write groups (R+)" test "$(json "$T/ior.json" \
  'sorted(set(a["marker"] for a in j["groups"]["activities"] if a["activity"].startswith("lseek")))')" = "['R+']"
check "ior: ssf and fpp kept apart by the rule" test "$(json "$T/ior.json" \
  '" ".join(sorted(a["activity"] for a in j["activities"] if a["activity"].startswith("write:")))')" = \
  "write:scratch/fpp write:scratch/ssf"
"$B" dfg -q --rules "$R/scratch_run.rules" --green cid=ssfpio,fpppio --red cid=ssf,fpp \
  -o "$T/ior.dot" "$D/ior"
check "ior DOT: the rules are in the comment" grep -q '^//   map   path ~ ^/scratch/run/(ssf|fpp)' "$T/ior.dot"
check "ior DOT: dot -Tsvg accepts it" dot_ok "$T/ior.dot"
"$B" dfg -q --per-pid --call pwrite64,pread64 -o "$T/pid.dot" "$D/ior"
check "--per-pid --call: DOT accepted" dot_ok "$T/pid.dot"
check "--per-pid --call: only p-calls" sh -c "! grep -q 'label=\"\\(lseek\\|read\\|write\\):' '$T/pid.dot'"

# ---- hostile paths: quotes, backslashes, escape sequences, invalid UTF-8, tab, newline --------
mkdir "$T/h"
printf '%s\n' \
  '100 10:00:00.000001 read(3</tmp/q"uo\\te/x>, "abc", 3) = 3 <0.000010>' \
  '100 10:00:00.000101 read(3</tmp/esc\x1b[31mred\x1b[0m/y>, "abc", 3) = 3 <0.000010>' \
  '100 10:00:00.000201 write(3</tmp/bad\xff\xfeutf/z>, "abc", 3) = 3 <0.000010>' \
  '100 10:00:00.000301 write(3</tmp/tab\there\nnl/z>, "abc", 3) = 3 <0.000010>' \
  '100 10:00:00.000401 read(3</tmp/br{ace}<&>/z>, "abc", 3) = 3 <0.000010>' >"$T/h/h_host1_1.st"
printf '100 10:00:00.000501 read(3</tmp/raw\033]0;pwn\007\377"\\/z>, "abc", 3) = 3 <0.000010>\n' \
  >>"$T/h/h_host1_1.st"
"$B" dfg -q -o "$T/h.dot" "$T/h"
check "hostile DOT: dot -Tsvg accepts it" dot_ok "$T/h.dot"
check "hostile DOT: no raw ESC or 0xff byte" "$PY" -c '
import sys; d=open(sys.argv[1],"rb").read(); d.decode("utf-8"); sys.exit(b"\x1b" in d or b"\xff" in d)' "$T/h.dot"
"$B" dfg -q --format json "$T/h" >"$T/h.json"
check "hostile JSON: parses, names keep quote, backslash, ESC, tab and newline" "$PY" -c '
import json,sys
n=[a["activity"] for a in json.load(open(sys.argv[1]))["activities"]]
want=["read:/tmp/q\"uo\\te","read:/tmp/esc\x1b[31mred\x1b[0m","write:/tmp/tab\there\nnl"]
sys.exit(not all(w in n for w in want) or len(n)!=6)' "$T/h.json"
"$B" dfg -q --format tsv "$T/h" >"$T/h.tsv"
check "hostile TSV: every row has the header's field count" "$PY" -c '
import sys
for t in open(sys.argv[1],"rb").read().split(b"\n\n"):
    rows=[r for r in t.split(b"\n") if r]
    if any(r.count(b"\t")!=rows[0].count(b"\t") for r in rows) or b"\x1b" in t: sys.exit(1)' "$T/h.tsv"
check "hostile TSV: 6 activities + header" test "$(sed '/^$/q' "$T/h.tsv" | grep -c .)" = 7

# ---- errors ---------------------------------------------------------------------------------
rc=0; "$B" dfg --rules "$R/bad-regex.rules" "$D/paper" >/dev/null 2>"$T/bad.err" || rc=$?
check "bad rules: exit 1" test "$rc" = 1
check "bad rules: file:line:col" grep -q 'bad-regex.rules:3:22: ' "$T/bad.err"
check "bad rules: the offending line" grep -q '^  map path ~ \^/usr/(lib => {call}:usr$' "$T/bad.err"
check "bad rules: caret under column 22" test "$(sed -n 3p "$T/bad.err")" = "$(printf '%23s^' '')"
printf 'map path ~ ^/usr => {call}:usr\nmap pth ~ x => y\n' >"$T/word.rules"
rc=0; "$B" dfg --rules "$T/word.rules" "$D/paper" >/dev/null 2>"$T/word.err" || rc=$?
check "unknown field: exit 1 with line 2" sh -c "test $rc = 1 && grep -q 'word.rules:2:' '$T/word.err'"
rc=0; "$B" dfg --rules "$T/missing.rules" "$D/paper" >/dev/null 2>&1 || rc=$?
check "missing rules file: exit 1" test "$rc" = 1
rc=0; "$B" dfg --green cid=a,b --red cid=b "$D/paper" >/dev/null 2>"$T/ov.err" || rc=$?
check "overlapping groups: exit 1" test "$rc" = 1
check "overlapping groups: names the cases" grep -q 'overlap in 3 cases: b_host1_' "$T/ov.err"
rc=0; "$B" dfg --green call=read "$D/paper" >/dev/null 2>"$T/gc.err" || rc=$?
check "non-case group predicate: usage error" test "$rc" = 2
rc=0; "$B" dfg --filter 'path~^(x' "$D/paper" >/dev/null 2>"$T/bf.err" || rc=$?
check "bad --filter: usage error with a caret" sh -c "test $rc = 2 && grep -q '\\^' '$T/bf.err'"
rc=0; "$B" dfg --format svg "$D/paper" >/dev/null 2>&1 || rc=$?
check "bad --format: usage error" test "$rc" = 2
echo old >"$T/exists.dot"
rc=0; "$B" dfg -o "$T/exists.dot" "$D/paper" 2>"$T/ex.err" || rc=$?
check "-o existing without --force: exit 1" test "$rc" = 1
check "-o existing: file untouched" test "$(cat "$T/exists.dot")" = old
check "-o existing: says --force" grep -q -- '--force' "$T/ex.err"
"$B" dfg -q -o "$T/exists.dot" --force "$D/paper"
check "-o existing with --force: replaced" grep -q '^digraph dfg' "$T/exists.dot"
rc=0; env PATH=/nonexistent "$B" dfg -q --svg -o "$T/nodot.svg" "$D/paper" 2>"$T/nodot.err" || rc=$?
check "--svg without dot: exit 1" test "$rc" = 1
check "--svg without dot: clear message" grep -q "Graphviz 'dot' is not installed" "$T/nodot.err"
check "--svg without dot: no file, no temp file left" test -z "$(ls -A "$T" | grep nodot.svg)"
if [ -n "$HAVE_DOT" ]; then
  "$B" dfg -q --svg -o "$T/r.svg" "$D/paper"
  check "--svg: an SVG file" grep -q '<svg' "$T/r.svg"
  "$B" dfg -q --png -o "$T/r.png" "$D/paper"
  check "--png: a PNG file" "$PY" -c 'import sys; sys.exit(open(sys.argv[1],"rb").read(8)!=b"\x89PNG\r\n\x1a\n")' "$T/r.png"
  rc=0; "$B" dfg -q --svg -o "$T/r.svg" "$D/paper" 2>/dev/null || rc=$?
  check "--svg onto an existing file without --force: exit 1" test "$rc" = 1
else
  echo "# Graphviz 'dot' not installed: --svg/--png rendering not checked"
fi
finish
