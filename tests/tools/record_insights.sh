#!/bin/sh
# Record tests/tools/iopattern under strace, one directory of traces per pattern, for the
# insights tests: tests/e2e/insights_live.sh records now, and the traces kept under
# tests/data/traces/insights were made by this script (WORK=/tmp/iop):
#   tests/tools/record_insights.sh IOPATTERN OUT_DIR WORK_DIR
# Needs strace and permission to ptrace. Multi-rank patterns run their ranks at once.
set -eu
iop=${1:?usage: record_insights.sh IOPATTERN OUT_DIR WORK_DIR}
out=${2:?}
work=${3:?}
trace() { # trace MODE RANK [ARGS...]: one trace file per process, named {cid}_{host}_{rid}.st
  mode=$1; rank=$2; shift 2
  strace -f -tt -T -y -e trace=%file,%desc -o "$out/$mode/${mode}_host1_$rank.st" "$iop" "$mode" "$work" "$@"
}
# A sanitizer build of iopattern: LeakSanitizer cannot run under ptrace and would add its own
# I/O (reading /proc, writing its error to the shared standard error) to every pattern.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
mkdir -p "$work"
for i in $(seq -w 0 24); do mkdir -p "$work/lib$i"; done
for mode in clean small tty seek random reopen enoent reread lock; do
  mkdir -p "$out/$mode"
  trace "$mode" 0 | cat >/dev/null # standard output through a pipe (the tty pattern)
done
for mode in shared imbalance; do
  mkdir -p "$out/$mode"
  : >"$work/shared.dat"
  for r in 0 1 2 3; do trace "$mode" "$r" "$r" & done
  wait
done
