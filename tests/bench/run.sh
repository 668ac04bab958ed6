#!/bin/sh
# `make bench`: parser, convert, load and engine figures on a generated IOR-like trace set.
# Environment: IODFG_BIN, BENCH_DIR (build's tests/bench); BENCH_FILES and BENCH_LINES size it.
set -eu
: "${IODFG_BIN:?}" "${BENCH_DIR:?}"
files=${BENCH_FILES:-8}
lines=${BENCH_LINES:-400000}
work=$(mktemp -d "${TMPDIR:-/tmp}/iodfg-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
mkdir -p "$work/traces"
"$BENCH_DIR/bench_parse" --generate "$work/traces" "$files" "$lines"
bytes=$(cat "$work"/traces/*.st | wc -c)
nlines=$(cat "$work"/traces/*.st | wc -l)
echo "trace set: $files files, $nlines lines, $((bytes / 1000000)) MB"
echo "--- parser (one thread, data in memory)"
"$BENCH_DIR/bench_parse" "$work"/traces/*.st
echo "--- iodfg convert (end to end: read, parse, sort, write HDF5)"
for j in 1 $(nproc); do
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$IODFG_BIN" convert -q -f -j "$j" -o "$work/log.h5" "$work/traces"
  else
    t0=$(now); "$IODFG_BIN" convert -q -f -j "$j" -o "$work/log.h5" "$work/traces"; t1=$(now)
    echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}') 0 0" >"$work/time"
  fi
  read -r wall user sys <"$work/time"
  awk -v d="$wall" -v u="$user" -v s="$sys" -v l="$nlines" -v b="$bytes" -v j="$j" 'BEGIN {
    printf "jobs %d: %.2f s wall, %.2f s CPU: %.2f Mlines/s, %.0f MB/s; %.2f Mlines per CPU-second\n",
    j, d, u + s, l / d / 1e6, b / d / 1e6, (u + s > 0 ? l / (u + s) / 1e6 : 0) }'
done
size=$(wc -c <"$work/log.h5")
events=$("$IODFG_BIN" info --json "$work/log.h5" | sed -n 's/.*"events":\([0-9]*\),"events_without.*/\1/p')
echo "log: $size bytes, $events events, $(awk -v s="$size" -v e="$events" 'BEGIN{printf "%.1f", s/e}') bytes/event on disk"
echo "--- loading: HDF5 log vs re-parsing the text (iodfg info, $(nproc) threads, best/median of 3)"
# best_med CMD...: the best and the median wall time of three runs
best_med() {
  for i in 1 2 3; do t0=$(now); "$@" >/dev/null; t1=$(now); echo "$t0 $t1"; done |
    awk '{print $2 - $1}' | sort -n | awk '{v[NR] = $1} END {print v[1], v[2]}'
}
set -- $(best_med "$IODFG_BIN" info "$work/log.h5") $(best_med "$IODFG_BIN" info "$work/traces")
awk -v hb="$1" -v hm="$2" -v tb="$3" -v tm="$4" -v e="$events" 'BEGIN {
  printf "info on log.h5: %.3f s best, %.3f s median (%.1f M events/s)\n", hb, hm, e / hb / 1e6
  printf "info on traces: %.3f s best, %.3f s median (%.1f M events/s)\n", tb, tm, e / tb / 1e6
  printf "log is %.1fx faster (best), %.1fx (median)\n", tb / hb, tm / hm }'
if [ -x "$BENCH_DIR/bench_store" ]; then
  echo "--- bench_store, 1000 cases (one per MPI rank) of 2000 events"
  "$BENCH_DIR/bench_store" 2000000 - 1000
fi
for b in bench_store bench_engine bench_metrics bench_tui; do
  if [ -x "$BENCH_DIR/$b" ]; then echo "--- $b"; "$BENCH_DIR/$b"; fi
done
if [ -x "$BENCH_DIR/bench_engine" ] && /usr/bin/python3 -c 'import pandas' 2>/dev/null; then
  echo "--- pandas reference on 3 million events (tests/bench/pandas_dfg.py)"
  "$BENCH_DIR/bench_engine" --events 3000000 --dump "$work/ev" | tail -n 3
  /usr/bin/python3 "${IODFG_SRCDIR:-.}/tests/bench/pandas_dfg.py" "$work/ev"
fi
