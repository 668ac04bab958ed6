#!/bin/sh
# make bench-mpi: iodfg-mpi's scaling on this machine. Strong scaling: convert and stats at 1 and
# 2 processes (the goal: 1.7x at 2 on two cores) of two trace sets recorded now: 96 processes of
# an IOR-like workload (tests/tools/miniior: write, then read, 512-byte blocks of a shared file
# or of its own, with pwrite/pread or lseek and write/read) run at once under the strace wrapper
# of Sankaran et al. 2024 (tests/tools/strace.sh), about 3.2 M and 9.6 M lines. Where ptrace is not permitted,
# generated IOR-like sets of the same sizes stand in, and the output says so. Weak scaling
# (generated sets): 250,000 lines per process at 1, 2 and 4 processes (4 oversubscribed on two
# cores): time, the largest resident memory of one process, the log's metadata (HDF5 objects,
# bytes of metadata per h5stat). Timings taken while other work runs are not figures.
# Beside the wall time of the whole job (mpirun's launch, MPI_Init and MPI_Finalize included,
# which do not divide among the processes), the time in the program between MPI_Init and
# MPI_Finalize (IODFG_MPI_TIME: its slowest process), best of the runs each. The strong-scaling
# runs alternate one process and two, and the median and the range of those pairs' ratios are
# printed beside the best against the best: this machine's speed drifts, and a row's runs taken one
# after the other would compare one minute's one-process runs with another minute's two-process
# runs. Strong scaling is measured with the transport a plain `mpirun -n P iodfg-mpi` gets (on one
# node iodfg-mpi asks for pml ob1 unless the user chose one; doc/mpi.md) and with the explicit
# single-node shared-memory one ('--mca pml ob1 --mca btl self,vader'). MPIRUN_FLAGS go to every
# mpirun.
set -eu
: "${IODFG_BUILDDIR:?}" "${BENCH_DIR:?}" "${IODFG_SRCDIR:?}"
MPI=$IODFG_BUILDDIR/iodfg-mpi
MINIIOR=$IODFG_BUILDDIR/tests/tools/miniior
runs=${RUNS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/iodfg-bench-mpi.XXXXXX")
trap 'rm -rf "$work"' EXIT
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM

# once N ARGS...: one run of iodfg-mpi ARGS on N processes; appends to $work/runs its wall time,
# the largest resident memory of one process (KiB), the time in the program and MPI_Init's
once() {
  n=$1; shift
  rm -f "$work"/rss.* "$work/out.h5"
  t0=$(date +%s.%N)
  mpirun ${MPIRUN_FLAGS:-} ${TRANSPORT:-} --oversubscribe -n "$n" -x IODFG_MPI_TIME=1 sh -c \
    '/usr/bin/time -f %M -o "$0/rss.$OMPI_COMM_WORLD_RANK" "$@"' "$work" "$MPI" "$@" \
    >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
  line=$(grep 'iodfg-mpi: in program' "$work/err")
  echo "$t $(cat "$work"/rss.* | sort -n | tail -1)" \
    "$(echo "$line" | sed 's/.*in program \([0-9.]*\) s.*/\1/')" \
    "$(echo "$line" | sed 's/.*MPI_Init \([0-9.]*\) s.*/\1/')" >> "$work/runs"
}

# best N ARGS...: the best wall time of $runs runs on N processes, the largest resident memory of
# one process (KiB), the best time in the program and the best MPI_Init
best() {
  : > "$work/runs"
  for r in $(seq "$runs"); do
    once "$@"
  done
  awk '{ if (NR == 1 || $1 < w) w = $1; if ($2 > m) m = $2
         if (NR == 1 || $3 < p) p = $3; if (NR == 1 || $4 < i) i = $4 }
       END { print w, m, p, i }' "$work/runs"
}

# The strong-scaling rows: the best of each side, and the median and the range of the pairs' own
# ratios in the program (lines of $work/runs: one process, two processes, one, two, ...)
PAIRS_SUMMARY='
function best(k,   i, b) { b = v[1, k]; for (i = 2; i <= n; i++) if (v[i, k] < b) b = v[i, k]; return b }
function most(k,   i, b) { b = v[1, k]; for (i = 2; i <= n; i++) if (v[i, k] > b) b = v[i, k]; return b }
NR % 2 == 1 { n++; for (k = 1; k <= 4; k++) v[n, k] = $k }
NR % 2 == 0 { for (k = 1; k <= 4; k++) v[n, k + 4] = $k; r[n] = $3 > 0 ? v[n, 3] / $3 : 0 }
END {
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
  med = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
  for (p = 1; p <= 2; p++) {
    o = (p - 1) * 4
    printf "  %s on %d: %.2f s (in the program %.3f s, MPI_Init %.2f s), largest process %d MiB\n", \
      cmd, p, best(o + 1), best(o + 3), best(o + 4), most(o + 2) / 1024
  }
  printf "  %s speedup at 2, best against best: whole job %.2fx, in the program %.2fx;", \
    cmd, best(1) / best(5), best(3) / best(7)
  printf " median of the %d pairs in the program %.2fx, their range %.2f-%.2fx (goal 1.7x)\n", n, \
    med, r[1], r[n]
}'

# record DIR LINES: 96 processes of miniior under the strace wrapper at once, about LINES lines
# each (half of them lseek and write/read, 4 lines a block; half pwrite/pread, 2 a block; half
# on one shared file, half on a file each); the generated set instead without ptrace
record() {
  dir=$1 lines=$2
  mkdir -p "$dir" "$work/io/ssf" "$work/io/fpp"
  if ! strace -f -o /dev/null true 2>/dev/null; then
    "$BENCH_DIR/bench_parse" --generate "$dir" 96 "$lines"
    kind="generated (ptrace is not permitted here)"
    return
  fi
  for r in $(seq 0 95); do
    mode=ssf api=lseek blocks=$((lines / 4))
    [ $((r % 2)) = 1 ] && mode=fpp
    [ $((r / 2 % 2)) = 1 ] && api=pio blocks=$((lines / 2))
    IODFG_OUTDIR=$dir IODFG_CID=$mode$api IODFG_HOST=$(printf 'node%03d' $((r / 8))) \
      "$IODFG_SRCDIR/tests/tools/strace.sh" "$MINIIOR" "$work/io" $mode $r 96 $blocks 512 $api &
  done
  wait
  rm -rf "$work/io"
  kind="recorded now"
}

# against_serial CMD ARGS...: after a row's pairs (in $work/runs), the serial iodfg on the same
# input with P threads (bound to P cores: it counts the processors it may use; convert with -j P),
# best of $runs each, against the job's best on P processes: in the program (goal: at most
# 1.25x) and the whole job (goal: at most 0.5 s more)
against_serial() {
  cmd=$1; shift
  for p in 1 2; do
    best_s=
    for r in $(seq "$runs"); do
      rm -f "$work/s.h5"
      t0=$(date +%s.%N)
      if [ "$cmd" = convert ]; then
        taskset -c 0-$((p - 1)) "$IODFG_BUILDDIR/iodfg" convert -q -j $p -o "$work/s.h5" \
          "$work/strong" >/dev/null 2>&1
      else
        taskset -c 0-$((p - 1)) "$IODFG_BUILDDIR/iodfg" "$@" >/dev/null 2>&1
      fi
      t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
      best_s=$(awk -v a="${best_s:-$t}" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
    done
    awk -v cmd="$cmd" -v p=$p -v s="$best_s" '
      NR % 2 == (p == 1 ? 1 : 0) { if (!n++ || $3 < prog) prog = $3; if (n == 1 || $1 < whole) whole = $1 }
      END { printf "  %s against iodfg with %d thread%s: iodfg %.3f s; iodfg-mpi, %d process%s, in the program %.2fx (goal 1.25x), whole job +%.2f s (goal 0.5 s)\n",
              cmd, p, (p > 1 ? "s" : ""), s, p, (p > 1 ? "es" : ""), prog / s, whole - s }' "$work/runs"
  done
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "date: $(date -u +%Y-%m-%d)"
echo "runs: $runs pairs of runs (one process, then two) per row; best of each side"
for size in 33000 100000; do
  rm -rf "$work/strong" "$work/strong.h5"
  record "$work/strong" $size
  echo "strong scaling: 96 files $kind, $(cat "$work"/strong/*.st | wc -l) lines, $(($(cat "$work"/strong/*.st | wc -c) / 1000000)) MB"
  for transport in default shm; do
    TRANSPORT=
    [ "$transport" = default ] || TRANSPORT='--mca pml ob1 --mca btl self,vader'
    echo " transport: $([ "$transport" = default ] && echo "as mpirun gives it (one node: iodfg-mpi asks for pml ob1)" || echo "shared memory, one node (ob1 + vader)")"
    for cmd in convert stats; do
      if [ "$cmd" = convert ]; then
        set -- convert -q -f -o "$work/out.h5" "$work/strong"
      else
        [ -f "$work/strong.h5" ] || "$MPI" convert -q -o "$work/strong.h5" "$work/strong"
        set -- stats --format tsv "$work/strong.h5"
      fi
      # one process, then two, in turn: both see the same state of the machine, whose speed
      # drifts from minute to minute
      : > "$work/runs"
      for r in $(seq "$runs"); do
        once 1 "$@"
        once 2 "$@"
      done
      awk -v cmd="$cmd" "$PAIRS_SUMMARY" "$work/runs"
      [ "$transport" = default ] || against_serial "$cmd" "$@"
    done
  done
done
rm -rf "$work/strong" "$work/strong.h5"
TRANSPORT=

echo "weak scaling: 8 files of 31,250 lines per process"
for n in 1 2 4; do
  rm -rf "$work/weak" && mkdir -p "$work/weak"
  "$BENCH_DIR/bench_parse" --generate "$work/weak" $((8 * n)) 31250
  r=$(best "$n" convert -q -f -o "$work/out.h5" "$work/weak")
  r=${r% * *}
  "$MPI" convert -q -f -o "$work/w.h5" "$work/weak"
  meta=$(h5stat -S "$work/w.h5" 2>/dev/null | sed -n 's/.*File metadata: *\([0-9]*\) bytes.*/\1/p')
  objs=$(h5stat -g "$work/w.h5" 2>/dev/null | sed -n 's/.*Total # of groups: *\([0-9]*\).*/\1/p')
  echo "  convert on $n: ${r%% *} s, largest process $(( ${r##* } / 1024 )) MiB, metadata ${meta:-?} bytes, ${objs:-?} groups"
done
