#!/bin/sh
# iodfg-mpi convert on 1, 2 and 4 processes writes ONE event log holding what the serial convert
# writes (every dataset and attribute, compared with h5diff), which the serial iodfg reads
# (its info and statistics of both logs are the same); failures leave no file.
. "${IODFG_SRCDIR:?}/tests/e2e/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/mpi_lib.sh"
D=$IODFG_TEST_DATA/traces
command -v h5diff >/dev/null || { echo "SKIP: h5diff not found (Debian: hdf5-tools)"; exit 77; }
"$IODFG_SRCDIR/tests/tools/gen_cases.sh" "$T/many" 10000

same_log() { # same_log NAME SERIAL PARALLEL
  check "$1: h5diff finds no difference" h5diff "$2" "$3"
  # the same but for the log's own name
  "$IODFG_BIN" info --json --cases 0 "$2" 2>/dev/null | sed "s|$2|LOG|g" >"$T/i1"
  "$IODFG_BIN" info --json --cases 0 "$3" 2>/dev/null | sed "s|$3|LOG|g" >"$T/i2"
  check "$1: the serial iodfg reads the same log (info)" cmp -s "$T/i1" "$T/i2"
  "$IODFG_BIN" stats --format json --transitions "$2" 2>/dev/null | sed "s|$2|LOG|g" >"$T/s1"
  "$IODFG_BIN" stats --format json --transitions "$3" 2>/dev/null | sed "s|$3|LOG|g" >"$T/s2"
  check "$1: the serial iodfg reads the same log (stats)" cmp -s "$T/s1" "$T/s2"
}

# the converts of each process count run as one job (iodfg-mpi batch); sanitizer builds run
# each set at one of the counts (mpi_counts): the 10,000 cases on 2
i=1
for set in ior paper formats many; do
  in=$D/$set
  [ "$set" = many ] && in=$T/many
  "$IODFG_BIN" convert -q -o "$T/$set.h5" "$in"
  mpi_counts "$i" 1 2 4 >"$T/counts.$set"
  i=$((i + 1))
  for n in $(cat "$T/counts.$set"); do
    qjob "$n" "$set-$n" convert -q -o "$T/$set-$n.h5" "$in"
  done
done
qrun
for set in ior paper formats many; do
  for n in $(cat "$T/counts.$set"); do
    check "$set on $n: exit 0" [ "$(cat "$Q/$set-$n.rc")" = 0 ]
    same_log "$set on $n" "$T/$set.h5" "$T/$set-$n.h5"
  done
done
# more processes than trace files: three of four have no events and no handles to write
mkdir "$T/one" && cp "$D/ior/$(ls "$D/ior" | grep '\.st$' | head -1)" "$T/one/"
"$IODFG_BIN" convert -q -o "$T/one.h5" "$T/one"
job 4 convert -q -o "$T/one-4.h5" "$T/one" 2>"$T/err"
same_log "one trace file on 4 processes" "$T/one.h5" "$T/one-4.h5"
# --name-pattern with directories, --case-views (virtual datasets), a summary like iodfg's
"$IODFG_BIN" convert -q --case-views -o "$T/dirs.h5" --name-pattern '{cid}/stio.{rid}.{host}.juwels.st' "$D/dirs"
JOB_LEAKS=1 job 2 convert --case-views -o "$T/dirs-2.h5" --name-pattern '{cid}/stio.{rid}.{host}.juwels.st' "$D/dirs" >"$T/out" 2>/dev/null
same_log "dirs with a name pattern and case views" "$T/dirs.h5" "$T/dirs-2.h5"
check "the summary counts every process's files" grep -q "^Read 4 trace files" "$T/out"
check "the closing line names the log" grep -q "^Wrote $T/dirs-2.h5: 4 cases" "$T/out"

# failures: an existing output, a file that cannot be read on one process, bad options
rc=0
job 2 convert -q -o "$T/ior-2.h5" "$D/ior" 2>"$T/err" || rc=$?
check "an existing output without --force fails (exit 1)" [ "$rc" -eq 1 ]
check "and says so" grep -q "file exists (use --force to overwrite)" "$T/err"
# refused before any trace is read, as by iodfg convert (the phase table names the phases run)
rc=0
JOB_ENV=IODFG_MPI_PHASES=1 job 2 convert -q -o "$T/ior-2.h5" "$D/ior" 2>"$T/err" || rc=$?
check "an existing output is refused before the parse" [ "$rc" -eq 1 ]
check "the phases show no parse" sh -c "grep -q '^list, mounts' '$T/err' && ! grep -q '^parse' '$T/err'"
rc=0
JOB_ENV=IODFG_MPI_PHASES=1 job 2 convert -q -o "$T/nodir/x.h5" "$D/ior" 2>"$T/err" || rc=$?
check "an output in a missing directory fails (exit 1)" [ "$rc" -eq 1 ]
check "naming it" grep -q "$T/nodir/" "$T/err"
check "before the parse" sh -c "grep -q '^list, mounts' '$T/err' && ! grep -q '^parse' '$T/err'"
# an input that does not exist: a clean exit 1 naming it, not an MPI abort
rc=0
job 2 convert -q -o "$T/none.h5" "$T/no-such-dir" 2>"$T/err" || rc=$?
check "a missing input fails the job (exit 1)" [ "$rc" -eq 1 ]
check "naming it" grep -q "no-such-dir: cannot open" "$T/err"
check "without an MPI error" sh -c "! grep -q 'MPI_ERR' '$T/err'"
check "leaving no log" [ ! -e "$T/none.h5" ]
mkdir "$T/bad" && cp "$D"/ior/*.st "$T/bad/" && chmod 000 "$T/bad/ssf_node1_14732.st"
if [ "$(id -u)" -ne 0 ]; then
  rc=0
  job 4 convert -q -o "$T/bad.h5" "$T/bad" 2>"$T/err" || rc=$?
  check "an unreadable trace fails the job (exit 1)" [ "$rc" -eq 1 ]
  check "naming the file" grep -q "ssf_node1_14732.st" "$T/err"
  check "leaving no log and no temporary file" [ -z "$(ls -A "$T" | grep '^\.\?bad.*h5')" ]
fi
printf '%s\n' 'not a trace at all' >"$T/bad/zz_x_1.st"
chmod 644 "$T/bad/ssf_node1_14732.st"
rc=0
JOB_LEAKS=1 job 2 convert -q --strict -o "$T/strict.h5" "$T/bad" 2>"$T/err" || rc=$?
check "--strict with an unparsable line exits 3" [ "$rc" -eq 3 ]
rc=0
job 2 convert --no-such-option "$D/ior" 2>"$T/err" || rc=$?
check "a bad option is a usage error (exit 2)" [ "$rc" -eq 2 ]
check "said once" [ "$(grep -c 'unrecognized option' "$T/err")" -eq 1 ]
# No room for the log (a file size limit for the processes alone stands in for a full file
# system; TCP between them, as Open MPI's shared memory needs files of its own): the job checks
# for room before parallel HDF5 writes, which waited forever for a process whose write failed.
mkdir "$T/small"
rc=0
timeout 120 "$MPIRUN" --oversubscribe --mca btl self,tcp -n 2 sh -c \
  'trap "" XFSZ; ulimit -f 64; exec "$0" "$@"' "$IODFG_MPI" convert -q -o "$T/small/x.h5" \
  "$D/ior" 2>"$T/err" || rc=$?
check "no room for the log: the job ends with exit 1 (exit $rc)" [ "$rc" -eq 1 ]
check "saying so, naming the log" grep -q "small/x.h5: no room for the event log" "$T/err"
check "leaving no log and no temporary file" [ -z "$(ls -A "$T/small")" ]
# An output that is one of the traces is never replaced, --force or not
mkdir "$T/same" && cp "$D"/ior/*.st "$T/same/"
first=$(ls "$T/same" | head -n 1)
cp "$T/same/$first" "$T/orig.st"
rc=0
job 2 convert -q -f -o "$T/same/$first" "$T/same" 2>"$T/err" || rc=$?
check "an output that is one of the traces is refused with --force (exit $rc)" [ "$rc" -eq 1 ]
check "saying so" grep -q "the output is also an input: not replaced" "$T/err"
check "the trace is intact" cmp "$T/same/$first" "$T/orig.st"
finish
