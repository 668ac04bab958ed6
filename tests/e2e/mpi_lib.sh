# Shared set-up of the MPI tests (sourced after lib.sh): skip without iodfg-mpi or mpirun, allow
# mpirun as root for these tests only, and run jobs with `job N ARGS...`.
IODFG_MPI=${IODFG_BUILDDIR:?}/iodfg-mpi
[ -x "$IODFG_MPI" ] || { echo "SKIP: iodfg-mpi not built (./configure --with-mpi)"; exit 77; }
MPIRUN=$(command -v mpirun || true)
[ -n "$MPIRUN" ] || { echo "SKIP: mpirun not found (Debian: openmpi-bin)"; exit 77; }
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OMPI_MCA_rmaps_base_oversubscribe=1 # more processes than cores
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_rmaps_base_oversubscribe
# one node: shared memory, not UCX, whose probing of the network adds about 0.3 s to each job
# (a test may still name its own transports with --mca)
OMPI_MCA_pml=${OMPI_MCA_pml:-ob1} OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}
export OMPI_MCA_pml OMPI_MCA_btl
# each test's jobs keep their session directory in its own temp dir: two tests starting mpirun
# at once under make -j raced for /tmp/ompi.HOST.UID ("mkdir: File exists", orte_init failed)
OMPI_MCA_orte_tmpdir_base=${T:-${TUI_TMP:?}} # e2e tests have T, TUI tests TUI_TMP
export OMPI_MCA_orte_tmpdir_base
# ASan builds: telling Open MPI's memory kept to the end (tests/lsan.supp) from leaks of
# iodfg-mpi's own needs whole stacks (the slow unwinder, four times slower) and Open MPI's
# plug-ins kept loaded to name their frames; only jobs run with JOB_LEAKS=1 check for leaks.
# Parallel HDF5 allocates and frees so much per attribute that ASan's default 256 MB quarantine
# makes nearly every allocation a fresh page: 16 MB halves a job's time (a freed block still
# waits behind 16 MB of later frees before reuse).
ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=16
LEAK_ASAN=detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0:quarantine_size_mb=16
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0
OMPI_MCA_mca_base_component_disable_dlclose=1 PMIX_MCA_mca_base_component_disable_dlclose=1
export ASAN_OPTIONS LSAN_OPTIONS OMPI_MCA_mca_base_component_disable_dlclose
export PMIX_MCA_mca_base_component_disable_dlclose
job() { # job N ARGS...: iodfg-mpi ARGS on N processes (with JOB_ENV=NAME=VALUE, set for them;
  # with JOB_LEAKS=1, checked for leaks in ASan builds)
  n=$1; shift
  "$MPIRUN" --oversubscribe ${JOB_ENV:+-x "$JOB_ENV"} ${JOB_LEAKS:+-x "ASAN_OPTIONS=$LEAK_ASAN"} \
    -n "$n" "$IODFG_MPI" "$@"
}
mpi_logs() { # the logs the analysis tests compare: $T/ior.h5, paper, formats, char and many
  # (a generated set of 10,000 small cases)
  "$IODFG_SRCDIR/tests/tools/gen_cases.sh" "$T/many" 10000
  for set in ior paper formats char; do
    "$IODFG_BIN" convert -q -o "$T/$set.h5" "$IODFG_TEST_DATA/traces/$set"
  done
  "$IODFG_BIN" convert -q -o "$T/many.h5" "$T/many"
}

# `same` compares a job with iodfg. Jobs are many and each pays for mpirun, MPI_Init and the
# parallel HDF5 set-up, so they are queued: iodfg runs at once, and `same_run` (which finish
# calls) runs every queued command of one process count in one job (iodfg-mpi batch).
SAME_N=0
same() { # same N SET ARGS...: the job's output, notes and exit status are iodfg's (queued)
  n=$1 set=$2; shift 2
  SAME_N=$((SAME_N + 1)); k=$SAME_N; q=$T/same-queue
  mkdir -p "$q"
  rs=0
  "$IODFG_BIN" "$@" "$T/$set.h5" >"$q/$k.s.out" 2>"$q/$k.s.err" || rs=$?
  printf '%s\t%s\t%s\t%s\n' "$k" "$n" "$rs" "$set on $n: $*" >>"$q/list"
  for a in "$@" "$T/$set.h5"; do
    printf "'%s' " "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"
  done >>"$q/batch.$n"
  printf ">'%s' 2>'%s'\n" "$q/$k.p.out" "$q/$k.p.raw" >>"$q/batch.$n"
  echo "$k" >>"$q/lines.$n"
}
same_run() { # run the queued commands: a job per process count, then compare each with iodfg's
  q=$T/same-queue
  [ -f "$q/list" ] || return 0
  for b in "$q"/batch.*; do
    n=${b##*.}
    job "$n" batch "$b" >"$q/job.$n.out" 2>"$q/job.$n.err" || true
    # "iodfg-mpi: FILE:LINE: exit status N" for each line that failed: line -> k, status
    sed -n 's/^iodfg-mpi: .*:\([0-9][0-9]*\): exit status \([0-9][0-9]*\)$/\1 \2/p' \
      "$q/job.$n.err" | while read -r line st; do
      echo "$(sed -n "${line}p" "$q/lines.$n") $st"
    done >"$q/status.$n"
  done
  while IFS='	' read -r k n rs what; do
    rp=$(awk -v k="$k" '$1 == k { print $2 }' "$q/status.$n")
    if [ ! -f "$q/$k.p.out" ]; then
      fail "$what: the job wrote no output (job.$n.err: $(head -c 300 "$q/job.$n.err"))"
      continue
    fi
    sed 's/^iodfg-mpi: /iodfg: /' "$q/$k.p.raw" >"$q/$k.p.err" # each program names itself
    check "$what (exit $rs)" cmp -s "$q/$k.s.out" "$q/$k.p.out"
    check "$what: the same notes" cmp -s "$q/$k.s.err" "$q/$k.p.err"
    [ "$rs" -eq "${rp:-0}" ] || fail "$what: exit ${rp:-0}, iodfg exits $rs"
  done <"$q/list"
  rm -rf "$q"
  SAME_N=0
}
before_finish=same_run
