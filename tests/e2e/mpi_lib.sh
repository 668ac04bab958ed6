# Shared set-up of the MPI tests (sourced after lib.sh): skip without iodfg-mpi or mpirun, allow
# mpirun as root for these tests only, and run jobs with `job N ARGS...`.
IODFG_MPI=${IODFG_BUILDDIR:?}/iodfg-mpi
[ -x "$IODFG_MPI" ] || { echo "SKIP: iodfg-mpi not built (./configure --with-mpi)"; exit 77; }
MPIRUN=$(command -v mpirun || true)
[ -n "$MPIRUN" ] || { echo "SKIP: mpirun not found (Debian: openmpi-bin)"; exit 77; }
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OMPI_MCA_rmaps_base_oversubscribe=1 # more processes than cores
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_rmaps_base_oversubscribe
# one node: shared memory, named here as well as iodfg-mpi's own one-node default (pml ob1), so that
# the tests run the same transports whatever that default does (a test may still name its own
# transports with --mca)
OMPI_MCA_pml=${OMPI_MCA_pml:-ob1} OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}
export OMPI_MCA_pml OMPI_MCA_btl
# each test's jobs keep their session directory in its own temp dir: two tests starting mpirun
# at once under make -j raced for /tmp/ompi.HOST.UID ("mkdir: File exists", orte_init failed)
OMPI_MCA_orte_tmpdir_base=${T:-${TUI_TMP:?}} # e2e tests have T, TUI tests TUI_TMP
export OMPI_MCA_orte_tmpdir_base
# ASan builds: telling Open MPI's memory kept to the end (tests/lsan.supp) from leaks of
# iodfg-mpi's own needs whole stacks (the slow unwinder, four times slower) and Open MPI's
# plug-ins kept loaded to name their frames; only jobs run with JOB_LEAKS=1 check for leaks.
# Parallel HDF5 allocated and freed so much per attribute that ASan's default 256 MB quarantine
# made nearly every allocation a fresh page: 16 MB halved a job's time (a freed block still
# waits behind 16 MB of later frees before reuse). Convert no longer writes through it.
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

# Jobs are many, and each pays for mpirun, MPI_Init and the parallel HDF5 set-up, so tests queue
# them: `qjob` adds a command to one batch per process count, and `qrun` runs each batch as one
# job (iodfg-mpi batch). `same` compares a queued job with iodfg; `finish` runs what is queued.
Q=${T:-${TUI_TMP:-}}/queue
qline() { # qline NAME ARGS...: the batch line of iodfg-mpi ARGS, its output to $Q/NAME.out and
  # its messages to $Q/NAME.err
  name=$1; shift
  for a in "$@"; do
    printf "'%s' " "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"
  done
  printf ">'%s' 2>'%s'\n" "$Q/$name.out" "$Q/$name.err"
}
qjob() { # qjob N NAME ARGS...: iodfg-mpi ARGS on N processes: after qrun, its output in
  # $Q/NAME.out, its messages in $Q/NAME.err and its exit status in $Q/NAME.rc
  n=$1 name=$2; shift 2
  mkdir -p "$Q"
  qline "$name" "$@" >>"$Q/batch.$n"
  echo "$name" >>"$Q/lines.$n"
}
# Sanitizer builds (IODFG_SANITIZERS=1, set by make check) run a command that a test names at
# several process counts at one of them, in turn from one command to the next, so that every
# count still runs under ASan+UBSan; the plain build runs every command at every count. An
# instrumented process costs ten times a plain one, and these repeats were 40% of that suite.
mpi_counts() { # mpi_counts I N...: the counts to run the I-th command (from 0) at
  i=$1; shift
  if [ -z "${IODFG_SANITIZERS:-}" ]; then echo "$@"; return; fi
  shift $((i % $#))
  echo "$1"
}
qrun() { # run the queued commands: one job per process count
  for b in "$Q"/batch.*; do
    [ -f "$b" ] || continue
    n=${b##*.}
    # with Q_TIMEOUT=S: stopped after S seconds (a hang fails, not blocks)
    if [ -n "${Q_TIMEOUT:-}" ]; then
      timeout "$Q_TIMEOUT" "$MPIRUN" --oversubscribe -n "$n" "$IODFG_MPI" batch "$b" \
        >"$Q/job.$n.out" 2>"$Q/job.$n.err" || true
    else
      job "$n" batch "$b" >"$Q/job.$n.out" 2>"$Q/job.$n.err" || true
    fi
    # the batch names each line that failed: "iodfg-mpi: FILE:LINE: exit status N"
    i=0
    while read -r name; do
      i=$((i + 1))
      st=$(sed -n "s/^iodfg-mpi: .*:$i: exit status \([0-9][0-9]*\)\$/\1/p" "$Q/job.$n.err")
      [ -f "$Q/$name.out" ] || st="none (the job ended: $(head -c 300 "$Q/job.$n.err"))"
      echo "${st:-0}" >"$Q/$name.rc"
    done <"$Q/lines.$n"
    rm -f "$b" "$Q/lines.$n"
  done
}
SAME_N=0
same() { # same N SET ARGS...: the job's output, notes and exit status are iodfg's (queued)
  n=$1 set=$2; shift 2
  SAME_N=$((SAME_N + 1)); k=same$SAME_N
  mkdir -p "$Q/ref"
  # iodfg runs each command once, whatever the process counts it is compared at
  ref=$Q/ref/$({ stat -c '%y %s' "$T/$set.h5"; printf '%s\n' "$set" "$@"; } | cksum | tr ' ' _)
  if [ ! -f "$ref.rc" ]; then
    rs=0
    "$IODFG_BIN" "$@" "$T/$set.h5" >"$ref.out" 2>"$ref.err" || rs=$?
    echo "$rs" >"$ref.rc"
  fi
  if [ -n "${IODFG_SANITIZERS:-}" ]; then # which counts run is chosen in same_run
    printf '%s\t%s\t%s\t%s\n' "$k" "$ref" "$n" "$set on $n: $*" >>"$Q/same.all"
    qline "$k" "$@" "$T/$set.h5" >"$Q/$k.line"
    return
  fi
  printf '%s\t%s\t%s\n' "$k" "$ref" "$set on $n: $*" >>"$Q/same"
  qjob "$n" "$k" "$@" "$T/$set.h5"
}
same_pick() { # sanitizer builds: queue one of the counts each command was named at (mpi_counts)
  [ -f "$Q/same.all" ] || return 0
  cut -f2 "$Q/same.all" | awk '!seen[$0]++' >"$Q/same.refs"
  i=0
  while read -r ref; do
    awk -F '\t' -v r="$ref" '$2 == r' "$Q/same.all" >"$Q/same.one"
    pick=$(($(mpi_counts "$i" $(seq "$(wc -l <"$Q/same.one")")) + 0))
    sed -n "${pick}p" "$Q/same.one" | while IFS='	' read -r k r n what; do
      cat "$Q/$k.line" >>"$Q/batch.$n"
      echo "$k" >>"$Q/lines.$n"
      printf '%s\t%s\t%s\n' "$k" "$r" "$what" >>"$Q/same"
    done
    i=$((i + 1))
  done <"$Q/same.refs"
  rm -f "$Q/same.all" "$Q/same.refs" "$Q/same.one"
}
same_run() { # run the queued jobs and compare what `same` queued with iodfg's
  same_pick
  qrun
  [ -f "$Q/same" ] || return 0
  while IFS='	' read -r k ref what; do
    rs=$(cat "$ref.rc") rp=$(cat "$Q/$k.rc")
    sed 's/^iodfg-mpi: /iodfg: /' "$Q/$k.err" >"$Q/$k.p.err" 2>/dev/null # each names itself
    check "$what (exit $rs)" cmp -s "$ref.out" "$Q/$k.out"
    check "$what: the same notes" cmp -s "$ref.err" "$Q/$k.p.err"
    [ "$rs" = "$rp" ] || fail "$what: exit $rp, iodfg exits $rs"
  done <"$Q/same"
  rm -rf "$Q/same" "$Q/ref"
}
before_finish=same_run
