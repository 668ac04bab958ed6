#!/bin/sh
# End-to-end: call sites from strace -k stacks. The program of tests/tools/callsites.c (built
# with -g: write_header, write_payload, read_back in a parent and a forked child, append_log in
# a thread) as recorded once (tests/data/traces/callsites: with -k, and again without) and, where
# ptrace is allowed, recorded now: the functions' calls, bytes and file:line (also of a clang
# build), the event counts with and without stacks, groups, --symbols, and bad stack lines.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B=$IODFG_BIN
PROG=$(dirname "$B")/tests/tools/callsites
SRC=$IODFG_SRCDIR/tests/tools/callsites.c
D=$IODFG_TEST_DATA/traces/callsites

# tsv FILE ACTIVITY_RE SITE COLUMN: a column (activity site object file line calls dur bytes cases)
# of the row of SITE under an activity matching ACTIVITY_RE
tsv() {
  awk -F'\t' -v a="$2" -v s="$3" -v c="$4" 'NR > 1 && $1 ~ a && $2 == s { print $c }' "$1"
}

# ---- the recorded copy ----
"$B" convert -q -o "$T/stacks.h5" "$D/stacks_node1_1.st"
"$B" convert -q -o "$T/plain.h5" "$D/plain_node1_1.st"
"$B" info --json "$T/stacks.h5" >"$T/stacks.json"
"$B" info --json "$T/plain.h5" >"$T/plain.json"
check "recorded: no stack line is unparsable" test "$(json "$T/stacks.json" 'j["lines"]["unparsable"]')" = 0
check "recorded: the same events as without -k" \
  test "$(json "$T/stacks.json" 'j["events"]')" = "$(json "$T/plain.json" 'j["events"]')"
grep -v '^ > ' "$D/stacks_node1_1.st" >"$T/stripped_node1_1.st"
"$B" convert -q -o "$T/stripped.h5" "$T/stripped_node1_1.st"
"$B" stats --format tsv "$T/stacks.h5" >"$T/stats_stacks.tsv"
"$B" stats --format tsv "$T/stripped.h5" >"$T/stats_stripped.tsv"
# (sums of rates may differ in their last digits: split keys add them in another order)
check "recorded: stacks change no count, time, byte or concurrency" \
  test "$(cut -f1-4,6,8 "$T/stats_stacks.tsv")" = "$(cut -f1-4,6,8 "$T/stats_stripped.tsv")"
check "recorded: a log without stacks has no /stacks" sh -c "! h5ls '$T/plain.h5' | grep -q stacks"
check "recorded: the log with stacks has /stacks (format 4.2)" sh -c "h5ls '$T/stacks.h5' | grep -q stacks"

"$B" callsites --format tsv "$T/stacks.h5" >"$T/cs.tsv"
dat='^write:/tmp/iodfg-callsites'
check "write_header: 200 writes of 64 B (parent and child)" \
  test "$(tsv "$T/cs.tsv" "$dat" write_header 6) $(tsv "$T/cs.tsv" "$dat" write_header 8)" = "200 12800"
check "write_payload: 32 writes, 2 MiB" \
  test "$(tsv "$T/cs.tsv" "$dat" write_payload 6) $(tsv "$T/cs.tsv" "$dat" write_payload 8)" = "32 2097152"
check "append_log (the thread): 10 writes of 9 B" \
  test "$(tsv "$T/cs.tsv" "$dat" append_log 6) $(tsv "$T/cs.tsv" "$dat" append_log 8)" = "10 90"
check "read_back: 36 reads, header and payload twice" \
  test "$(tsv "$T/cs.tsv" '^read:/tmp/iodfg-callsites' read_back 6) $(tsv "$T/cs.tsv" '^read:/tmp/iodfg-callsites' read_back 8)" = "36 2109952"
check "the loader's reads have no frame of the program" \
  test "$(tsv "$T/cs.tsv" '^read:/usr/lib' '(no frame of the program)' 6)" = 1
check "the same from the traces directly" sh -c "'$B' callsites --format tsv '$D/stacks_node1_1.st' | cmp -s - '$T/cs.tsv'"
"$B" callsites --format json "$T/stacks.h5" >"$T/cs.json"
check "json: every selected event has a stack" \
  test "$(json "$T/cs.json" 'j["callsites"]["events"] == j["callsites"]["with_stack"] > 0')" = True
"$B" callsites --filter 'call=write' "$T/stacks.h5" >"$T/cs.txt"
check "table: the write activity, its sites ranked by time" \
  sh -c "grep -A1 '^write:/tmp/iodfg-callsites' '$T/cs.txt' | grep -q write_header"
if "$B" --version | grep -q 'libdw no'; then
  check "no libdw: file:line unknown, said so" grep -q 'file:line unknown (no libdw)' "$T/cs.txt"
fi

# the site field: a rule splits one activity by the code that issues it; a filter keeps one site
printf 'map site ~ ^write_header$ => header-writes\nmap call = write => {call}:{site}\n' >"$T/site.rules"
"$B" stats --format tsv --rules "$T/site.rules" "$T/stacks.h5" >"$T/site.tsv"
check "rules: site ~ ^write_header$ => header-writes: 200 events" \
  test "$(awk -F'\t' '$1 == "header-writes" { print $2 }' "$T/site.tsv")" = 200
check "rules: {site} in a template" test "$(awk -F'\t' '$1 == "write:write_payload" { print $2 }' "$T/site.tsv")" = 32
"$B" callsites --format tsv --filter 'site~payload' "$T/stacks.h5" >"$T/payload.tsv"
check "filter: site~payload keeps write_payload's 32 writes only" \
  test "$(awk -F'\t' 'NR > 1 { print $2 ":" $6 }' "$T/payload.tsv")" = "write_payload:32"

# insights name the call sites of a finding's activity
"$B" insights "$T/stacks.h5" >"$T/insights.txt"
check "insights: the small writes' call sites" \
  grep -q 'call sites: write_header (200 calls), write_payload (32 calls), append_log (10 calls)' "$T/insights.txt"
"$B" insights --format json "$T/stacks.h5" >"$T/insights.json"
check "insights json: call_sites" \
  test "$(json "$T/insights.json" '[s["site"] + ":" + str(s["calls"]) for g in j["groups"] for f in g["findings"] for s in f.get("call_sites", [])][0]')" = "write_header:200"
"$B" insights "$T/plain.h5" >"$T/insights_plain.txt"
check "insights: no call sites without stacks" sh -c "! grep -q 'call sites:' '$T/insights_plain.txt'"

# groups: the sites only one group has
"$B" convert -q -o "$T/both.h5" "$D"
"$B" callsites --format tsv --green name=stacks_node1_1 --red name=plain_node1_1 --filter call=write \
  "$T/both.h5" >"$T/groups.tsv"
check "groups: write_header only in G" \
  test "$(awk -F'\t' '$1 == "G" && $3 == "write_header" { print $NF }' "$T/groups.tsv")" = 1
check "groups: R's writes have no stack, only in R" \
  test "$(awk -F'\t' '$1 == "R" && $3 == "(no stack)" { print $7 " " $NF }' "$T/groups.tsv")" = "242 1"

# bad stack lines: an orphan frame (nothing above it), a truncated one, -f lines interleaved
cat >"$T/bad_node1_1.st" <<'TRACE'
 > /usr/lib/x86_64-linux-gnu/libc.so.6(__write+0x4f) [0xf838f]
10 12:00:00.000001 write(3</tmp/a>, "x", 1 <unfinished ...>
11 12:00:00.000002 write(4</tmp/b>, "yy", 2) = 2 <0.000001>
 > /usr/lib/x86_64-linux-gnu/libc.so.6(__write+0x4f) [0xf838f]
 > /tmp/prog(second+0x10) [0x1200]
10 12:00:00.000003 <... write resumed>) = 1 <0.000002>
 > /usr/lib/x86_64-linux-gnu/libc.so.6(__write+0x4f) [0xf838f]
 > /tmp/prog(first+0x
 > /tmp/prog(main+0x20) [0x1300]
TRACE
"$B" convert -o "$T/bad.h5" "$T/bad_node1_1.st" >"$T/bad.out" 2>&1
"$B" info --json "$T/bad.h5" >"$T/bad.json"
check "bad: two events" test "$(json "$T/bad.json" 'j["events"]')" = 2
check "bad: the orphan and the truncated frame are unparsable" test "$(json "$T/bad.json" 'j["lines"]["unparsable"]')" = 2
check "bad: the orphan is named with its line" grep -q 'bad_node1_1.st:1:2: expected a call above this stack frame line' "$T/bad.out"
"$B" callsites --format tsv "$T/bad.h5" >"$T/bad.tsv"
check "bad: the interleaved call keeps its own site" test "$(tsv "$T/bad.tsv" '^write:/tmp/b' second 6)" = 1
check "bad: the truncated frame shifts nothing" test "$(tsv "$T/bad.tsv" '^write:/tmp/a' main 6)" = 1

# a trace without events: an empty report, no error
printf 'x\n > /a(b+0x\n' >"$T/empty_node1_1.st"
check "no events: an empty report" sh -c "'$B' callsites -q '$T/empty_node1_1.st' | grep -q '^0 events, 0 with a stack'"

# ---- recorded now (needs ptrace) ----
if ! command -v strace >/dev/null 2>&1 || ! strace -f -o /dev/null true 2>/dev/null; then
  echo "ok - # SKIP live recording: strace or ptrace is not available"
  finish
fi
if ! strace -k -o /dev/null true 2>/dev/null; then
  echo "ok - # SKIP live recording: this strace has no -k"
  finish
fi
mkdir -p "$T/out" "$T/bin"
cp "$PROG" "$T/bin/callsites"
# a sanitizer build of the program: LeakSanitizer does not work under ptrace
ASAN_OPTIONS=detect_leaks=0 strace -f -k -tt -T -y -o "$T/live_node1_1.st" "$T/bin/callsites" "$T/out"
ASAN_OPTIONS=detect_leaks=0 strace -f -tt -T -y -o "$T/nok_node1_1.st" "$T/bin/callsites" "$T/out"
"$B" convert -q -o "$T/live.h5" "$T/live_node1_1.st"
"$B" convert -q -o "$T/nok.h5" "$T/nok_node1_1.st"
"$B" callsites --format tsv --filter "path~^$T/out" "$T/live.h5" >"$T/live.tsv"
"$B" stats --format tsv --filter "path~^$T/out" "$T/live.h5" >"$T/live_stats.tsv"
"$B" stats --format tsv --filter "path~^$T/out" "$T/nok.h5" >"$T/nok_stats.tsv"
check "live: the program's I/O events are the same with and without -k" \
  test "$(cut -f1,2 "$T/live_stats.tsv" | sort)" = "$(cut -f1,2 "$T/nok_stats.tsv" | sort)"
line_of() { grep -n "$1" "$SRC" | head -1 | cut -d: -f1; }
# check_lines TSV LABEL: the four functions' lines in TSV (callsites --format tsv) are the source's
check_lines() {
  check "$2: write_header's file:line" \
    test "$(tsv "$1" "^write:" write_header 5)" = "$(line_of 'write(fd, h, sizeof h)')"
  check "$2: write_payload's file:line" \
    test "$(tsv "$1" "^write:" write_payload 5)" = "$(line_of 'write(fd, block, sizeof block)')"
  check "$2: append_log's file:line" \
    test "$(tsv "$1" "^write:" append_log 5)" = "$(line_of 'write(fd, "log line')"
  check "$2: read_back's file:line" \
    test "$(tsv "$1" "^read:" read_back 5)" = "$(line_of 'while (read(fd, block')"
}
check "live: write_header 200 calls, 12800 B" \
  test "$(tsv "$T/live.tsv" "^write:" write_header 6) $(tsv "$T/live.tsv" "^write:" write_header 8)" = "200 12800"
if "$B" --version | grep -q 'libdw yes'; then
  check_lines "$T/live.tsv" live
  check "live: the source file" sh -c "awk -F'\t' '\$2 == \"write_header\" { print \$4 }' '$T/live.tsv' | grep -q 'callsites[.]c\$'"
  # insights name the site's file:line (the call with the most events), in text and JSON
  "$B" insights --filter "path~^$T/out" "$T/live.h5" >"$T/live_ins.txt"
  check "live: insights name write_header's file:line" \
    grep -q "write_header at callsites.c:$(line_of 'write(fd, h, sizeof h)') (200 calls)" "$T/live_ins.txt"
  "$B" insights --format json --filter "path~^$T/out" "$T/live.h5" >"$T/live_ins.json"
  check "live: insights json: file and line" \
    test "$(json "$T/live_ins.json" '[str(s["line"]) + ":" + s["file"].rsplit("/", 1)[-1] for g in j["groups"] for f in g["findings"] for s in f.get("call_sites", []) if s["site"] == "write_header"][0]')" = "$(line_of 'write(fd, h, sizeof h)'):callsites.c"
  # the program moved: --symbols finds it by its base name
  mv "$T/bin" "$T/moved"
  "$B" callsites --format tsv --filter "path~^$T/out" "$T/live.h5" >"$T/gone.tsv"
  check "moved: file:line unknown without --symbols" \
    test "$(tsv "$T/gone.tsv" "^write:" write_header 6)/$(tsv "$T/gone.tsv" "^write:" write_header 5)" = "200/"
  "$B" callsites --format tsv --symbols "$T/moved" --filter "path~^$T/out" "$T/live.h5" >"$T/sym.tsv"
  check "moved: --symbols DIR finds it" \
    test "$(tsv "$T/sym.tsv" "^write:" write_header 5)" = "$(line_of 'write(fd, h, sizeof h)')"
fi

# a clang build (also icx, aocc, CCE): no .debug_aranges, where libdw finds a line's unit; the
# lines all the same, from a position-independent program and from one at a fixed address
if ! "$B" --version | grep -q 'libdw yes'; then
  :
elif ! command -v clang >/dev/null 2>&1; then
  echo "ok - # SKIP clang builds: clang is not installed"
else
  for pie in "-fPIE -pie" "-fno-pie -no-pie"; do
    rm -rf "$T/out" && mkdir -p "$T/out" "$T/clang"
    # shellcheck disable=SC2086 # two flags
    if ! clang -g -O0 -fno-inline -pthread $pie -o "$T/clang/callsites" "$SRC" 2>"$T/clang.err"; then
      echo "ok - # SKIP clang $pie: it does not build the program: $(head -1 "$T/clang.err")"
      continue
    fi
    strace -f -k -tt -T -y -o "$T/clang_node1_1.st" "$T/clang/callsites" "$T/out"
    "$B" callsites --format tsv --filter "path~^$T/out" "$T/clang_node1_1.st" >"$T/clang.tsv"
    check_lines "$T/clang.tsv" "clang $pie"
  done
fi
finish
