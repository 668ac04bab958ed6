#!/bin/sh
# Run the libFuzzer targets, FUZZ_JOBS at a time (default: the processors), each for FUZZ_SECONDS on seeds taken from
# tests/data (and tests/fuzz/corpus), keeping what they find interesting in fuzz-corpus/NAME.
# `make fuzz-smoke` (CI: a few seconds each) and `make fuzz` (longer) call it; FUZZ_TARGETS
# limits it to some targets. Exit 1 when a target finds a crash, a leak or a broken invariant
# (its reproducer is left in fuzz-crashes/).
# Environment: IODFG_SRCDIR, IODFG_BUILDDIR, FUZZ_SECONDS, FUZZ_TARGETS, FUZZ_JOBS, FUZZ_NICE (a
# prefix such as "nice -n 19").
set -eu
: "${IODFG_SRCDIR:?}" "${IODFG_BUILDDIR:?}"
secs=${FUZZ_SECONDS:-5}
targets=${FUZZ_TARGETS:-strace rules csvlog store thresholds counters theme session otf2}
S=$IODFG_SRCDIR
B=$IODFG_BUILDDIR
D=$S/tests/data
seeds=$(mktemp -d "${TMPDIR:-/tmp}/iodfg-seeds.XXXXXX")
trap 'rm -rf "$seeds"' EXIT
# libotf2's and HDF5's own leaks on damaged input are not findings (tests/lsan.supp says which)
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=1"
export LSAN_OPTIONS="suppressions=$S/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export IODFG_TEST_DATA="$D"

# seeds NAME: the seed directory of a target, filled from tests/data
seed_dir() {
  d=$seeds/$1
  mkdir -p "$d"
  case $1 in
  strace) cp "$S"/tests/fuzz/corpus/strace/* "$d/" ;;
  rules) cp "$D"/rules/*.rules "$d/" ;;
  session) cp "$S"/tests/fuzz/corpus/session/* "$d/" ;;
  counters) cp "$D"/counters/*.csv "$d/" ;;
  theme) cp "$S"/themes/*.theme "$D"/themes/bad/*.theme "$d/" ;;
  csvlog)
    for t in paper ior formats; do
      "$B/iodfg" export -q --format csv -o "$d/$t.csv" "$D/traces/$t" 2>/dev/null || true
    done ;;
  store)
    cp "$D"/store/*.h5 "$d/"
    "$B/iodfg" convert -q -o "$d/paper.h5" "$D/traces/paper" 2>/dev/null || true ;;
  thresholds)
    "$B/iodfg" insights --list 2>/dev/null |
      sed -n '/^thresholds:/,/^rule presets/p' | sed '1d;$d;s/^  //' >"$d/defaults" || true ;;
  otf2) # the selector byte (which file of the archive), then the file
    i=0
    for a in iomix ior_posix; do
      for f in traces.def traces/0.def traces/0.evt; do
        k=$(( i % 3 ))
        # shellcheck disable=SC2059 # the selector byte, in octal
        { printf "\\$k"; cat "$D/otf2/$a/$f"; } >"$d/$a-$k"
        i=$((i + 1))
      done
    done ;;
  esac
  echo "$d"
}

# run_target NAME: one target; its report in fuzz-NAME.report, its exit status in fuzz-NAME.rc
run_target() {
  t=$1
  bin=$B/tests/fuzz/fuzz_$t
  if [ ! -x "$bin" ]; then
    echo "fuzz $t: not built (OTF2 needs libotf2; all need --enable-fuzzing)" >"$B/fuzz-$t.report"
    echo 0 >"$B/fuzz-$t.rc"
    return 0
  fi
  corpus=$B/fuzz-corpus/$t
  mkdir -p "$corpus"
  s=$(seed_dir "$t")
  # inputs of text formats stay small: many more runs a second than at libFuzzer's 4 KiB
  # growing to a megabyte (the seeds, logs and archives are larger and kept whole)
  case $t in csvlog | rules | thresholds | counters | theme | session) len=-max_len=8192 ;; *) len= ;; esac
  # libotf2 allocates what a damaged file's counts ask for (16 and 32 GB seen), then fails on
  # the records that are not there (iodfg outside ASan: 10 MB, exit 1). A malloc over 2 GiB
  # returns NULL, as on a machine without the memory ('This could not be done with the given
  # memory'), instead of ASan filling 2 GB of shadow for it (69 s) or aborting
  asan=$ASAN_OPTIONS
  case $t in otf2) asan="$asan:allocator_may_return_null=1:max_allocation_size_mb=2048" ;; esac
  rc=0
  # shellcheck disable=SC2086
  ASAN_OPTIONS=$asan ${FUZZ_NICE:-} "$bin" $len -max_total_time="$secs" -timeout=20 -rss_limit_mb=2560 \
    -print_final_stats=1 -artifact_prefix="$B/fuzz-crashes/$t-" "$corpus" "$s" \
    >"$B/fuzz-$t.log" 2>&1 || rc=$?
  {
    echo "fuzz $t: $secs s"
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb)|^#[0-9]+.*DONE' "$B/fuzz-$t.log" |
      sed "s/^/  /" || true
    grep -E '^#[0-9]+' "$B/fuzz-$t.log" | tail -1 | sed "s/^/  last: /" || true
    if [ "$rc" -ne 0 ]; then
      echo "FAIL: fuzz $t (exit $rc): see $B/fuzz-$t.log and fuzz-crashes/"
      tail -30 "$B/fuzz-$t.log"
    fi
  } >"$B/fuzz-$t.report"
  echo "$rc" >"$B/fuzz-$t.rc"
}

# the targets are single-threaded: FUZZ_JOBS (default: the processors) of them run side by
# side, each lane taking every FUZZ_JOBS-th target in turn
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
mkdir -p "$B/fuzz-crashes"
lane=0
while [ "$lane" -lt "$jobs" ]; do
  (
    i=0
    for t in $targets; do
      [ $((i % jobs)) -eq "$lane" ] && run_target "$t"
      i=$((i + 1))
    done
  ) &
  lane=$((lane + 1))
done
wait
fails=0
for t in $targets; do
  cat "$B/fuzz-$t.report"
  [ "$(cat "$B/fuzz-$t.rc")" -eq 0 ] || fails=$((fails + 1))
  rm -f "$B/fuzz-$t.report" "$B/fuzz-$t.rc"
done
[ "$fails" -eq 0 ]
