#!/bin/sh
# iodfg-mpi dfg and stats on 1, 2 and 4 processes print exactly what iodfg prints (DOT, TSV,
# JSON and tables, with rules, filters, pruning, per-pid cases and G/R group comparisons, and
# the same notes and errors), on the recorded traces and on a generated set of 10,000 small
# cases; inputs other than one event log and the commands that do not run as a job are refused.
. "${IODFG_SRCDIR:?}/tests/e2e/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/mpi_lib.sh"
D=$IODFG_TEST_DATA/traces
R=$IODFG_TEST_DATA/rules
mpi_logs

# The maximum concurrency's pruned sweep (doc/mpi.md) under stress: times on a 10 us grid (ends
# at the times of starts, buckets cut between equal points), reads of no duration, one read
# spanning the whole run (and so every bucket), and bursts every 100 calls where every case of a
# clock starts a read at once: the highest count is reached at every burst with the same count,
# and on both clocks (cases 0-3 on the time of day with the long read, 4-8 with -ttt stamps:
# five each), so only the first burst's time is right.
LC_ALL=C awk -v dir="$T/ties" 'BEGIN {
  system("mkdir -p " dir)
  for (c = 0; c < 9; c++) {
    out = sprintf("%s/ties_%d.st", dir, c); x = c * 7919 + 17
    for (i = 0; i < 2000; i++) {
      x = (x * 1103515245 + 12345) % 2147483648
      burst = i % 100 == 50; j = burst ? 0 : int(x / 65536) % 3
      t = 3600 * 10 + (i * 3 + j) * 0.00001
      dur = c == 0 && i == 0 ? 70000 : burst ? 30 : int(x / 256) % 2 * 10
      call = burst || dur > 30 || int(x / 1024) % 3 ? "read" : int(x / 4096) % 2 ? "write" : "lseek"
      stamp = c >= 4 ? sprintf("%.6f", 1753944587 + t) : \
        sprintf("%02d:%02d:%09.6f", int(t / 3600), int(t / 60) % 60, t - 60 * int(t / 60))
      if (call == "lseek")
        line = sprintf("lseek(3</p/scratch/f%d>, 0, SEEK_SET) = 0", c)
      else
        line = sprintf("%s(3</p/scratch/f%d>, \"\"..., 4096) = 4096", call, c)
      printf "%d %s %s <0.%06d>\n", 300 + c, stamp, line, dur > out
    }
    close(out)
  }
}'
"$IODFG_BIN" convert -q -o "$T/ties.h5" "$T/ties"
"$IODFG_BIN" stats --format json "$T/ties.h5" >"$T/ties.json"
check "ties: the bursts reach the highest count of reads" \
  grep -q '"activity":"read:/p/scratch",.*"mc":5,"mc_time_ns":36000001500000' "$T/ties.json"
for n in 1 2 3 4; do
  same "$n" ties stats --format json
  same "$n" ties stats --format tsv --per-pid --sort mc
  same "$n" ties stats --time @36000.002..@36000.06 --format json # from the second burst on
done

# Relative times (--time 1.0..1.03) count from the whole log's first event, not from each
# process's: the second trace starts a second after the first, so on two processes each part
# would start at its own first event.
LC_ALL=C awk -v dir="$T/late" 'BEGIN {
  system("mkdir -p " dir)
  for (c = 0; c < 2; c++) {
    out = sprintf("%s/late_%d.st", dir, c)
    for (i = 0; i < 300; i++) {
      t = 36000 + c + i * 0.01
      printf "%d %02d:%02d:%09.6f read(3</p/scratch/l%d>, \"\"..., 4096) = 4096 <0.000500>\n",
        400 + c, int(t / 3600), int(t / 60) % 60, t - 60 * int(t / 60), c > out
    }
    close(out)
  }
}'
"$IODFG_BIN" convert -q -o "$T/late.h5" "$T/late"
"$IODFG_BIN" stats --time 1.0..1.03 --format tsv "$T/late.h5" >"$T/late.tsv"
check "late: the window holds events of both traces" grep -q 'read:/p/scratch' "$T/late.tsv"
for n in 2 3; do
  same "$n" late stats --time 1.0..1.03 --format json
  same "$n" late dfg --time 0.5..1.5 --format tsv
done

for n in 1 2 4; do
  for set in ior paper formats char; do
    same "$n" "$set" stats
    same "$n" "$set" stats --format json --transitions
    same "$n" "$set" dfg
  done
  same "$n" ior stats --format tsv --transitions --per-pid
  same "$n" ior dfg --rules "$R/ior.rules" --format json
  same "$n" paper dfg --call read,openat --min-edge 2
  same "$n" char stats --time 0..2000000 --sort mc --transitions
  same "$n" formats dfg --top-activities 3 --color mc
  same "$n" many stats --format json --transitions
  same "$n" many dfg
  # group comparisons: G/R colouring (DOT), diff tables and JSON
  same "$n" ior dfg --green cid=ssf
  same "$n" ior stats --green cid=ssf --red cid=fpp --transitions
  same "$n" ior stats --red cid=fpppio --format json --transitions
  same "$n" ior dfg --green cid=ssf --per-pid --format tsv --min-edge 2
  same "$n" paper stats --green cid=nosuchcid --transitions
  same "$n" many stats --green cid=a --red cid=b --format tsv --transitions
  same "$n" many dfg --green cid=a --top-activities 3
done
same 4 many stats --per-pid --format tsv --transitions
same 2 many dfg --case 'cid=b' --format tsv
# checked for leaks in ASan builds (mpi_lib.sh): every merge, groups, percentiles of gaps
JOB_LEAKS=1 same 3 many stats --green cid=a --red cid=b --format json --transitions
JOB_LEAKS=1 same 2 ior dfg --per-pid --format tsv
# the concurrency's bucket sums and the percentiles' histograms added up as whole arrays
# (IODFG_MPI_DENSE): these sets mostly leave so many entries empty that only the filled ones
# are sent
JOB_ENV=IODFG_MPI_DENSE=1
for n in 2 4; do
  same "$n" ties stats --format json
  same "$n" ties stats --format tsv --per-pid --sort mc
  same "$n" ior stats --format tsv --transitions --per-pid
  same "$n" many stats --format json --transitions
done
JOB_ENV=

# -o writes one file, atomically, from process 0
job 2 dfg -q -o "$T/g.dot" "$T/ior.h5"
"$IODFG_BIN" dfg -q -o "$T/s.dot" "$T/ior.h5"
check "-o writes the same file" cmp -s "$T/s.dot" "$T/g.dot"
# overlapping groups fail as in iodfg, naming the shared cases of every process: their count
# and the first three in case order; queued, then checked (qrun)
OV=0
overlap() { # overlap N SET ARGS...
  n=$1 set=$2; shift 2
  OV=$((OV + 1))
  rs=0
  "$IODFG_BIN" "$@" "$T/$set.h5" >/dev/null 2>"$T/ov$OV.s.err" || rs=$?
  echo "$rs" >"$T/ov$OV.rs"
  echo "$set on $n: $*" >"$T/ov$OV.what"
  qjob "$n" "ov$OV" "$@" "$T/$set.h5"
}
for n in $(mpi_counts 0 1 2 4); do
  overlap "$n" ior stats --green cid=ssf --red 'name~ssf'
done
for n in $(mpi_counts 1 1 2 4); do
  overlap "$n" many dfg --green cid=a --red 'name~1'
done
for n in $(mpi_counts 2 1 2 4); do
  overlap "$n" many stats --green 'name~_2000[0-3]$' --red 'name~_20003$'
done
for n in $(mpi_counts 3 1 2 4); do
  overlap "$n" many characterize --green 'name~99' --red 'name~9'
done
overlap 4 many stats --green 'name~^a' --red cid=a
# refused: trace directories and files instead of a log, saying what the input is
f=$(find "$D/ior" -type f | head -1)
for c in dfg stats characterize; do
  JOB_LEAKS=1 job 2 "$c" "$D/ior" >/dev/null 2>"$T/err" || echo $? >"$T/rc.$c"
  check "$c: a trace directory is refused (exit 1)" [ "$(cat "$T/rc.$c" 2>/dev/null)" = 1 ]
  check "$c: saying it is a directory" grep -q "ior: is a directory, not an event log" "$T/err"
  check "$c: with the way to convert it" grep -q "iodfg-mpi convert -o LOG.h5" "$T/err"
  qjob 2 "file-$c" "$c" "$f"
  qjob 1 "help-$c" "$c" --help
done
# usage texts name iodfg-mpi, never iodfg alone (the top level points to `iodfg COMMAND`)
for c in convert dfg stats characterize; do
  qjob 1 "ownhelp-$c" "$c" --help
  qjob 2 "usage-$c" "$c"
done
# iodfg's commands that do not run as a job are refused, naming iodfg as the tool for them
for c in bandwidth info handles; do
  qjob 2 "serial-$c" "$c" "$T/ior.h5"
done
qrun
for i in $(seq "$OV"); do
  what=$(cat "$T/ov$i.what")
  check "$what: exit 1" [ "$(cat "$T/ov$i.rs")" = 1 ] && [ "$(cat "$Q/ov$i.rc")" = 1 ]
  sed 's/^iodfg-mpi: /iodfg: /' "$Q/ov$i.err" >"$T/ov$i.p.err"
  check "$what: iodfg's message, once" cmp -s "$T/ov$i.s.err" "$T/ov$i.p.err"
  check "$what: nothing on stdout" [ ! -s "$Q/ov$i.out" ]
done
check "the overlap of 10,000 cases is counted over every process" \
  grep -q "overlap in 6666 cases" "$T/ov$OV.p.err"
for c in dfg stats characterize; do
  check "$c: a trace file is refused (exit 1)" [ "$(cat "$Q/file-$c.rc")" = 1 ]
  check "$c: saying it is not an event log" grep -q ": is not an HDF5 event log" "$Q/file-$c.err"
  check "$c: the usage says LOG.h5 alone" \
    grep -qx "usage: iodfg-mpi $c \[OPTIONS\] LOG.h5" "$Q/help-$c.out"
done
for c in convert dfg stats characterize; do
  cat "$Q/ownhelp-$c.out" "$Q/ownhelp-$c.err" >"$T/help"
  check "$c --help names iodfg-mpi" grep -q "^usage: iodfg-mpi $c " "$T/help"
  check "$c --help never says iodfg alone" sh -c "! grep -E 'iodfg([^-]|\$)' '$T/help'"
  cat "$Q/usage-$c.out" "$Q/usage-$c.err" >"$T/usage"
  check "$c without inputs: exit 2" [ "$(cat "$Q/usage-$c.rc")" = 2 ]
  check "$c without inputs: iodfg-mpi's usage" grep -q "^usage: iodfg-mpi $c " "$T/usage"
  check "$c without inputs: the message names iodfg-mpi" grep -q "^iodfg-mpi: $c needs" "$T/usage"
  check "$c without inputs: never iodfg alone" sh -c "! grep -E 'iodfg([^-]|\$)' '$T/usage'"
done
for c in bandwidth info handles; do
  check "$c is refused (exit 2)" [ "$(cat "$Q/serial-$c.rc")" = 2 ]
  check "$c: once, naming iodfg $c" \
    [ "$(grep -c "run \`iodfg $c\` on the event log" "$Q/serial-$c.err")" -eq 1 ]
  check "$c: nothing on stdout" [ ! -s "$Q/serial-$c.out" ]
done
# processes on one node divide the processors they share: not bound, two processes each use half
# of what the test may use (at least 1); bound to cores, one each (IODFG_MPI_TIME says)
cpus=$(nproc)
half=$((cpus / 2 > 0 ? cpus / 2 : 1))
for bind in "none $half $cpus" "core:overload-allowed 1 1"; do
  set -- $bind
  for n in 1 2; do
    want=$([ "$n" -eq 1 ] && echo "$3" || echo "$2")
    "$MPIRUN" --oversubscribe --bind-to "$1" -n "$n" -x IODFG_MPI_TIME=1 "$IODFG_MPI" stats \
      "$T/ior.h5" >/dev/null 2>"$T/err"
    check "bound to $1, $n of them: $want of $cpus processors each" \
      grep -q "processors per process $want-$want\$" "$T/err"
  done
done
job 1 --help >"$T/help"
check "iodfg-mpi --help" grep -q "^usage: mpirun -n P iodfg-mpi COMMAND" "$T/help"
check "iodfg-mpi --help: lines of at most 80 columns" sh -c "! grep -q '.\{81\}' '$T/help'"
finish
