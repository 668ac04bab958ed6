#!/bin/sh
# End-to-end: what iodfg reads from real Score-P 8.4 archives (tests/data/otf2/README says how
# they were recorded): IOR -a POSIX and -a MPIIO on 4 ranks (1 MiB per rank in 4 transfers of
# 256 KiB, written then read back, fsync after the write phase), and tests/tools/iomix.c
# (stdio and POSIX opens, dups, a short read, an append, an aio_write, stdout and stderr).
# The expectations come from what the programs do, not from the archives. The IOR runs were
# traced by strace at the same time: both views of the data path must agree.
# Skips without OTF2 support.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
B=$IODFG_BIN
D=$IODFG_TEST_DATA/otf2
if [ ! -x "$(dirname "$B")/tests/tools/otf2_write" ]; then
  echo "SKIP: iodfg was built without OTF2 (install libotf2-trace-dev and configure again)"
  exit 77
fi
MIB=1048576
TX=262144

# events LOG: one line per event: case, layer, call, path, size, req, offset, handle
events() {
  "$B" convert -q -o "$T/ev.h5" "$1" && "$PY" -c '
import sys
import h5py
f = h5py.File(sys.argv[1], "r")
raw, off = f["strings/bytes"][:].tobytes(), f["strings/offsets"][:].tolist()
s = lambda i: raw[off[i] : off[i + 1] - 1].decode()
t, ev = f["case_table"][:], f["events"]
kc, kp, kl = f["keys/call"][:], f["keys/path"][:], f["keys/layer"][:]
col = {c: ev[c][:] for c in ("key", "size", "req", "offset", "handle")}
na = lambda v: "-" if v == -(2**63) else str(v)
for i in range(len(t)):
    a, r = int(t["first"][i]), int(t["rows"][i])
    for j in range(a, a + r):
        k = col["key"][j]
        row = [s(t["name"][i]), s(kl[k]) or "POSIX", s(kc[k]), s(kp[k])]
        row += [na(int(col[c][j])) for c in ("size", "req", "offset", "handle")]
        print("\t".join(row))
' "$T/ev.h5"
  rm -f "$T/ev.h5"
}
# col TSV ID NAME: column NAME of handle ID in an `iodfg handles --format tsv` table
col() { awk -F '\t' -v id="$2" -v n="$3" 'NR==1{for(i=1;i<=NF;i++)if($i==n)c=i;next} $1==id{print $c}' "$1"; }
# ids TSV AWK-CONDITION: ids of the handles matching (columns: $2 case, $5 origin, $6 parent,
# $7 layer, $8 call, $9 flags, $16 path)
ids() { awk -F '\t' "NR>1 && ($2) {print \$1}" "$1" | tr '\n' ' ' | sed 's/ $//'; }
# rows EVENTS AWK-CONDITION: number of events matching ($1 case ... $8 handle)
rows() { awk -F '\t' "$2" "$1" | wc -l | tr -d ' '; }
# blocks EVENTS CASE LAYER CALL: "size/req@offset " of each CALL on the test file, in order;
# want_blocks RANK: 4 x 256 KiB at the offsets of the rank's block
blocks() { awk -F '\t' -v c="$2" -v l="$3" -v f="$4" '$1==c && $2==l && $3==f && $4 ~ /testfile$/ {printf "%s/%s@%s ", $5, $6, $7}' "$1"; }
want_blocks() { r=$1; printf '%s/%s@%s %s/%s@%s %s/%s@%s %s/%s@%s ' \
  $TX $TX $((r * MIB)) $TX $TX $((r * MIB + TX)) $TX $TX $((r * MIB + 2 * TX)) $TX $TX $((r * MIB + 3 * TX)); }
have_h5py() { "$PY" -c 'import h5py' 2>/dev/null; }

# ---- IOR -a POSIX -------------------------------------------------------------------------
A=$D/ior_posix/traces.otf2
"$B" info "$A" >"$T/info.txt"
check "POSIX: four cases, one per rank" grep -q '^Cases  *4$' "$T/info.txt"
for r in 0 1 2 3; do
  check "POSIX: rank $r is a case with rid $r" grep -q "^  MPI Rank $r/Master thread  *ior_posix  *[^ ]*  *$r " "$T/info.txt"
done
"$B" handles --format tsv "$A" >"$T/ph.tsv"
for r in 0 1 2 3; do
  c="MPI Rank $r/Master thread"
  w=$(ids "$T/ph.tsv" "\$2==\"$c\" && \$16 ~ /testfile\$/ && \$9==\"O_RDWR|O_CREAT\"")
  rd=$(ids "$T/ph.tsv" "\$2==\"$c\" && \$16 ~ /testfile\$/ && \$9==\"O_RDONLY\"")
  check "POSIX rank $r: one handle opened to write, one to read ($w; $rd)" test -n "$w" -a -n "$rd" -a "$w" != "$rd"
  check "POSIX rank $r: the write handle wrote 1 MiB, read nothing" test "$(col "$T/ph.tsv" "$w" bytes_written) $(col "$T/ph.tsv" "$w" bytes_read)" = "$MIB 0"
  check "POSIX rank $r: the read handle read 1 MiB" test "$(col "$T/ph.tsv" "$rd" bytes_read) $(col "$T/ph.tsv" "$rd" bytes_written)" = "$MIB 0"
  # open, 4 x (lseek, write), fsync, close / open, 4 x (lseek, read), close
  check "POSIX rank $r: 11 and 10 operations on them" test "$(col "$T/ph.tsv" "$w" ops) $(col "$T/ph.tsv" "$rd" ops)" = "11 10"
  check "POSIX rank $r: both created and destroyed, no parent" test -n "$(col "$T/ph.tsv" "$w" destroyed)" -a -n "$(col "$T/ph.tsv" "$rd" destroyed)" -a "$(col "$T/ph.tsv" "$w" parent)$(col "$T/ph.tsv" "$rd" parent)" = 00
done
check "POSIX: rank 0 printed the results through the pre-created ISO C stdout" \
  test -n "$(ids "$T/ph.tsv" '$2=="MPI Rank 0/Master thread" && $5=="precreated" && $7=="ISOC" && $16=="stdout" && $15>0')"
check "POSIX: pre-created handles have no creation time" test -z "$(awk -F '\t' 'NR>1 && $5=="precreated" && $11!=""' "$T/ph.tsv")"
if have_h5py; then
  events "$A" >"$T/pe.tsv"
  for r in 0 1 2 3; do
    c="MPI Rank $r/Master thread"
    check "POSIX rank $r: 4 writes of 256 KiB at the rank's block (lseek + write)" test "$(blocks "$T/pe.tsv" "$c" POSIX write)" = "$(want_blocks $r)"
    check "POSIX rank $r: 4 reads of 256 KiB at the same offsets" test "$(blocks "$T/pe.tsv" "$c" POSIX read)" = "$(want_blocks $r)"
    check "POSIX rank $r: one fsync, no size" test "$(rows "$T/pe.tsv" "\$1==\"$c\" && \$3==\"fsync\" && \$5==\"-\" && \$4 ~ /testfile\$/")" = 1
  done
  check "POSIX: rank 0 alone unlinks the file" test "$(awk -F '\t' '$3=="unlink" && $4 ~ /testfile$/ {print $1}' "$T/pe.tsv")" = "MPI Rank 0/Master thread"
else
  echo "note: python3-h5py missing, per-event checks of the POSIX run skipped"
fi

# ---- IOR -a MPIIO (ROMIO): MPI-IO above POSIX ------------------------------------------------
A=$D/ior_mpiio/traces.otf2
"$B" handles --format tsv "$A" >"$T/mh.tsv"
for r in 0 1 2 3; do
  c="MPI Rank $r/Master thread"
  m=$(ids "$T/mh.tsv" "\$2==\"$c\" && \$7==\"MPI-IO\" && \$15==$MIB")
  p=$(ids "$T/mh.tsv" "\$2==\"$c\" && \$7==\"POSIX\" && \$16 ~ /testfile\$/ && \$15==$MIB")
  check "MPIIO rank $r: one MPI-IO handle wrote 1 MiB through one POSIX handle ($m; $p)" test -n "$m" -a -n "$p" -a "$(echo $m $p | wc -w)" = 2
  check "MPIIO rank $r: the POSIX handle's parent is the MPI-IO handle" test "$(col "$T/mh.tsv" "$p" parent)" = "$m"
  check "MPIIO rank $r: made in MPI_File_open and open" test "$(col "$T/mh.tsv" "$m" call) $(col "$T/mh.tsv" "$p" call)" = "MPI_File_open open"
  m=$(ids "$T/mh.tsv" "\$2==\"$c\" && \$7==\"MPI-IO\" && \$14==$MIB")
  p=$(ids "$T/mh.tsv" "\$2==\"$c\" && \$7==\"POSIX\" && \$16 ~ /testfile\$/ && \$14==$MIB")
  check "MPIIO rank $r: and read 1 MiB back through another pair" test -n "$m" -a "$(col "$T/mh.tsv" "$p" parent)" = "$m"
done
printf 'map path ~ testfile$ => {layer}:{call}\n' >"$T/layers.rules"
"$B" dfg -q --format json --rules "$T/layers.rules" "$A" >"$T/mdfg.json"
arc() { json "$T/mdfg.json" "sum(t['count'] for t in j['transitions'] if t['from']=='$1' and t['to']=='$2')"; }
check "MPIIO DFG: each MPI_File_write_at is followed by its pwrite (16)" test "$(arc MPI-IO:MPI_File_write_at POSIX:pwrite)" = 16
check "MPIIO DFG: each pwrite by the next MPI_File_write_at or the fsync (16)" test "$(($(arc POSIX:pwrite MPI-IO:MPI_File_write_at) + $(arc POSIX:pwrite POSIX:fsync)))" = 16
check "MPIIO DFG: each MPI_File_read_at is followed by its pread (16)" test "$(arc MPI-IO:MPI_File_read_at POSIX:pread)" = 16
check "MPIIO DFG: the POSIX open precedes MPI_File_open" test "$(arc POSIX:open MPI-IO:MPI_File_open)" -ge 8
if have_h5py; then
  events "$A" >"$T/me.tsv"
  for r in 0 1 2 3; do
    c="MPI Rank $r/Master thread"
    check "MPIIO rank $r: MPI_File_write_at at the explicit offsets (Score-P's Offset attribute)" test "$(blocks "$T/me.tsv" "$c" MPI-IO MPI_File_write_at)" = "$(want_blocks $r)"
    check "MPIIO rank $r: ROMIO's pwrite at the same offsets" test "$(blocks "$T/me.tsv" "$c" POSIX pwrite)" = "$(want_blocks $r)"
    check "MPIIO rank $r: MPI_File_read_at and pread at the same offsets" test "$(blocks "$T/me.tsv" "$c" MPI-IO MPI_File_read_at)$(blocks "$T/me.tsv" "$c" POSIX pread)" = "$(want_blocks $r)$(want_blocks $r)"
  done
  check "MPIIO: MPI_File_delete (MPI-IO) and its unlink (POSIX) on rank 0" test "$(awk -F '\t' '$4 ~ /testfile$/ && ($3=="MPI_File_delete" || $3=="unlink") {print $2 ":" $3 ":" $8}' "$T/me.tsv" | sort | tr '\n' ' ')" = "MPI-IO:MPI_File_delete:0 POSIX:unlink:0 "
  # MPI_File_sync is a region without I/O record in Score-P 8.4: only ROMIO's fsync is seen
  check "MPIIO: no MPI-IO flush; one POSIX fsync per rank" test "$(rows "$T/me.tsv" '$2=="MPI-IO" && $3 ~ /sync|flush/') $(rows "$T/me.tsv" '$3=="fsync" && $4 ~ /testfile$/')" = "0 4"
fi

# ---- the data path in the OTF2 POSIX layer and in strace of the same runs ----------------
printf '%s\n' 'map layer = POSIX call ~ ^p?write(64)?$ path ~ testfile$ => write' \
  'map layer = POSIX call ~ ^p?read(64)?$ path ~ testfile$ => read' \
  'map layer = POSIX call = fsync path ~ testfile$ => fsync' >"$T/dp.rules"
# datapath ARGS: "activity count bytes" for write, read, fsync
datapath() {
  "$B" stats -q --format json --rules "$T/dp.rules" "$@" >"$T/dp.json"
  json "$T/dp.json" "' '.join('%s %d %d' % (a['activity'], a['count'], a['bytes']) for a in sorted(j['activities'], key=lambda a: a['activity']))"
}
for run in ior_posix ior_mpiio; do
  o=$(datapath "$D/$run/traces.otf2")
  s=$(datapath "$D/strace/$run")
  check "$run: OTF2 and strace agree on writes, reads and fsyncs ($o)" test "$o" = "$s"
  check "$run: 16 writes and 16 reads of 4 MiB in all" test "$o" = "fsync 4 0 read 16 4194304 write 16 4194304"
done

# ---- iomix: handles, dups, modes, requested vs transferred bytes ------------------------------
A=$D/iomix/traces.otf2
"$B" handles --format tsv "$A" >"$T/xh.tsv"
iso=$(ids "$T/xh.tsv" '$7=="ISOC" && $8=="fopen"')
fdp=$(ids "$T/xh.tsv" '$7=="POSIX" && $8=="fopen"')
check "iomix: fopen makes an ISO C handle and, inside it, a POSIX one ($iso; $fdp)" test -n "$iso" -a "$(col "$T/xh.tsv" "$fdp" parent)" = "$iso"
check "iomix: the ISO C handle wrote the three fwrite (3000 bytes)" test "$(col "$T/xh.tsv" "$iso" bytes_written) $(col "$T/xh.tsv" "$iso" flags)" = "3000 O_WRONLY"
o=$(ids "$T/xh.tsv" '$8=="open" && $9=="O_WRONLY|O_CREAT|O_TRUNC"')
check "iomix: open(O_WRONLY|O_CREAT|O_TRUNC) wrote 4096 bytes" test -n "$o" -a "$(col "$T/xh.tsv" "$o" bytes_written)" = 4096
for call in dup dup2 fcntl; do
  d=$(ids "$T/xh.tsv" "\$5==\"dup\" && \$8==\"$call\" && \$6==\"$o\"")
  check "iomix: $call makes a dup of that handle, write-only like it" test -n "$d" -a "$(col "$T/xh.tsv" "$d" flags)" = O_WRONLY
done
d=$(ids "$T/xh.tsv" "\$5==\"dup\" && \$8==\"dup\" && \$6==\"$o\"")
check "iomix: the write through the dup (1000 bytes) counts on the dup" test "$(col "$T/xh.tsv" "$d" bytes_written)" = 1000
ap=$(ids "$T/xh.tsv" '$9=="O_WRONLY|O_APPEND"')
check "iomix: the append open: 10 bytes, no parent (Score-P names a closed handle)" test -n "$ap" -a "$(col "$T/xh.tsv" "$ap" bytes_written) $(col "$T/xh.tsv" "$ap" parent)" = "10 0"
ro=$(ids "$T/xh.tsv" '$8=="open" && $9=="O_RDONLY"')
check "iomix: the read-only open read 5106 + 100 bytes" test -n "$ro" -a "$(col "$T/xh.tsv" "$ro" bytes_read)" = 5206
fd=$(ids "$T/xh.tsv" '$7=="ISOC" && $8=="fdopen"')
check "iomix: fdopen's ISO C handle read 5106 bytes" test -n "$fd" -a "$(col "$T/xh.tsv" "$fd" bytes_read)" = 5106
aio=$(ids "$T/xh.tsv" '$16 ~ /aio\.bin$/')
check "iomix: aio.bin: O_RDWR|O_CREAT|O_TRUNC, 2048 bytes, no parent" test -n "$aio" -a "$(col "$T/xh.tsv" "$aio" flags) $(col "$T/xh.tsv" "$aio" bytes_written) $(col "$T/xh.tsv" "$aio" parent)" = "O_RDWR|O_CREAT|O_TRUNC 2048 0"
check "iomix: every file handle created and destroyed" test -z "$(awk -F '\t' 'NR>1 && $16 ~ /^\// && ($11=="" || $12=="")' "$T/xh.tsv")"
so=$(ids "$T/xh.tsv" '$5=="precreated" && $7=="ISOC" && $16=="stdout"')
se=$(ids "$T/xh.tsv" '$5=="precreated" && $7=="POSIX" && $16=="STDERR_FILENO"')
check "iomix: printf through the pre-created ISO C stdout (11 bytes)" test -n "$so" -a "$(col "$T/xh.tsv" "$so" bytes_written)" = 11
check "iomix: write(2) through the pre-created POSIX STDERR_FILENO (14 bytes)" test -n "$se" -a "$(col "$T/xh.tsv" "$se" bytes_written)" = 14
if have_h5py; then
  events "$A" >"$T/xe.tsv"
  check "iomix: read asked 8192 bytes and got 5106" test "$(rows "$T/xe.tsv" '$3=="read" && $6==8192 && $5==5106 && $7==0')" = 1
  check "iomix: fread asked 6000 bytes and got 5106" test "$(rows "$T/xe.tsv" '$2=="ISOC" && $3=="fread" && $6==6000 && $5==5106')" = 1
  check "iomix: pread of 100 bytes at 4096 (Offset attribute)" test "$(rows "$T/xe.tsv" '$3=="pread" && $5==100 && $7==4096')" = 1
  check "iomix: the non-blocking aio_write of 2048 bytes at 0 completes" test "$(rows "$T/xe.tsv" '$3=="aio_write" && $5==2048 && $6==2048 && $7==0')" = 1
  check "iomix: three unlinks, POSIX, without handle" test "$(rows "$T/xe.tsv" '$2=="POSIX" && $3=="unlink" && $8==0')" = 3
  check "iomix: fsync and fflush have no size" test "$(rows "$T/xe.tsv" '($3=="fsync" || $3=="fflush") && $5!="-"')" = 0
fi
"$B" info "$A" >"$T/xinfo.txt"
check "iomix: nothing unmatched" grep -q 'unmatched 0' "$T/xinfo.txt"
finish
