#!/bin/sh
# iodfg-mpi characterize on 1, 2 and 4 processes prints exactly what iodfg characterize prints
# (tables, TSV and JSON; servers by host, case and file; bin widths, thresholds, alignment,
# per-file rows, time windows, rules, mixed clocks and G/R groups), on the recorded traces and
# on a generated set of 10,000 small cases.
. "${IODFG_SRCDIR:?}/tests/e2e/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/mpi_lib.sh"
D=$IODFG_TEST_DATA/traces
R=$IODFG_TEST_DATA/rules
"$IODFG_SRCDIR/tests/tools/gen_cases.sh" "$T/many" 10000
for set in ior paper formats char; do
  "$IODFG_BIN" convert -q -o "$T/$set.h5" "$D/$set"
done
"$IODFG_BIN" convert -q -o "$T/many.h5" "$T/many"

same() { # same N SET ARGS...: the job's output, notes and exit status are iodfg's
  n=$1 set=$2; shift 2
  rs=0 rp=0
  "$IODFG_BIN" characterize "$@" "$T/$set.h5" >"$T/s.out" 2>"$T/s.err" || rs=$?
  job "$n" characterize "$@" "$T/$set.h5" >"$T/p.out" 2>"$T/p.raw" || rp=$?
  sed 's/^iodfg-mpi: /iodfg: /' "$T/p.raw" >"$T/p.err" # each program names itself
  check "$set on $n: characterize $* (exit $rs)" cmp -s "$T/s.out" "$T/p.out"
  check "$set on $n: characterize $*: the same notes" cmp -s "$T/s.err" "$T/p.err"
  [ "$rs" -eq "$rp" ] || fail "$set on $n: characterize $*: exit $rp, iodfg exits $rs"
}
for n in 1 2 4; do
  for set in ior paper formats char; do
    for f in table tsv json; do
      same "$n" "$set" --format "$f"
    done
  done
  same "$n" many --format tsv
  same "$n" many --format json --by case
  same "$n" many --by file --per-file
  same "$n" many --green cid=a --red cid=b --format tsv
  same "$n" many --dt 50us --threshold 100 --format json
  same "$n" ior --dt 250us --threshold 4KiB --per-file
  same "$n" ior --by file --format tsv --alignment 1MiB
  same "$n" ior --green cid=ssf --format json
  same "$n" ior --red cid=fpp --by case
  same "$n" char --time 0..2000000 --width 40
  same "$n" paper --rules "$R/ior.rules" --format tsv
  same "$n" paper --call read,openat --per-file
  same "$n" formats --align start --format tsv
done
# -o writes one file, atomically, from process 0
job 2 characterize -q --format json -o "$T/c.json" "$T/ior.h5"
"$IODFG_BIN" characterize -q --format json -o "$T/s.json" "$T/ior.h5"
check "-o writes the same file" cmp -s "$T/s.json" "$T/c.json"
finish
