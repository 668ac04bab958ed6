#!/bin/sh
# iodfg-mpi batch FILE: the commands of a file in one job. Each line's output and messages reach
# its own files (written whole, the same as separate jobs write), every line runs whatever the
# others do, the batch names the lines that failed and exits with the first failure's status; a
# file with a line it cannot run is refused whole, at file:line:col, before anything runs.
. "${IODFG_SRCDIR:?}/tests/e2e/lib.sh"
. "$IODFG_SRCDIR/tests/e2e/mpi_lib.sh"
D=$IODFG_TEST_DATA/traces
cd "$T" || exit 1
"$IODFG_BIN" convert -q -o ior.h5 "$D/ior"

# outputs, messages and statuses, line by line; variables and quotes as in the shell
mkdir "o u t"
cat >b.txt <<'EOF'
# the same log, three ways
stats --format json ior.h5 >"$OUTDIR/stats.json" 2>'o u t/stats.err'
  dfg --format tsv "$PWD/ior.h5" > dfg.tsv   # a comment after a command

stats no-such.h5 2>missing.err
dfg --no-such-option ior.h5 2>usage.err >usage.out
characterize --format tsv ior.h5 >charz.tsv
EOF
"$IODFG_BIN" stats --format json ior.h5 >s.json
"$IODFG_BIN" dfg --format tsv ior.h5 >d.tsv
"$IODFG_BIN" characterize --format tsv ior.h5 >c.tsv
rc=0
JOB_ENV="OUTDIR=$T/o u t" job 2 batch b.txt >job.out 2>job.err || rc=$?
check "the batch exits with its first failure's status (1, missing log; got $rc)" [ "$rc" -eq 1 ]
check "stats: as iodfg's, to \$OUTDIR" cmp -s s.json "o u t/stats.json"
check "stats: no messages" [ -f "o u t/stats.err" ] && [ ! -s "o u t/stats.err" ]
check "dfg: as iodfg's" cmp -s d.tsv dfg.tsv
check "characterize after two failures: as iodfg's" cmp -s c.tsv charz.tsv
check "the missing log is said in its line's file" grep -q "^iodfg-mpi: no-such.h5: " missing.err
check "the usage error in its own" grep -q "^usage: iodfg-mpi dfg" usage.err
check "and its empty output is written" [ -f usage.out ] && [ ! -s usage.out ]
check "the batch names the failed lines and their statuses" \
  sh -c "grep -qx 'iodfg-mpi: b.txt:5: exit status 1' job.err &&
         grep -qx 'iodfg-mpi: b.txt:6: exit status 2' job.err &&
         [ \$(grep -c '^iodfg-mpi' job.err) -eq 2 ]"
check "the job's own output is empty" [ ! -s job.out ]
check "no temporary file is left" sh -c "! ls -a . 'o u t' | grep -q '\.tmp-'"

# a file that cannot be written is said before its command runs; later lines still run
printf 'stats ior.h5 > nodir/x.txt\nstats --format tsv ior.h5 >ok.tsv\n' >w.txt
rc=0
job 1 batch w.txt >/dev/null 2>w.err || rc=$?
check "an unwritable output: exit 1 ($rc)" [ "$rc" -eq 1 ]
check "named with its line" grep -q "^iodfg-mpi: w.txt:1: cannot write nodir/x.txt: No such file" w.err
check "the next line ran" [ -s ok.tsv ]

# outputs that are not regular files: a device (as /dev/null, a copy of it made here) is written
# and stays a device; a FIFO or a directory is refused before the command runs
mkfifo out-fifo
mkdir out-dir
printf 'stats ior.h5 > out-fifo\nstats ior.h5 2> out-dir\n' >special.txt
rc=0
timeout 120 "$MPIRUN" --oversubscribe -n 1 "$IODFG_MPI" batch special.txt >/dev/null 2>special.err || rc=$?
check "a FIFO or a directory as output: exit 1, no hang ($rc)" [ "$rc" -eq 1 ]
check "the FIFO is refused and stays" sh -c "grep -q 'special.txt:1: cannot write out-fifo: not a regular file or a device' special.err && test -p out-fifo"
check "the directory is refused" grep -q "special.txt:2: cannot write out-dir: a directory" special.err
if [ "$(id -u)" -eq 0 ] && mknod dev-null c 1 3 2>/dev/null; then
  printf 'stats ior.h5 > dev-null 2>dev-null\n' >dev.txt
  rc=0
  job 1 batch dev.txt >/dev/null 2>dev.err || rc=$?
  check "a device as output: written (exit 0: $rc)" [ "$rc" -eq 0 ]
  check "and still a device, not a file put in its place" test -c dev-null
else
  echo "# not root: the device output is not checked (mknod)"
fi

# the whole file is checked first: nothing runs when a line cannot
cat >bad.txt <<'EOF'
stats ior.h5 >first.txt
stats ior.h5 | head
stats "ior.h5 >x
stats $(rm -rf /) ior.h5
stats ior.h5 >> y
EOF
rc=0
job 2 batch bad.txt >/dev/null 2>bad.err || rc=$?
check "lines it cannot run: exit 2 ($rc)" [ "$rc" -eq 2 ]
check "nothing ran" [ ! -e first.txt ]
check "a pipe at its column" grep -qx "iodfg-mpi: bad.txt:2:14: '|' is not allowed here.*" bad.err
check "an open quote at its column" grep -q "^iodfg-mpi: bad.txt:3:7: this quote is not closed" bad.err
check "command substitution at its column" \
  grep -q "^iodfg-mpi: bad.txt:4:7: command substitution is not allowed" bad.err
check "appending at its column" grep -q "^iodfg-mpi: bad.txt:5:14: appending (>>)" bad.err
check "each with its line and a caret" [ "$(grep -c '^  *^$' bad.err)" -eq 4 ]

# lines that expand to nothing or to two file names, a batch in a batch
mkdir g && touch g/a g/b
printf '$NO_SUCH_VARIABLE\nstats ior.h5 > g/*\nbatch b.txt\n' >odd.txt
rc=0
job 1 batch odd.txt >/dev/null 2>odd.err || rc=$?
check "odd lines: exit 2 ($rc)" [ "$rc" -eq 2 ]
check "an empty expansion" grep -q "odd.txt:1: \`\$NO_SUCH_VARIABLE\` expands to no command" odd.err
check "two file names" grep -q "odd.txt:2: \`g/\*\` expands to 2 words; expected one file name" odd.err
check "no nesting" grep -q "odd.txt:3: a batch does not run batches" odd.err

# inputs that are not a batch file: refused at once, never waited for
mkfifo fifo
rc=0
timeout 60 "$MPIRUN" --oversubscribe -n 1 "$IODFG_MPI" batch fifo >/dev/null 2>fifo.err || rc=$?
check "a FIFO is refused (exit 1, not a hang: $rc)" [ "$rc" -eq 1 ]
check "saying what it is" grep -q "fifo: cannot read the batch file: a FIFO" fifo.err
truncate -s 17M big.txt
rc=0
job 1 batch big.txt >/dev/null 2>big.err || rc=$?
check "a file over 16 MiB is refused (exit 1: $rc)" [ "$rc" -eq 1 ]
check "with its size" grep -q "big.txt.*over the limit of 16 MiB" big.err
rc=0
job 1 batch >/dev/null 2>usage.err || rc=$?
check "no file: usage (exit 2: $rc)" [ "$rc" -eq 2 ] && grep -q "^usage: iodfg-mpi batch FILE" usage.err
# a hostile name in a message passes through the sanitiser
printf 'stats ior.h5 > "no\033[31mdir/x"\n' >esc.txt
job 1 batch esc.txt >/dev/null 2>esc.err || true
check "control characters in a name are shown escaped" sh -c "! grep -q \"$(printf '\033')\" esc.err"
finish
