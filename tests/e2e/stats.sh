#!/bin/sh
# End-to-end: `iodfg stats` on recorded traces: exact values in TSV/JSON checked against the raw
# trace lines, the aligned table for people, sorting, top-N, transitions, G/R columns, hostile
# names, output files and errors.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
D=$IODFG_TEST_DATA/traces
R=$IODFG_TEST_DATA/rules
B=$IODFG_BIN
# col FILE NAME: the values of column NAME of the first table of a TSV file
col() { sed '/^$/q' "$1" | awk -F '\t' -v n="$2" 'NR==1{for(i=1;i<=NF;i++)if($i==n)c=i;next} NF{print $c}'; }
# row FILE ACTIVITY NAME: one value
# total: sum of the numbers on standard input
total() { awk '{s+=$1} END{printf "%d\n", s}'; }
row() { sed '/^$/q' "$1" | awk -F '\t' -v a="$2" -v n="$3" 'NR==1{for(i=1;i<=NF;i++)if($i==n)c=i;next} $1==a{print $c}'; }

# ---- exact values (TSV, base units) against the trace lines ------------------------------
"$B" stats -q --format tsv "$D/paper" >"$T/p.tsv"
events=$(cat "$D"/paper/*.st | grep -c -E '^[0-9]+ +[0-9:.]+ (read|write)\(')
check "TSV: counts add up to the $events events" test "$(col "$T/p.tsv" count | total)" = "$events"
check "TSV: rd sums to 1" "$PY" -c 'import sys; sys.exit(abs(sum(map(float,sys.argv[1:]))-1)>1e-12)' $(col "$T/p.tsv" rd)
lines=$(grep -h 'read(3</etc/passwd>' "$D"/paper/b_*.st)
want_b=$(printf '%s\n' "$lines" | sed 's/.*) = \([0-9]*\) <.*/\1/' | total)
want_d=$(printf '%s\n' "$lines" | sed 's/.*<0\.\([0-9]*\)>$/\1/' | total)
check "TSV: bytes of read:/etc/passwd = $want_b (sum of the return values)" \
  test "$(row "$T/p.tsv" read:/etc/passwd bytes)" = "$want_b"
check "TSV: dur_sum_ns of read:/etc/passwd = ${want_d}000 (sum of -T)" \
  test "$(row "$T/p.tsv" read:/etc/passwd dur_sum_ns)" = "${want_d}000"
check "TSV: read:/etc/passwd in 3 cases" test "$(row "$T/p.tsv" read:/etc/passwd cases)" = 3
check "TSV: header has the 13 activity columns and the file-system ones" test "$(head -n 1 "$T/p.tsv")" = \
  "$(printf 'activity\tcount\tcases\tdur_sum_ns\trd\tbytes\tdr_mean_Bps\tmc\tDR_Bps\tdur_min_ns\tdur_median_ns\tdur_p95_ns\tdur_max_ns\tscope\tfstype\tfs')"
check "TSV: /usr/lib reads are local, /proc ones virtual" test \
  "$(awk -F '\t' '$1=="read:/usr/lib" {a=$14} $1=="read:/proc/filesystems" {b=$14} END {print a "," b}' "$T/p.tsv")" = "local,virtual"
check "TSV: no transitions without --transitions" test "$(grep -c '^$' "$T/p.tsv")" = 0

# JSON carries the same numbers; an HDF5 log gives the same result as the traces.
"$B" stats -q --format json --transitions "$D/paper" >"$T/p.json"
check "JSON: same bytes as TSV" test "$(json "$T/p.json" \
  '[a["bytes"] for a in j["activities"] if a["activity"]=="read:/etc/passwd"][0]')" = "$want_b"
check "JSON: transitions with --transitions" test "$(json "$T/p.json" 'len(j["transitions"])')" = 15
"$B" convert -q -o "$T/p.h5" "$D/paper"
"$B" stats -q --format json --transitions "$T/p.h5" >"$T/h5.json"
check "stats of the .h5 log == stats of the traces" "$PY" -c '
import json,sys
a,b=(json.load(open(f)) for f in sys.argv[1:3]); a.pop("comment"); b.pop("comment"); sys.exit(a!=b)' \
  "$T/p.json" "$T/h5.json"

# ---- sorting and top-N --------------------------------------------------------------------
"$B" stats -q --format tsv --sort count "$D/paper" >"$T/s.tsv"
check "--sort count: descending" test "$(col "$T/s.tsv" count | tr '\n' ' ')" = \
  "$(col "$T/s.tsv" count | sort -rn | tr '\n' ' ')"
"$B" stats -q --format tsv --sort count --reverse "$D/paper" >"$T/r.tsv"
check "--reverse: ascending" test "$(col "$T/r.tsv" count | tr '\n' ' ')" = \
  "$(col "$T/r.tsv" count | sort -n | tr '\n' ' ')"
"$B" stats -q --format tsv --sort name "$D/paper" >"$T/n.tsv"
check "--sort name: ascending names" test "$(col "$T/n.tsv" activity | tr '\n' ' ')" = \
  "$(col "$T/n.tsv" activity | LC_ALL=C sort | tr '\n' ' ')"
"$B" stats -q --format tsv --sort p95 "$D/paper" >"$T/p95.tsv"
check "--sort p95: by dur_p95_ns" test "$(col "$T/p95.tsv" dur_p95_ns | tr '\n' ' ')" = \
  "$(col "$T/p95.tsv" dur_p95_ns | sort -rn | tr '\n' ' ')"
"$B" stats -q --format tsv --top 3 --transitions --sort gap_median "$D/paper" >"$T/t.tsv"
check "--top 3: three activities" test "$(col "$T/t.tsv" activity | wc -l)" = 3
check "--top 3: three transitions, by gap_median_ns" test "$(sed '1,/^$/d' "$T/t.tsv" | sed 1d | wc -l)" = 3
check "--sort gap_median: transitions descending" test "$(sed '1,/^$/d' "$T/t.tsv" | sed 1d | cut -f 6 | tr '\n' ' ')" = \
  "$(sed '1,/^$/d' "$T/t.tsv" | sed 1d | cut -f 6 | sort -rn | tr '\n' ' ')"

# ---- the table for people -------------------------------------------------------------------
LC_ALL=C.UTF-8 "$B" stats -q --transitions "$D/paper" >"$T/p.txt"
check "table: activities title" grep -q '^Activities: 8 of 8, by rd$' "$T/p.txt"
check "table: human units" sh -c "grep -q 'µs' '$T/p.txt' && grep -q 'KiB' '$T/p.txt' && grep -q '%' '$T/p.txt'"
check "table: columns aligned (every line of a table equally wide)" "$PY" -c '
import sys,unicodedata
for t in open(sys.argv[1],encoding="utf-8").read().split("\n\n"):
    rows=[l for l in t.split("\n")[1:] if l]
    w={sum(1 for ch in l if not unicodedata.combining(ch)) for l in rows}
    if len(w)!=1: sys.exit(1)' "$T/p.txt"
check "table: transitions with ● and ■" sh -c "grep -q '^●' '$T/p.txt' && grep -q '■ ' '$T/p.txt'"
# In the C locale the same table in ASCII: its own symbols have ASCII forms, nothing escaped.
LC_ALL=C "$B" stats -q --transitions --green cid=a "$D/paper" >"$T/c.txt"
check "C locale table: only ASCII" sh -c "! LC_ALL=C grep -q '[^ -~]' '$T/c.txt'"
check "C locale table: no escaped symbols" sh -c "! grep -q 'x[ce][0-9a-f]' '$T/c.txt'"
check "C locale table: ASCII forms" sh -c "grep -q 'sum dur' '$T/c.txt' && grep -q 'dr_avg' '$T/c.txt' &&
  grep -q ' us ' '$T/c.txt' && grep -q '\\[start\\]' '$T/c.txt' && grep -q 'd sum dur' '$T/c.txt'"
check "C locale table: columns aligned" "$PY" -c '
import sys
for t in open(sys.argv[1]).read().split("\n\n")[1:]:
    rows=[l for l in t.split("\n")[1:] if l]
    if len({len(l) for l in rows})!=1: sys.exit(1)' "$T/c.txt"
"$B" stats -q --top 2 "$D/paper" >"$T/top.txt"
check "table --top 2: says 2 of 8" grep -q '^Activities: 2 of 8' "$T/top.txt"

# ---- groups G and R ------------------------------------------------------------------------
LC_ALL=C.UTF-8 "$B" stats -q --green cid=a --red cid=b --transitions "$D/paper" >"$T/gr.txt"
check "G/R table: marker column" grep -q '^G/R  activity' "$T/gr.txt"
check "G/R table: passwd is R+" grep -q '^R+ *read:/etc/passwd ' "$T/gr.txt"
check "G/R table: no G+ activity" test "$(sed '/^Transitions/q' "$T/gr.txt" | grep -c '^G+  ')" = 0
check "G/R table: one G+ transition" test "$(sed '1,/^Transitions/d' "$T/gr.txt" | grep -c '^G+  ')" = 1
check "G/R table: per-group columns" grep -q 'G n  R n  Δn' "$T/gr.txt"
"$B" stats -q --green cid=a --red cid=b --format tsv "$D/paper" >"$T/gr.tsv"
check "G/R TSV: g_count + r_count = count" "$PY" -c '
import sys
rows=[l.split("\t") for l in open(sys.argv[1]).read().split("\n\n")[0].splitlines()]
h=rows[0]; ix=lambda n: h.index(n)
sys.exit(not all(int(r[ix("count")])==int(float(r[ix("g_count")]))+int(float(r[ix("r_count")])) for r in rows[1:]))' "$T/gr.tsv"
check "G/R TSV: read:/etc/group is red" test "$(row "$T/gr.tsv" read:/etc/group side)" = red
check "G/R TSV: relative difference empty when G has none" test -z "$(row "$T/gr.tsv" read:/etc/group rel_count)"
"$B" stats -q --rules "$R/scratch_run.rules" --green cid=ssfpio,fpppio --red cid=ssf,fpp --format json "$D/ior" >"$T/ior.json"
check "ior: pwrite64:scratch/ssf only in G (pio)" test "$(json "$T/ior.json" \
  '[a["marker"] for a in j["groups"]["activities"] if a["activity"]=="pwrite64:scratch/ssf"][0]')" = "G+"
check "ior: lseek:scratch/ssf only in R" test "$(json "$T/ior.json" \
  '[a["marker"] for a in j["groups"]["activities"] if a["activity"]=="lseek:scratch/ssf"][0]')" = "R+"
rc=0; "$B" stats --green 'name~^a_' --red 'name~_host1_' "$D/paper" >/dev/null 2>"$T/ov.err" || rc=$?
check "overlapping groups: exit 1 naming the cases" sh -c "test $rc = 1 && grep -q 'a_host1_' '$T/ov.err'"

# ---- filters ------------------------------------------------------------------------------
"$B" stats -q --format tsv --filter 'path~^/etc' --call read "$D/paper" >"$T/f.tsv"
check "filters: only read:/etc/* activities" test "$(col "$T/f.tsv" activity | grep -vc '^read:/etc/')" = 0
"$B" stats -q --format tsv --case cid=a --time 0..10 "$D/paper" >"$T/c.tsv"
check "--case cid=a: 4 activities of ls" test "$(col "$T/c.tsv" activity | wc -l)" = 4
"$B" stats -q --format tsv --time 0..0.000001 "$D/paper" >"$T/w.tsv"
check "--time: a 1 µs window holds only the first event" test "$(col "$T/w.tsv" count | total)" = 1

# ---- hostile names --------------------------------------------------------------------------
mkdir "$T/h"
printf '%s\n' \
  '100 10:00:00.000001 read(3</tmp/q"uo\\te/x>, "abc", 3) = 3 <0.000010>' \
  '100 10:00:00.000101 read(3</tmp/esc\x1b[31mred\x1b[0m/y>, "abc", 3) = 3 <0.000010>' \
  '100 10:00:00.000201 write(3</tmp/bad\xff\xfeutf/z>, "abc", 3) = 3 <0.000010>' \
  '100 10:00:00.000301 write(3</tmp/tab\there\nnl/z>, "abc", 3) = 3 <0.000010>' >"$T/h/h_host1_1.st"
printf '100 10:00:00.000501 read(3</tmp/raw\033]0;pwn\007\377/z>, "abc", 3) = 3 <0.000010>\n' \
  >>"$T/h/h_host1_1.st"
"$B" stats -q --transitions "$T/h" >"$T/h.txt"
check "hostile table: no raw control or invalid bytes" "$PY" -c '
import sys
d=open(sys.argv[1],"rb").read(); s=d.decode("utf-8")
sys.exit(any(ord(c)<32 and c!="\n" or 0x7f<=ord(c)<0xa0 for c in s))' "$T/h.txt"
check "hostile table: escapes shown visibly" sh -c "grep -qF 'esc\\e[31mred' '$T/h.txt' && grep -qF 'bad\\xff\\xfe' '$T/h.txt'"
"$B" stats -q --transitions --format tsv "$T/h" >"$T/h.tsv"
check "hostile TSV: every row has the header's field count" "$PY" -c '
import sys
for t in open(sys.argv[1],"rb").read().split(b"\n\n"):
    rows=[r for r in t.split(b"\n") if r]
    if any(r.count(b"\t")!=rows[0].count(b"\t") for r in rows): sys.exit(1)' "$T/h.tsv"
"$B" stats -q --transitions --format json "$T/h" >"$T/h.json"
check "hostile JSON: parses with 5 activities" test "$(json "$T/h.json" 'len(j["activities"])')" = 5

# ---- output and errors --------------------------------------------------------------------
"$B" stats -q --format tsv -o "$T/out.tsv" "$D/paper" >"$T/stdout"
check "-o: file written, nothing on stdout" sh -c "cmp -s '$T/out.tsv' '$T/p.tsv' && ! test -s '$T/stdout'"
rc=0; "$B" stats -q -o "$T/out.tsv" "$D/paper" 2>/dev/null || rc=$?
check "-o existing without --force: exit 1" test "$rc" = 1
"$B" stats -q -f -o "$T/out.tsv" "$D/paper"
check "--force: replaced by the table" grep -q '^Activities' "$T/out.tsv"
rc=0; "$B" stats --sort nosuch "$D/paper" >/dev/null 2>&1 || rc=$?
check "unknown --sort column: usage error" test "$rc" = 2
rc=0; "$B" stats --top -1 "$D/paper" >/dev/null 2>&1 || rc=$?
check "bad --top: usage error" test "$rc" = 2
rc=0; "$B" stats >/dev/null 2>&1 || rc=$?
check "no input: usage error" test "$rc" = 2
rc=0; "$B" stats --rules "$R/bad-regex.rules" "$D/paper" >/dev/null 2>"$T/bad.err" || rc=$?
check "bad rules: exit 1 with file:line:col and a caret" sh -c \
  "test $rc = 1 && grep -q 'bad-regex.rules:3:22:' '$T/bad.err' && grep -q '^ *\\^\$' '$T/bad.err'"
rc=0; "$B" stats -q "$T/nonexistent" >/dev/null 2>&1 || rc=$?
check "missing input: exit 1" test "$rc" = 1
"$B" stats --help >"$T/help.txt"
check "--help lists every option" sh -c "for o in --format --sort --reverse --top --transitions --rules --filter --path --call --case --time --green --red --per-pid --output --force; do grep -q -- \"\$o\" '$T/help.txt' || exit 1; done"
finish
