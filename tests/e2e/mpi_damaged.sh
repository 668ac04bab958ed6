#!/bin/sh
# Damaged input given to iodfg-mpi ends as it ends in iodfg: 24 copies of a recorded log with
# bits flipped, cut short or a block zeroed (stats, dfg and characterize on 2 processes), and 8
# sets of recorded traces with bytes overwritten and files cut short (convert on 3 processes,
# with and without --strict), and a directory with a FIFO and a dangling link named like traces.
# Each job gives iodfg's exit status, output and first message (naming the file and what is
# wrong) within a time limit, and a converted log holds iodfg's statistics. The damage is the
# same at every run (tests/tools/damage.py, by seed).
. "${IODFG_SRCDIR:?}/tests/e2e/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/mpi_lib.sh"
D=$IODFG_TEST_DATA/traces
damage() { "$PY" "$IODFG_SRCDIR/tests/tools/damage.py" "$@"; }
limited() { # limited N ARGS...: job N ARGS, stopped after 120 s (a hang fails, not blocks)
  n=$1; shift
  timeout 120 "$MPIRUN" --oversubscribe -n "$n" "$IODFG_MPI" "$@"
}
first() { head -n 1 "$1" | sed 's/^iodfg-mpi: /iodfg: /'; }

"$IODFG_BIN" convert -q -o "$T/ior.h5" "$D/ior"
# the jobs of each part run as one batch (one job, iodfg-mpi batch; Q_TIMEOUT: a hang fails): a
# damaged log must not leave the next command of the same processes anything either
Q_TIMEOUT=600
failed=0
for seed in $(seq 1 24); do
  c=$(echo "stats dfg characterize" | cut -d' ' -f$((seed % 3 + 1)))
  damage file "$seed" "$T/ior.h5" "$T/bad$seed.h5" >"$T/how$seed"
  rs=0
  "$IODFG_BIN" "$c" "$T/bad$seed.h5" >"$T/s$seed.out" 2>"$T/s$seed.err" || rs=$?
  echo "$rs" >"$T/rs$seed"
  [ "$rs" -eq 0 ] || failed=$((failed + 1))
  qjob 2 "log$seed" "$c" "$T/bad$seed.h5"
done
qrun
for seed in $(seq 1 24); do
  c=$(echo "stats dfg characterize" | cut -d' ' -f$((seed % 3 + 1)))
  rs=$(cat "$T/rs$seed")
  what="log damaged by seed $seed ($(cat "$T/how$seed")), $c"
  check "$what: exit $rs as iodfg" [ "$(cat "$Q/log$seed.rc")" = "$rs" ]
  check "$what: the same output" cmp -s "$T/s$seed.out" "$Q/log$seed.out"
  check "$what: the same first message" [ "$(first "$T/s$seed.err")" = "$(first "$Q/log$seed.err")" ]
done
# most damage is found (HDF5's checksums, the log's own checks); the rest reads as a log
check "most damaged logs are refused ($failed of 24)" [ "$failed" -ge 12 ]

for seed in $(seq 1 8); do
  damage dir "$seed" "$D/ior" "$T/tr$seed"
  strict=
  [ $((seed % 2)) -eq 0 ] || strict=--strict
  rs=0
  "$IODFG_BIN" convert $strict -o "$T/s$seed.h5" "$T/tr$seed" >"$T/s$seed.out" 2>"$T/s$seed.err" || rs=$?
  echo "$rs" >"$T/rs$seed"
  qjob 3 "tr$seed" convert $strict -o "$T/p$seed.h5" "$T/tr$seed"
done
qrun
for seed in $(seq 1 8); do
  strict=
  [ $((seed % 2)) -eq 0 ] || strict=--strict
  rs=$(cat "$T/rs$seed")
  what="traces damaged by seed $seed, convert ${strict:-without --strict}"
  check "$what: exit $rs as iodfg" [ "$(cat "$Q/tr$seed.rc")" = "$rs" ]
  check "$what: the same summary" [ "$(first "$T/s$seed.out")" = "$(first "$Q/tr$seed.out")" ]
  if [ -e "$T/s$seed.h5" ]; then
    "$IODFG_BIN" stats --format tsv "$T/s$seed.h5" >"$T/s.tsv"
    "$IODFG_BIN" stats --format tsv "$T/p$seed.h5" >"$T/p.tsv" 2>&1 || true
    check "$what: the log's statistics" cmp -s "$T/s.tsv" "$T/p.tsv"
  else
    check "$what: no log, as from iodfg" [ ! -e "$T/p$seed.h5" ]
  fi
done

# entries named like traces that are not regular files (a FIFO would block a reader): skipped,
# counted in the same note as iodfg's
mkdir "$T/special"
cp "$D/ior/fpp_node1_14745.st" "$D/ior/fpp_node1_14746.st" "$T/special/"
mkfifo "$T/special/fifo_node1_1.st"
ln -s "$T/nowhere" "$T/special/gone_node1_2.st"
"$IODFG_BIN" convert -o "$T/s.h5" "$T/special" >"$T/s.out" 2>"$T/s.err"
rp=0
limited 2 convert -o "$T/p.h5" "$T/special" >"$T/p.out" 2>"$T/p.err" || rp=$?
check "special files: converted on 2 processes" [ "$rp" -eq 0 ]
check "special files: the same summary" [ "$(first "$T/s.out")" = "$(first "$T/p.out")" ]
check "special files: the same note" [ "$(first "$T/s.err")" = "$(first "$T/p.err")" ]
check "special files: the note counts them" grep -q "skipped 2 entries named like a trace" "$T/p.err"
finish
