# SPDX-License-Identifier: MIT
# Benchmark rows for strace -k stacks (issue: call sites): convert's speed per input line and the
# log's bytes per event, with and without stacks, on the same events: the recorded program of
# tests/tools/callsites.c (tests/data/traces/callsites: recorded once with -k, once without; 336
# events each) copied BENCH_STACK_COPIES times (each copy a file, a case). Goals: with stacks,
# lines per CPU-second within 2x of those without; the log grows by at most 4 bytes per event
# beyond its unique stacks (the /stacks tables but event_stack, as h5ls counts their storage;
# the frames' strings in /strings count as growth).
# Two measures per line: bench_parse's parser + event log (one thread, the parse alone), and
# convert -j 1 end to end (its CPU time; 336 events a case, so the per-case work of the HDF5
# writer weighs more than in the main convert row). Sourced by run.sh (`make bench`), or run
# alone (`make bench-stacks`) with IODFG_BIN, BENCH_DIR and IODFG_SRCDIR set: it then prints
# its own summary.
: "${IODFG_BIN:?}" "${IODFG_SRCDIR:?}"
if [ -z "${summary:-}" ]; then # alone: what run.sh otherwise gives
  set -eu
  runs=${BENCH_RUNS:-5}
  work=$(mktemp -d "${TMPDIR:-/tmp}/iodfg-bench.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  summary=$work/summary
  : >"$summary"
  . "$IODFG_SRCDIR/tests/bench/bench_lib.sh"
  stacks_alone=1
  echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg) at the start"
fi
copies=${BENCH_STACK_COPIES:-200}
src=$IODFG_SRCDIR/tests/data/traces/callsites
echo "--- strace -k: convert -j 1 with and without stacks, $copies copies of the recorded program"
for kind in stacks plain; do
  mkdir -p "$work/k_$kind"
  i=0
  while [ "$i" -lt "$copies" ]; do
    cp "$src/${kind}_node1_1.st" "$work/k_$kind/${kind}_node$i.st"
    i=$((i + 1))
  done
  : >"$work/k_$kind.t"
  for i in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S" -o "$work/t" "$IODFG_BIN" convert -q -f -j 1 \
      -o "$work/k_$kind.h5" "$work/k_$kind" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    cat "$work/t" >>"$work/k_$kind.t"
  done
done
# the parser and the event log alone, one thread, data read from the files (bench_parse)
if [ -x "${BENCH_DIR:-}/bench_parse" ]; then
  for kind in stacks plain; do
    : >"$work/kp_$kind"
    for i in $(seq "$runs"); do
      "$BENCH_DIR/bench_parse" "$work/k_$kind"/*.st | tee "$work/kp_out" |
        sed -n 's/^parser + event log *\([0-9.]*\) Mlines.*/\1/p' >>"$work/kp_$kind"
    done
    grep -E '^(input|parser \+ event log)' "$work/kp_out" | sed "s/^/$kind: /"
  done
  set -- $(best_median higher <"$work/kp_stacks") $(best_median higher <"$work/kp_plain")
  row "strace -k parser + event log, one thread: M lines/s, with stacks" "M lines/s" "-" "$1" "$2"
  row "strace -k parser + event log, one thread: M lines/s, without" "M lines/s" "-" "$3" "$4"
  pr=$(awk -v k="$2" -v p="$4" 'BEGIN { printf "%.2f", k / p }')
  row "strace -k parser + event log: lines/s with stacks over without (medians)" "x" ">= 0.5" "$pr" "$pr"
else
  row_not_run "strace -k parser + event log: lines/s with stacks over without" "x" ">= 0.5" \
    "bench_parse not built"
fi
# lines: both inputs' lines; events: the log's (the same for both, checked)
klines=$(cat "$work"/k_stacks/*.st | wc -l)
plines=$(cat "$work"/k_plain/*.st | wc -l)
events_of() { "$IODFG_BIN" info --json "$1" | sed -n 's/.*"events":\([0-9]*\),"events_without.*/\1/p'; }
kev=$(events_of "$work/k_stacks.h5")
pev=$(events_of "$work/k_plain.h5")
[ "$kev" = "$pev" ] || { echo "stacks bench: $kev events with stacks, $pev without" >&2; exit 1; }
set -- $(awk -v l="$klines" '{ print l / ($2 + $3) / 1e6 }' "$work/k_stacks.t" | best_median higher)
kbest=$1 kmed=$2
set -- $(awk -v l="$plines" '{ print l / ($2 + $3) / 1e6 }' "$work/k_plain.t" | best_median higher)
pbest=$1 pmed=$2
set -- $(awk -v e="$kev" '{ print e / ($2 + $3) / 1e6 }' "$work/k_stacks.t" | best_median higher)
kevs=$2
set -- $(awk -v e="$pev" '{ print e / ($2 + $3) / 1e6 }' "$work/k_plain.t" | best_median higher)
pevs=$2
echo "with stacks: $klines lines, $kev events: $kbest M lines per CPU-second best, $kmed median ($kevs M events/CPU-s)"
echo "without:     $plines lines, $pev events: $pbest M lines per CPU-second best, $pmed median ($pevs M events/CPU-s)"
row "strace -k convert -j 1: M lines per CPU-second, with stacks" "M lines/CPU-s" "-" "$kbest" "$kmed"
row "strace -k convert -j 1: M lines per CPU-second, without" "M lines/CPU-s" "-" "$pbest" "$pmed"
ratio=$(awk -v k="$kmed" -v p="$pmed" 'BEGIN { printf "%.2f", k / p }')
row "strace -k convert: lines/s with stacks over without (medians)" "x" ">= 0.5" "$ratio" "$ratio"
# per event, for the record: a -k trace has about 8 lines per event, mostly short frames
eratio=$(awk -v k="$kevs" -v p="$pevs" 'BEGIN { printf "%.2f", k / p }')
row "strace -k convert: events/s with stacks over without (medians)" "x" "-" "$eratio" "$eratio"
# the log each way; the unique stacks: the /stacks datasets but event_stack, as stored
ksize=$(wc -c <"$work/k_stacks.h5")
psize=$(wc -c <"$work/k_plain.h5")
uniq=$(h5ls -r -v "$work/k_stacks.h5/stacks" 2>/dev/null | awk '
  /^\/?[a-z_]+ +Dataset/ { name = $1 }
  /Storage:/ && name !~ /event_stack/ { for (i = 1; i <= NF; i++) if ($i == "allocated") s += $(i - 1) }
  END { print s + 0 }')
kbpe=$(awk -v s="$ksize" -v e="$kev" 'BEGIN { printf "%.1f", s / e }')
pbpe=$(awk -v s="$psize" -v e="$pev" 'BEGIN { printf "%.1f", s / e }')
grow=$(awk -v k="$ksize" -v p="$psize" -v u="$uniq" -v e="$kev" 'BEGIN { printf "%.2f", (k - p - u) / e }')
echo "log: $ksize bytes with stacks ($kbpe B/event), $psize without ($pbpe B/event); unique stacks $uniq bytes"
row "strace -k log: bytes per event, with stacks" "B/event" "-" "$kbpe" "$kbpe"
row "strace -k log: bytes per event, without" "B/event" "-" "$pbpe" "$pbpe"
row "strace -k log: growth per event beyond the unique stacks" "B/event" "<= 4" "$grow" "$grow"
if [ -n "${stacks_alone:-}" ]; then
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg) at the end"
  echo "=== SUMMARY ($(nproc) cores, best and median of $runs runs)"
  echo "measure|best|median|unit|goal|status"
  cat "$summary"
fi
