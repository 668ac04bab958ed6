#!/bin/sh
# End-to-end: `iodfg export` (Perfetto JSON, CSV, XES) and CSV event logs as input. An exported
# log mined like PM4Py does gives the DFG of `iodfg dfg` (with rules, filters, --per-pid and
# groups); XES is valid against the XES schema; Perfetto times are the trace's microseconds;
# convert -> export csv -> convert gives the same DFG and statistics; bad CSV rows are named
# by file:line:col; outputs are atomic.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
command -v xmllint >/dev/null 2>&1 || { echo "SKIP: xmllint is missing (Debian: libxml2-utils)"; exit 77; }
B=$IODFG_BIN
D=$IODFG_TEST_DATA/traces
XSD=$IODFG_TEST_DATA/xes/xes-ieee-1849.xsd
MINE=$IODFG_SRCDIR/tests/e2e/mine_dfg.py
export LC_ALL=C.UTF-8

# mined SRC OPTS...: CSV and XES exports mined give iodfg dfg's counts
mined() {
  src=$1; shift
  "$B" dfg -q "$@" --format tsv -o "$T/m.tsv" --force "$src" &&
    "$B" export -q "$@" -o "$T/m.csv" --force "$src" &&
    "$B" export -q "$@" -o "$T/m.xes" --force "$src" &&
    "$PY" "$MINE" csv "$T/m.csv" "$T/m.tsv" >"$T/mine.out" &&
    "$PY" "$MINE" xes "$T/m.xes" "$T/m.tsv" >>"$T/mine.out" &&
    xmllint --noout --schema "$XSD" "$T/m.xes" 2>>"$T/mine.out" || { cat "$T/mine.out"; false; }
}
check "mined CSV/XES = iodfg dfg: ior" mined "$D/ior"
check "mined CSV/XES = iodfg dfg: every strace clock and format" mined "$D/formats"
check "mined CSV/XES = iodfg dfg: --per-pid" mined "$D/formats" --per-pid
check "mined CSV/XES = iodfg dfg: --rules" mined "$D/ior" --rules "$IODFG_TEST_DATA/rules/scratch_run.rules"
check "mined CSV/XES = iodfg dfg: --call, --path" mined "$D/ior" --call read,write,openat --path '^/(tmp|usr)'
check "mined CSV/XES = iodfg dfg: --time" mined "$D/ior" --time 0.005..0.03
check "mined CSV/XES = iodfg dfg: groups" mined "$D/ior" --green cid=ssf --red cid=fpp
"$B" export -q --time 0.005..0.03 -o "$T/w.csv" "$D/ior"
"$B" export -q -o "$T/all.csv" "$D/ior"
check "--time keeps fewer events" test "$(wc -l <"$T/w.csv")" -lt "$(wc -l <"$T/all.csv")"
"$B" export -q --green cid=ssf -o "$T/g.csv" "$D/ior"
check "groups: a case:group column" sh -c "head -n 1 '$T/g.csv' | grep -q ',case:group\$' && grep -q ',G\$' '$T/g.csv' && grep -q ',R\$' '$T/g.csv'"

# Perfetto: valid JSON, one process per case, a thread per pid, exact microseconds
"$B" export -q -o "$T/ior.json" "$D/ior"
"$B" export -q -o "$T/ns.json" "$D/formats/fmt_ns_host1_8.st"
"$B" export -q -o "$T/ior.csv" "$D/ior"
check "perfetto: the first call of fpp_node1_14745 at 05:39:01.722329 for 17 us" "$PY" -c '
import json, sys
j = json.load(open(sys.argv[1]))
pids = {e["pid"]: e["args"]["name"] for e in j["traceEvents"] if e.get("name") == "process_name"}
x = [e for e in j["traceEvents"] if e["ph"] == "X" and pids[e["pid"]] == "fpp_node1_14745"]
first = min(x, key=lambda e: e["ts"])
sys.exit(not (first["ts"] == (5 * 3600 + 39 * 60 + 1) * 10**6 + 722329 and first["dur"] == 17
              and first["tid"] == 14756 and first["args"]["call"] == "openat"))' "$T/ior.json"
check "perfetto: nanosecond traces keep their nanoseconds (ts with 3 decimals)" "$PY" -c '
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t)
x = [e for e in j["traceEvents"] if e["ph"] == "X"]
# strace -ttt with ns: 1795325941.619475681 -> 1795325941619475.681 us
sys.exit(not (x and "1795325941619475.681" in t and any(e["ts"] != int(e["ts"]) for e in x)))' "$T/ns.json"
check "perfetto: every CSV event is a slice, on the thread of its pid, at its time" "$PY" -c '
import csv, json, sys
from datetime import datetime
j = json.load(open(sys.argv[1]))
names = {e["pid"]: e["args"]["name"] for e in j["traceEvents"] if e.get("name") == "process_name"}
got = sorted((names[e["pid"]], e["tid"], round(e["ts"]), e["name"])
             for e in j["traceEvents"] if e["ph"] in "Xi" and e["tid"] < 2**30)
def us(t):
    d = datetime.fromisoformat(t)
    return round((d - datetime.fromisoformat("1970-01-01T00:00:00+00:00")).total_seconds() * 1e6)
want = sorted((r["case:concept:name"], int(r["pid"]), us(r["start_timestamp"]), r["concept:name"])
              for r in csv.DictReader(open(sys.argv[2])))
sys.exit(got != want)' "$T/ior.json" "$T/ior.csv"
check "perfetto: a clock note in the metadata (time-of-day traces have no date)" "$PY" -c '
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit("time-of-day" not in j["otherData"]["clocks"] or "not dates" not in j["otherData"]["note"])' "$T/ior.json"

# CSV import: convert -> export csv -> convert -> the same DFG, statistics and export
rt() { # rt SRC
  "$B" convert -q --force -o "$T/o.h5" "$1" && "$B" export -q --force -o "$T/o.csv" "$T/o.h5" &&
    "$B" convert -q --force -o "$T/r.h5" "$T/o.csv" && "$B" export -q --force -o "$T/r.csv" "$T/r.h5" &&
    cmp "$T/o.csv" "$T/r.csv" || return 1
  for cmd in "dfg --format tsv" "dfg --per-pid --format tsv" "stats --format tsv --transitions"; do
    # shellcheck disable=SC2086
    "$B" $cmd -q "$T/o.h5" | sort >"$T/a" && "$B" $cmd -q "$T/r.h5" | sort >"$T/b" && cmp "$T/a" "$T/b" || return 1
  done
}
check "round trip: ior" rt "$D/ior"
check "round trip: every strace clock and format" rt "$D/formats"

# hostile paths: comma, quote, <, &, a line break, ESC, invalid UTF-8, a backslash
H="$T/h"; mkdir "$H"
printf '%s\n' '7 08:00:00.000001 openat(AT_FDCWD, "/p/a,b\"c<d&e\nf\33g\377h\\i", O_RDONLY) = 3 <0.000010>' \
  '7 08:00:00.000020 read(3, "", 10) = 10 <0.000002>' >"$H/x_n1_7.st"
check "hostile path: round trip" rt "$H"
"$B" export -q -o "$T/h.xes" "$H"
check "hostile path: XES valid" xmllint --noout --schema "$XSD" "$T/h.xes"
"$B" export -q -o "$T/h.json" "$H"
check "hostile path: JSON keeps it" "$PY" -c '
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(not any(e.get("args", {}).get("path", "").startswith("/p/a,b\"c<d&e\nf\x1bg\xffh")
                 for e in j["traceEvents"]))' "$T/h.json"

# bad CSV input: each bad row named by file:line:col; --strict exits 3; other tools' names
printf 'case,call,path,start,duration,bytes\n' >"$T/in.csv"
printf 'a,read,/x,1.5,0.25,10\nb,write,/y,2,0.5,12\n' >>"$T/in.csv"
printf 'a,read,/x,oops,0.1,1\na,read,/x,3,0.1,ten\na,read\n"a,read,/x,3,0.1,1\n' >>"$T/in.csv"
"$B" convert --force -o "$T/in.h5" "$T/in.csv" >"$T/conv.out" 2>&1
check "bad rows: counted and the first named by line and column" \
  grep -q "Skipped 4 unparsable lines; the first: $T/in.csv:4:11: expected a start time" "$T/conv.out"
st=0; "$B" convert -q --strict --force -o "$T/in.h5" "$T/in.csv" || st=$?
check "bad rows with --strict: exit 3" test "$st" -eq 3
"$B" dfg -q --format tsv "$T/in.h5" >"$T/in.tsv"
check "the good rows are read (2 cases, seconds as the relative clock)" sh -c \
  "grep -q '^read:/x	1	' '$T/in.tsv' && '$B' info '$T/in.h5' | grep -q 'relative clock'"
printf 'rank,op,file,t0,dt\n0,pwrite64,/scratch/a,0.000001,0.000002\n' >"$T/other.csv"
"$B" convert -q --force --csv-columns 'case=rank,call=op,path=file,start=t0,duration=dt' -o "$T/other.h5" "$T/other.csv"
check "--csv-columns maps another tracer's names" sh -c "'$B' stats -q --format tsv '$T/other.h5' | grep -q '^pwrite64:/scratch/a	1	'"
st=0; "$B" convert -q --force -o "$T/x.h5" "$T/other.csv" 2>"$T/err" || st=$?
check "a header without case/start/call: exit 1 naming the file" sh -c "test $st -eq 1 && grep -q 'other.csv:1:1: expected a header naming the case' '$T/err'"
st=0; "$B" convert -q --csv-columns 'case=rank,bogus=x' -o "$T/x.h5" "$T/other.csv" 2>"$T/err" || st=$?
check "--csv-columns with an unknown role: exit 2 at its column" sh -c "test $st -eq 2 && grep -q 'csv-columns:1:11: unknown role' '$T/err'"

# usage and atomic output
st=0; "$B" export -q "$D/ior" >/dev/null 2>&1 || st=$?
check "no --format and no -o extension: exit 2" test "$st" -eq 2
st=0; "$B" export -q --format csv --min-edge 2 "$D/ior" >/dev/null 2>&1 || st=$?
check "--min-edge is refused (it prunes the drawing, not events): exit 2" test "$st" -eq 2
echo keep >"$T/exists.csv"
st=0; "$B" export -q -o "$T/exists.csv" "$D/ior" 2>/dev/null || st=$?
check "an existing output without --force: exit 1, untouched" sh -c "test $st -eq 1 && test \"\$(cat '$T/exists.csv')\" = keep"
st=0; "$B" export -q -o "$T/nodir/x.csv" "$D/ior" 2>/dev/null || st=$?
check "an output in a missing directory: exit 1" test "$st" -eq 1
"$B" export -q --format csv "$D/ior" >"$T/stdout.csv"
check "standard output when no -o" cmp "$T/stdout.csv" "$T/all.csv"
check "no temp file left beside the outputs" sh -c "! ls -a '$T' | grep -q '\\.tmp-'"
finish
