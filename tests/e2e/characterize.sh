#!/bin/sh
# End-to-end: `iodfg characterize` and `iodfg bandwidth` on the recorded IOR-like traces (shared
# file and file per process, lseek+read/write and pread64/pwrite64), on hand-made stair-case
# traces, on a counter CSV, and on traces recorded now under strace when that is possible.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
IOR=$IODFG_TEST_DATA/traces/ior
CHAR=$IODFG_TEST_DATA/traces/char
# tsv_get FILE SECTION-HEADER-FIRST-FIELD ROW-FIRST-FIELD COLUMN-NAME: one value of a TSV table
tsv_get() {
  awk -F '\t' -v sec="$2" -v row="$3" -v col="$4" '
    $0 == "" { insec = 0; next }
    $1 == sec && !insec { insec = 1; for (i = 1; i <= NF; i++) idx[$i] = i; next }
    insec && $1 == row && !done { print $(idx[col]); done = 1 }' "$1"
}

"$IODFG_BIN" characterize -q "$IOR" >"$T/table"
check "table: El Sayed et al. 2016 metrics with equation numbers" grep -q 'P, parallel intensity (Eq. 9)' "$T/table"
check "table: a bandwidth chart" grep -q '^bandwidth over time' "$T/table"
check "table: the stair-case column" grep -q 'stair' "$T/table"

"$IODFG_BIN" characterize -q --format tsv --dt 2ms "$IOR" >"$T/all.tsv"
check "tsv: write volume N_w = 16 ranks x 4 x 64 KiB" test "$(tsv_get "$T/all.tsv" metric volume write)" = 4194304
check "tsv: 64 write operations" test "$(tsv_get "$T/all.tsv" metric ops write)" = 64
check "tsv: Δt as given" test "$(tsv_get "$T/all.tsv" metric dt_ns read)" = 2000000
check "tsv: one host, so P = 0" test "$(tsv_get "$T/all.tsv" metric parallel write)" = 0

for cid in fpp fpppio; do
  "$IODFG_BIN" characterize -q --format tsv --case cid=$cid "$IOR" >"$T/$cid.tsv"
  check "$cid: every write consecutive (file per process)" \
    test "$(awk -F '\t' '$1=="(all)" && $2=="write" {print $4}' "$T/$cid.tsv")" = 16
done
"$IODFG_BIN" characterize -q --format tsv --case cid=ssf "$IOR" >"$T/ssf.tsv"
check "ssf: strided lseek+write on a shared file: 1 consecutive" \
  test "$(awk -F '\t' '$1=="write:/scratch/run" && $2=="write" {print $4}' "$T/ssf.tsv")" = 1
check "ssf: ... and 15 sequential" \
  test "$(awk -F '\t' '$1=="write:/scratch/run" && $2=="write" {print $5}' "$T/ssf.tsv")" = 15
"$IODFG_BIN" characterize -q --format tsv --case cid=ssfpio "$IOR" >"$T/ssfpio.tsv"
check "ssfpio: pwrite64 offsets tracked: 15 sequential" \
  test "$(awk -F '\t' '$1=="pwrite64:/scratch/run" && $2=="write" {print $5}' "$T/ssfpio.tsv")" = 15
check "per (case, file) rows" grep -q '^ssf_node1_14729	/scratch/run/ssf/test	write' "$T/ssf.tsv"
check "size histogram: 64 writes in [64 KiB, 128 KiB)" \
  test "$(awk -F '\t' '$1==65536 {print $4}' "$T/all.tsv")" = 64

"$IODFG_BIN" characterize -q --format tsv --by case "$IOR" >"$T/bycase.tsv"
check "by case: 16 servers" test "$(tsv_get "$T/bycase.tsv" metric servers write)" = 16
"$IODFG_BIN" characterize -q --format json --green cid=ssf,ssfpio "$IOR" >"$T/gr.json"
check "json: G and R side by side" test "$(json "$T/gr.json" '[g["group"] for g in j["groups"]]')" = "['G', 'R']"
check "json: each group wrote half" test "$(json "$T/gr.json" 'j["groups"][1]["time_bins"]["write"]["volume"]')" = 2097152

"$IODFG_BIN" characterize -q --format tsv "$CHAR" >"$T/char.tsv"
check "stair-case: 4 writes issued together, completing one after another: 3/4" \
  test "$(tsv_get "$T/char.tsv" activity write:/scratch/stair stair)" = 0.75
check "parallel writes: stair 0" test "$(tsv_get "$T/char.tsv" activity write:/scratch/par stair)" = 0
check "stair-case: perceived 4 MiB over 0.4 s" \
  test "$(tsv_get "$T/char.tsv" activity write:/scratch/stair perceived_Bps)" = 10485760
check "stair-case: effective 4 MiB over 1 s of calls" \
  test "$(tsv_get "$T/char.tsv" activity write:/scratch/stair effective_Bps)" = 4194304

"$IODFG_BIN" characterize --format tsv --dt 5s --counters "$IODFG_TEST_DATA/counters/two_servers.csv" >"$T/ctr.tsv"
check "counters: N_r = 3 MiB" test "$(tsv_get "$T/ctr.tsv" metric volume read)" = 3145728
check "counters: two servers" test "$(tsv_get "$T/ctr.tsv" metric servers read)" = 2
if "$IODFG_BIN" characterize --counters "$IODFG_TEST_DATA/counters/bad_column.csv" 2>"$T/err"; then
  fail "a bad counter file is refused"
else
  check "a bad counter file names line and column" grep -q 'bad_column.csv:3:' "$T/err"
fi
set +e
"$IODFG_BIN" characterize --by rack "$IOR" 2>/dev/null; rc=$?
set -e
check "a bad --by is a usage error" test "$rc" = 2

"$IODFG_BIN" bandwidth -q --format tsv --by call "$IOR" >"$T/bw.tsv"
check "bandwidth: overall write bytes" \
  test "$(awk -F '\t' '$2=="overall" && $3=="(write)" {print $6}' "$T/bw.tsv")" = 4194304
check "bandwidth: time shares of the calls add up to 1" \
  test "$(awk -F '\t' '$2=="call" {s+=$11} END {printf "%.6f", s}' "$T/bw.tsv")" = 1.000000
"$IODFG_BIN" bandwidth -q --by case --case cid=fpp "$IOR" >"$T/bw.table"
check "bandwidth: a time-share bar per case" test "$(grep -c '^  |.*|$' "$T/bw.table")" = 4

# traces recorded now
MINIIOR=${IODFG_MINIIOR:-}
if [ -n "$MINIIOR" ] && command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
  mkdir -p "$T/io/ssf" "$T/io/fpp" "$T/tr"
  for mode in ssf fpp; do
    for api in lseek pio; do
      for r in 0 1 2 3; do
        ASAN_OPTIONS=detect_leaks=0 IODFG_OUTDIR="$T/tr" IODFG_CID=$mode$api IODFG_HOST=node1 \
          IODFG_TRACE="-e trace=openat,read,write,pread64,pwrite64,lseek,fsync,close" \
          "$IODFG_SRCDIR/tests/tools/strace.sh" "$MINIIOR" "$T/io" $mode $r 4 4 4096 $api &
      done
      wait
    done
  done
  "$IODFG_BIN" characterize -q --format tsv --path '^/' --filter 'path~/io/' "$T/tr" >"$T/live.tsv"
  check "live: 4 modes x 4 ranks x 4 writes" test "$(tsv_get "$T/live.tsv" metric ops write)" = 64
  check "live: every write offset known" \
    test "$(awk -F '\t' '$1=="(all)" && $2=="write" {print $7}' "$T/live.tsv")" = 0
else
  echo "# skipped the live recording (no strace or ptrace not permitted)"
fi
finish
