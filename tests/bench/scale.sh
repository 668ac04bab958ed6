#!/bin/sh
# SPDX-License-Identifier: MIT
# `make bench-scale`: how iodfg's costs grow with the events. For each size of SCALE_SIZES (10^7,
# 10^8 and 10^9 events by default) in SCALE_CASES cases (10,000), bench_scale_log writes a log
# straight into HDF5 from the recorded cases of tests/data/traces/ior-real.tar.xz and
# tests/data/traces/ior (their mix of calls, paths, sizes and durations; its time, progress on
# standard error, and the log's bytes per event on disk are rows too), then measures:
#   iodfg stats and iodfg dfg: wall time and peak RSS (/usr/bin/time %M), SCALE_RUNS runs each;
#   the real TUI in a private tmux (scale_tui.sh): its first frame with the activities' exact
#   counts, a one-rule edit to the exact counts (checked against iodfg stats with the same rule)
#   and a time-window filter to the exact event count (checked against iodfg stats --time), and
#   its peak RSS;
#   resident bytes per event (the largest peak RSS of the three over the events).
# Memory: every run goes under `prlimit --as` at SCALE_MEM_SHARE percent (80) of the memory
# available when the size starts. Before a size's runs the peak RSS is estimated from the sizes
# measured before it (a line through the last two; one alone scales by events; none: 48 bytes
# an event); a size whose estimate does not fit is not run ("not run: would need N GB") and the
# bench goes on. The same for the disk: a log that would not fit in the free space is not
# written. The SUMMARY block at the end is what tests/bench/scale_section.sh makes the README's
# "Speed at scale" section of; the load average is printed with every size.
# Environment: IODFG_BIN, BENCH_DIR, IODFG_SRCDIR; SCALE_SIZES, SCALE_CASES, SCALE_RUNS (at least
# 3), SCALE_DIR (where the logs go, default $TMPDIR or /tmp), SCALE_MEM_SHARE.
set -eu
: "${IODFG_BIN:?}" "${BENCH_DIR:?}" "${IODFG_SRCDIR:?}"
sizes=${SCALE_SIZES:-10000000 100000000 1000000000}
cases=${SCALE_CASES:-10000}
runs=${SCALE_RUNS:-3}
share=${SCALE_MEM_SHARE:-80}
[ "$runs" -ge 3 ] || { echo "SCALE_RUNS must be at least 3" >&2; exit 2; }
command -v prlimit >/dev/null || { echo "bench-scale needs prlimit (util-linux)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-scale needs /usr/bin/time (Debian package time)" >&2; exit 2; }
work=$(mktemp -d "${SCALE_DIR:-${TMPDIR:-/tmp}}/iodfg-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
cores=$(nproc)
B=$IODFG_SRCDIR/tests/bench
. "$B/bench_lib.sh"
summary=$work/summary
: >"$summary"
: >"$work/fit"

# avail_kib: the memory available now (KiB)
avail_kib() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }
# free_kib DIR: the disk space free under DIR (KiB)
free_kib() { df -Pk "$1" | awk 'NR == 2 { print $4 }'; }
gb() { awk -v k="$1" 'BEGIN { printf "%.1f", k * 1024 / 1e9 }'; }  # KiB to GB (10^9 bytes)
# estimate N: the peak RSS (KiB) of a run on N events from the sizes measured before ($work/fit:
# "events kib" lines): a line through the last two, the last one scaled, or 48 bytes an event
estimate() {
  awk -v n="$1" '{ e[NR] = $1; k[NR] = $2 } END {
    if (NR >= 2) { b = (k[NR] - k[NR - 1]) / (e[NR] - e[NR - 1]); a = k[NR] - b * e[NR]
      if (b < 0) b = 0; v = a + b * n; if (v < k[NR]) v = k[NR] }
    else if (NR == 1) v = k[1] * n / e[1]
    else v = n * 48 / 1024 + 65536
    printf "%.0f\n", v }' "$work/fit"
}
# sci N: 10^7 for 10000000, else N
sci() { awk -v n="$1" 'BEGIN { l = log(n) / log(10); r = int(l + 0.5)
  if (n == 10 ^ r) printf "10^%d", r; else printf "%d", n }'; }
# not_run SIZE WHY: every row of a size, not run
not_run() {
  for m in "stats: time|s|<= 120" "stats: peak RSS|GB|<= 4" "dfg: time|s|<= 120" \
    "dfg: peak RSS|GB|<= 4" "TUI: first frame|s|<= 30" "TUI: one-rule edit to exact counts|s|<= 1" \
    "TUI: time-window filter to exact counts|s|-" "TUI: peak RSS|GB|<= 4" \
    "resident bytes per event|B/event|<= 10"; do
    set -- "$1" "$2" "${m%%|*}" "$(echo "$m" | cut -d'|' -f2)" "${m##*|}"
    row_not_run "$1: $3" "$4" "$5" "$2"
  done
}
# guarded OUT LIMIT_KIB CMD...: run CMD under the address-space limit, "wall user sys kib" to OUT;
# 1 when it fails (its error in $work/err)
guarded() {
  out=$1 lim=$2; shift 2
  if /usr/bin/time -f "%e %U %S %M" -o "$work/t" prlimit --as=$((lim * 1024)) "$@" \
    >"$work/out" 2>"$work/err"; then
    cat "$work/t" >>"$out"
    return 0
  fi
  return 1
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $cores cores, $(gb "$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)") GB"
echo "date: $(date -u +%Y-%m-%d)"
echo "runs: $runs per row"
echo "cases: $cases"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) at the start"

# the profile: the recorded IOR runs, converted
mkdir -p "$work/profile"
tar -C "$work/profile" -xJf "$IODFG_SRCDIR/tests/data/traces/ior-real.tar.xz"
"$IODFG_BIN" convert -q -o "$work/real.h5" "$work/profile/ior-real"
"$IODFG_BIN" convert -q -o "$work/ior.h5" "$IODFG_SRCDIR/tests/data/traces/ior"
evs() { "$IODFG_BIN" info "$1" | sed -n 's/^Events *\([0-9,]*\).*/\1/p'; }
echo "profile: the cases of tests/data/traces/ior-real.tar.xz ($(evs "$work/real.h5") events) and" \
  "tests/data/traces/ior ($(evs "$work/ior.h5") events)"

disk_bpe=32
for n in $sizes; do
  s=$(sci "$n")
  log=$work/scale.h5
  rm -f "$log"
  echo "--- $s events in $cases cases"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg) before the log"
  need=$(awk -v n="$n" -v b="$disk_bpe" 'BEGIN { printf "%.0f", n * b * 1.2 / 1024 + 1048576 }')
  have=$(free_kib "$work")
  if [ "$need" -gt "$have" ]; then
    why="not run: the log would need $(gb "$need") GB of disk, $(gb "$have") GB free"
    echo "$why"
    row_not_run "$s events: write the log (one run)" s - "$why"
    not_run "$s events" "$why"
    continue
  fi
  "$BENCH_DIR/bench_scale_log" --events "$n" --cases "$cases" -o "$log" "$work/real.h5" \
    "$work/ior.h5" >"$work/gen" 2>"$work/gen.err" &
  gen=$!
  tail -f "$work/gen.err" --pid=$gen >&2 2>/dev/null &
  wait "$gen" || { cat "$work/gen.err" >&2; exit 1; }
  cat "$work/gen"
  bytes=$(wc -c <"$log")
  disk_bpe=$(awk -v b="$bytes" -v n="$n" 'BEGIN { printf "%.1f", b / n }')
  echo "log: $bytes bytes, $disk_bpe bytes/event on disk; $("$IODFG_BIN" info "$log" |
    sed -n 's/^Paths *\([0-9]*\) distinct/\1 paths/p')"
  secs=$(sed -n 's/^generated: .*, \([0-9.]*\) s$/\1/p' "$work/gen")
  row "$s events: write the log (one run)" s - "$secs" "$secs"
  row "$s events: log on disk" B/event "<= 40" "$disk_bpe" "$disk_bpe"
  est=$(estimate "$n")
  lim=$(( $(avail_kib) * share / 100 ))
  echo "memory: estimate $(gb "$est") GB, $(gb "$(avail_kib)") GB available, guard (prlimit --as) $(gb "$lim") GB"
  if [ "$est" -gt "$lim" ]; then
    why="not run: would need $(gb "$est") GB, $(gb "$(avail_kib)") GB available"
    echo "$why"
    not_run "$s events" "$why"
    rm -f "$log"
    continue
  fi
  maxk=0
  for cmd in stats dfg; do
    : >"$work/$cmd"
    failed=
    for i in $(seq "$runs"); do
      guarded "$work/$cmd" "$lim" "$IODFG_BIN" "$cmd" --format tsv -o "$work/$cmd.tsv" -f "$log" ||
        { failed="failed under the guard: $(head -c 200 "$work/err" | tr '\n|' '  ')"; break; }
    done
    awk -v c="$cmd" '{ printf "%s: wall %.2f s, CPU %.2f s, peak RSS %.2f GB\n", c, $1, $2 + $3, $4 * 1024 / 1e9 }' "$work/$cmd"
    if [ -n "$failed" ]; then
      echo "$cmd: $failed"
      row_not_run "$s events: $cmd: time" s "<= 120" "$failed"
      row_not_run "$s events: $cmd: peak RSS" GB "<= 4" "$failed"
      continue
    fi
    set -- $(awk '{ print $1 }' "$work/$cmd" | best_median lower)
    row "$s events: $cmd: time" s "<= 120" "$1" "$2"
    set -- $(awk '{ printf "%.2f\n", $4 * 1024 / 1e9 }' "$work/$cmd" | best_median lower)
    row "$s events: $cmd: peak RSS" GB "<= 4" "$1" "$2"
    k=$(awk '{ if ($4 > m) m = $4 } END { print m }' "$work/$cmd")
    [ "$k" -gt "$maxk" ] && maxk=$k
  done
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg) after stats and dfg"
  # the TUI, driven in tmux (its own script: the expected counts, the keys, the timing)
  if sh "$B/scale_tui.sh" "$log" "$work/stats.tsv" "$lim" "$runs" "$work/tui" >"$work/tui.out" 2>&1; then
    cat "$work/tui.out"
    for m in "first frame|<= 30" "one-rule edit to exact counts|<= 1" "time-window filter to exact counts|-"; do
      name=${m%|*}
      set -- $(grep "^tui: $name:" "$work/tui.out" | sed 's/.*: \([0-9.]*\) s$/\1/' | best_median lower)
      row "$s events: TUI: $name" s "${m#*|}" "$1" "$2"
    done
    set -- $(sed -n 's/^tui: peak RSS: \([0-9]*\) KiB$/\1/p' "$work/tui.out" |
      awk '{ printf "%.2f\n", $1 * 1024 / 1e9 }' | best_median lower)
    row "$s events: TUI: peak RSS" GB "<= 4" "$1" "$2"
    k=$(sed -n 's/^tui: peak RSS: \([0-9]*\) KiB$/\1/p' "$work/tui.out" | sort -n | tail -1)
    [ "$k" -gt "$maxk" ] && maxk=$k
  else
    cat "$work/tui.out"
    why="failed: $(tail -1 "$work/tui.out" | tr '|' ' ')"
    for m in "first frame|s|<= 30" "one-rule edit to exact counts|s|<= 1" \
      "time-window filter to exact counts|s|-" "peak RSS|GB|<= 4"; do
      row_not_run "$s events: TUI: ${m%%|*}" "$(echo "$m" | cut -d'|' -f2)" "${m##*|}" "$why"
    done
  fi
  bpe=$(awk -v k="$maxk" -v n="$n" 'BEGIN { printf "%.1f", k * 1024 / n }')
  goal="<= 10"
  [ "$n" -ge 33000000 ] || goal=-
  echo "resident: $bpe bytes/event (the largest peak RSS of stats, dfg and the TUI)"
  row "$s events: resident bytes per event" B/event "$goal" "$bpe" "$bpe"
  echo "$n $maxk" >>"$work/fit"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg) after the TUI"
  rm -f "$log"
done

echo "=== SUMMARY ($cores cores, best and median of $runs runs; load $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
echo "measure|best|median|unit|goal|status"
cat "$summary"
