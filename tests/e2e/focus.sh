#!/bin/sh
# End-to-end: --focus on the real IOR runs recorded under strace (tests/data/traces/ior-real.tar.xz,
# with all the MPI runtime's noise): all is the f-hat unchanged; app folds each runtime class into
# one activity with exact totals; the class rules from --focus-rules, the user's file, or built in;
# errors with their position; insights put the data file's findings first and mark the runtime's.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B=$IODFG_BIN
ior_real
"$B" convert -q -o "$T/ior.h5" "$T/ior-real"
L=$T/ior.h5

# ---- all: the paper's f-hat, byte for byte ---------------------------------------------------
"$B" stats -q --format tsv "$L" >"$T/plain.tsv"
"$B" stats -q --format tsv --focus all "$L" >"$T/all.tsv"
check "stats: --focus all is the default (same bytes)" cmp -s "$T/plain.tsv" "$T/all.tsv"
"$B" dfg -q --format dot "$L" >"$T/plain.dot"
"$B" dfg -q --format dot --focus all "$L" >"$T/all.dot"
check "dfg: --focus all is the default (same DOT)" cmp -s "$T/plain.dot" "$T/all.dot"
check "stats: 294 activities under the f-hat" test "$(sed '/^$/q' "$T/all.tsv" | grep -c .)" = 295

# ---- app: one activity per runtime class, exact totals -------------------------------------
"$B" stats -q --format json --focus app --transitions "$L" >"$T/app.json"
"$B" stats -q --format json --transitions "$L" >"$T/all.json"
check "app: the runtime classes are folded" test "$(json "$T/app.json" \
  'sorted(a["activity"] for a in j["activities"] if a["activity"].startswith("runtime:"))')" = \
  "['runtime:loader', 'runtime:mpi', 'runtime:process', 'runtime:system', 'runtime:terminal']"
check "app: 20 activities, the data file's all there" test "$(json "$T/app.json" \
  'len(j["activities"]), sum(a["activity"].endswith(":/tmp/scratch") for a in j["activities"])')" = \
  "20 14"
check "app: nothing vanishes (69000 events either way)" test "$(json "$T/app.json" \
  'sum(a["count"] for a in j["activities"])')" = "$(json "$T/all.json" 'sum(a["count"] for a in j["activities"])')"
check "app: the loader's totals are those of its f-hat activities" test "$(json "$T/app.json" \
  '[a["count"] for a in j["activities"] if a["activity"]=="runtime:loader"]')" = "[12112]"
check "app: the DFG keeps edges from the runtime to the data file" test "$(json "$T/app.json" \
  'sum(t["count"] for t in j["transitions"] if t["from"].startswith("runtime:") and t["to"].endswith(":/tmp/scratch"))')" -gt 0
check "app: the activity table's unchanged I/O (write:/tmp/scratch 128 events)" test "$(json "$T/app.json" \
  '[a["count"] for a in j["activities"] if a["activity"]=="write:/tmp/scratch"]')" = "[128]"
"$B" export -q --focus app --format csv -o "$T/app.csv" "$L"
check "export --focus app: activities are folded too" grep -q ',runtime:process,' "$T/app.csv"

# ---- the class rules: --focus-rules, then the user's file, then built in --------------------
printf '# a site of ours\nmap path ~ ^/tmp/scratch/ => scratch\nmap kind = none => waits\n' >"$T/site.rules"
"$B" stats -q --format tsv --focus app --focus-rules "$T/site.rules" "$L" >"$T/site.tsv"
check "--focus-rules: its classes" test "$(cut -f1 "$T/site.tsv" | grep '^runtime:' | sort | tr '\n' ' ')" = \
  "runtime:scratch runtime:waits "
check "--focus-rules: the rest is the application's (read:/usr/lib kept)" grep -q '^read:/usr/lib	' "$T/site.tsv"
mkdir -p "$T/cfg/iodfg"
cp "$T/site.rules" "$T/cfg/iodfg/focus.rules"
XDG_CONFIG_HOME=$T/cfg "$B" stats -q --format tsv --focus app "$L" >"$T/xdg.tsv"
check "XDG_CONFIG_HOME/iodfg/focus.rules is used under --focus app" cmp -s "$T/site.tsv" "$T/xdg.tsv"
XDG_CONFIG_HOME=$T/cfg "$B" stats -q --format tsv "$L" >"$T/xdg-all.tsv"
check "... and not read under --focus all" cmp -s "$T/plain.tsv" "$T/xdg-all.tsv"
XDG_CONFIG_HOME=$T/nothing "$B" stats -q --format tsv --focus app "$L" >"$T/builtin.tsv"
check "no user file: the built-in classes" grep -q '^runtime:loader	' "$T/builtin.tsv"

# ---- errors --------------------------------------------------------------------------------
printf 'map kind = none => process\nmap path ~ ^/usr/(lib => loader\n' >"$T/bad.rules"
rc=0
"$B" stats -q --focus app --focus-rules "$T/bad.rules" "$L" >/dev/null 2>"$T/bad.err" || rc=$?
check "bad class rules: exit 1" test "$rc" = 1
check "bad class rules: file:line:col" grep -q "bad.rules:2:22: invalid regex" "$T/bad.err"
check "bad class rules: the line and a caret" grep -q '\^' "$T/bad.err"
rc=0
"$B" stats -q --focus some "$L" >/dev/null 2>"$T/usage.err" || rc=$?
check "--focus some: usage error (exit 2)" test "$rc" = 2
check "--focus some: says what it takes" grep -q "takes app or all" "$T/usage.err"
rc=0
"$B" stats -q --focus app --focus-rules "$T/missing.rules" "$L" >/dev/null 2>"$T/missing.err" || rc=$?
check "missing --focus-rules file: exit 1 naming it" sh -c "test $rc = 1 && grep -q missing.rules '$T/missing.err'"

# ---- insights: the application's findings first, the runtime's marked ------------------------
"$B" insights -q "$L" >"$T/ins.txt"
check "insights (app by default): the first 11 findings are the application's, on the data files" \
  test "$(grep -E '^ +[0-9]+\. ' "$T/ins.txt" | head -n 11 | grep -v '/tmp/scratch' |
    grep -vc 'low    metadata-heavy  metadata-heavy I/O$')" = 0
check "insights: shared-file, seek-io, small-io and file-per-process on /tmp/scratch among the first 11" \
  test "$(grep -E '^ +[0-9]+\. ' "$T/ins.txt" | head -n 11 | grep -cE '(shared-file|seek-io|small-io|file-per-process) +/?[a-z0-9]*:?/tmp/scratch')" -ge 9
check "insights: no runtime finding before the data file's" test "$(grep -E '^ +[0-9]+\. ' "$T/ins.txt" | head -n 11 | grep -c 'runtime:')" = 0
check "insights: the runtime's findings stay, marked" grep -q 'failed-storm    ENOENT  \[runtime: loader\]' "$T/ins.txt"
check "insights: the metadata of each runtime class apart" test "$(grep -c 'metadata-heavy I/O  \[runtime:' "$T/ins.txt")" -ge 2
"$B" insights -q --focus all "$L" >"$T/ins-all.txt"
check "insights --focus all: one judgement, nothing marked" sh -c "! grep -q 'runtime:' '$T/ins-all.txt'"
check "insights --focus all: ranked by impact as before (metadata-heavy first)" \
  sh -c "grep -E '^ +1\. ' '$T/ins-all.txt' | grep -q 'medium metadata-heavy'"
"$B" insights -q --format json "$L" >"$T/ins.json"
check "insights JSON: every finding has its class" test "$(json "$T/ins.json" \
  'sorted(set(f["class"] for f in j["groups"][0]["findings"]))')" = \
  "['app', 'loader', 'mpi', 'process', 'system', 'terminal']"
for f in "$T/ins.txt" "$T/ins-all.txt"; do
  check "insights: no nan or inf in $(basename "$f")" sh -c "! grep -qwiE 'nan|inf' '$f'"
done
finish
