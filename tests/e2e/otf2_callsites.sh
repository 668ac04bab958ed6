#!/bin/sh
# End-to-end: call sites from Score-P's calling context in OTF2 archives. tests/tools/otf2_write
# --context writes one small program (two ranks; write_header, write_payload, read_back called
# from main in /home/user/run/ctx.c) three ways: wrappers only (no context), Enter/Leave of the
# program's functions (compiler instrumentation) and CallingContext definitions with source
# code locations (unwinding); see tests/tools/otf2_ctx.c. The expectations are what the
# generator wrote. Skips without OTF2 support.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B=$IODFG_BIN
W=$(dirname "$B")/tests/tools/otf2_write
if [ ! -x "$W" ]; then
  echo "SKIP: iodfg was built without OTF2 (install libotf2-trace-dev and configure again)"
  exit 77
fi
for k in none regions calling; do
  "$W" "$T" "$k" --context "$k"
  "$W" "$T" "${k}_bad" --context "$k" --bad
done
SRC=/home/user/run/ctx.c

# tsv FILE ACTIVITY_RE SITE COLUMN: a column (activity site object file line calls dur bytes cases)
# of the row of SITE under an activity matching ACTIVITY_RE
tsv() {
  awk -F'\t' -v a="$2" -v s="$3" -v c="$4" 'NR > 1 && $1 ~ a && $2 == s { print $c }' "$1"
}
# row FILE ACTIVITY_RE SITE: "calls bytes file:line" of that row
row() {
  echo "$(tsv "$1" "$2" "$3" 6) $(tsv "$1" "$2" "$3" 8) $(tsv "$1" "$2" "$3" 4):$(tsv "$1" "$2" "$3" 5)"
}

# ---- each function's calls, bytes and file:line: Enter/Leave regions give each function's
# first line (its Region definition), CallingContexts the line of each call ----
for spec in "regions 10 20 30 50 50" "calling 12 23 33 52 58"; do
  # shellcheck disable=SC2086 # the words of spec
  set -- $spec
  k=$1
  "$B" callsites -q --format tsv "$T/$k.otf2" >"$T/$k.tsv"
  check "$k: write_header, 4 writes of 64 B, ctx.c:$2" \
    test "$(row "$T/$k.tsv" '^write:' write_header)" = "4 256 $SRC:$2"
  check "$k: write_payload, 3 pwrite64 of 4 KiB, ctx.c:$3" \
    test "$(row "$T/$k.tsv" '^pwrite64:' write_payload)" = "3 12288 $SRC:$3"
  check "$k: read_back, 1 read of 4 KiB, ctx.c:$4" \
    test "$(row "$T/$k.tsv" '^read:' read_back)" = "1 4096 $SRC:$4"
  check "$k: main opens (ctx.c:$5) and closes (ctx.c:$6) on both ranks" \
    test "$(row "$T/$k.tsv" '^open64:' main) $(row "$T/$k.tsv" '^close:' main)" = \
    "2 0 $SRC:$5 2 0 $SRC:$6"
  check "$k: every site on both ranks but read_back" \
    test "$(tsv "$T/$k.tsv" '^write:' write_header 9) $(tsv "$T/$k.tsv" '^read:' read_back 9)" = "2 1"
  check "$k: no other site (5 rows)" test "$(tail -n +2 "$T/$k.tsv" | wc -l)" = 5
  check "$k: the wrappers' object is the runtime's" sh -c "! grep -q 'score-p' '$T/$k.tsv'"
done
"$B" callsites -q "$T/regions.otf2" >"$T/regions.txt"
check "regions: the table shows ctx.c:10" grep -q 'write_header  *ctx\.c:10 ' "$T/regions.txt"
check "regions: 12 events, all with a stack and a site" \
  grep -q '^12 events, 12 with a stack, 12 with a call site' "$T/regions.txt"
# the same from a converted log: the stacks are stored and read back
check "calling: convert keeps the stacks" "$B" convert -q -o "$T/calling.h5" "$T/calling.otf2"
"$B" callsites -q --format tsv "$T/calling.h5" >"$T/calling_h5.tsv"
check "calling: the converted log gives the same sites" cmp -s "$T/calling.tsv" "$T/calling_h5.tsv"
check "calling: the log has /stacks" sh -c "h5ls '$T/calling.h5' | grep -q stacks"

# ---- no calling context: the same events, and the message says what to record ----
for k in none regions calling; do
  "$B" convert -q -o "$T/${k}_c.h5" "$T/$k.otf2"
  "$B" info --json "$T/${k}_c.h5" >"$T/$k.json"
  "$B" stats -q --format tsv "$T/${k}_c.h5" >"$T/$k.stats"
done
check "none: 12 events" test "$(json "$T/none.json" 'j["events"]')" = 12
for k in regions calling; do
  check "$k: the same events as without context" \
    test "$(json "$T/$k.json" 'j["events"]')" = "$(json "$T/none.json" 'j["events"]')"
  check "$k: the same counts, time and bytes per activity" \
    test "$(cut -f1-4,6,8 "$T/$k.stats")" = "$(cut -f1-4,6,8 "$T/none.stats")"
done
check "none: no /stacks" sh -c "! h5ls '$T/none_c.h5' | grep -q stacks"
"$B" callsites -q "$T/none.otf2" >"$T/none.txt"
check "none: says the archive has no calling context" grep -q 'This log has no call stacks' "$T/none.txt"
check "none: says what to record" grep -q 'SCOREP_ENABLE_UNWINDING=true' "$T/none.txt"
check "none: events without a stack" grep -q '^12 events, 0 with a stack' "$T/none.txt"
# a real Score-P archive recorded with --nocompiler (tests/data/otf2/README) has only wrappers
"$B" callsites -q "$IODFG_TEST_DATA/otf2/iomix/traces.otf2" >"$T/iomix.txt"
check "Score-P --nocompiler: no call stacks" grep -q 'This log has no call stacks' "$T/iomix.txt"

# ---- the site field splits an activity ----
printf 'map call = write,pwrite64 => writes:{site}\n' >"$T/site.rules"
printf 'map site = write_header => header-writes\n' >"$T/header.rules"
for k in regions calling; do
  "$B" dfg -q --format json --rules "$T/site.rules" "$T/$k.otf2" >"$T/$k.dfg.json"
  count() { json "$T/$k.dfg.json" "sum(a['count'] for a in j['activities'] if a['activity']=='$1')"; }
  check "$k: writes split by site (4 from write_header, 3 from write_payload)" \
    test "$(count writes:write_header) $(count writes:write_payload)" = "4 3"
  "$B" dfg -q --format json --rules "$T/header.rules" "$T/${k}_c.h5" >"$T/$k.dfg.json"
  check "$k: map site = write_header (converted log)" test "$(count header-writes)" = 4
  "$B" stats -q --format tsv --filter 'site=read_back' "$T/$k.otf2" >"$T/$k.read_back"
  check "$k: the filter site=read_back keeps one event" \
    test "$(tail -n +2 "$T/$k.read_back" | awk -F'\t' '{ n += $2 } END { print n }')" = 1
done

# ---- insights name the call sites ----
"$B" insights -q --threshold min-ops=1 "$T/calling.otf2" >"$T/insights.txt"
# the archive's own file:line (no libdw involved)
check "insights: small writes from write_header at ctx.c:12 (4 calls)" \
  grep -q 'call sites: write_header at ctx.c:12 (4 calls)' "$T/insights.txt"
check "insights: small pwrite64 from write_payload at ctx.c:23 (3 calls)" \
  grep -q 'call sites: write_payload at ctx.c:23 (3 calls)' "$T/insights.txt"

# ---- malformed context: counted and reported, the events and the other stacks unchanged ----
check "calling, bad: converts" \
  sh -c "'$B' convert -o '$T/cbad.h5' '$T/calling_bad.otf2' >'$T/cbad.out' 2>&1"
check "calling, bad: reports 2 unparsable records" grep -q 'Skipped 2 unparsable lines' "$T/cbad.out"
check "calling, bad: names the undefined calling context" \
  grep -q 'location 0: CallingContextEnter of calling context 99, not defined' "$T/cbad.out"
"$B" info --json "$T/cbad.h5" >"$T/cbad.json"
check "calling, bad: 12 events" test "$(json "$T/cbad.json" 'j["events"]')" = 12
"$B" callsites -q --format tsv "$T/cbad.h5" >"$T/cbad.tsv"
# (read_back's parent chain loops there: its stack is cut, its site is the same)
check "calling, bad: the same sites" cmp -s "$T/calling.tsv" "$T/cbad.tsv"
"$B" callsites --format tsv "$T/regions_bad.otf2" >"$T/rbad.tsv" 2>"$T/rbad.err"
check "regions, bad: the Leave without Enter is reported" \
  grep -q 'unparsable.*location 0: Leave of region 3 without its Enter' "$T/rbad.err"
check "regions, bad: the same sites" cmp -s "$T/regions.tsv" "$T/rbad.tsv"
finish
