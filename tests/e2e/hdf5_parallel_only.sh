#!/bin/sh
# A machine whose only HDF5 is the parallel one (a Spack environment with +mpi): pkg-config is
# pointed at a directory holding the MPI HDF5 as hdf5.pc, and no serial HDF5. Then
# `configure --with-mpi` builds iodfg against it, and that iodfg runs without mpirun: --version
# names the parallel HDF5; convert, stats, dfg and the terminal UI give what this build's iodfg
# gives. Without --with-mpi, configure refuses it (the default iodfg links no MPI).
# Slow (a configure and a build, minutes on 2 cores): skipped unless IODFG_SLOW_TESTS=1, which
# ./dev.sh test sets (so CI runs it once, in the plain build's suite)
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
[ -n "${IODFG_SLOW_TESTS:-}" ] ||
  { echo "SKIP: a configure and a build; IODFG_SLOW_TESTS=1 runs it"; exit 77; }
pcdirs=$(pkg-config --variable pc_path pkg-config 2>/dev/null || echo /usr/lib/pkgconfig)
pcfile() { # pcfile NAME: the system's NAME.pc
  for d in $(echo "$pcdirs" | tr : ' '); do
    if [ -f "$d/$1.pc" ]; then echo "$d/$1.pc"; return 0; fi
  done
  return 1
}
h5par=$(pcfile hdf5-openmpi) && pcfile ompi-c >/dev/null ||
  { echo "SKIP: needs the Debian packages libhdf5-openmpi-dev libopenmpi-dev"; exit 77; }
PC="$T/pkgconfig"
mkdir "$PC"
cp "$h5par" "$PC/hdf5.pc" # under Spack's name, the only HDF5 there is
for m in ompi-c ompi ncursesw libpcre2-8 libxxhash zlib check libsubunit otf2 otf2-backend; do
  f=$(pcfile "$m") && cp "$f" "$PC/"
done
PKG_CONFIG_LIBDIR="$PC"
export PKG_CONFIG_LIBDIR
B="$T/build"
mkdir "$B"
cd "$B"
if "$IODFG_SRCDIR/configure" --enable-werror --without-otf2 >"$T/serial.log" 2>&1; then
  fail "configure without --with-mpi refuses a parallel HDF5"
else
  check "configure without --with-mpi refuses a parallel HDF5, naming --with-mpi" \
    grep -q 'configure --with-mpi to build iodfg' "$T/serial.log"
fi
# -O0: this build checks how iodfg is configured and linked; the suite's build is optimised
"$IODFG_SRCDIR/configure" --enable-werror --without-otf2 --with-mpi CFLAGS="-g -O0" \
  >"$T/configure.log" 2>&1 ||
  { tail -n 20 "$T/configure.log"; fail "configure --with-mpi"; finish; }
check "configure: iodfg uses the parallel HDF5" grep -q 'hdf5 *: [0-9.]* parallel' "$T/configure.log"
${MAKE:-make} -j2 iodfg >"$T/make.log" 2>&1 || { tail -n 20 "$T/make.log"; fail "make iodfg"; finish; }
P="$B/iodfg"
check "--version names the parallel HDF5" sh -c "'$P' --version | grep -q '^build: .*HDF5 [0-9.]* parallel'"
traces="$IODFG_TEST_DATA/traces/ior"
check "convert, without mpirun" "$P" convert -q -o "$T/par.h5" "$traces"
"$IODFG_BIN" convert -q -o "$T/ser.h5" "$traces"
for log in par ser; do
  "$P" stats --format tsv "$T/$log.h5" >"$T/p-$log.tsv"
  "$IODFG_BIN" stats --format tsv "$T/$log.h5" >"$T/s-$log.tsv"
  "$P" dfg "$T/$log.h5" >"$T/p-$log.dot"
  "$IODFG_BIN" dfg "$T/$log.h5" >"$T/s-$log.dot"
  check "stats of the $log log: the same from both builds" cmp "$T/p-$log.tsv" "$T/s-$log.tsv"
  check "dfg of the $log log: the same from both builds" cmp "$T/p-$log.dot" "$T/s-$log.dot"
done
check "a log either build wrote gives the same statistics" cmp "$T/p-par.tsv" "$T/p-ser.tsv"
if command -v tmux >/dev/null 2>&1; then
  S="$T/tmux.sock"
  tmux -S "$S" new-session -d -x 120 -y 30 "'$P' tui '$T/par.h5'; echo \$? >'$T/tui.rc'"
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    tmux -S "$S" capture-pane -p >"$T/screen.txt" 2>/dev/null
    grep -q 'fsync:/scratch/run' "$T/screen.txt" && break
    sleep 1
  done
  check "the terminal UI shows the log's activities" grep -q 'fsync:/scratch/run' "$T/screen.txt"
  tmux -S "$S" send-keys q
  for _ in 1 2 3 4 5; do [ -f "$T/tui.rc" ] && break; sleep 1; done
  check "the terminal UI quits with status 0" grep -qx 0 "$T/tui.rc"
  tmux -S "$S" kill-server 2>/dev/null || true
fi
finish
