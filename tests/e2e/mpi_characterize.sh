#!/bin/sh
# iodfg-mpi characterize on 1, 2 and 4 processes prints exactly what iodfg characterize prints
# (tables, TSV and JSON; servers by host, case and file; bin widths, thresholds, alignment,
# per-file rows, time windows, rules, mixed clocks and G/R groups), on the recorded traces and
# on a generated set of 10,000 small cases.
. "${IODFG_SRCDIR:?}/tests/e2e/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/mpi_lib.sh"
R=$IODFG_TEST_DATA/rules
mpi_logs

charz() { # charz N SET ARGS...: `same` for characterize
  n=$1 set=$2; shift 2
  same "$n" "$set" characterize "$@"
}
for n in 1 2 4; do
  for set in ior paper formats char; do
    for f in table tsv json; do
      charz "$n" "$set" --format "$f"
    done
  done
  charz "$n" many --format tsv
  charz "$n" many --format json --by case
  charz "$n" many --by file --per-file
  charz "$n" many --green cid=a --red cid=b --format tsv
  charz "$n" many --dt 50us --threshold 100 --format json
  charz "$n" ior --dt 250us --threshold 4KiB --per-file
  charz "$n" ior --by file --format tsv --alignment 1MiB
  charz "$n" ior --green cid=ssf --format json
  charz "$n" ior --red cid=fpp --by case
  charz "$n" char --time 0..2000000 --width 40
  charz "$n" paper --rules "$R/ior.rules" --format tsv
  charz "$n" paper --call read,openat --per-file
  charz "$n" formats --align start --format tsv
done
# -o writes one file, atomically, from process 0
JOB_LEAKS=1 job 2 characterize -q --format json -o "$T/c.json" "$T/ior.h5"
"$IODFG_BIN" characterize -q --format json -o "$T/s.json" "$T/ior.h5"
check "-o writes the same file" cmp -s "$T/s.json" "$T/c.json"
finish
