#!/bin/sh
# End-to-end: bad input never crashes, always says what is wrong, and exits with status 1.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
D=$IODFG_TEST_DATA/traces

expect_fail() { # expect_fail DESCRIPTION PATTERN COMMAND...
  d=$1; pat=$2; shift 2
  set +e; "$@" >"$T/out" 2>"$T/err"; rc=$?; set -e
  if [ $rc -eq 1 ] && grep -q -- "$pat" "$T/err"; then ok "$d"; else
    fail "$d (exit $rc)"; cat "$T/err"; fi
}

expect_fail "missing file" "nope.st.*No such file" "$IODFG_BIN" convert -o "$T/x.h5" "$T/nope.st"
check "missing file: no output" test ! -e "$T/x.h5"
mkdir "$T/empty"
expect_fail "directory without traces" "no trace files" "$IODFG_BIN" convert -o "$T/x.h5" "$T/empty"
if [ "$(id -u)" -ne 0 ]; then
  echo x >"$T/secret.st"; chmod 000 "$T/secret.st"
  expect_fail "unreadable file" "secret.st.*Permission denied" "$IODFG_BIN" convert -o "$T/x.h5" "$T/secret.st"
fi

# Garbage that is readable: converted, counted, reported.
: >"$T/empty_host_1.st"
head -c 65536 /dev/urandom >"$T/junk_host_2.st"
printf '1 08:00:00.000001 read(3</a>, "", 1) = 0 <0.000001>\n1 08:00:00.000002 write(3</a>, "x"' >"$T/cut_host_3.st"
"$IODFG_BIN" convert -o "$T/odd.h5" "$T/empty_host_1.st" "$T/junk_host_2.st" "$T/cut_host_3.st" >"$T/odd.out"
check "garbage: converted" test -s "$T/odd.h5"
check "garbage: unparsable lines reported with file and line" grep -q "unparsable line.*_host_[23].st:[0-9]*:[0-9]*: expected" "$T/odd.out"
check "garbage: empty files mentioned" grep -q "held no events" "$T/odd.out"
"$IODFG_BIN" info --json "$T/odd.h5" >"$T/odd.json"
check "garbage: one event survives" test "$(json "$T/odd.json" 'j["events"]')" = 1
set +e; "$IODFG_BIN" convert -q --strict -o "$T/strict.h5" "$T/cut_host_3.st"; rc=$?; set -e
check "--strict: exit 3 when lines were skipped" test $rc -eq 3

# A 1 MB line and a file without a final newline.
"$PY" -c 'import sys; sys.stdout.write("1 08:00:00.000001 write(1</dev/null>, \"" + "a"*1048576 + "\", 1048576) = 1048576 <0.1>\n")' >"$T/big_host_4.st"
"$IODFG_BIN" convert -q -o "$T/big.h5" "$T/big_host_4.st"
check "1 MB line: one event" test "$("$IODFG_BIN" info --json "$T/big.h5" | json /dev/stdin 'j["events"]')" = 1

# Entries named like traces that are not regular files: a FIFO (it would block a reader), a
# link that leads nowhere, a link to a device. Skipped without opening them, and said.
mkdir "$T/special"
cp "$D/ior/fpp_node1_14745.st" "$T/special/"
mkfifo "$T/special/fifo_node1_1.st"
ln -s "$T/nowhere" "$T/special/gone_node1_2.st"
ln -s /dev/zero "$T/special/zero_node1_3.st"
timeout 60 "$IODFG_BIN" convert -o "$T/special.h5" "$T/special" >"$T/special.out" 2>"$T/special.err"
check "special files: the trace beside them is converted" grep -q "^Read 1 trace file" "$T/special.out"
check "special files: skipped and counted in a note" \
  grep -q "note: skipped 3 entries named like a trace but not a regular file" "$T/special.err"
rm "$T/special/fpp_node1_14745.st"
expect_fail "only special files: refused, saying why" "3 entries named like one are not a regular" \
  timeout 60 "$IODFG_BIN" convert -o "$T/x.h5" "$T/special"
# A line of 100 MB without a line break: one unparsable line, memory bounded by the 64 MiB limit
{ head -c 100000000 /dev/zero | tr '\0' x; echo; } >"$T/long_host_5.st"
cat "$D/ior/fpp_node1_14745.st" >>"$T/long_host_5.st"
"$IODFG_BIN" convert -o "$T/long.h5" "$T/long_host_5.st" >"$T/long.out"
check "a 100 MB line: counted as unparsable at line 1" \
  grep -q "long_host_5.st:1:1: expected a line of at most 64 MiB" "$T/long.out"
check "a 100 MB line: the lines after it are events" \
  test "$("$IODFG_BIN" info --json "$T/long.h5" | json /dev/stdin 'j["events"]')" -gt 20

# Damaged and foreign logs.
cp "$T/odd.h5" "$T/trunc.h5"
size=$(wc -c <"$T/odd.h5")
"$PY" -c 'import sys; d=open(sys.argv[1],"rb").read(); open(sys.argv[1],"wb").write(d[:len(d)//2])' "$T/trunc.h5"
expect_fail "truncated log" "iodfg:" "$IODFG_BIN" info "$T/trunc.h5"
echo "not hdf5" >"$T/text.h5"
set +e; "$IODFG_BIN" info "$T/text.h5" >"$T/out" 2>"$T/err"; rc=$?; set -e
check "text file named .h5: handled as a (junk) trace, no crash" test $rc -le 1
expect_fail "missing log" "No such file" "$IODFG_BIN" info "$T/missing.h5"
set +e; "$IODFG_BIN" convert >/dev/null 2>&1; rc=$?; set -e
check "usage error: exit 2" test $rc -eq 2

# Interrupted convert: no file under the final name, no temp file left behind. A trace large
# enough to catch convert at work (its temp file there), doubled until it is caught; then
# stopped while it is looked at, and interrupted.
caught=
for lines in 200000 800000 3200000; do
  "$PY" "$IODFG_SRCDIR/tests/tools/busy_trace.py" "$lines" >"$T/busy_host_5.st"
  "$IODFG_BIN" convert -q -f -o "$T/int.h5" "$T/busy_host_5.st" &
  pid=$!
  while kill -0 $pid 2>/dev/null && ! ls -a "$T" | grep -q '^\.int\.h5\.tmp'; do sleep 0.01; done
  if kill -STOP $pid 2>/dev/null && ls -a "$T" | grep -q '^\.int\.h5\.tmp'; then caught=1; break; fi
  kill -CONT $pid 2>/dev/null || true
  wait $pid || true
  rm -f "$T/int.h5"
done
check "convert writes to a temp file first" test -n "$caught"
kill -INT $pid 2>/dev/null || true
kill -CONT $pid 2>/dev/null || true
i=0
while [ $i -lt 200 ] && kill -0 $pid 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
if kill -0 $pid 2>/dev/null; then # never hang the suite: say so, then stop it
  fail "convert ignored SIGINT"
  kill -KILL $pid 2>/dev/null || true
fi
wait $pid || true
check "interrupted: no final file" test ! -e "$T/int.h5"
check "interrupted: temp file removed" sh -c "! ls -a '$T' | grep -q '\.tmp'"
rm -f "$T/busy_host_5.st"

# A full standard output: what a command prints must reach it, or the command fails (as cat
# does), saying so once; --strict's status 3 (lines skipped) becomes 1 then too.
if [ -w /dev/full ]; then
  for c in "--help" "--version" "stats --help" "info $T/odd.h5" "info --json $T/odd.h5" \
    "stats $T/odd.h5" "dfg $T/odd.h5" "handles $T/odd.h5" "characterize $T/odd.h5" \
    "convert -f --strict -o $T/full.h5 $T/cut_host_3.st"; do
    set +e
    # shellcheck disable=SC2086
    "$IODFG_BIN" $c >/dev/full 2>"$T/err"
    rc=$?
    set -e
    check "stdout full: iodfg $c exits 1 saying so once" \
      test "$rc" -eq 1 -a "$(grep -c 'writing to standard output failed' "$T/err")" -eq 1
  done
  set +e; "$IODFG_BIN" export --format csv "$T/odd.h5" >/dev/full 2>"$T/err"; rc=$?; set -e
  check "stdout full: iodfg export exits 1 saying so" \
    test "$rc" -eq 1 -a -n "$(grep 'cannot write the export: No space left' "$T/err")"
fi

# A full file system (a file size limit stands in, as no one may mount a small one): every
# writer fails with exit 1 saying why, and leaves neither the output nor a temporary file. The
# HDF5 library once crashed at exit after the failed close (exit 139).
mkdir "$T/limit"
for c in "convert -q -o $T/limit/x.h5 $D/ior" "stats -o $T/limit/s.txt $D/ior" \
  "dfg -o $T/limit/g.dot $D/ior"; do
  set +e
  # shellcheck disable=SC2086
  (trap '' XFSZ; ulimit -f 1; exec "$IODFG_BIN" $c) >/dev/null 2>"$T/err"
  rc=$?
  set -e
  check "file size limit: iodfg $c exits 1" test "$rc" -eq 1
  check "... saying why" grep -q 'File too large' "$T/err"
  check "... leaving nothing behind" test -z "$(ls -A "$T/limit")"
done

# An output that is one of the inputs (the same name, another spelling, a hard link, or a trace
# of a directory given) is never replaced, --force or not: the trace stays as it was.
mkdir "$T/same"
cp "$D/ior/ssf_node1_14732.st" "$T/same/a.st"
cp "$T/same/a.st" "$T/orig-a"
ln "$T/same/a.st" "$T/same/link.st"
for c in "convert -q -f -o $T/same/a.st $T/same/a.st" "convert -q -f -o $T/same/link.st $T/same" \
  "stats -f -o $T/same/./a.st $T/same/a.st" "dfg -f -o $T/same/link.st $T/same/a.st" \
  "stats -f -o $T/same/a.st $T/same" \
  "export --format csv -f -o $T/same/a.st $T/same/a.st"; do
  rc=0
  # shellcheck disable=SC2086
  "$IODFG_BIN" $c >/dev/null 2>"$T/err" || rc=$?
  check "output is an input: iodfg $c exits 1 (exit $rc)" test "$rc" -eq 1
  check "... saying so" grep -q 'the output is also .*not replaced' "$T/err"
done
check "... and the trace is intact" cmp "$T/same/a.st" "$T/orig-a"
finish
