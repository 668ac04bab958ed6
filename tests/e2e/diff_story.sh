#!/bin/sh
# End-to-end: what differs between two groups, per case and ranked by the time it explains, on
# the real IOR runs (POSIX against MPI-IO, single shared file and file per process) and on the
# bundled example: the top rows name the data file and the calls that differ (lseek + write
# against pwrite64), the opens per case and the time per case; findings align by place; a shared
# activity 1.5x apart per case is changed (!=), never "=".
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B=$IODFG_BIN
ior_real
"$B" convert -q -o "$T/ior.h5" "$T/ior-real"
L=$T/ior.h5
# story FILE N: the texts of the first N rows of the story of an insights JSON document
story() { json "$1" "'\n'.join(s['text'] for s in j['stories'][:$2])"; }

for run in ssf fpp; do
  "$B" insights -q --format json --green cid=posix$run --red cid=mpiio$run "$L" >"$T/$run.json"
  story "$T/$run.json" 6 >"$T/$run.top"
  check "$run: the top rows name the write variant with its seeks" \
    grep -q "^write in G is pwrite64 in R, on /tmp/scratch: 16 lseek + write per case against 16 pwrite64" "$T/$run.top"
  check "$run: ... and the read variant" \
    grep -q "^read in G is pread64 in R, on /tmp/scratch: 16 lseek + read per case against 16 pread64" "$T/$run.top"
  check "$run: ... with the data files of both sides" \
    grep -q "G on /tmp/scratch/posix$run/test.* R on /tmp/scratch/mpiio$run/test" "$T/$run.top"
  check "$run: ... and the time per case with its ratio" \
    grep -Eq "write in G .*time per case [0-9.]+ [mu]?s in G against [0-9.]+ [mu]?s in R \([0-9.]+x\)" "$T/$run.top"
  story "$T/$run.json" 8 | grep '^openat:/tmp/scratch: 2 opens per case in G' >"$T/$run.opens" || :
  check "$run: the opens per case of each side, with MPI-IO's lock-test files" grep -q 'locktest' "$T/$run.opens"
  check "$run: the stories are the application's first" test "$(json "$T/$run.json" \
    "min([i for i,s in enumerate(j['stories']) if s['text'].startswith('runtime:')] or [99])")" -ge 10
  check "$run: per case numbers for each side" test "$(json "$T/$run.json" \
    "[(s['g'][0],s['r'][0]) for s in j['stories'] if s['kind']=='variant']")" = "[(16, 16), (16, 16)]"
done
story "$T/ssf.json" 20 | grep '^lseek:/tmp/scratch: 32 calls per case in G, 1 in R' >"$T/ssf.lseek" || :
check "ssf: MPI-IO's 4 lseeks are all in one case" grep -q 'R: all in one case (mpiiossf_node1_18387)' "$T/ssf.lseek"
check "ssf: the one-case finding of MPI-IO" test "$(json "$T/ssf.json" \
  "[(d['side'],d['subject']) for d in j['differences'] if d['rule']=='one-case' and 'scratch' in d['subject']]")" = \
  "[('R+', 'lseek:/tmp/scratch')]"

# the table: the story after the groups' findings, then the findings that differ
"$B" insights -q --green cid=posixssf --red cid=mpiiossf "$L" >"$T/ssf.txt"
check "table: the story's header with the cases and time per case of each side" \
  grep -q "^== what differs between G and R, per case (G: 4 cases, [0-9.]* s in calls per case; R: 4 cases" "$T/ssf.txt"
check "table: the first row is the data file's" sh -c "sed -n '/^== what differs/{n;p;q}' '$T/ssf.txt' | grep -q '/tmp/scratch'"
check "ssf: shared-file on the data file is one row (aligned), not G+ and R+" sh -c \
  "! sed -n '/^== differences/,\$p' '$T/ssf.txt' | grep -q 'shared-file'"
"$B" insights -q --green cid=posixfpp --red cid=mpiiofpp "$L" >"$T/fpp.txt"
check "fpp: file-per-process of both runs in one row with both directories" \
  grep -q "file-per-process /tmp/scratch/posixfpp | /tmp/scratch/mpiiofpp" "$T/fpp.txt"
for f in "$T/ssf.txt" "$T/fpp.txt"; do
  check "no nan or inf in $(basename "$f")" sh -c "! grep -qwiE 'nan|inf' '$f'"
done

# the G/R marks per case: lseek:/tmp/scratch, 32 against 1 per case, is changed
"$B" stats -q --format tsv --green cid=posixssf --red cid=mpiiossf "$L" >"$T/gr.tsv"
check "stats: lseek:/tmp/scratch 32 against 1 per case is changed, not =" test \
  "$(awk -F '\t' '$1=="lseek:/tmp/scratch"{print $NF}' "$T/gr.tsv" | head -n 1)" != both
"$B" stats -q --green cid=posixssf --red cid=mpiiossf "$L" >"$T/gr.txt"
check "stats table: its mark is !=" grep -Eq '^!= +lseek:/tmp/scratch ' "$T/gr.txt"
check "stats table: the legend says what != is" grep -q '!= in both and 1.5x apart per case' "$T/gr.txt"

# the bundled example: ssf (lseek + write) against ssfpio (pwrite64) on one data file
D=$IODFG_TEST_DATA/traces/ior
"$B" insights -q --format json --green cid=ssf --red cid=ssfpio "$D" >"$T/ex.json"
check "example: the first row is the write variant on the data file" sh -c \
  "printf '%s\n' \"\$1\" | grep -q '^write in G is pwrite64 in R, on /scratch/run: 4 lseek + write per case against 4 pwrite64.*/scratch/run/ssf/test'" \
  - "$(story "$T/ex.json" 1)"
check "example: the read variant in the top 4" test "$(json "$T/ex.json" \
  "sum(s['text'].startswith('read in G is pread64 in R') for s in j['stories'][:4])")" = 1
"$B" insights -q "$D" >"$T/ex.txt"
check "example: the first finding is on the data file" sh -c "grep -E '^ +1\. ' '$T/ex.txt' | grep -q 'shared-file     /scratch/run/ssf/test'"
finish
