#!/bin/sh
# End-to-end: iodfg on a login node as support staff use it, where the locale may be C, input
# is not a terminal, and traces, file names and paths belong to somebody else.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
D=$IODFG_TEST_DATA/traces
"$IODFG_BIN" convert -q -o "$T/ior.h5" "$D/ior"

# expect STATUS DESCRIPTION PATTERN COMMAND...: the exit status and a line of stderr
expect() {
  want=$1; d=$2; pat=$3; shift 3
  set +e; "$@" >"$T/out" 2>"$T/err" </dev/null; rc=$?; set -e
  if [ "$rc" -eq "$want" ] && grep -q -- "$pat" "$T/err"; then ok "$d"; else
    fail "$d (exit $rc, wanted $want)"; cat "$T/err"; fi
}

# The terminal UI without a terminal refuses at once instead of spinning.
expect 2 "no terminal: refused with status 2" "needs a terminal" \
  timeout 10 "$IODFG_BIN" "$T/ior.h5"
expect 2 "no terminal (tui): refused" "needs a terminal" timeout 10 "$IODFG_BIN" tui "$T/ior.h5"
# `iodfg [tui options] LOG`: the synopsis' optional `tui`
printf 'map => {call}\n' >"$T/r.rules"
expect 2 "iodfg --rules F LOG is the TUI" "needs a terminal" \
  timeout 10 "$IODFG_BIN" --rules "$T/r.rules" "$T/ior.h5"
expect 2 "iodfg --theme dark LOG is the TUI" "needs a terminal" \
  timeout 10 "$IODFG_BIN" --theme dark "$T/ior.h5"
expect 1 "a missing log is named" "cannot open 'nope.h5'" "$IODFG_BIN" nope.h5

# Case identity: one directory per configuration with same-named files (process_inspector's
# layout), a pattern over the path below the argument, and a symlink loop read once.
mkdir -p "$T/pi/ssf" "$T/pi/fpp"
for c in ssf fpp; do for r in 0 1; do
  cp "$D/paper/a_host1_14637.st" "$T/pi/$c/stio.$r.jwc01.juwels.st"
done; done
ln -s . "$T/pi/ssf/again"
"$IODFG_BIN" convert -o "$T/pi.h5" --name-pattern '{cid}/stio.{rid}.{host}.juwels.st' "$T/pi" \
  >"$T/pi.out" 2>"$T/pi.err"
"$IODFG_BIN" info --json "$T/pi.h5" >"$T/pi.json"
check "same-named files: four cases, not two" test "$(json "$T/pi.json" 'j["cases"]')" = 4
check "same-named files: names carry the directory" test \
  "$(json "$T/pi.json" '" ".join(sorted(c["name"] for c in j["case_list"]))')" = \
  "fpp/stio.0.jwc01.juwels fpp/stio.1.jwc01.juwels ssf/stio.0.jwc01.juwels ssf/stio.1.jwc01.juwels"
check "the pattern sees the directory: cid" test \
  "$(json "$T/pi.json" '" ".join(sorted(set(c["cid"] for c in j["case_list"])))')" = "fpp ssf"
check "a symlink to . is not followed twice, and said" grep -q "1 directory and 0 files reached again" "$T/pi.err"
check "renamed cases are said" grep -q "4 trace files share a name with another" "$T/pi.err"
expect 2 "a pattern without cid" "no cid field" "$IODFG_BIN" convert -o "$T/x.h5" --name-pattern 'stio.{rid}.{host}.st' "$T/pi"
expect 2 "a field twice" "'rid' appears twice" "$IODFG_BIN" convert -o "$T/x.h5" --name-pattern '{cid}.{rid}.{rid}.st' "$T/pi"

# A rule whose regex hits the match limit counts as not matching: the next rule decides, and
# the commands say so.
"$PY" -c 'print("1 08:00:00.000001 read(3</%s!>, \"x\", 1) = 1 <0.000001>" % ("a" * 4000))
print("1 08:00:00.000002 read(3</short>, \"x\", 1) = 1 <0.000001>")' >"$T/lim_h_1.st"
printf 'map path ~ ^/(a|aa)+$ => catastrophic\nmap path ~ ^/ => ok\n' >"$T/lim.rules"
"$IODFG_BIN" stats --format tsv --rules "$T/lim.rules" "$T/lim_h_1.st" >"$T/lim.tsv" 2>"$T/lim.err"
check "match limit: the key is mapped by the next rule" grep -q '^ok	2	' "$T/lim.tsv"
check "match limit: said with the rule line" grep -q "rule line 1 hit the PCRE2 match limit" "$T/lim.err"
"$IODFG_BIN" stats -q --format json --rules "$T/lim.rules" "$T/lim_h_1.st" >"$T/lim.json"
check "match limit: in the JSON" test "$(json "$T/lim.json" 'j["rules_match_limit"]["keys"], j["rules_match_limit"]["line"]')" = "1 1"

# Mixed clocks (strace -tt and -ttt): said at convert, in info and in the analyses; concurrency
# is per clock, binned measures keep the largest clock, and --align start compares them all.
F=$IODFG_TEST_DATA/traces/formats
"$IODFG_BIN" convert -o "$T/mix.h5" "$F/fmt_tt_host1_2.st" "$F/fmt_ttt_host1_3.st" >"$T/mix.out"
check "mixed clocks: convert warns" grep -q "different clocks (1 time-of-day, 1 epoch files)" "$T/mix.out"
"$IODFG_BIN" info "$T/mix.h5" >"$T/mix.info"
check "mixed clocks: info names them" grep -q "^Clocks      1 time-of-day, 1 epoch cases" "$T/mix.info"
"$IODFG_BIN" stats "$T/mix.h5" >/dev/null 2>"$T/mix.err"
check "mixed clocks: stats says mc is per clock" grep -q "computed per clock" "$T/mix.err"
"$IODFG_BIN" characterize "$T/mix.h5" >"$T/mix.char" 2>"$T/mix.cerr"
check "mixed clocks: characterize keeps one clock and says so" grep -q "only the 1 .* cases are characterised" "$T/mix.cerr"
check "mixed clocks: one case characterised" grep -q "^== selection: 1 case(s)" "$T/mix.char"
"$IODFG_BIN" characterize --align start "$T/mix.h5" >"$T/mix.align" 2>"$T/mix.aerr"
check "--align start: both cases, no note" sh -c "grep -q '^== selection: 2 case(s)' '$T/mix.align' && ! grep -q clock '$T/mix.aerr'"
expect 2 "--align takes start" "--align expects 'start'" "$IODFG_BIN" stats --align end "$T/mix.h5"

# Counts and plurals: exit_group never returns, so it lacks no duration.
printf '1 08:00:00.000001 read(3</a>, "", 1) = 0 <0.000001>\n1 08:00:00.2 exit_group(0) = ?\n1 08:00:00.3 +++ exited with 0 +++\n' >"$T/one_h_1.st"
"$IODFG_BIN" convert -o "$T/one.h5" "$T/one_h_1.st" >"$T/conv.out"
check "one file, one exit: singular" grep -q "Read 1 trace file (.*, 3 lines): 2 events. Not events: 1 exit\." "$T/conv.out"
check "exit_group is not an event without a duration" sh -c "! grep -q 'no duration' '$T/conv.out'"

# A .h5 that is not HDF5 is an error naming it, not a trace; an HDF5 file is no trace either.
printf 'not hdf5\n' >"$T/text.h5"
: >"$T/empty.h5"
expect 1 "text named .h5: refused" "text.h5: not an HDF5 event log" "$IODFG_BIN" info "$T/text.h5"
expect 1 "empty .h5: refused" "empty.h5: not an HDF5 event log.*empty" "$IODFG_BIN" info "$T/empty.h5"
expect 1 "an event log given to convert" "is an HDF5 file, not a trace" \
  "$IODFG_BIN" convert -o "$T/again.h5" "$T/one.h5"
# A convert that finds no event writes nothing and fails.
printf 'garbage\n' >"$T/junk_h_2.st"
expect 1 "no event anywhere: an error" "no system-call event in any input" \
  "$IODFG_BIN" convert -o "$T/none.h5" "$T/junk_h_2.st"
check "no event anywhere: nothing written" test ! -e "$T/none.h5"

# A convert killed with -9 leaves its temp file; the next convert there removes it and says so.
# (A trace large enough to catch convert at work, doubled until it is caught.)
for lines in 200000 800000 3200000; do
  "$PY" "$IODFG_SRCDIR/tests/tools/busy_trace.py" "$lines" >"$T/slow_h_3.st"
  "$IODFG_BIN" convert -q -f -o "$T/killed.h5" "$T/slow_h_3.st" &
  pid=$!
  while kill -0 $pid 2>/dev/null && [ -z "$(ls -A "$T" | grep '^\.killed\.h5\.tmp-')" ]; do sleep 0.01; done
  kill -9 $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  [ -z "$(ls -A "$T" | grep '^\.killed\.h5\.tmp-')" ] || break
done
rm -f "$T/slow_h_3.st" "$T/killed.h5"
check "a killed convert leaves its temp file" test -n "$(ls -A "$T" | grep '^\.killed\.h5\.tmp-')"
"$IODFG_BIN" convert -q -o "$T/next.h5" "$T/one_h_1.st" 2>"$T/stale.err"
check "the next convert removes it" test -z "$(ls -A "$T" | grep '^\.killed\.h5\.tmp-')"
check "and says so" grep -q "removed .*\.killed\.h5\.tmp-.*left by a convert (process $pid) that was killed" "$T/stale.err"

finish
