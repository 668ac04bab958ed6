#!/bin/sh
# dev.sh: `./dev.sh test` after `./dev.sh example` configures again with --enable-werror (it
# once kept the example's build without it), and builds iodfg-mpi in the same build. Runs dev.sh
# against stub tools in a temp dir.
. "$IODFG_SRCDIR/tests/e2e/lib.sh"
cp "$IODFG_SRCDIR/dev.sh" "$T/dev.sh"
mkdir "$T/bin"
cd "$T"
touch configure.ac
# configure records its options; make builds nothing but the example's program
cat >configure <<'STUB'
#!/bin/sh
echo "$*" >>"$STUB_LOG"
echo 'all:' >Makefile
STUB
chmod +x configure
cat >bin/make <<'STUB'
#!/bin/sh
while [ $# -gt 0 ]; do case $1 in -C) dir=$2; shift 2 ;; *) shift ;; esac; done
printf '#!/bin/sh\nexit 0\n' >"$dir/iodfg"; chmod +x "$dir/iodfg"
STUB
printf '#!/bin/sh\necho "install ok installed"\n' >bin/dpkg-query
printf '#!/bin/sh\nexit 0\n' >bin/autoreconf
chmod +x bin/*
export STUB_LOG="$T/configured" PATH="$T/bin:$PATH"
sh ./dev.sh example >/dev/null
check "example configures without -Werror" test "$(tail -n 1 configured)" = ""
sh ./dev.sh test >/dev/null
check "test after example configures again, with --enable-werror and iodfg-mpi" \
  test "$(sed -n 2p configured)" = "--enable-werror --with-mpi"
sh ./dev.sh test >/dev/null
check "test again does not reconfigure" test "$(wc -l <configured)" -eq 2
sh ./dev.sh sanitize >/dev/null
check "sanitize configures one sanitizer build of both programs" \
  test "$(tail -n 1 configured)" = "--enable-sanitizers --enable-werror --enable-debug --with-mpi"
sh ./dev.sh bench >/dev/null
check "bench builds without -Werror and keeps its output" test -f build/bench.out
sh ./dev.sh bench-mpi >/dev/null
check "bench-mpi builds iodfg-mpi and keeps its output" \
  test "$(tail -n 1 configured)" = "--with-mpi" -a -f build-mpi/bench-mpi.out
sh ./dev.sh fuzz >/dev/null
check "fuzz builds the libFuzzer targets with clang in a build of their own" \
  test "$(tail -n 1 configured)" = "CC=clang CFLAGS=-g -O0 --enable-fuzzing" -a -f build-fuzz/Makefile
finish
