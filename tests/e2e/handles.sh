#!/bin/sh
# End-to-end: `iodfg handles` on a recorded multi-process trace (sh -c 'cat | wc' under
# strace -f -tt -T -y): lifetimes, inheritance across fork, dups, pre-created descriptors,
# handles never closed; the same table after a round trip through the HDF5 store.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B=$IODFG_BIN
TR=$IODFG_TEST_DATA/traces/formats/fmt_tt_host1_2.st
# field TSV ID NAME: column NAME of handle ID
field() { awk -F '\t' -v id="$2" -v n="$3" 'NR==1{for(i=1;i<=NF;i++)if($i==n)c=i;next} $1==id{print $c}' "$1"; }
# find TSV PID FD ORIGIN: ids of the handles of PID on FD with ORIGIN
find() { awk -F '\t' -v p="$2" -v f="$3" -v o="$4" 'NR>1 && $3==p && $4==f && $5==o{print $1}' "$1"; }
sec() { "$PY" -c "import sys; h,m,s=sys.argv[1].split(':'); print(int(h)*3600+int(m)*60+float(s))" "$1"; }

"$B" handles --format tsv "$TR" >"$T/h.tsv"
# The parent's pipe: pipe2 at .370632, read end closed at .372896 (+0.000021), write end at
# .371054 (+0.000047).
# pipe TSV PID FD: the handle of PID on FD naming pipe:[19029]
pipe() { awk -F '\t' -v p="$2" -v f="$3" 'NR>1 && $3==p && $4==f && $16=="pipe:[19029]"{print $1}' "$1"; }
rd=$(pipe "$T/h.tsv" 14676 3)
wr=$(pipe "$T/h.tsv" 14676 4)
check "pipe ends of pid 14676 found ($rd, $wr)" test -n "$rd" -a -n "$wr"
check "both pipe ends name pipe:[19029]" test "$(field "$T/h.tsv" "$rd" path)$(field "$T/h.tsv" "$wr" path)" = "pipe:[19029]pipe:[19029]"
life=$("$PY" -c "print('%.6f' % (float('$(field "$T/h.tsv" "$rd" destroyed)') - float('$(field "$T/h.tsv" "$rd" created)')))")
want=$("$PY" -c "print('%.6f' % ($(sec 05:39:01.372917) - $(sec 05:39:01.370632)))")
check "read end lives from pipe2 to the end of its close ($want s)" test "$life" = "$want"
life=$("$PY" -c "print('%.6f' % (float('$(field "$T/h.tsv" "$wr" destroyed)') - float('$(field "$T/h.tsv" "$wr" created)')))")
want=$("$PY" -c "print('%.6f' % ($(sec 05:39:01.371101) - $(sec 05:39:01.370632)))")
check "write end closed at the end of the parent's close ($want s)" test "$life" = "$want"
# fork: child 14677 inherits both ends, closes 3, dup2s 4 onto 1, closes 4.
c3=$(find "$T/h.tsv" 14677 3 inherited)
c4=$(find "$T/h.tsv" 14677 4 inherited)
check "child 14677 inherits fd 3 from the parent's read end" test "$(field "$T/h.tsv" "$c3" parent)" = "$rd"
check "child 14677 inherits fd 4 from the parent's write end" test "$(field "$T/h.tsv" "$c4" parent)" = "$wr"
check "an inherited handle has no creation time" test -z "$(field "$T/h.tsv" "$c3" created)"
d1=$(find "$T/h.tsv" 14677 1 dup)
check "dup2(4, 1) in the child: a dup of the inherited write end" test "$(field "$T/h.tsv" "$d1" parent)" = "$c4"
want=$(grep -c '^14677 .*(1<pipe:\[19029\]>' "$TR")
check "the dup counts itself and the child's $want uses of fd 1" test "$(field "$T/h.tsv" "$d1" ops)" = "$((want + 1))"
# its one write: `write(1<pipe:[19029]>, "vm\n", 3 <unfinished ...>` resumed with `= 3`
check "and the 3 bytes written through it" test "$(field "$T/h.tsv" "$d1" bytes_written)" = 3
# every open handle in the table has an openat/open line; pre-created ones no creation time
opens=$(grep -cE '(openat\(.*|<\.\.\. openat resumed>.*)\) = [0-9]+<' "$TR")
pipes=$(grep -cE 'pipe2\(' "$TR")
check "one handle per successful open, two per pipe2" test "$(awk -F '\t' 'NR>1 && $5=="open"' "$T/h.tsv" | wc -l)" -eq "$((opens + 2 * pipes))"
check "pre-created handles have no creation time" test -z "$(awk -F '\t' 'NR>1 && $5=="precreated" && $11!=""' "$T/h.tsv")"
# never closed: the fcntl(1, F_DUPFD, 10) copies whose close strace does not show
"$B" handles --format tsv --open "$TR" >"$T/open.tsv"
check "two handles never closed" test "$(tail -n +2 "$T/open.tsv" | wc -l)" -eq 2
check "one is pid 14678's F_DUPFD copy of stdout" test -n "$(find "$T/open.tsv" 14678 11 dup)"
# JSON and table
"$B" handles --format json "$TR" >"$T/h.json"
check "JSON: count and never_closed" test "$(json "$T/h.json" '"%d %d" % (j["count"], j["never_closed"])')" = "$(($(wc -l <"$T/h.tsv") - 1)) 2"
check "JSON: the parent's read end has a lifetime" test "$(json "$T/h.json" "[h for h in j['handles'] if h['id']==$rd][0]['closed']")" = True
"$B" handles "$TR" >"$T/h.txt"
check "table: closing summary" grep -q '; 2 never closed\.$' "$T/h.txt"
# store round trip: the same table from the HDF5 file
"$B" convert -q -o "$T/h.h5" "$TR"
"$B" handles --format tsv "$T/h.h5" >"$T/h5.tsv"
check "HDF5 round trip keeps the handle table" cmp -s "$T/h.tsv" "$T/h5.tsv"
"$B" handles --format tsv "$IODFG_TEST_DATA/store/v1_0.h5" >"$T/old.tsv"
check "a format 1.0 file reads, without handles" test "$(wc -l <"$T/old.tsv")" -eq 1
check "--case of an unknown case lists nothing" test "$("$B" handles --format tsv --case nosuch "$TR" | wc -l)" -eq 1
finish
