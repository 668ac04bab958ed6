#!/bin/sh
# End-to-end: `iodfg heatmap`, `offsets` and `timeline` on the IOR runs recorded under strace
# (tests/data/traces/ior-real.tar.xz: posixssf, posixfpp, mpiiossf, mpiiofpp, 4 ranks each, IOR
# -b 64k -t 16k -s 4). The heatmap's bins add up to the statistics' totals per case, cid and
# group; the offset map puts every transfer at the offset the trace gives, and the writes of the
# shared files cover them once in IOR's layout; the SVGs are well-formed SVG 1.1 that rsvg-convert
# renders; PNG through rsvg-convert, written atomically; bad arguments exit 2 with a message.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B=$IODFG_BIN
ior_real
"$B" convert -q -o "$T/ior.h5" "$T/ior-real"
L=$T/ior.h5

# ---- heatmap: per-case byte sums are the statistics' totals ---------------------------------
"$B" heatmap -q --format tsv "$L" >"$T/hm.tsv"
"$B" heatmap -q --format json --bins 37 "$L" >"$T/hm.json"
"$PY" - "$T/hm.tsv" >"$T/hm_sums.txt" <<'EOF'
import sys, collections
s = collections.Counter()
for i, line in enumerate(open(sys.argv[1])):
    f = line.rstrip("\n").split("\t")
    if i:
        s[f[0]] += int(f[6])
for k in sorted(s):
    print(k, s[k])
EOF
check "heatmap tsv: 16 case rows" test "$(wc -l <"$T/hm_sums.txt")" -eq 16
: >"$T/stats_sums.txt"
while read -r c _; do
  "$B" stats -q --format json --case "name=$c" "$L" >"$T/st.json"
  echo "$c $(json "$T/st.json" 'sum(a["bytes"] for a in j["activities"])')" >>"$T/stats_sums.txt"
done <"$T/hm_sums.txt"
check "heatmap tsv: each case's bins sum to its bytes in iodfg stats" cmp -s "$T/hm_sums.txt" "$T/stats_sums.txt"
"$B" stats -q --format json "$L" >"$T/stats.json"
check "heatmap json (37 bins): the bins add up to the statistics' total (10299270 B)" test \
  "$(json "$T/hm.json" 'j["bytes_total"], sum(sum(r["bytes"]) for r in j["rows"])')" = \
  "$(json "$T/stats.json" 'sum(a["bytes"] for a in j["activities"])') 10299270"
check "heatmap json: each row's bins sum to its total, and the totals per case match the tsv" test \
  "$(json "$T/hm.json" 'sorted((r["label"], sum(r["bytes"])) for r in j["rows"] if sum(r["bytes"]) == r["bytes_total"])')" = \
  "$("$PY" -c 'import sys; print(sorted((l.split()[0], int(l.split()[1])) for l in open(sys.argv[1])))' "$T/hm_sums.txt")"
check "heatmap json: busy time within rounding of the statistics' (1 ns a cell)" test \
  "$(json "$T/hm.json" 'abs(j["busy_total_ns"] - sum(sum(r["busy_ns"]) for r in j["rows"])) + abs(j["busy_total_ns"] - '"$(json "$T/stats.json" 'j["total_dur_ns"]')"') <= 16 * 37')" = True
check "heatmap json: 37 bins with 38 edges over the span" test \
  "$(json "$T/hm.json" 'len(j["edges_ns"]), j["edges_ns"][0] == j["span_from_ns"], j["edges_ns"][-1] == j["span_to_ns"]')" = "38 True True"
# by cid, and G/R as two bands
"$B" heatmap -q --format json --rows cid "$L" >"$T/cid.json"
for cid in posixssf posixfpp mpiiossf mpiiofpp; do
  "$B" stats -q --format json --case "cid=$cid" "$L" >"$T/st.json"
  check "heatmap --rows cid: $cid's bytes are the statistics'" test \
    "$(json "$T/cid.json" '[r["bytes_total"] for r in j["rows"] if r["label"] == "'$cid'"]')" = \
    "[$(json "$T/st.json" 'sum(a["bytes"] for a in j["activities"])')]"
done
"$B" heatmap -q --format json --green cid=posixssf --red cid=mpiiossf "$L" >"$T/gr.json"
"$B" stats -q --format json --case cid=posixssf "$L" >"$T/g.json"
check "heatmap --green/--red: two bands of 4 cases each" test \
  "$(json "$T/gr.json" 'j["bands"], [r["band"] for r in j["rows"]].count("G"), [r["band"] for r in j["rows"]].count("R")')" = "2 4 4"
check "heatmap --green: band G's bytes are posixssf's statistics" test \
  "$(json "$T/gr.json" 'sum(r["bytes_total"] for r in j["rows"] if r["band"] == "G")')" = \
  "$(json "$T/g.json" 'sum(a["bytes"] for a in j["activities"])')"
"$B" heatmap -q --format json --rows cid --activity write:/tmp/scratch --activity pwrite64:/tmp/scratch "$L" >"$T/w.json"
check "heatmap --activity: the data writes only, 1 MiB for each cid" test \
  "$(json "$T/w.json" 'sorted((r["label"], r["bytes_total"]) for r in j["rows"])')" = \
  "[('mpiiofpp', 1048576), ('mpiiossf', 1048576), ('posixfpp', 1048576), ('posixssf', 1048576)]"
"$B" heatmap -q --format json --window 1..3 --bins 4 "$L" >"$T/win.json"
check "heatmap --window 1..3 --bins 4: four bins of 0.5 s from 1 s after the log's start" test \
  "$(json "$T/win.json" '[e - j["origin_ns"] for e in j["edges_ns"]]')" = \
  "[1000000000, 1500000000, 2000000000, 2500000000, 3000000000]"
check "heatmap --window: the window is stated with the filters" test \
  "$(json "$T/win.json" 'j["filters"]')" = "window=1..3"
check "heatmap --focus app: the same bytes (folding renames, never drops)" test \
  "$("$B" heatmap -q --format json --focus app "$L" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["bytes_total"])')" = 10299270

# ---- offsets: every transfer at the offset the trace gives ----------------------------------
# expected, straight from the strace text: lseek sets the position, read/write move it, p* name it
cat >"$T/expect.py" <<'EOF'
import re, sys, os
target, out = sys.argv[1], []
line_re = re.compile(r'^\d+ (\d\d):(\d\d):(\d\d)\.(\d+) (\w+)\((\d+)<([^>]*)>, (.*)\) = (-?\d+)')
for path in sys.argv[2:]:
    case, pos = os.path.basename(path)[:-3], {}
    for line in open(path, errors="replace"):
        m = line_re.match(line)
        if not m or m.group(7) != target:
            continue
        h, mi, s, us, call, fd, _, args, ret = m.groups()
        t = ((int(h) * 60 + int(mi)) * 60 + int(s)) * 10**9 + int(us.ljust(9, "0")[:9])
        ret, last = int(ret), args.rsplit(", ", 2)
        if call == "lseek":
            pos[fd] = ret
        elif call in ("read", "write") and ret > 0:
            out.append((case, t, call[0], pos[fd], ret))
            pos[fd] += ret
        elif call in ("pread64", "pwrite64") and ret > 0:
            out.append((case, t, call[1], int(last[-1]), ret))
        elif call in ("openat", "open"):
            pos[str(ret)] = 0
for r in sorted(out):
    print(*r)
EOF
cat >"$T/got.py" <<'EOF'
import sys
for i, line in enumerate(open(sys.argv[1])):
    f = line.rstrip("\n").split("\t")
    if i and f[7] != "unknown":
        print(f[0], f[3], f[2][0], f[5], f[6])
EOF
for cid in posixssf mpiiossf; do
  F=/tmp/scratch/$cid/test
  "$B" offsets -q --format tsv --file "$F" "$L" >"$T/off_$cid.tsv"
  "$PY" "$T/expect.py" "$F" "$T/ior-real/$cid"/*.st >"$T/exp_$cid.txt"
  "$PY" "$T/got.py" "$T/off_$cid.tsv" | sort >"$T/got_$cid.txt"
  check "offsets $cid: 128 transfers in the trace" test "$(wc -l <"$T/exp_$cid.txt")" -eq 128
  check "offsets $cid: every transfer at the trace's offset and length" cmp -s "$T/exp_$cid.txt" "$T/got_$cid.txt"
  # IOR -b 64k -t 16k -s 4 with 4 ranks: block (segment s, rank r) at (4s + r) * 64 KiB
  check "offsets $cid: the writes cover 1 MiB once, 16 KiB at every multiple of 16 KiB" test \
    "$(awk '$3 == "w" { print $4, $5 }' "$T/got_$cid.txt" | sort -n | awk '{ if ($1 != NR * 16384 - 16384 || $2 != 16384) bad++ } END { print NR, bad + 0 }')" = "64 0"
  check "offsets $cid: each rank writes one 64 KiB block of every 256 KiB segment" test \
    "$(awk '$3 == "w" { print $1, int($4 / 65536) % 4, int($4 / 262144) }' "$T/got_$cid.txt" | sort -u | awk '{ r[$1] = r[$1] " " $2; s[$1 " " $3]++ } END { n = 0; for (k in r) { split(r[k], a, " "); for (i in a) if (a[i] != a[1]) n++ } ; print length(r), length(s), n }')" = "4 16 0"
  "$B" offsets -q --format json --file "$F" "$L" >"$T/off_$cid.json"
  check "offsets $cid json: 1 MiB written, its union 1 MiB in one range, no overlap" test \
    "$(json "$T/off_$cid.json" 'j["write_bytes"], j["union_bytes"], j["union_ranges"], j["overlap_bytes"]')" = "1048576 1048576 1 0"
  check "offsets $cid json: every offset known (pwrite/pread, or lseek then write/read), none unknown" test \
    "$(json "$T/off_$cid.json" 'j["write"]["known"], j["read"]["known"], j["write"]["unknown"] + j["read"]["unknown"]')" = "64 64 0"
done
"$B" offsets -q --format tsv --file /tmp/scratch/posixfpp/test.00000002 "$L" >"$T/fpp.tsv"
check "offsets posixfpp: one case writes its own file 0..256 KiB sequentially" test \
  "$(awk -F'\t' 'NR > 1 && $3 == "write" { print $1, $6 }' "$T/fpp.tsv" | sort -k2n | awk '{ c[$1]++; if ($2 != NR * 16384 - 16384) bad++ } END { print length(c), NR, bad + 0 }')" = "1 16 0"
"$B" offsets -q --list-files "$L" >"$T/files.tsv"
check "offsets --list-files: 18 data files, the shared ones first (2 MiB each)" test \
  "$(sed -n 2,3p "$T/files.tsv" | cut -f1,3 | tr '\t\n' '  ')" = "2097152 /tmp/scratch/mpiiossf/test 2097152 /tmp/scratch/posixssf/test "
"$B" offsets -q --format json "$L" >"$T/default.json"
check "offsets: by default the data file with the most bytes" grep -q '"/tmp/scratch/mpiiossf/test"' "$T/default.json"

# ---- SVG: well-formed, SVG 1.1 elements only, the texts the issue asks for -------------------
"$B" heatmap -q -o "$T/heatmap.svg" --green cid=posixssf --path '^/tmp' "$L"
"$B" heatmap -q -o "$T/busy.svg" --measure busy --log-scale --rows host --width 700 "$L"
"$B" offsets -q -o "$T/offsets.svg" --file /tmp/scratch/posixssf/test "$L"
"$B" offsets -q -o "$T/offsets_rw.svg" --color rw --times clock "$L"
"$B" timeline -q -o "$T/timeline.svg" --focus app --lanes 5 "$L"
cat >"$T/svgcheck.py" <<'EOF'
import sys, xml.etree.ElementTree as ET
ok = {"svg", "title", "desc", "style", "g", "rect", "line", "polyline", "path", "text", "tspan",
      "circle", "defs", "clipPath", "use", "polygon"}
for path in sys.argv[1:]:
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", path
    assert root.get("version") == "1.1" and root.get("viewBox"), path
    for e in root.iter():
        tag = e.tag.split("}")[1]
        assert tag in ok, (path, tag)
        for k in ("x", "y", "width", "height", "x1", "x2", "y1", "y2"):
            v = e.get(k)
            if v is not None:
                f = float(v)
                assert f == f and abs(f) < 1e6, (path, tag, k, v)
print("ok")
EOF
for f in heatmap busy offsets offsets_rw timeline; do
  if command -v xmllint >/dev/null 2>&1; then
    check "$f.svg: xmllint finds it well-formed" xmllint --noout "$T/$f.svg"
  else
    echo "NOTE: xmllint is not installed: $f.svg checked by Python only"
  fi
  check "$f.svg: SVG 1.1 elements with finite coordinates" test "$("$PY" "$T/svgcheck.py" "$T/$f.svg")" = ok
  if command -v rsvg-convert >/dev/null 2>&1; then
    check "$f.svg: rsvg-convert renders it" rsvg-convert -f png -o "$T/$f.png" "$T/$f.svg"
  fi
done
check "heatmap.svg: the log's name, the filters, the groups, the clock and the axis' unit" sh -c \
  "grep -q 'ior.h5' '$T/heatmap.svg' && grep -q 'path~\\^/tmp' '$T/heatmap.svg' && grep -q 'cid=posixssf' '$T/heatmap.svg' && grep -q 's from the log' '$T/heatmap.svg'"
check "offsets.svg: the file, the offsets in bytes, the patterns named" sh -c \
  "grep -q '/tmp/scratch/posixssf/test' '$T/offsets.svg' && grep -q 'KiB' '$T/offsets.svg' && grep -q 'strided' '$T/offsets.svg'"
check "offsets_rw.svg: coloured by direction, times of day" sh -c \
  "grep -q 'coloured by direction' '$T/offsets_rw.svg' && grep -q 'time of day' '$T/offsets_rw.svg'"
check "timeline.svg --focus app: runtime classes as lanes, the focus said" sh -c \
  "grep -q 'runtime:' '$T/timeline.svg' && grep -q 'runtime classes folded' '$T/timeline.svg'"
check "busy.svg: 700 px wide" grep -q 'width="700"' "$T/busy.svg"

# ---- PNG through rsvg-convert; outputs ------------------------------------------------------
if command -v rsvg-convert >/dev/null 2>&1; then
  "$B" timeline -q --format png -o "$T/t.png" "$L"
  check "timeline --format png: a PNG" test "$(head -c 8 "$T/t.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
  "$B" heatmap -q --format png -o - "$L" >"$T/stdout.png"
  check "heatmap --format png -o -: a PNG on standard output" test "$(head -c 4 "$T/stdout.png" | od -An -c | tr -d ' ')" = "211PNG"
fi
set +e
PATH=/nonexistent "$B" heatmap -q --format png -o "$T/none.png" "$L" 2>"$T/err"
rc=$?
set -e
check "png without rsvg-convert: exit 1, says what to install, leaves no file" \
  sh -c "test $rc -eq 1 && grep -q 'rsvg-convert is not installed' '$T/err' && ! test -e '$T/none.png' && test -z \"\$(ls '$T' | grep '^none.png')\""
"$B" heatmap -q -o - --format tsv "$L" >"$T/dash.tsv"
check "-o - writes standard output" cmp -s "$T/dash.tsv" "$T/hm.tsv"
set +e
"$B" heatmap -q -o "$T/hm.tsv" "$L" 2>"$T/err"
rc=$?
set -e
check "-o FILE that exists: exit 1 without --force" sh -c "test $rc -eq 1 && grep -q 'add --force' '$T/err'"

# ---- bad arguments: a message and exit 2 ---------------------------------------------------
bad() { # bad WHAT EXPECTED-TEXT ARGS...
  what=$1 want=$2
  shift 2
  set +e
  "$B" "$@" "$L" >/dev/null 2>"$T/err"
  rc=$?
  set -e
  check "$what: exit 2 and '$want'" sh -c "test $rc -eq 2 && grep -qF -- \"$want\" '$T/err'"
}
bad "heatmap --rows" "--rows takes case, host, cid or activity, not 'rank'" heatmap --rows rank
bad "heatmap --measure" "--measure takes bytes, busy or calls" heatmap --measure iops
bad "heatmap --bins" "--bins takes 1 to 10000, not '0'" heatmap --bins 0
bad "--format" "--format takes svg, png, tsv or json, not 'gif'" timeline --format gif
bad "--width" "--width takes 600 to 20000 pixels" offsets --width 12
bad "--window with one end" "--window needs both ends" heatmap --window 2..
bad "--window not a time" "--window:1:4: bad end time" timeline --window 1..x
bad "--times" "--times takes rel or clock" heatmap --times utc
bad "offsets --color" "--color takes case or rw, not 'size'" offsets --color size
bad "offsets --file not in the log" "--file: the log has no file '/no/such'" offsets --file /no/such
bad "--activity unknown" "--activity: the rules give no activity 'nope'" timeline --activity nope
bad "timeline --lanes" "--lanes takes 1 to 1000" timeline --lanes x
bad "an unknown option" "unrecognized option" heatmap --colour bytes
bad "--min-edge (the DFG's pruning)" "--min-edge and --top-activities hide parts of the drawn graph" heatmap --min-edge 3
bad "--per-pid" "--per-pid: the rows of offsets are trace files" offsets --per-pid
set +e
"$B" offsets >/dev/null 2>"$T/err"
rc=$?
set -e
check "offsets without inputs: exit 2 and says so" sh -c "test $rc -eq 2 && grep -q 'offsets needs an event log' '$T/err'"
finish
