#!/bin/sh
# iodfg developer entry point: install what the build needs, build, run the example or the tests.
#   ./dev.sh example     install dependencies, build, open iodfg on the bundled example log
#   ./dev.sh test        install dependencies, build iodfg and iodfg-mpi (--with-mpi) in build/,
#                        run the whole test suite (make check: iodfg's tests and the MPI job's,
#                        and a build against the MPI HDF5 alone, as under Spack +mpi)
#   ./dev.sh sanitize    the same tests in a separate ASan+UBSan build of both with -Werror
#                        (build-sanitize/; the tarball install test is left to `test`)
#   ./dev.sh bench       install dependencies (and pandas), build, run `make bench` into
#                        build/bench.out (tests/bench/speed_section.sh turns it into README's Speed)
#   ./dev.sh bench-scale the same, `make bench-scale` into build/bench-scale.out (10^7 to 10^9
#                        events; tests/bench/scale_section.sh: README's Speed at scale)
#   ./dev.sh bench-mpi   install dependencies (and MPI), build iodfg-mpi, run `make bench-mpi` into
#                        build-mpi/bench-mpi.out (tests/bench/mpi_section.sh: README's MPI figures)
#   ./dev.sh fuzz        install clang, build the libFuzzer targets (build-fuzz/, --enable-fuzzing)
#                        and run each on its seeds from tests/data for FUZZ_SECONDS (5; CI), or
#                        `make -C build-fuzz fuzz` for 600 s each
#   ./dev.sh deps [all]  only install the Debian/Ubuntu packages (as root, via apt-get); with
#                        all, also those of test, sanitize and fuzz (MPI, clang)
set -eu
cd "$(dirname "$0")"
top=$(pwd)

BUILD_PKGS="build-essential autoconf autoconf-archive automake pkg-config libncurses-dev
 libhdf5-dev libpcre2-dev libxxhash-dev zlib1g-dev check libotf2-trace-dev libdw-dev"
TEST_PKGS="strace tmux graphviz python3-h5py python3-numpy hdf5-tools libxml2-utils zsh librsvg2-bin"
MPI_PKGS="openmpi-bin libopenmpi-dev libhdf5-openmpi-dev"
BENCH_PKGS="python3-pandas python3-numpy strace tmux time"
FUZZ_PKGS="clang"

deps() { # deps [extra packages]
  missing=
  for p in $BUILD_PKGS $TEST_PKGS "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "dev.sh: installing:$missing"
  if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
  $sudo apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
}

build() { # build DIR [configure options...]
  dir=$1; shift
  [ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi
  mkdir -p "$dir"
  # reconfigure when the options differ from the last configure here (`example` then `test`
  # must not keep a build without --enable-werror)
  if [ ! -f "$dir/Makefile" ] || [ "$dir/config.status" -ot configure ] ||
     [ "$(cat "$dir/.dev-options" 2>/dev/null)" != "$*" ]; then
    (cd "$dir" && "$top/configure" "$@")
    printf '%s\n' "$*" >"$dir/.dev-options"
  fi
  make -C "$dir" -j"$(nproc)"
}

case "${1:-}" in
  deps) # with `all`: also what test, sanitize and fuzz add (MPI, clang), as CI installs first
    if [ "${2:-}" = all ]; then deps $MPI_PKGS $FUZZ_PKGS; else deps; fi ;;
  example)
    deps
    build build
    make -C build example.h5
    exec build/iodfg build/example.h5 ;;
  test)
    deps $MPI_PKGS
    # one build of both programs (iodfg itself links the serial HDF5 all the same), one suite;
    # with IODFG_SLOW_TESTS=1 it includes the build for a machine whose only HDF5 is the MPI
    # one (Spack +mpi), a configure and a build of its own beside the other tests
    build build --enable-werror --with-mpi
    IODFG_SLOW_TESTS=1 make -C build -j"$(nproc)" check ;;
  bench)
    deps $BENCH_PKGS
    build build
    make -C build bench | tee build/bench.out ;;
  bench-scale)
    deps $BENCH_PKGS
    build build
    make -C build bench-scale | tee build/bench-scale.out ;;
  bench-mpi)
    deps $MPI_PKGS
    build build-mpi --with-mpi
    make -C build-mpi bench-mpi | tee build-mpi/bench-mpi.out ;;
  sanitize)
    deps $MPI_PKGS
    build build-sanitize --enable-sanitizers --enable-werror --enable-debug --with-mpi
    # the tarball's configure and build in install.sh are `test`'s (no sanitizers in them)
    IODFG_NO_TARBALL_TEST=1 make -C build-sanitize -j"$(nproc)" check ;;
  fuzz)
    deps $FUZZ_PKGS
    # -O0: CI's few seconds a target go to the seeds and what they lead to, and clang compiles
    # the instrumented library at -O2 in 2.5 times the time (FUZZ_CFLAGS='-g -O2' for long runs)
    build build-fuzz CC=clang "CFLAGS=${FUZZ_CFLAGS:--g -O0}" --enable-fuzzing
    make -C build-fuzz fuzz-smoke FUZZ_SMOKE_SECONDS="${FUZZ_SECONDS:-5}" ;;
  *)
    sed -n '2,/^set -eu$/s/^# \{0,1\}//p' "$0"
    exit 2 ;;
esac
