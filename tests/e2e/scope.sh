#!/bin/sh
# End-to-end: file scope from a mount table. mounts.txt beside the traces is used by convert
# and stored in the log; --mounts overrides it; the built-in list is the fallback; fs, fstype,
# scope and layer drive rules and filters; a bad table is an error naming its line.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B=$IODFG_BIN
mkdir "$T/tr"
cat >"$T/tr/run_n1_1.st" <<'E'
100 08:00:00.000001 openat(AT_FDCWD, "/p/scratch/u/out.dat", O_WRONLY|O_CREAT, 0644) = 3</p/scratch/u/out.dat> <0.000010>
100 08:00:00.000002 write(3</p/scratch/u/out.dat>, "abc", 3) = 3 <0.000010>
100 08:00:00.000003 read(4</p/scratchy/in.dat>, "abc", 3) = 3 <0.000010>
100 08:00:00.000004 read(5</proc/self/status>, "abc", 3) = 3 <0.000010>
100 08:00:00.000005 write(6</home/u/log\040x.txt>, "abc", 3) = 3 <0.000010>
100 08:00:00.000006 write(7</tmp/x>, "abc", 3) = 3 <0.000010>
100 08:00:00.000007 write(8</mnt/data/bound/f>, "abc", 3) = 3 <0.000010>
E
# /dev/sdb holds /p/scratchy and is bind-mounted again under the nfs4 /mnt/data
cat >"$T/tr/mounts.txt" <<'E'
rootfs / rootfs rw 0 0
/dev/sda1 / ext4 rw,relatime 0 0
proc /proc proc rw,nosuid 0 0
scratch@o2ib:/scr /p/scratch lustre rw,flock 0 0
/dev/sdb /p/scratchy xfs rw 0 0
home:/export /home nfs4 rw 0 0
home:/data /mnt/data nfs4 rw 0 0
/dev/sdb /mnt/data/bound xfs rw 0 0
tmpfs /tmp tmpfs rw 0 0
E
cat >"$T/s.rules" <<'E'
map kind = file => {call}:{fs}:{fstype}:{scope}:{layer}
E
# act TSV: the activity column of `stats --format tsv`, sorted
acts() { awk -F '\t' 'NR>1 && $1!="" {print $1}' "$1" | sort | tr '\n' ' '; }

"$B" convert -q -o "$T/r.h5" "$T/tr"
"$B" stats -q --format tsv --rules "$T/s.rules" "$T/r.h5" >"$T/a.tsv"
want="openat:/p/scratch:lustre:global:POSIX read:/p/scratchy:xfs:local:POSIX read:/proc:proc:virtual:POSIX write:/home:nfs4:global:POSIX write:/mnt/data/bound:xfs:local:POSIX write:/p/scratch:lustre:global:POSIX write:/tmp:tmpfs:local:POSIX "
check "mounts.txt beside the traces classifies every file (longest prefix, bind mount)" test "$(acts "$T/a.tsv")" = "$want"
"$B" info "$T/r.h5" >"$T/info.txt"
check "info: the classification stored in the log" grep -q 'mount table: stored in the log): file paths 0 unknown, 3 local, 3 global, 1 virtual' "$T/info.txt"
"$B" info "$T/tr" >"$T/info2.txt"
check "info on traces names mounts.txt" grep -q "mount table: $T/tr/mounts.txt)" "$T/info2.txt"
"$B" info --json "$T/tr" >"$T/info.json"
check "info --json: file keys by scope" test "$(json "$T/info.json" 'j["file_keys_by_scope"]')" = "{'unknown': 0, 'local': 3, 'global': 3, 'virtual': 1}"

# filters on the new fields
"$B" stats -q --format tsv --filter scope=global "$T/r.h5" >"$T/g.tsv"
check "scope=global keeps lustre and nfs4 files" test "$(acts "$T/g.tsv")" = "openat:/p/scratch write:/home/u write:/p/scratch "
"$B" stats -q --format tsv --filter 'fstype=xfs,tmpfs' --filter 'fs!~^/tmp' "$T/r.h5" >"$T/x.tsv"
check "fstype= and fs!~ combine" test "$(acts "$T/x.tsv")" = "read:/p/scratchy write:/mnt/data "
"$B" stats -q --format tsv --filter 'layer=POSIX' --filter 'scope=virtual' "$T/r.h5" >"$T/v.tsv"
check "layer=POSIX scope=virtual" test "$(acts "$T/v.tsv")" = "read:/proc/self "

# --mounts overrides the table (also for a stored log); the built-in list without any
printf 'none / ext4 rw 0 0\nscr /p gpfs rw 0 0\n' >"$T/other.txt"
"$B" stats -q --format tsv --rules "$T/s.rules" --mounts "$T/other.txt" "$T/r.h5" >"$T/o.tsv"
check "--mounts reclassifies a stored log" grep -q '^read:/p:gpfs:global:POSIX' "$T/o.tsv"
mkdir "$T/bare"
cp "$T/tr/run_n1_1.st" "$T/bare/"
"$B" stats -q --format tsv --rules "$T/s.rules" "$T/bare" >"$T/b.tsv"
want="openat:::unknown:POSIX read:/proc:proc:virtual:POSIX read:::unknown:POSIX write:/tmp::local:POSIX write:::unknown:POSIX "
check "the built-in list without mounts.txt" test "$(acts "$T/b.tsv")" = "$want"
"$B" info "$T/bare" >"$T/info3.txt"
check "info names the built-in list" grep -q 'mount table: built-in list)' "$T/info3.txt"

# errors: a bad table names its line; a missing one fails; a bad scope value is a usage error
printf 'proc /proc proc rw 0 0\nbroken\n' >"$T/bad.txt"
rc=0
"$B" convert -q -o "$T/bad.h5" --mounts "$T/bad.txt" "$T/tr" 2>"$T/err.txt" || rc=$?
check "a bad mount table fails convert (status 1)" test "$rc" = 1
check "and names file and line" grep -q "bad.txt:2:1: expected 'device mount-point type options'" "$T/err.txt"
check "no output file is left behind" test ! -e "$T/bad.h5"
rc=0
"$B" stats -q --mounts "$T/missing.txt" "$T/tr" 2>/dev/null || rc=$?
check "a missing --mounts file fails (status 1)" test "$rc" = 1
rc=0
"$B" stats -q --filter scope=nowhere "$T/r.h5" 2>"$T/err2.txt" || rc=$?
check "an unknown scope is a usage error" test "$rc" = 2
check "naming it" grep -q 'unknown scope' "$T/err2.txt"
finish
