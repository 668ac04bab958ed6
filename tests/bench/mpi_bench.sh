#!/bin/sh
# make bench-mpi: iodfg-mpi's scaling on this machine. Strong scaling: convert and stats of one
# generated IOR-like set of over 3 M lines at 1 and 2 processes (the goal: 1.7x at 2 on two
# cores). Weak scaling: 250,000 lines per process at 1, 2 and 4 processes (4 oversubscribed on
# two cores): time, the largest resident memory of one process, the log's metadata (HDF5
# objects, bytes of metadata per h5stat). Timings taken while other work runs are not figures.
set -eu
: "${IODFG_BUILDDIR:?}" "${BENCH_DIR:?}"
MPI=$IODFG_BUILDDIR/iodfg-mpi
runs=${RUNS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/iodfg-bench-mpi.XXXXXX")
trap 'rm -rf "$work"' EXIT
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM

# best N ARGS...: the best wall time of $runs runs of iodfg-mpi ARGS on N processes, and the
# largest resident memory of one process (KiB)
best() {
  n=$1; shift
  b=
  for r in $(seq "$runs"); do
    rm -f "$work"/rss.* "$work/out.h5"
    t0=$(date +%s.%N)
    mpirun --oversubscribe -n "$n" sh -c \
      '/usr/bin/time -f %M -o "$0/rss.$OMPI_COMM_WORLD_RANK" "$@"' "$work" "$MPI" "$@" \
      >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    b=$(awk -v a="$b" -v t="$t" 'BEGIN { print (a == "" || t + 0 < a + 0) ? t : a }')
  done
  rss=$(cat "$work"/rss.* | sort -n | tail -1)
  echo "$b $rss"
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "runs: best of $runs"
mkdir -p "$work/strong"
"$BENCH_DIR/bench_parse" --generate "$work/strong" 96 32000
echo "strong scaling: 96 files, $(cat "$work"/strong/*.st | wc -l) lines, $(($(cat "$work"/strong/*.st | wc -c) / 1000000)) MB"
for cmd in convert stats; do
  for n in 1 2; do
    if [ "$cmd" = convert ]; then
      set -- convert -q -f -o "$work/out.h5" "$work/strong"
    else
      [ -f "$work/strong.h5" ] || "$MPI" convert -q -o "$work/strong.h5" "$work/strong"
      set -- stats --format tsv "$work/strong.h5"
    fi
    r=$(best "$n" "$@")
    eval "t_${cmd}_$n=\${r%% *}"
    echo "  $cmd on $n: ${r%% *} s, largest process $(( ${r##* } / 1024 )) MiB"
  done
done
echo "  speedup at 2: convert $(awk -v a="$t_convert_1" -v b="$t_convert_2" 'BEGIN { printf "%.2f", a / b }')x, stats $(awk -v a="$t_stats_1" -v b="$t_stats_2" 'BEGIN { printf "%.2f", a / b }')x (goal 1.7x)"

echo "weak scaling: 8 files of 31,250 lines per process"
for n in 1 2 4; do
  rm -rf "$work/weak" && mkdir -p "$work/weak"
  "$BENCH_DIR/bench_parse" --generate "$work/weak" $((8 * n)) 31250
  r=$(best "$n" convert -q -f -o "$work/out.h5" "$work/weak")
  "$MPI" convert -q -f -o "$work/w.h5" "$work/weak"
  meta=$(h5stat -S "$work/w.h5" 2>/dev/null | sed -n 's/.*File metadata: *\([0-9]*\) bytes.*/\1/p')
  objs=$(h5stat -g "$work/w.h5" 2>/dev/null | sed -n 's/.*Total # of groups: *\([0-9]*\).*/\1/p')
  echo "  convert on $n: ${r%% *} s, largest process $(( ${r##* } / 1024 )) MiB, metadata ${meta:-?} bytes, ${objs:-?} groups"
done
