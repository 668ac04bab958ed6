#!/bin/sh
# iodfg-mpi convert of a set whose processes hold several /events chunks each (65,536 rows a
# chunk; the other processes code their whole chunks and send them to process 0, which writes
# them with the rows of the chunks two processes share): on 2 and 3 processes the log holds what
# the serial convert writes (h5diff), its columns are stored as the serial writer stores them
# (chunks, filters and sizes, per h5dump), and the serial iodfg reads the same statistics.
. "${IODFG_SRCDIR:?}/tests/e2e/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/mpi_lib.sh"
command -v h5diff >/dev/null || { echo "SKIP: h5diff not found (Debian: hdf5-tools)"; exit 77; }
command -v h5dump >/dev/null || { echo "SKIP: h5dump not found (Debian: hdf5-tools)"; exit 77; }
# 6 files of 60,000 calls: 360,000 rows, 5.5 chunks; a process's part starts inside a chunk
"$IODFG_SRCDIR/tests/tools/gen_cases.sh" "$T/big" 6 60000
"$IODFG_BIN" convert -q -o "$T/big.h5" "$T/big"
"$IODFG_BIN" convert -q --case-views -o "$T/views.h5" "$T/big"
h5dump -p -H -g /events "$T/big.h5" | sed 1d >"$T/layout"
"$IODFG_BIN" stats --format tsv "$T/big.h5" >"$T/stats" 2>/dev/null
for n in 2 3; do
  rc=0
  job "$n" convert -q -o "$T/big-$n.h5" "$T/big" 2>"$T/err" || rc=$?
  check "on $n: exit 0 (exit $rc)" [ "$rc" -eq 0 ]
  check "on $n: h5diff finds no difference" h5diff "$T/big.h5" "$T/big-$n.h5"
  h5dump -p -H -g /events "$T/big-$n.h5" | sed 1d >"$T/layout-$n"
  check "on $n: the columns' chunks, filters and sizes are the serial writer's" \
    cmp -s "$T/layout" "$T/layout-$n"
  "$IODFG_BIN" stats --format tsv "$T/big-$n.h5" >"$T/stats-$n" 2>/dev/null
  check "on $n: the serial iodfg reads the same statistics" cmp -s "$T/stats" "$T/stats-$n"
done
JOB_LEAKS=1 job 2 convert -q --case-views -o "$T/views-2.h5" "$T/big" 2>"$T/err"
check "case views on 2: h5diff finds no difference" h5diff "$T/views.h5" "$T/views-2.h5"
finish
