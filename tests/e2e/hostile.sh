#!/bin/sh
# End-to-end: traces whose file names, paths and case names carry terminal controls (CSI, OSC,
# C1, BEL) never put a raw control byte on standard output or standard error, whatever the
# command and format; tables cap long cells while TSV and JSON keep them whole.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
H="$T/traces"
mkdir "$H"
esc=$(printf '\033') bel=$(printf '\007') csi8=$(printf '\302\233')
# names: an ANSI colour, an OSC 52 clipboard write, an 8-bit CSI
n1="e${esc}[31mvil_node${bel}1_11.st"
n2="osc${esc}]52;c;aGk=${bel}_node1_12.st"
n3="c1${csi8}2Jx_node1_13.st"
# paths: OSC title, CSI clear screen, an 8-bit CSI, DEL, and strace's own octal escape
for f in "$n1" "$n2" "$n3"; do
  {
    printf '1 08:00:00.000001 openat(AT_FDCWD, "/tmp/t", O_RDONLY) = 3</tmp/%s]0;pwned%sx> <0.000010>\n' "$esc" "$bel"
    printf '1 08:00:00.000011 read(3</tmp/%s]0;pwned%sx>, "", 10) = 10 <0.000002>\n' "$esc" "$bel"
    printf '1 08:00:00.000020 write(4</scratch/%s[2J%sred\177>, "", 5) = 5 <0.000003>\n' "$esc" "$csi8"
    printf '1 08:00:00.000030 lseek(4</scratch/%s[2J%sred\177>, 0, SEEK_SET) = 0 <0.000001>\n' "$esc" "$csi8"
    printf '1 08:00:00.000040 read(5</p/\\33[1mbold>, "", 4) = 4 <0.000002>\n'
    printf '1 08:00:00.000050 close(3</tmp/%s]0;pwned%sx>) = 0 <0.000001>\n' "$esc" "$bel"
    printf '1 08:00:00.000060 this is %s[5m not a line\n' "$esc"
  } >"$H/$f"
done

. "$IODFG_SRCDIR/tests/e2e/hostile_lib.sh"

# run NAME ARGS...: run iodfg, keep its output, check it for raw controls
run() {
  name=$1; shift
  set +e; "$IODFG_BIN" "$@" >"$T/$name.out" 2>"$T/$name.err" </dev/null; rc=$?; set -e
  echo "$rc" >"$T/$name.rc"
  check "$name: no raw control on stdout or stderr" raw "$T/$name.out" "$T/$name.err"
}

# exits NAME CODE WHAT: NAME's run ended with CODE; if not, show its status and error output
exits() {
  if [ "$(cat "$T/$1.rc")" = "$2" ]; then ok "$1: $3"; return; fi
  fail "$1: $3 (exit status $(cat "$T/$1.rc"), expected $2)"
  sed 's/^/  stderr: /' "$T/$1.err" | head -20 | cat -v
}

for loc in C.UTF-8 C; do
  export LC_ALL=$loc
  run "convert-$loc" convert -f -o "$T/h.h5" "$H"
  exits "convert-$loc" 0 succeeded
  run "info-$loc" info --cases 0 "$T/h.h5"
  run "info-json-$loc" info --json "$T/h.h5"
  run "info-traces-$loc" info "$H"
  for fmt in table tsv json; do
    run "stats-$fmt-$loc" stats --transitions --format "$fmt" "$T/h.h5"
    run "stats-gr-$fmt-$loc" stats --transitions --format "$fmt" --green "name~^e" "$T/h.h5"
    run "characterize-$fmt-$loc" characterize --format "$fmt" --by file "$T/h.h5"
    run "bandwidth-$fmt-$loc" bandwidth --format "$fmt" --by case "$T/h.h5"
    run "handles-$fmt-$loc" handles --format "$fmt" "$T/h.h5"
  done
  for fmt in dot tsv json; do
    run "dfg-$fmt-$loc" dfg --format "$fmt" "$T/h.h5"
  done
  run "dfg-gr-$loc" dfg --green "name~^e" "$T/h.h5"
  # errors that name hostile things
  run "missing-$loc" stats "$H/nope${esc}[2J.st"
  run "badfilter-$loc" stats --filter "path~(${esc}[2J" "$T/h.h5"
  printf 'map path ~ (%s]0;x%s => y\n' "$esc" "$bel" >"$T/bad${esc}[1m.rules"
  run "badrules-$loc" stats --rules "$T/bad${esc}[1m.rules" "$T/h.h5"
  exits "badrules-$loc" 1 refused
done
unset LC_ALL

# The hostile bytes arrived in the data formats, escaped, not dropped.
check "TSV keeps the path, escaped" grep -q '/tmp/\\x1b\]0;pwned\\x07x' "$T/stats-tsv-C.out"
check "JSON keeps the path, escaped" grep -q '/tmp/\\u001b\]0;pwned\\u0007x' "$T/stats-json-C.out"
check "table shows the case name, escaped" grep -q 'e\\e\[31mvil' "$T/info-C.UTF-8.out"
# Messages escape a name once, as tables do: ESC as \e, not as \\e (a second pass would escape
# the first one's backslashes), in convert's summary, in stats' note and in an error.
check "convert's summary names the first bad line, escaped once" \
  grep -qF 'the first: '"$H"'/c1\u009b2Jx_node1_13.st:7:' "$T/convert-C.out"
LC_ALL=C "$IODFG_BIN" stats "$H" 2>"$T/note.err" >/dev/null
check "stats' note, escaped once" grep -qF '/c1\u009b2Jx_node1_13.st:7:' "$T/note.err"
check "an error naming a missing file, escaped once" \
  grep -qF 'nope\e[2J.st: cannot open' "$T/missing-C.err"
check "no message escapes twice" sh -c "! grep -qF '\\\\' '$T'/*.err"

# A 5 MB path: the table cell is capped, TSV and JSON keep it whole.
"$PY" -c 'import sys; p="/p/"+"a"*5000000; sys.stdout.write("1 08:00:00.000001 read(3<%s>, \"\", 1) = 1 <0.000001>\n" % p)' >"$T/long_node1_1.st"
"$IODFG_BIN" stats -q "$T/long_node1_1.st" >"$T/long.txt"
check "table: a 5 MB path makes a short table" test "$(wc -c <"$T/long.txt")" -lt 20000
"$IODFG_BIN" stats -q --format tsv "$T/long_node1_1.st" >"$T/long.tsv"
check "TSV: the 5 MB path whole" test "$(wc -c <"$T/long.tsv")" -gt 5000000
finish
