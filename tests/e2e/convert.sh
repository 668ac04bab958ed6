#!/bin/sh
# End-to-end: `iodfg convert` and `iodfg info` on the recorded traces in tests/data.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
D=$IODFG_TEST_DATA/traces

# The paper's ls / ls -l traces: six cases, every read/write line one event.
"$IODFG_BIN" convert -q -o "$T/paper.h5" "$D/paper"
check "paper: convert writes the log" test -s "$T/paper.h5"
"$IODFG_BIN" info --json "$T/paper.h5" >"$T/paper.json"
want=$(cat "$D"/paper/*.st | grep -c -E '^[0-9]+ +[0-9:.]+ (read|write)\(')
check "paper: six cases" test "$(json "$T/paper.json" 'j["cases"]')" = 6
check "paper: $want events" test "$(json "$T/paper.json" 'j["events"]')" = "$want"
check "paper: cids a,b from file names" test "$(json "$T/paper.json" '",".join(sorted(set(c["cid"] for c in j["case_list"])))')" = "a,b"
check "paper: host1" test "$(json "$T/paper.json" 'set(c["host"] for c in j["case_list"])')" = "{'host1'}"
check "paper: nothing unparsable" test "$(json "$T/paper.json" 'j["lines"]["unparsable"]')" = 0
check "paper: calls are read and write" test "$(json "$T/paper.json" '",".join(sorted(c["call"] for c in j["calls"]))')" = "read,write"

# Every recorded strace format parses completely, with the right clock.
"$IODFG_BIN" convert -q -o "$T/formats.h5" "$D/formats"
"$IODFG_BIN" info --json "$T/formats.h5" >"$T/formats.json"
check "formats: nine cases" test "$(json "$T/formats.json" 'j["cases"]')" = 9
check "formats: no unparsable line" test "$(json "$T/formats.json" 'j["lines"]["unparsable"]')" = 0
check "formats: pairs merged" test "$(json "$T/formats.json" 'j["lines"]["merged"] > 100')" = True
for pair in t:time-of-day tt:time-of-day ttt:epoch r:relative tttr:epoch none:none \
            nopid:time-of-day ns:epoch stderr:time-of-day; do
  f=${pair%%:*}; clock=${pair#*:}
  got=$(json "$T/formats.json" "[c['clock'] for c in j['case_list'] if c['cid']=='fmt_$f'][0]")
  check "formats: -$f has a $clock clock" test "$got" = "$clock"
done
check "formats: stderr notices counted" test "$(json "$T/formats.json" 'j["lines"]["notices"] > 0')" = True

# Reading traces directly gives the same summary as reading the converted log.
"$IODFG_BIN" info --json "$D/formats" >"$T/direct.json"
check "info on traces == info on the log" "$PY" -c '
import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
a.pop("source"); b.pop("source")
for c in a["case_list"]+b["case_list"]: c.pop("source")
sys.exit(a!=b)' "$T/formats.json" "$T/direct.json"

# Parallel and serial conversions agree.
"$IODFG_BIN" convert -q -j 1 -o "$T/j1.h5" "$D/ior"
"$IODFG_BIN" convert -q -j 4 -o "$T/j4.h5" "$D/ior"
"$IODFG_BIN" info --json "$T/j1.h5" | sed 's/"source":"[^"]*"/"source":""/g' >"$T/j1.json"
"$IODFG_BIN" info --json "$T/j4.h5" | sed 's/"source":"[^"]*"/"source":""/g' >"$T/j4.json"
check "--jobs 1 and --jobs 4 give the same log" cmp -s "$T/j1.json" "$T/j4.json"
check "ior: 16 cases" test "$(json "$T/j1.json" 'j["cases"]')" = 16

# Other naming conventions through --name-pattern.
mkdir "$T/jw"
cp "$D/paper/a_host1_14637.st" "$T/jw/stio.0.jwc00n234.juwels.st"
cp "$D/paper/b_host1_14649.st" "$T/jw/odd-name.st"
"$IODFG_BIN" convert -o "$T/jw.h5" -p 'stio.{rid}.{host}.{cid}.st' "$T/jw" >"$T/jw.out"
"$IODFG_BIN" info --json "$T/jw.h5" >"$T/jw.json"
"$IODFG_BIN" info --format json "$T/jw.h5" >"$T/jw-format.json"
check "info --format json is --json" cmp "$T/jw.json" "$T/jw-format.json"
set +e; "$IODFG_BIN" info --format tsv "$T/jw.h5" >/dev/null 2>"$T/fmt.err"; rc=$?; set -e
check "info --format tsv: a usage error (2)" test "$rc" -eq 2
check "info --format tsv: names the choices" grep -q "takes table or json, not 'tsv'" "$T/fmt.err"
check "name pattern: cid" test "$(json "$T/jw.json" '[c["cid"] for c in j["case_list"] if c["rid"]=="0"][0]')" = juwels
check "name pattern: host" test "$(json "$T/jw.json" '[c["host"] for c in j["case_list"] if c["rid"]=="0"][0]')" = jwc00n234
check "unmatched name: named after the file" test "$(json "$T/jw.json" '[c["named_by"] for c in j["case_list"] if c["name"]=="odd-name"][0]')" = "file name"
check "summary says a file was named after itself" grep -q "did not match the name pattern" "$T/jw.out"
"$PY" -c 'import re' && "$IODFG_BIN" convert -q -o "$T/bad.h5" -p '(?<cid' "$T/jw" 2>"$T/badpat.err" && fail "bad pattern accepted" || ok "bad pattern rejected"
check "bad pattern: message names the option" grep -q -- "--name-pattern" "$T/badpat.err"

# Never overwrite without --force; --force replaces.
if "$IODFG_BIN" convert -q -o "$T/paper.h5" "$D/paper" 2>"$T/exists.err"; then
  fail "existing output overwritten without --force"
else
  check "existing output: exit 1" test $? -eq 1
fi
check "existing output: says so" grep -q "exists" "$T/exists.err"
check "--force replaces" "$IODFG_BIN" convert -q -f -o "$T/paper.h5" "$D/paper"

# The 4.0 layout of doc/format.md, read with h5py: /case_table and the group attributes give each
# case's rows of the /events columns; with --case-views each group shows them as datasets.
if "$PY" -c 'import h5py' 2>/dev/null; then
  check "h5py reads the log" "$PY" -c '
import sys
import h5py
f = h5py.File(sys.argv[1], "r")
assert f.attrs["format"] == b"iodfg-eventlog" and f.attrs["version"] == 4
n, t, ev = int(f.attrs["events"]), f["case_table"][:], f["events"]
assert n == int(sys.argv[2]) and len(t) == len(f["cases"]) == int(f.attrs["cases"]) == 6
assert sorted(ev) == sorted("pid call start dur fp size key offset req fd err handle".split())
assert all(ev[c].shape == (n,) for c in ev)
first, rows = [int(x) for x in t["first"]], [int(x) for x in t["rows"]]
assert first == [sum(rows[:i]) for i in range(6)] and sum(rows) == n and min(rows) > 0
raw, off = f["strings/bytes"][:].tobytes(), f["strings/offsets"][:].tolist()
s = lambda i: raw[off[i] : off[i + 1] - 1].decode()
key = ev["key"][:]
assert (f["keys/call"][:][key] == ev["call"][:]).all()
assert (f["keys/path"][:][key] == ev["fp"][:]).all()
assert {s(c) for c in ev["call"][:]} == {"read", "write"}
for g in f["cases"].values():
    i, a, r = int(g.attrs["index"]), int(g.attrs["first"]), int(g.attrs["rows"])
    assert (a, r) == (first[i], rows[i]) and s(t["name"][i]) == g.attrs["name"].decode()
    assert len(g) == 0 and (ev["pid"][a : a + r] > 0).all()
    st = ev["start"][a : a + r]
    assert (st[1:] >= st[:-1]).all()
' "$T/paper.h5" "$want"
  "$IODFG_BIN" convert -q --case-views -o "$T/views.h5" "$D/ior"
  check "h5py reads the case views" "$PY" -c '
import sys
import h5py
import numpy
f = h5py.File(sys.argv[1], "r")
assert len(f["cases"]) == 16
for g in f["cases"].values():
    a, r = int(g.attrs["first"]), int(g.attrs["rows"])
    assert r > 0 and sorted(g) == sorted(f["events"])
    for c, col in f["events"].items():
        assert g[c].shape == (r,) and numpy.array_equal(g[c][:], col[a : a + r]), (g.name, c)
' "$T/views.h5"
fi

# A log with whole chunks (more than 65536 events): iodfg codes them itself; HDF5 decodes them
# (h5py reads the sizes back exactly), and a copy h5repack stores without filters loads the same.
mkdir -p "$T/big"
awk 'BEGIN { for (i = 0; i < 70000; i++) { t = i * 10
  printf "7  10:00:%02d.%06d write(3</p/scratch/f>, \"x\"..., %d) = %d <0.000%03d>\n",
    int(t / 1000000), t % 1000000, i % 4096 + 1, i % 4096 + 1, i % 7 + 1 } }' >"$T/big/r.st"
check "a log of 70000 events converts" "$IODFG_BIN" convert -q -o "$T/big.h5" "$T/big"
if "$PY" -c 'import h5py' 2>/dev/null; then
  check "HDF5 decodes iodfg's coded chunks" "$PY" -c '
import sys
import h5py
f = h5py.File(sys.argv[1], "r")
size = f["events/size"][:]
assert len(size) == 70000 and int(size.sum()) == sum(i % 4096 + 1 for i in range(70000))
st = f["events/start"][:]
assert (st[1:] - st[:-1] == 10000).all()
' "$T/big.h5"
fi
if command -v h5repack >/dev/null 2>&1; then
  h5repack -f NONE "$T/big.h5" "$T/plain.h5"
  "$IODFG_BIN" stats --format tsv "$T/big.h5" >"$T/big.tsv"
  "$IODFG_BIN" stats --format tsv "$T/plain.h5" >"$T/plain.tsv"
  check "a copy without filters (h5repack -f NONE) gives the same statistics" cmp "$T/big.tsv" "$T/plain.tsv"
  check "... and is larger" test "$(wc -c <"$T/plain.h5")" -gt "$(wc -c <"$T/big.h5")"
else
  echo "# skipped: no h5repack (hdf5-tools)"
fi
finish
