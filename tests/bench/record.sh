#!/bin/sh
# SPDX-License-Identifier: MIT
# The traces of `make bench`: a real program run now under the paper's strace wrapper
# (tests/tools/strace.sh: strace -f -tt -T -y, one file per process), about BENCH_LINES lines
# (3,300,000) in all, written to DIR:
#   - IODFG_IOR=PATH: that IOR binary (yours: the bench never builds IOR), BENCH_PROCS ranks
#     (8) under mpirun, with BENCH_IOR_ARGS (default: POSIX, write then read back 100 MiB a rank
#     in 1 KiB transfers, about 400,000 lines a rank);
#   - else tests/tools/miniior (IODFG_MINIIOR), BENCH_PROCS processes (32) at once, as the
#     ranks of a job: half on one shared file, half on a file each, half with lseek then
#     write/read, half with pwrite/pread, 512-byte blocks (as make bench-mpi records);
#   - BENCH_TRACES=DIR: the traces there (a directory of .st files) instead of recording.
# Where ptrace is not permitted, a generated IOR-like set of the same size stands in and the
# last line says so. Prints "traces: WHAT" last.
#   record.sh DIR
set -eu
dir=${1:?usage: record.sh DIR}
lines=${BENCH_LINES:-3300000}
if [ -n "${BENCH_TRACES:-}" ]; then
  ln -s "$(cd "$BENCH_TRACES" && pwd)" "$dir"
  echo "traces: given (BENCH_TRACES=$BENCH_TRACES)"
  exit 0
fi
mkdir -p "$dir"
io=$(mktemp -d "${TMPDIR:-/tmp}/iodfg-record.XXXXXX")
trap 'rm -rf "$io"' EXIT
wrap=${IODFG_SRCDIR:?}/tests/tools/strace.sh
if ! strace -f -o /dev/null true 2>/dev/null; then
  "${BENCH_DIR:?}/bench_parse" --generate "$dir" 8 $((lines / 8))
  echo "traces: generated IOR-like (ptrace is not permitted here: no real program recorded)"
  exit 0
fi
t0=$(date +%s)
if [ -n "${IODFG_IOR:-}" ]; then
  procs=${BENCH_PROCS:-8}
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
  # shellcheck disable=SC2086
  (cd "$io" && IODFG_CID=ior IODFG_HOST=node1 IODFG_OUTDIR="$dir" \
    mpirun --oversubscribe -n "$procs" sh "$wrap" "$IODFG_IOR" \
    ${BENCH_IOR_ARGS:--a POSIX -w -r -C -e -b 100m -t 1k -s 1} -o "$io/test" >"$io/ior.out" 2>&1) ||
    { cat "$io/ior.out" >&2; exit 1; }
  what="IOR ($IODFG_IOR ${BENCH_IOR_ARGS:--a POSIX -w -r -C -e -b 100m -t 1k -s 1}), $procs ranks under mpirun"
else
  procs=${BENCH_PROCS:-32}
  per=$((lines / procs))
  mkdir -p "$io/ssf" "$io/fpp"
  for r in $(seq 0 $((procs - 1))); do
    mode=ssf api=lseek blocks=$((per / 4))
    [ $((r % 2)) = 1 ] && mode=fpp
    [ $((r / 2 % 2)) = 1 ] && api=pio blocks=$((per / 2))
    IODFG_OUTDIR=$dir IODFG_CID=$mode$api IODFG_HOST=$(printf 'node%03d' $((r / 8))) \
      sh "$wrap" "${IODFG_MINIIOR:?}" "$io" $mode "$r" "$procs" $blocks 512 $api &
  done
  wait
  # wait does not say how each ended: every trace must end with the process's normal exit
  for f in "$dir"/*.st; do
    tail -1 "$f" | grep -q '+++ exited with 0 +++' || { echo "record.sh: $f: miniior failed" >&2; exit 1; }
  done
  what="tests/tools/miniior, $procs processes at once"
fi
echo "recorded in $(($(date +%s) - t0)) s"
echo "traces: recorded now ($what, under tests/tools/strace.sh)"
