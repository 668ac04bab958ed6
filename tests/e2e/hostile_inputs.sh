#!/bin/sh
# End-to-end: every kind of input the program reads (strace traces, CSV event logs, HDF5 logs,
# OTF2 archives, rules, thresholds, counters, mount tables, session and theme files) fed what a
# hostile or unlucky user gives: a FIFO, /dev/zero, a directory, a symbolic link loop, the file
# cut short, bytes flipped, huge numbers, NUL/ESC/invalid UTF-8 in its strings, an unterminated
# quote. Each run: the exit status, the message, no raw control byte on the terminal, and for
# traces and CSV logs every line counted (events + other kinds + skipped = lines read).
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/hostile_lib.sh"
D=$IODFG_TEST_DATA
B=$IODFG_BIN

# A few good inputs of each kind.
cp "$D/traces/ior/fpp_node1_14745.st" "$T/good_h_1.st"
"$B" convert -q -o "$T/log.h5" "$D/traces/ior"
"$B" export -q --format csv -o "$T/good.csv" "$D/traces/ior"
cp "$D/rules/ior.rules" "$T/good.rules"
"$B" insights --list | sed -n '/^thresholds:/,/^rule presets/p' | sed '1d;$d;s/^  //' >"$T/good.conf"
cp "$D/counters/two_servers.csv" "$T/good.counters.csv"
printf '/ / ext4 rw 0 0\n/scratch /scratch lustre rw 0 0\n' >"$T/good.mounts"
printf 'view activities\npaths 90\nrule map path ~ ^/usr => usr\n' >"$T/good.session"
cp "$IODFG_SRCDIR/themes/dark.theme" "$T/good.theme"
otf2=
if "$B" --version | grep -q 'OTF2 input yes'; then
  otf2=1
  cp -R "$D/otf2/iomix" "$T/arch"
fi

# run NAME CMD...: iodfg CMD (60 s at most: nothing may block), its status in $rc
run() {
  name=$1; shift
  set +e
  timeout 60 "$B" "$@" >"$T/$name.out" 2>"$T/$name.err" </dev/null
  rc=$?
  set -e
}
# tty NAME CMD...: the same in a terminal (the TUI, told to quit once it runs), standard error
# apart (its drawing is not checked for controls)
tty() {
  name=$1; shift
  set +e
  "$PY" "$IODFG_SRCDIR/tests/e2e/tty_run.py" "$T/$name.err" "$B" "$@" </dev/null
  rc=$?
  set -e
  : >"$T/$name.out"
}
# expect NAME STATUSES PATTERN: the run ended with one of STATUSES ("0 1"), its error output
# matches PATTERN (grep -E; "" for any), and no raw control byte reached stdout or stderr
expect() {
  case " $2 " in *" $rc "*) st=1 ;; *) st= ;; esac
  if [ -n "$st" ] && { [ -z "$3" ] || grep -qE -- "$3" "$T/$1.err"; } &&
    raw "$T/$1.out" "$T/$1.err"; then
    ok "$1: exit $rc"
  else
    fail "$1: exit $rc (want $2), message /$3/"
    head -5 "$T/$1.err" | cat -v | sed 's/^/  stderr: /'
  fi
}
# accounted NAME LOG: every line of the trace LOG was converted from (convert's summary on
# NAME.out says how many) is an event, a line of another kind, or was counted as unparsable
accounted() {
  n=$(sed -n 's/.*B, \([0-9]*\) lines).*/\1/p' "$T/$1.out" | head -1)
  "$B" info --json "$2" >"$T/$1.json"
  sum=$(json "$T/$1.json" 'sum(j["lines"][k] for k in ("events", "merged", "signals", "exits",
    "restarts", "notices", "blank", "unparsable"))')
  check "$1: $n lines read, all counted ($sum)" test -n "$n" -a "$sum" -eq "$n"
}
# rows NAME: the same for a CSV event log, from convert's summary (rows that cannot be read
# belong to no case): header + events + blank lines + unparsable rows = lines
rows() {
  "$PY" - "$T/$1.out" <<'PY' || fail "$1: rows not all counted"
import re, sys
s = open(sys.argv[1]).read()
n = int(re.search(r"B, (\d+) lines\)", s).group(1))
e = int(re.search(r"\): (\d+) events?", s).group(1))
b = int((re.search(r"(\d+) blank lines?", s) or re.search("()", "")).group(1) or 0)
u = int((re.search(r"Skipped (\d+) unparsable", s) or re.search("()", "")).group(1) or 0)
print("ok - %s: %d lines = header + %d events + %d blank + %d unparsable" % (sys.argv[1], n, e, b, u))
sys.exit(0 if n == 1 + e + b + u else 1)
PY
}

# ---- the file itself: FIFO, device, directory, link loop, missing (every kind) --------------
# kind, suffix, command (@ is the input)
kinds="trace .st convert -q -f -o $T/o.h5 @
csv .csv convert -q -f -o $T/o.h5 @
h5 .h5 stats @
rules .rules stats --rules @ $T/log.h5
thresholds .conf insights --thresholds @ $T/log.h5
counters .csv characterize --counters @
mounts .mounts convert -q -f -o $T/o.h5 --mounts @ $T/good_h_1.st"
[ -z "$otf2" ] || kinds="$kinds
otf2 .otf2 convert -q -f -o $T/o.h5 @"
while read -r kind suffix cmd; do
  mkdir -p "$T/f/$kind"
  F=$T/f/$kind
  mkfifo "$F/fifo_h_1$suffix"
  ln -s /dev/zero "$F/zero_h_2$suffix"
  mkdir "$F/dir_h_3$suffix"
  ln -s "$F/loop_b$suffix" "$F/loop_a$suffix"
  ln -s "$F/loop_a$suffix" "$F/loop_b$suffix"
  for c in fifo_h_1 zero_h_2 dir_h_3 loop_a missing; do
    # shellcheck disable=SC2046 # the command's words (no blanks in the paths of $T)
    set -- $(echo "$cmd" | sed "s|@|$F/$c$suffix|")
    run "$kind-$c" "$@"
    case $c in
    fifo_h_1) want='a FIFO \(named pipe\), not a regular file' ;;
    zero_h_2) want='a character device, not a regular file' ;;
    loop_a) want='Too many levels of symbolic links' ;;
    missing) want='No such file or directory' ;;
    dir_h_3) # a directory where traces may be given is searched for them
      case $kind in trace | csv | h5 | otf2) want='no trace files' ;; *) want='Is a directory' ;; esac ;;
    esac
    expect "$kind-$c" 1 "$want"
  done
done <<KINDS
$kinds
KINDS
# the same for the TUI's session and theme files (the UI refuses to start)
for what in session theme; do
  F=$T/f/$what
  mkdir -p "$F"
  mkfifo "$F/fifo"
  ln -s /dev/zero "$F/zero"
  mkdir "$F/dir"
  ln -s "$F/b" "$F/a"
  ln -s "$F/a" "$F/b"
  for c in fifo zero dir a; do
    tty "$what-$c" tui --"$what" "$F/$c" "$T/log.h5"
    case $c in
    fifo) want='a FIFO' ;; zero) want='a character device' ;; dir) want='Is a directory' ;;
    a) want='Too many levels of symbolic links' ;;
    esac
    expect "$what-$c" 1 "$want"
  done
done

# ---- cut short and bytes flipped (every kind) ------------------------------------------------
# cut FILE OUT: the first half of FILE; flip FILE OUT SEED: 20 bytes changed at random, with
# seeds 1 2 3 (HOSTILE_SEEDS; make check-fast gives one)
cut() { "$PY" -c 'import sys; d=open(sys.argv[1],"rb").read(); open(sys.argv[2],"wb").write(d[:len(d)//2])' "$1" "$2"; }
flip() { "$PY" -c '
import random, sys
d = bytearray(open(sys.argv[1], "rb").read()); r = random.Random(int(sys.argv[3]))
for _ in range(20):
    d[r.randrange(len(d))] = r.randrange(256)
open(sys.argv[2], "wb").write(d)' "$1" "$2" "$3"; }
seeds=${HOSTILE_SEEDS:-1 2 3}
for how in cut flip; do
  for s in $seeds; do
    [ "$how" = flip ] || [ "$s" = "${seeds%% *}" ] || continue
    $how "$T/good_h_1.st" "$T/$how${s}_h_1.st" $s
    run "trace-$how$s" convert -f -o "$T/t.h5" "$T/$how${s}_h_1.st"
    expect "trace-$how$s" 0 ""
    accounted "trace-$how$s" "$T/t.h5"
    $how "$T/good.csv" "$T/$how$s.csv" $s
    run "csv-$how$s" convert -f -o "$T/c.h5" "$T/$how$s.csv"
    expect "csv-$how$s" "0 1" ""
    [ "$rc" != 0 ] || rows "csv-$how$s"
    $how "$T/log.h5" "$T/$how$s.h5" $s
    run "h5-$how$s" stats --format tsv "$T/$how$s.h5"
    expect "h5-$how$s" "1" "$how$s.h5: "
    for k in rules:stats:--rules conf:insights:--thresholds counters.csv:characterize:--counters; do
      ext=${k%%:*} rest=${k#*:} sub=${rest%%:*} opt=${rest#*:}
      $how "$T/good.$ext" "$T/$how$s.$ext" $s
      if [ "$sub" = characterize ]; then
        run "$ext-$how$s" characterize "$opt" "$T/$how$s.$ext"
      else
        run "$ext-$how$s" "$sub" "$opt" "$T/$how$s.$ext" "$T/log.h5"
      fi
      # a text that still parses is fine; one that does not is named with its line
      expect "$ext-$how$s" "0 1" ""
      [ "$rc" = 0 ] || check "$ext-$how$s: the line named" grep -qE "$how$s.$ext:[0-9]+(:[0-9]+)?: " "$T/$ext-$how$s.err"
    done
    for what in session theme; do
      $how "$T/good.$what" "$T/$how$s.$what" $s
      tty "$what-$how$s" tui --"$what" "$T/$how$s.$what" "$T/log.h5"
      # the UI starts (and quits) or refuses to, naming a line
      expect "$what-$how$s" "0 1" ""
      [ "$rc" != 1 ] || check "$what-$how$s: the line named" grep -qE "$how$s.$what:[0-9]+" "$T/$what-$how$s.err"
    done
  done
done
if [ -n "$otf2" ]; then
  for f in traces.def traces/0.evt; do
    for how in cut flip; do
      rm -rf "$T/a2" && cp -R "$T/arch" "$T/a2"
      $how "$T/arch/$f" "$T/a2/$f" 7
      run "otf2-$how-${f##*/}" convert -f -o "$T/t.h5" "$T/a2/traces.otf2"
      expect "otf2-$how-${f##*/}" "0 1" ""
    done
  done
  # definitions and events whose counts make libotf2 ask for 32 and 16 GB (fuzz_otf2's
  # findings): refused with libotf2's words, touching little memory. Under ASan a malloc over
  # 2 GiB returns NULL as on a smaller machine (its allocator would abort, or fill the shadow)
  asan=${ASAN_OPTIONS:-}
  ASAN_OPTIONS="$asan:allocator_may_return_null=1:max_allocation_size_mb=2048" && export ASAN_OPTIONS
  for f in "def traces.def global definitions" "evt traces/0.evt events of location 0"; do
    # shellcheck disable=SC2086 # the words of one case
    set -- $f
    ext=$1 file=$2
    shift 2
    rm -rf "$T/a2" && cp -R "$T/arch" "$T/a2"
    cp "$D/otf2/damaged/huge_count.$ext" "$T/a2/$file"
    run "otf2-huge-$ext" convert -f -o "$T/t.h5" "$T/a2/traces.otf2"
    expect "otf2-huge-$ext" 1 "a2/traces.otf2: $*: "
  done
  ASAN_OPTIONS=$asan
  # the anchor with the byte that makes libotf2 loop: refused, not a hang
  rm -rf "$T/a2" && cp -R "$T/arch" "$T/a2"
  "$PY" -c 'import sys; d=bytearray(open(sys.argv[1],"rb").read()); d[46]^=1; open(sys.argv[1],"wb").write(d)' "$T/a2/traces.otf2"
  run otf2-anchor convert -f -o "$T/t.h5" "$T/a2/traces.otf2"
  expect otf2-anchor 1 "damaged OTF2 archive: libotf2 did not finish loading its anchor file"
fi

# ---- huge numbers ----------------------------------------------------------------------------
big=99999999999999999999999999
{
  printf '1 08:00:00.000001 read(3</a>, "", 1) = %s <0.000001>\n' "$big"
  printf '1 08:00:00.000002 pread64(3</a>, "", 1, %s) = 1 <0.000001>\n' "$big"
  printf '1 08:00:00.000003 read(3</a>, "", 1) = 1 <%s.5>\n' "$big"
  printf '1 08:00:00.000004 read(3</a>, "", 1) = 1 <-0.000011>\n'
  printf '1 08:00:00.000005 read(3</a>, "", 1) = 1 <0.000001>\n'
} >"$T/huge_h_1.st"
run trace-huge convert -f -o "$T/t.h5" "$T/huge_h_1.st"
expect trace-huge 0 ""
check "trace-huge: 4 lines skipped, each said" grep -q "Skipped 4 unparsable lines; the first: .*huge_h_1.st:1:" "$T/trace-huge.out"
accounted trace-huge "$T/t.h5"
printf 'case,call,start,duration,bytes,offset\na,read,1,0.5,%s,0\na,read,2,0.5,1,%s\na,read,%s,0.5,1,0\na,read,4,0.5,1,0\n' \
  "$big" "$big" "$big" >"$T/huge.csv"
run csv-huge convert -f -o "$T/c.h5" "$T/huge.csv"
expect csv-huge 0 ""
check "csv-huge: 3 rows skipped" grep -q "Skipped 3 unparsable lines" "$T/csv-huge.out"
rows csv-huge
printf 'small-io-size = %s\n' "$big" >"$T/huge.conf"
run conf-huge insights --thresholds "$T/huge.conf" "$T/log.h5"
expect conf-huge 1 "huge.conf:1:"
printf 'server,time,bytes_read,bytes_written,read_ops,write_ops,opens,closes\nio1,0,1e999,0,0,0,0,0\n' >"$T/huge.counters.csv"
run counters-huge characterize --counters "$T/huge.counters.csv"
expect counters-huge 1 "huge.counters.csv:2:"
printf 'paths %s\n' "$big" >"$T/huge.session"
tty session-huge tui --session "$T/huge.session" "$T/log.h5"
expect session-huge 1 "huge.session:1:7: expected a number from 0 to 100"
printf '[palette]\naccent = %s\n' "$big" >"$T/huge.theme"
tty theme-huge tui --theme "$T/huge.theme" "$T/log.h5"
expect theme-huge 1 "huge.theme:2:"

# ---- NUL, ESC and invalid UTF-8 in string fields ---------------------------------------------
ctl=$(printf 'x\033]0;pwned\007\377\376y')
{
  printf '1 08:00:00.000001 read(3</p/%s>, "", 1) = 1 <0.000001>\n' "$ctl"
  printf '1 08:00:00.000002 read(3</p/a\000b>, "", 1) = 1 <0.000001>\n'
  printf '1 08:00:00.000003 %sread(3</a>, "", 1) = 1 <0.000001>\n' "$ctl"
} >"$T/ctl_h_1.st"
run trace-ctl convert -f -o "$T/t.h5" "$T/ctl_h_1.st"
expect trace-ctl 0 ""
accounted trace-ctl "$T/t.h5"
run trace-ctl-stats stats "$T/t.h5"
expect trace-ctl-stats 0 ""
printf 'case,call,path,start\n%s,read,/p/%s,1\nb\000c,read,/q,2\n' "$ctl" "$ctl" >"$T/ctl.csv"
run csv-ctl convert -f -o "$T/c.h5" "$T/ctl.csv"
expect csv-ctl 0 ""
rows csv-ctl
run csv-ctl-info info --cases 0 "$T/c.h5"
expect csv-ctl-info 0 ""
for k in rules:stats:--rules conf:insights:--thresholds; do
  ext=${k%%:*} rest=${k#*:} sub=${rest%%:*} opt=${rest#*:}
  printf 'map path ~ ^/%s => a\000b\n' "$ctl" >"$T/ctl.$ext"
  run "$ext-ctl" "$sub" "$opt" "$T/ctl.$ext" "$T/log.h5"
  expect "$ext-ctl" 1 "ctl.$ext:1:"
done
printf 'server,time,bytes_read,bytes_written,read_ops,write_ops,opens,closes\n%s,0,1,0,0,0,0,0\n' "$ctl" >"$T/ctl.counters.csv"
run counters-ctl characterize --format tsv --counters "$T/ctl.counters.csv"
expect counters-ctl "0 1" ""
printf 'view activities\ng %s\nrule map path ~ \000 => x\n' "$ctl" >"$T/ctl.session"
tty session-ctl tui --session "$T/ctl.session" "$T/log.h5"
expect session-ctl 1 "ctl.session:3:17: expected text, found a NUL byte"
printf '[styles]\n%s = bold\n' "$ctl" >"$T/ctl.theme"
tty theme-ctl tui --theme "$T/ctl.theme" "$T/log.h5"
expect theme-ctl 1 "ctl.theme:2:"
# OTF2: a file's and a rank's (so a case's) names as a tool writes them (C strings: no NUL)
W=$(dirname "$B")/tests/tools/otf2_write
if [ -n "$otf2" ] && [ -x "$W" ]; then
  mkdir "$T/octl"
  "$W" "$T/octl" traces "/p/$ctl" "rank$ctl"
  run otf2-ctl convert -f -o "$T/o.h5" "$T/octl/traces.otf2"
  expect otf2-ctl 0 ""
  for c in "info --cases 0" handles "dfg --format tsv" "export --format csv"; do
    # shellcheck disable=SC2086 # the command's words
    run "otf2-ctl-${c%% *}" $c "$T/o.h5"
    expect "otf2-ctl-${c%% *}" 0 ""
  done
  check "otf2-ctl: the names are shown, escaped" grep -q 'rankx\\e\]0;pwned' "$T/otf2-ctl-info.out"
fi

# ---- an unterminated quote -------------------------------------------------------------------
"$PY" - "$T/good.csv" "$T/quote.csv" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()[:51]
lines[2] = lines[2].replace(",", ',"', 1)  # the second data row: a quote never closed
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY
run csv-quote convert -f -o "$T/c.h5" "$T/quote.csv"
expect csv-quote 0 ""
check "csv-quote: 49 rows of 50 kept, the broken one counted" \
  grep -q "51 lines): 49 events. Skipped 1 unparsable line; the first: .*quote.csv:3:" "$T/csv-quote.out"
rows csv-quote
printf '1 08:00:00.000001 read(3</a>, "abc, 1) = 1 <0.000001>\n1 08:00:00.000002 read(3</a>, "", 1) = 1 <0.000001>\n' >"$T/quote_h_1.st"
run trace-quote convert -f -o "$T/t.h5" "$T/quote_h_1.st"
expect trace-quote 0 ""
accounted trace-quote "$T/t.h5"
printf 'server,time,bytes_read,bytes_written,read_ops,write_ops,opens,closes\n"io1,0,1,0,0,0,0,0\n' >"$T/quote.counters.csv"
run counters-quote characterize --format tsv --counters "$T/quote.counters.csv"
expect counters-quote "0 1" ""
printf 'map path ~ "^/a => a\n' >"$T/quote.rules"
run rules-quote stats --rules "$T/quote.rules" "$T/log.h5"
expect rules-quote "0 1" ""
printf '[styles]\ntitle = fg="red\n' >"$T/quote.theme"
tty theme-quote tui --theme "$T/quote.theme" "$T/log.h5"
expect theme-quote 1 "quote.theme:2:"

# ---- configuration files are capped before they are read -------------------------------------
head -c 17000000 /dev/zero | tr '\0' '#' >"$T/big.rules"
run rules-big stats --rules "$T/big.rules" "$T/log.h5"
expect rules-big 1 "big.rules: the rules file is 17000000 bytes, over the limit of 16 MiB"
head -c 2000000 /dev/zero | tr '\0' '#' >"$T/big.conf"
run conf-big insights --thresholds "$T/big.conf" "$T/log.h5"
expect conf-big 1 "big.conf: the thresholds file is 2000000 bytes, over the limit of 1 MiB"
# the others by their size alone (sparse files: a cap is checked before a byte is read)
truncate -s 257M "$T/big.counters.csv"
run counters-big characterize --counters "$T/big.counters.csv"
expect counters-big 1 "big.counters.csv: the counters file is 269484032 bytes, over the limit of 256 MiB"
truncate -s 17M "$T/big.mounts"
run mounts-big convert -q -f -o "$T/o.h5" --mounts "$T/big.mounts" "$T/good_h_1.st"
expect mounts-big 1 "big.mounts: the mount table is 17825792 bytes, over the limit of 16 MiB"
truncate -s 17M "$T/big.session"
tty session-big tui --session "$T/big.session" "$T/log.h5"
expect session-big 1 "big.session: the session file is 17825792 bytes, over the limit of 16 MiB"
truncate -s 2M "$T/big.theme"
tty theme-big tui --theme "$T/big.theme" "$T/log.h5"
expect theme-big 1 "big.theme: the theme is 2097152 bytes, over the limit of 1 MiB"
finish
