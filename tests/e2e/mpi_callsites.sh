#!/bin/sh
# iodfg-mpi and strace -k stacks, on 1, 2 and 3 processes: convert writes the /stacks of a serial
# convert (h5diff finds no difference), the stack tables of processes that parsed different
# files merged to the serial ids; the analysing commands split keys by call site as iodfg does
# (a `site` rule and filter give iodfg's output, byte for byte).
. "${IODFG_SRCDIR:?}/tests/e2e/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/mpi_lib.sh"
D=$IODFG_TEST_DATA/traces/callsites
command -v h5diff >/dev/null || { echo "SKIP: h5diff not found (Debian: hdf5-tools)"; exit 77; }
command -v h5ls >/dev/null || { echo "SKIP: h5ls not found (Debian: hdf5-tools)"; exit 77; }

# A set of four traces: the recorded one; the same with one function renamed (new frames and
# stacks beside shared ones); the recording without -k (no stacks: its rows get stack 0
# between files with stacks); two functions renamed. Split by bytes, each process parses
# different files, and no process's first-seen order is the serial one.
mkdir "$T/set"
cp "$D/stacks_node1_1.st" "$T/set/a_node1_1.st"
sed 's/write_payload/emit_payload/g' "$D/stacks_node1_1.st" >"$T/set/b_node2_2.st"
cp "$D/plain_node1_1.st" "$T/set/c_node3_3.st"
sed 's/read_back/check_back/g; s/write_header/put_header/g' "$D/stacks_node1_1.st" \
  >"$T/set/d_node4_4.st"

stack_rows() { # stack_rows LOG DATASET: its rows, from h5ls
  h5ls "$1/stacks/$2" | sed -n 's/.*Dataset {\([0-9]*\)[}/].*/\1/p'
}
# the converts of each process count run as one job (iodfg-mpi batch); sanitizer builds run
# each set at one of the counts (mpi_counts): the set on 3, which the check below reads
i=1
for set in one set; do
  in=$T/set
  [ "$set" = one ] && in=$D/stacks_node1_1.st
  "$IODFG_BIN" convert -q -o "$T/$set.h5" "$in"
  mpi_counts "$i" 1 2 3 >"$T/counts.$set"
  i=$((i + 1))
  for n in $(cat "$T/counts.$set"); do
    qjob "$n" "$set-$n" convert -q -o "$T/$set-$n.h5" "$in"
  done
done
qrun
for set in one set; do
  for n in $(cat "$T/counts.$set"); do
    check "$set on $n: exit 0" [ "$(cat "$Q/$set-$n.rc")" = 0 ]
    check "$set on $n: h5diff finds no difference" h5diff "$T/$set.h5" "$T/$set-$n.h5"
    check "$set on $n: the log has /stacks, one id per event" \
      test "$(stack_rows "$T/$set-$n.h5" event_stack)" = "$(stack_rows "$T/$set.h5" event_stack)"
    check "$set on $n: the same frames" \
      test "$(stack_rows "$T/$set-$n.h5" frame_function)" = "$(stack_rows "$T/$set.h5" frame_function)"
    "$IODFG_BIN" info --json "$T/$set-$n.h5" | sed "s|$T/$set-$n.h5|LOG|g" >"$T/i2"
    "$IODFG_BIN" info --json "$T/$set.h5" | sed "s|$T/$set.h5|LOG|g" >"$T/i1"
    check "$set on $n: the serial iodfg reads the same log (info)" cmp -s "$T/i1" "$T/i2"
    "$IODFG_BIN" callsites --format tsv "$T/$set.h5" >"$T/c1"
    "$IODFG_BIN" callsites --format tsv "$T/$set-$n.h5" >"$T/c2"
    check "$set on $n: the same call sites" cmp -s "$T/c1" "$T/c2"
  done
done
check "the set has more frames than one trace" \
  test "$(stack_rows "$T/set.h5" frame_function)" -gt "$(stack_rows "$T/one.h5" frame_function)"
check "the log without -k in the set has stack 0 (h5dump)" sh -c \
  "h5dump -d /stacks/event_stack '$T/set-3.h5' | grep -q '(0): 0\\|, 0,'"
# a trace without -k stays a 4.1 log, without /stacks
job 2 convert -q -o "$T/plain-2.h5" "$D/plain_node1_1.st" 2>"$T/err"
"$IODFG_BIN" convert -q -o "$T/plain.h5" "$D/plain_node1_1.st"
check "without stacks: h5diff finds no difference" h5diff "$T/plain.h5" "$T/plain-2.h5"
check "without stacks: no /stacks" sh -c "! h5ls '$T/plain-2.h5/stacks' >/dev/null 2>&1"

# the site field: rules and filters over the processes' parts give iodfg's output
printf 'map site ~ ^write_header$ => header-writes\nmap call = write => {call}:{site}\n' \
  >"$T/site.rules"
"$IODFG_BIN" stats --format tsv --rules "$T/site.rules" "$T/set.h5" >"$T/st.tsv"
check "the rule splits the writes by site (header-writes: 200 events in each of two traces)" \
  test "$(awk -F'\t' '$1 == "header-writes" { print $2 }' "$T/st.tsv")" = 400
check "and the renamed copies' sites ({site})" grep -q '^write:put_header	' "$T/st.tsv"
for n in 1 2 3; do
  # the default mapping ignores the site, but an activity's keys are split by it: its rates are
  # summed over the same keys as iodfg's, to the last digit (they differed without the split)
  same "$n" set stats --format tsv
  same "$n" set stats --format tsv --rules "$T/site.rules"
  same "$n" set stats --format json --transitions --rules "$T/site.rules"
  same "$n" set stats --rules "$T/site.rules" --filter 'site~payload'
  same "$n" set stats --format tsv --per-pid --filter 'site~header|payload'
  same "$n" set dfg --format dot --rules "$T/site.rules"
  same "$n" set dfg --format json --rules "$T/site.rules" --filter 'site!~header'
  same "$n" set characterize --format json --rules "$T/site.rules"
  same "$n" set stats --format json --rules "$T/site.rules" --green 'name~^a_' --red 'name~^d_'
  same "$n" one stats --format tsv --rules "$T/site.rules" --filter 'site~payload|header'
done
"$IODFG_BIN" stats --format tsv --filter 'site~payload' "$T/set.h5" >"$T/f.tsv"
check "the filter keeps the payload writes only" sh -c \
  "! grep -q header '$T/f.tsv' && test \"\$(awk -F'\\t' 'NR > 1 { n += \$2 } END { print n }' '$T/f.tsv')\" = 96"
# ASan builds: the stacks' merge and the key split leak nothing
rc=0
JOB_LEAKS=1 job 3 convert -q -o "$T/leaks.h5" "$T/set" 2>"$T/err" || rc=$?
check "convert on 3, checked for leaks: exit 0 (exit $rc)" [ "$rc" -eq 0 ]
rc=0
JOB_LEAKS=1 job 3 stats --rules "$T/site.rules" "$T/leaks.h5" >/dev/null 2>"$T/err" || rc=$?
check "stats with a site rule on 3, checked for leaks: exit 0 (exit $rc)" [ "$rc" -eq 0 ]
# a bad focus file is refused on every process as by iodfg
printf 'class app ~ (\n' >"$T/bad.focus"
rs=0 rp=0
"$IODFG_BIN" stats --focus-rules "$T/bad.focus" "$T/set.h5" >/dev/null 2>"$T/s.err" || rs=$?
job 2 stats --focus-rules "$T/bad.focus" "$T/set.h5" >/dev/null 2>"$T/p.raw" || rp=$?
check "a bad focus file: exit 1 as iodfg (exit $rp, iodfg $rs)" test "$rs" -eq 1 -a "$rp" -eq 1
check "saying what iodfg says" \
  test "$(sed -n 's/^iodfg-mpi: /iodfg: /p' "$T/p.raw")" = "$(cat "$T/s.err")"
finish
