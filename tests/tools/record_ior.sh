#!/bin/sh
# Record real IOR runs under strace for the tests: 4 ranks each of POSIX and MPI-IO, single
# shared file (ssf) and file per process (fpp), one trace per rank named {cid}_{host}_{rid}.st,
# packed as tests/data/traces/ior-real.tar.xz. IOR is not part of iodfg: build it yourself
# (https://github.com/hpc/ior) and give its binary.
#   tests/tools/record_ior.sh PATH/TO/ior [OUT.tar.xz]
set -eu
ior=${1:?usage: record_ior.sh PATH/TO/ior [OUT.tar.xz]}
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${2:-$top/tests/data/traces/ior-real.tar.xz}
case $ior in /*) ;; *) ior=$(pwd)/$ior ;; esac
work=$(mktemp -d)
scratch=/tmp/scratch
trap 'rm -rf "$work"' EXIT
mkdir "$work/run"
cp "$ior" "$work/run/ior"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# small blocks, 4 segments: 16 transfers of 16 KiB a rank, written, read back, checked
common="-w -r -C -e -b 64k -t 16k -s 4"
record() { # record CID API [IOR OPTIONS]
  cid=$1 api=$2; shift 2
  mkdir -p "$work/ior-real/$cid" "$scratch/$cid"
  # run from a scratch directory of its own so that no path of the recording machine shows
  (cd "$work/run" && IODFG_CID=$cid IODFG_HOST=node1 IODFG_OUTDIR="$work/ior-real/$cid" \
    mpirun --oversubscribe -n 4 "$top/tests/tools/strace.sh" \
    ./ior -a "$api" $common "$@" -o "$scratch/$cid/test" >"$work/$cid.out" 2>&1)
  rm -rf "${scratch:?}/$cid"
}
record posixssf POSIX
record posixfpp POSIX -F
record mpiiossf MPIIO
record mpiiofpp MPIIO -F
tar -C "$work" --owner=0 --group=0 --sort=name -cJf "$out" ior-real
echo "wrote $out"
