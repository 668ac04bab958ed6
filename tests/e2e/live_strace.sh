#!/bin/sh
# End-to-end on traces recorded now: the paper's wrapper around a small IOR-like program, four
# ranks writing a shared file and four writing a file each, then convert and check.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
MINIIOR=${IODFG_MINIIOR:?}
if ! command -v strace >/dev/null 2>&1; then echo "SKIP: strace is not installed"; exit 77; fi
if ! strace -f -o /dev/null true 2>/dev/null; then echo "SKIP: ptrace is not permitted here"; exit 77; fi

mkdir -p "$T/io/ssf" "$T/io/fpp" "$T/tr"
for mode in ssf fpp; do
  for r in 0 1 2 3; do
    IODFG_OUTDIR="$T/tr" IODFG_CID=$mode IODFG_HOST=node1 \
      IODFG_TRACE="-e trace=openat,read,write,pread64,pwrite64,lseek,fsync,close" \
      "$IODFG_SRCDIR/tests/tools/strace.sh" "$MINIIOR" "$T/io" $mode $r 4 8 4096 lseek &
  done
  wait
done
"$IODFG_BIN" convert -o "$T/live.h5" "$T/tr" >"$T/out"
"$IODFG_BIN" info --json "$T/live.h5" >"$T/live.json"
check "live: eight cases" test "$(json "$T/live.json" 'j["cases"]')" = 8
check "live: nothing unparsable" test "$(json "$T/live.json" 'j["lines"]["unparsable"]')" = 0
writes=$(grep -h -c -E 'write\(3</' "$T"/tr/*.st | awk '{s+=$1} END {print s}')
check "live: 64 block writes recorded" test "$writes" -ge 64
check "live: writes among the top calls" test "$(json "$T/live.json" '[c["events"] for c in j["calls"] if c["call"]=="write"][0] >= 64')" = True

# A multi-process pipeline produces unfinished/resumed pairs that are merged.
strace -f -tt -T -y -o "$T/pipe_node1_1.st" sh -c 'for i in 1 2 3 4 5; do cat /etc/hostname; done | wc -c >/dev/null'
"$IODFG_BIN" convert -q -o "$T/pipe.h5" "$T/pipe_node1_1.st"
"$IODFG_BIN" info --json "$T/pipe.h5" >"$T/pipe.json"
pairs=$(grep -c 'resumed>' "$T/pipe_node1_1.st" || true)
check "pipeline: every resumed line merged or kept" test "$(json "$T/pipe.json" 'j["lines"]["merged"]+j["lines"]["unmatched"]+j["lines"]["restarts"]')" -ge "$pairs"
check "pipeline: nothing unparsable" test "$(json "$T/pipe.json" 'j["lines"]["unparsable"]')" = 0
finish
