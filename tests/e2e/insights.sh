#!/bin/sh
# End-to-end: `iodfg insights` on traces of tests/tools/iopattern recorded once
# (tests/data/traces/insights, made by tests/tools/record_insights.sh), its options and errors,
# and the hpc rule preset.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/insights_checks.sh"
D=$IODFG_TEST_DATA/traces/insights
insights_checks "$D"
insights_table "$D"

# formats: a table, TSV rows and JSON for the same findings; the C locale stays ASCII
LC_ALL=C "$IODFG_BIN" insights -q "$D/seek" >"$T/t.txt"
check "table: names the rule and the advice" grep -q 'advice: *use pread/pwrite' "$T/t.txt"
check "table in the C locale: ASCII only" sh -c "! LC_ALL=C grep -q '[^ -~]' '$T/t.txt'"
"$IODFG_BIN" insights -q --format tsv "$D/seek" >"$T/t.tsv"
check "tsv: header" test "$(head -1 "$T/t.tsv")" = "$(printf 'group\trank\tseverity\trule\tfield\tvalue')"
check "tsv: the pairs" grep -q "$(printf 'seek-io\tn.pairs\t40')" "$T/t.tsv"
"$IODFG_BIN" insights -q -o "$T/out.json" --format json "$D/small"
check "-o writes the JSON file" test "$(json "$T/out.json" 'j["groups"][0]["findings"][0]["rule"]')" = small-io
check "-o refuses to replace without --force" sh -c "! '$IODFG_BIN' insights -q -o '$T/out.json' '$D/small' 2>/dev/null"

# --only and --skip
check "--only keeps the named rules" test "$(rules "$D/random" --only reread)" = reread
check "--skip leaves a rule out" lacks random-access "$D/random" --skip random-access

# bad options: usage errors with the place
rc=0; "$IODFG_BIN" insights --threshold small-sise=3 "$D/small" 2>"$T/err" || rc=$?
check "unknown threshold: exit 2" test "$rc" = 2
check "unknown threshold: named with its column" grep -q "threshold:1:1: unknown threshold 'small-sise'" "$T/err"
rc=0; "$IODFG_BIN" insights --threshold small-share=2 "$D/small" 2>"$T/err" || rc=$?
check "threshold out of range: exit 2" test "$rc" = 2
check "threshold out of range: says the range" grep -q "small-share takes a number from 0 to 1" "$T/err"
rc=0; "$IODFG_BIN" insights --only no-such-rule "$D/small" 2>"$T/err" || rc=$?
check "unknown rule: exit 2" test "$rc" = 2
printf '# mine\nmin-ops = 300\n\nseek-pairs 3\n' >"$T/bad.conf"
rc=0; "$IODFG_BIN" insights --thresholds "$T/bad.conf" "$D/small" 2>"$T/err" || rc=$?
check "bad thresholds file: exit 1" test "$rc" = 1
check "bad thresholds file: file:line:col" grep -q "bad.conf:4:12: expected NAME=VALUE" "$T/err"
printf 'min-ops = 300 # more\n' >"$T/good.conf"
check "thresholds file applies" test -z "$(rules "$D/small" --thresholds "$T/good.conf")"
mkdir -p "$T/xdg/iodfg" && cp "$T/good.conf" "$T/xdg/iodfg/insights.conf"
check "the user's insights.conf applies" test -z "$(XDG_CONFIG_HOME=$T/xdg rules "$D/small")"
check "--threshold overrides the file" test "$(XDG_CONFIG_HOME=$T/xdg rules "$D/small" --threshold min-ops=100)" = small-io

# the hpc preset folds per-process names; the default keeps them
cat >"$T/hpc_n1_1.st" <<'TR'
100 10:00:00.000000 openat(AT_FDCWD, "/proc/4711/status", O_RDONLY) = 3</proc/4711/status> <0.000010>
100 10:00:00.000100 read(3</proc/4711/status>, "x", 10) = 10 <0.000010>
100 10:00:00.000200 openat(AT_FDCWD, "/tmp/ompi.node1.1000/jf.0/1/sm", O_RDWR) = 4</tmp/ompi.node1.1000/jf.0/1/sm> <0.000010>
100 10:00:00.000300 write(5</scratch/out.0003.dat>, "x", 10) = 10 <0.000010>
100 10:00:00.000400 read(6</usr/lib64/libc.so.6>, "x", 10) = 10 <0.000010>
TR
"$IODFG_BIN" stats -q --rules hpc --format tsv "$T/hpc_n1_1.st" >"$T/hpc.tsv"
for a in 'openat:/proc/\*' 'read:/proc/\*' 'openat:/tmp/ompi\.\*' 'write:/scratch/out\.\*\.dat' 'read:/usr/lib64'; do
  check "hpc preset: $a" grep -q "^$a	" "$T/hpc.tsv"
done
"$IODFG_BIN" stats -q --format tsv "$T/hpc_n1_1.st" >"$T/fhat.tsv"
check "default keeps the pid" grep -q '^openat:/proc/4711	' "$T/fhat.tsv"
(cd "$T" && printf 'map => mine\n' >hpc && "$IODFG_BIN" stats -q --rules hpc --format tsv hpc_n1_1.st >mine.tsv)
check "a file named like a preset wins" grep -q '^mine	' "$T/mine.tsv"
check "doc/rules.md shows the hpc preset" test "$("$IODFG_BIN" insights --list | grep -c '^  hpc ')" = 1
"$PY" - "$IODFG_SRCDIR/doc/rules.md" "$IODFG_SRCDIR/src/engine/rules_presets.c" <<'PY' >"$T/doc.out" 2>&1 || true
import re, sys
doc = open(sys.argv[1]).read()
src = open(sys.argv[2]).read()
body = src[src.index("hpc_text[] ="):src.index(";", src.index("hpc_text[] ="))]
text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', body)).encode().decode("unicode_escape")
missing = [l for l in text.splitlines() if l and l not in doc]
print("missing:", missing if missing else "none")
PY
check "doc/rules.md has every line of the hpc preset" grep -q "missing: none" "$T/doc.out"
finish
