#!/bin/sh
# `make bench`: every speed figure of the README, measured here. On strace traces it records
# now (tests/bench/record.sh: at least 3 M lines of a real program under strace): the parser,
# convert, the log on disk, loading against re-parsing, stats on the log; then the strongest
# pandas peer (peer_bench.py of the shared yardstick, tests/bench/peer.sh): its parse, map and
# pandas stages on the same traces, its DFG and statistics checked equal to iodfg's, against
# convert + stats and against stats straight on the traces; then the engine and the terminal UI
# on 10 million events. Each timed row runs BENCH_RUNS times (at least 5) and gives its best and
# median next to its goal; the SUMMARY block at the end is what tests/bench/speed_section.sh
# turns into the README's speed section. The load average is printed at each step.
# Environment: IODFG_BIN, BENCH_DIR (build's tests/bench), IODFG_SRCDIR, IODFG_MINIIOR;
# BENCH_RUNS the repetitions, BENCH_EVENTS the engine's log; record.sh and peer.sh say theirs.
set -eu
: "${IODFG_BIN:?}" "${BENCH_DIR:?}" "${IODFG_SRCDIR:?}"
runs=${BENCH_RUNS:-5}
events=${BENCH_EVENTS:-10000000}
[ "$runs" -ge 5 ] || { echo "BENCH_RUNS must be at least 5" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/iodfg-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cores=$(nproc)
mev=$(awk -v e="$events" 'BEGIN { printf "%g", e / 1e6 }')
summary="$work/summary"
: >"$summary"
. "$IODFG_SRCDIR/tests/bench/bench_lib.sh"
load() { echo "load: $(cut -d' ' -f1-3 /proc/loadavg) $1"; }
# timed OUT CMD...: run CMD (output discarded), append "wall user sys maxrss_kib" to OUT.
timed() {
  out=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" >/dev/null 2>"$work/err" ||
    { cat "$work/err" >&2; exit 1; }
  cat "$work/t" >>"$out"
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $cores cores"
echo "date: $(date -u +%Y-%m-%d)"
echo "runs: $runs per row"
echo "engine log: $mev M events in 1000 cases"
load "at the start"
traces=$work/traces
sh "$IODFG_SRCDIR/tests/bench/record.sh" "$traces" | tee "$work/record"
bytes=$(cat "$traces"/*.st | wc -c)
nlines=$(cat "$traces"/*.st | wc -l)
echo "trace set: $(ls "$traces" | wc -l) files, $nlines lines, $((bytes / 1000000)) MB, $(sed -n 's/^traces: //p' "$work/record")"
load "after recording"

echo "--- parser (one thread, data in memory)"
"$BENCH_DIR/bench_parse" "$traces"/*.st

echo "--- iodfg convert -j $cores (read, parse, sort, write HDF5)"
: >"$work/conv"
for i in $(seq "$runs"); do
  timed "$work/conv" "$IODFG_BIN" convert -q -f -j "$cores" -o "$work/log.h5" "$traces"
done
awk -v l="$nlines" '{ printf "wall %.2f s, CPU %.2f s: %.2f M lines per CPU-second\n",
  $1, $2 + $3, l / ($2 + $3) / 1e6 }' "$work/conv"
set -- $(awk -v l="$nlines" '{ print l / ($2 + $3) / 1e6 }' "$work/conv" | best_median higher)
row "convert -j $cores: M lines per CPU-second" "M lines/CPU-s" ">= 6" "$1" "$2"
size=$(wc -c <"$work/log.h5")
nev=$("$IODFG_BIN" info --json "$work/log.h5" | sed -n 's/.*"events":\([0-9]*\),"events_without.*/\1/p')
bpe=$(awk -v s="$size" -v e="$nev" 'BEGIN { printf "%.1f", s / e }')
echo "log: $size bytes, $nev events, $bpe bytes/event on disk"
row "log on disk: bytes per event" "B/event" "<= 40" "$bpe" "$bpe"

echo "--- loading: iodfg info on the log against on the traces ($cores threads)"
: >"$work/ih5"
: >"$work/itxt"
for i in $(seq "$runs"); do
  timed "$work/ih5" "$IODFG_BIN" info "$work/log.h5"
  timed "$work/itxt" "$IODFG_BIN" info "$traces"
done
set -- $(awk '{ print $1 }' "$work/ih5" | best_median lower) \
  $(awk '{ print $1 }' "$work/itxt" | best_median lower)
echo "info on log.h5: $1 s best, $2 s median; on the traces: $3 s best, $4 s median (the"
echo "process start, 15 ms, included; bench_store below times the loads themselves)"

echo "--- iodfg stats --format tsv on the log (load included)"
: >"$work/stats"
for i in $(seq "$runs"); do
  timed "$work/stats" "$IODFG_BIN" stats --format tsv "$work/log.h5"
done
awk -v e="$nev" '{ printf "wall %.3f s: %.1f M events/s, max RSS %.1f bytes/event\n",
  $1, e / $1 / 1e6, $4 * 1024 / e }' "$work/stats"
set -- $(awk -v e="$nev" '{ print e / $1 / 1e6 }' "$work/stats" | best_median higher)
row "stats on the log: M events/s" "M events/s" ">= 20" "$1" "$2"
set -- $(awk -v e="$nev" '{ print $4 * 1024 / e }' "$work/stats" | best_median lower)
row "stats on the log: max RSS per event" "B/event" "<= 48" "$1" "$2"
load "after stats"

. "$IODFG_SRCDIR/tests/bench/stacks.sh"
load "after the strace -k rows"

. "$IODFG_SRCDIR/tests/bench/peer.sh"
load "after the peer"

if [ -x "$BENCH_DIR/bench_pictures" ]; then
  echo "--- pictures on the log (bench_pictures): each model from empty, as a view's first draw"
  "$BENCH_DIR/bench_pictures" --runs "$runs" "$work/log.h5" | tee "$work/pic"
  for m in heatmap:200 heatmap_zoom:200 offsets:200 timeline:200; do
    name=${m%%:*}
    set -- $(sed -n "s/^${name}_ms: min \([0-9.]*\) median \([0-9.]*\).*/\1 \2/p" "$work/pic")
    label=$(echo "$name" | sed 's/^heatmap$/heatmap (cases x 100 bins)/; s/^heatmap_zoom$/heatmap zoomed to a tenth/;
      s/^offsets$/offset map of the busiest file/; s/^timeline$/timeline (activities, exact peaks)/')
    row "pictures: $label, $nev events" "ms" "<= ${m##*:}" "$1" "$2"
  done
fi
if [ -x "$BENCH_DIR/bench_engine" ]; then
  echo "--- engine, $mev M events in 1000 cases (bench_engine)"
  "$BENCH_DIR/bench_engine" --events "$events" --cases 1000 --runs "$runs" | tee "$work/eng"
  # filter_change toggles one filter on and off (undo/redo: the engine keeps the results of
  # the previous selection and swaps them back); filter_to_new_selection goes to a mask it has
  # not seen, a real rebuild: the filter goal is judged there
  for m in full_rebuild:100 incremental_one_rule:30 filter_change:60 filter_to_new_selection:60; do
    name=${m%%:*}
    set -- $(sed -n "s/^${name}_ms: min \([0-9.]*\) median \([0-9.]*\).*/\1 \2/p" "$work/eng")
    label=$(echo "$name" | tr _ ' ' | sed 's/^filter change$/filter undo\/redo (kept results)/')
    row "engine: $label, $mev M events" "ms" "<= ${m##*:}" "$1" "$2"
  done
fi
if [ -x "$BENCH_DIR/bench_tui" ]; then
  echo "--- terminal UI on the same log (bench_tui)"
  "$BENCH_DIR/bench_tui" --events "$events" --cases 1000 2>&1 | tee "$work/tui"
  for m in "rule edit to updated tables:80" "timeline: new filter, rebuild:100" \
    "timeline: filter popped, rebuild:100" "timeline: rule undo/redo, rebuild:100"; do
    name=${m%:*}
    set -- $(grep -F "$name " "$work/tui" | sed -n 's/.* min *\([0-9.]*\) ms *median *\([0-9.]*\) ms.*/\1 \2/p')
    row "TUI: $name, $mev M events" "ms" "<= ${m##*:}" "$1" "$2"
  done
fi
if [ -x "$BENCH_DIR/bench_tui" ]; then
  echo "--- the TUI's picture views on the log (bench_tui --pictures): first draws, a fresh app each"
  "$BENCH_DIR/bench_tui" --pictures "$work/log.h5" --runs "$runs" 2>&1 | tee "$work/tuipic"
  for m in "heatmap view: first draw:200" "offsets view: first draw:200"; do
    name=${m%:*}
    set -- $(grep -F "$name " "$work/tuipic" | sed -n 's/.* min *\([0-9.]*\) ms *median *\([0-9.]*\) ms.*/\1 \2/p')
    row "TUI: $name, $nev events" "ms" "<= ${m##*:}" "$1" "$2"
  done
fi
if [ -x "$BENCH_DIR/bench_store" ]; then
  echo "--- loading against parsing, in the process, one thread each (bench_store, 2 M events)"
  : >"$work/load_all"
  : >"$work/load_ana"
  : >"$work/sum_cost"
  for i in $(seq "$runs"); do
    "$BENCH_DIR/bench_store" >"$work/store"
    grep -E '^(load .*one thread|checksum cost)' "$work/store"
    sed -n 's/^load all columns .* \([0-9.]*\)x parsing  (one thread)/\1/p' "$work/store" >>"$work/load_all"
    sed -n 's/^load analysis .* \([0-9.]*\)x parsing  (one thread)/\1/p' "$work/store" >>"$work/load_ana"
    sed -n 's/^checksum cost *[-+0-9.]* % all columns, *\([-+0-9.]*\) % analysis.*/\1/p' \
      "$work/store" >>"$work/sum_cost"
  done
  cat "$work/store"
  set -- $(best_median higher <"$work/load_all")
  row "load against parsing: all columns, one thread" "x faster" ">= 10" "$1" "$2"
  set -- $(best_median higher <"$work/load_ana")
  row "load against parsing: analysis columns, one thread" "x faster" ">= 10" "$1" "$2"
  # the 4.1 checksums: the processor time of a load checking them against one of the same log
  # marked 4.0 (bench_store prints the cost for all columns too)
  set -- $(best_median lower <"$work/sum_cost")
  row "load: checking the checksums, analysis columns, one thread" "% more CPU" "<= 25" "$1" "$2"
fi
if [ -x "$BENCH_DIR/bench_metrics" ]; then echo "--- bench_metrics"; "$BENCH_DIR/bench_metrics"; fi

load "at the end"
echo "=== SUMMARY ($cores cores, best and median of $runs runs)"
echo "measure|best|median|unit|goal|status"
cat "$summary"
