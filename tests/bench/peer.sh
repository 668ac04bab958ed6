# SPDX-License-Identifier: MIT
# Part of `make bench` (run.sh sources it, with $traces, $work, $runs, $cores and its helpers):
# iodfg against the strongest pandas peer on the recorded traces. The peer is the shared
# yardstick's peer_bench.py (BENCH_PEERS: its directory, else ../shared/bench/peers or
# ../../shared/bench/peers from the source tree; read-only, called, never copied), run with
# Debian's /usr/bin/python3: its parse stage (plain Python, BENCH_PEER_JOBS processes, the cores
# by default), map (vectorised f-hat) and pandas (DFG by sort and shift, groupby sums, sweep
# line). Its time is the sum of those three stages as it measures them (its interpreter start
# and imports left out, in its favour). First its DFG and statistics are checked equal to
# iodfg's (tests/bench/peer_check.py, under the peer's event contract: tests/bench/peer.rules).
# Rows: its pandas stage (the issue's bar for a strong peer: at most 2 s on 3.3 M events),
# convert + stats against it, and stats straight on the traces against it (50x each).
PY=/usr/bin/python3
peers=${BENCH_PEERS:-}
for d in "$IODFG_SRCDIR/../shared/bench/peers" "$IODFG_SRCDIR/../../shared/bench/peers"; do
  [ -n "$peers" ] || [ ! -f "$d/peer_bench.py" ] || peers=$(cd "$d" && pwd)
done
peer_rows_not_run() {
  row_not_run "the pandas peer: its pandas stage (DFG + statistics)" s "<= 2" "$1"
  row_not_run "convert + stats against the pandas peer" "x faster" ">= 50" "$1"
  row_not_run "stats on the traces against the pandas peer" "x faster" ">= 50" "$1"
}
if [ -z "$peers" ] || [ ! -f "$peers/peer_bench.py" ]; then
  echo "--- not run: the pandas peer (peer_bench.py) is not found; set BENCH_PEERS to its directory"
  peer_rows_not_run "not run: peer_bench.py not found"
elif ! $PY -c 'import pandas, numpy' 2>/dev/null; then
  echo "--- not run: the pandas peer needs python3-pandas and python3-numpy (./dev.sh bench installs them)"
  peer_rows_not_run "not run: no python3-pandas"
else
  pj=${BENCH_PEER_JOBS:-$cores}
  echo "--- the pandas peer ($peers/peer_bench.py: parse with $pj processes, map, pandas) against iodfg, same traces"
  # peer_once: one run of the peer into $work/peer; its stage times appended to $work/peer_t
  # as "parse map pandas pandas_dfg pandas_stats"
  peer_once() {
    rm -rf "$work/peer"
    $PY "$peers/peer_bench.py" "$traces" --stages pandas -j "$pj" -o "$work/peer" >"$work/peer.out" ||
      { cat "$work/peer.out" >&2; exit 1; }
    $PY -c 'import json, sys
t = json.load(open(sys.argv[1]))
s = {r["stage"].split()[0]: r["seconds"] for r in t["rows"]}
d = t["detail"]["pandas"]
print(s["parse"], s["map"], s["pandas"], d["dfg"], d["stats"])' "$work/peer/timings.json" >>"$work/peer_t"
  }
  : >"$work/peer_t"
  peer_once
  sed -n '/^data:/p; /^stage/,/^parse throughput/p' "$work/peer.out"
  "$IODFG_BIN" dfg --format tsv --rules "$IODFG_SRCDIR/tests/bench/peer.rules" \
    --filter 'call!=exit_group,exit' -o "$work/iodfg_dfg.tsv" "$traces"
  if $PY "$IODFG_SRCDIR/tests/bench/peer_check.py" "$work/iodfg_dfg.tsv" "$work/peer" >"$work/check"; then
    echo "peer check: the same DFG and statistics: $(sed -n 's/^check: //p' "$work/check")"
  else
    cat "$work/check"
    echo "peer check: DIFFERENT: $(sed -n 's/^check: //p' "$work/check")"
  fi
  : >"$work/ours"
  : >"$work/direct"
  for i in $(seq "$runs"); do
    t0=$(date +%s.%N)
    "$IODFG_BIN" convert -q -f -j "$cores" -o "$work/log2.h5" "$traces"
    "$IODFG_BIN" stats --format tsv "$work/log2.h5" >/dev/null
    awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }' >>"$work/ours"
    timed "$work/direct" "$IODFG_BIN" stats --format tsv "$traces"
    [ "$i" = 1 ] || peer_once
  done
  awk '{ printf "peer: parse %.2f s, map %.2f s, pandas %.2f s (DFG %.2f s, statistics %.2f s): %.2f s\n",
    $1, $2, $3, $4, $5, $1 + $2 + $3 }' "$work/peer_t"
  awk '{ printf "iodfg convert -j %d + stats: %.3f s\n", c, $1 }' c="$cores" "$work/ours"
  awk '{ printf "iodfg stats on the traces: wall %.3f s, CPU %.3f s (%.2f cores busy)\n", $1, $2 + $3,
    ($2 + $3) / ($1 > 0 ? $1 : 1) }' "$work/direct"
  set -- $(awk '{ print $3 }' "$work/peer_t" | best_median lower)
  row "the pandas peer: its pandas stage (DFG + statistics)" s "<= 2" "$1" "$2"
  set -- $(best_median lower <"$work/ours") $(awk '{ print $1 }' "$work/direct" | best_median lower) \
    $(awk '{ print $1 + $2 + $3 }' "$work/peer_t" | best_median lower)
  echo "peer total: $5 s best, $6 s median; iodfg convert + stats: $1 s best, $2 s median;" \
    "iodfg stats on the traces: $3 s best, $4 s median"
  row "convert + stats against the pandas peer" "x faster" ">= 50" \
    "$(awk -v a="$1" -v b="$5" 'BEGIN { printf "%.1f", b / a }')" \
    "$(awk -v a="$2" -v b="$6" 'BEGIN { printf "%.1f", b / a }')"
  row "stats on the traces against the pandas peer" "x faster" ">= 50" \
    "$(awk -v a="$3" -v b="$5" 'BEGIN { printf "%.1f", b / a }')" \
    "$(awk -v a="$4" -v b="$6" 'BEGIN { printf "%.1f", b / a }')"
fi
