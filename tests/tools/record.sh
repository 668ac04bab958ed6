#!/bin/sh
# Record the small strace traces kept under tests/data/traces (run from the top of the source
# tree after building tests/tools/miniior; needs strace and permission to ptrace).
#   tests/tools/record.sh BUILD_DIR
# The paper's wrapper (Sankaran et al. 2024, Fig. 1) is tests/tools/strace.sh.
set -eu
build=${1:?usage: record.sh BUILD_DIR}
top=$(pwd)
out=$top/tests/data/traces
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# 1. The paper's example: `ls` (cid a) and `ls -l` (cid b), three processes each, read/write only.
mkdir -p paper && cd paper
for cid in a b; do
  args=; [ $cid = b ] && args=-l
  for r in 1 2 3; do
    IODFG_HOST=host1 IODFG_CID=$cid IODFG_TRACE="-e trace=read,write" \
      "$top/tests/tools/strace.sh" ls $args /usr/share/doc/strace >/dev/null &
  done
  wait
done
cd ..
rm -rf "$out/paper" && mkdir -p "$out/paper" && mv paper/*.st "$out/paper/"

# 2. Formats: one short multi-process run under each strace option set.
rm -rf "$out/formats" && mkdir -p "$out/formats"
run() { name=$1; shift; strace "$@" -o "$out/formats/$name" sh -c 'cat /etc/hostname | wc -c >/dev/null; ls /usr >/dev/null'; }
run fmt_t_host1_1.st      -f -t -T -y
run fmt_tt_host1_2.st     -f -tt -T -y
run fmt_ttt_host1_3.st    -f -ttt -T -y
run fmt_r_host1_4.st      -f -r -T
run fmt_tttr_host1_5.st   -f -ttt -r -T -yy
run fmt_none_host1_6.st   -f -T -y
run fmt_nopid_host1_7.st  -tt -T -y
run fmt_ns_host1_8.st     -f --absolute-timestamps=format:unix,precision:ns -T -y
# stderr mode: "[pid N]" prefixes and strace's own notices
strace -f -tt -T -y sh -c 'cat /etc/hostname | wc -c >/dev/null' 2>"$out/formats/fmt_stderr_host1_9.st" >/dev/null

# 3. IOR-like single shared file vs file per process, 4 ranks each, lseek+read/write and pread/pwrite.
mkdir -p io/ssf io/fpp
for mode in ssf fpp; do
  for r in 0 1 2 3; do
    IODFG_HOST=node1 IODFG_CID=$mode IODFG_TRACE="-e trace=openat,read,write,pread64,pwrite64,lseek,fsync,close" \
      "$top/tests/tools/strace.sh" "$build/tests/tools/miniior" "$work/io" $mode $r 4 4 65536 lseek &
  done
  wait
done
for mode in ssf fpp; do
  for r in 0 1 2 3; do
    IODFG_HOST=node1 IODFG_CID=${mode}pio IODFG_TRACE="-e trace=openat,read,write,pread64,pwrite64,lseek,fsync,close" \
      "$top/tests/tools/strace.sh" "$build/tests/tools/miniior" "$work/io" $mode $r 4 4 65536 pio &
  done
  wait
done
rm -rf "$out/ior" && mkdir -p "$out/ior" && mv ./*.st "$out/ior/"
# The scratch directory differs per recording: make the traces stable.
sed -i "s|$work/io|/scratch/run|g" "$out"/ior/*.st
echo "recorded into $out"
