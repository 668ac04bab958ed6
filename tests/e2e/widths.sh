#!/bin/sh
# One width rule for every table (issue 40): a cell wider than its column's limit is cut and ends
# in an ellipsis ("…" in UTF-8, "..." in the C locale), and every row keeps to its columns. A CSV
# event log gives one case a 10 kB name and its reads a 10 kB directory; the tables of info,
# stats, insights, characterize and bandwidth keep to 120-column cells, with columns aligned.
. "${IODFG_SRCDIR:?}/tests/e2e/lib.sh"
"$PY" - "$T/long.csv" <<'PY'
import sys
name, longdir = "x" * 10000, "/d/" + "y" * 10000 + "/f"
with open(sys.argv[1], "w") as f:
    f.write("case,start,call,path,duration,bytes\n")
    for i in range(200):
        f.write("%s,%.6f,read,%s,0.0001,10\n" % (name, 1.0 + i * 0.001, longdir))
    for i in range(50):
        f.write("short_case,%.6f,write,/data/out,0.002,1048576\n" % (1.0 + i * 0.01))
PY
"$IODFG_BIN" convert -q -o "$T/long.h5" "$T/long.csv"

# widths FILE: checks of a table's text (display columns: the ellipsis is one), in Python
widths() {
  "$PY" - "$@" <<'PY'
import sys, unicodedata
path, what = sys.argv[1], sys.argv[2]
lines = open(path, encoding="utf-8").read().split("\n")
def width(s):
    return sum(0 if unicodedata.combining(c) else 1 for c in s)
longest = max(width(l) for l in lines)
runs = [len(w) for l in lines for w in l.replace("…", " ").replace("...", " ").split()]
bad = []
if longest > 600:
    bad.append("a line of %d columns" % longest)
if max(runs) > 120:
    bad.append("a cell of %d columns" % max(runs))
if what == "info":  # the case table: the events column ends at the same column on every row
    head = next(i for i, l in enumerate(lines) if l.lstrip().startswith("case "))
    end = width(lines[head][: lines[head].index("events") + 6])
    rows = [l for l in lines[head + 1:] if l.startswith("  ") and not l.startswith("  ...")]
    for r in rows:
        if width(r) < end or not r[:end].rstrip()[-1:].isdigit() or r[end:end + 1] != " ":
            bad.append("a row out of its columns: %r" % r[:60])
if what == "stats":  # every row of the activities table is as wide as its heading
    head = next(i for i, l in enumerate(lines) if l.startswith("activity "))
    rows = lines[head:lines.index("", head)]
    if len({width(l) for l in rows}) != 1:
        bad.append("rows of widths %s" % sorted({width(l) for l in rows}))
print("; ".join(bad) if bad else "ok")
PY
}

for loc in C.UTF-8 C; do
  ell=… kept=119 # the x a 120-column cell keeps before the ellipsis
  [ "$loc" = C ] && ell=... kept=117
  LC_ALL=$loc "$IODFG_BIN" info --cases 0 "$T/long.h5" >"$T/info.$loc"
  check "$loc: info --cases 0: the case table keeps to its columns" \
    [ "$(widths "$T/info.$loc" info)" = ok ]
  check "$loc: info: the long name is cut at 120 columns, ending in $ell" \
    grep -q "^  $(printf '%*s' $kept '' | tr ' ' x)$ell " "$T/info.$loc"
  LC_ALL=$loc "$IODFG_BIN" stats -q --transitions "$T/long.h5" >"$T/stats.$loc"
  check "$loc: stats: every row of the activities table as wide as the others" \
    [ "$(widths "$T/stats.$loc" stats)" = ok ]
  for cmd in insights characterize "bandwidth --by case" "characterize --per-file --by case"; do
    # shellcheck disable=SC2086 # the command's words
    LC_ALL=$loc "$IODFG_BIN" $cmd -q "$T/long.h5" >"$T/out.$loc"
    check "$loc: $cmd: no line or cell beyond the limits" [ "$(widths "$T/out.$loc" any)" = ok ]
    check "$loc: $cmd: the long names end in $ell" grep -qF "x$ell" "$T/out.$loc"
  done
done
# tools read whole names: TSV and JSON are not cut
"$IODFG_BIN" info --json "$T/long.h5" >"$T/info.json"
check "info --json keeps the name whole" \
  [ "$(json "$T/info.json" 'max(len(c["name"]) for c in j["case_list"])')" = 10000 ]
"$IODFG_BIN" insights -q --format tsv "$T/long.h5" >"$T/ins.tsv"
check "insights --format tsv keeps the name whole" grep -q "$(printf '%*s' 10000 '' | tr ' ' x)" "$T/ins.tsv"
finish
