#!/bin/sh
# make check with --enable-fuzzing: every libFuzzer target for FUZZ_SECONDS (5) on its seeds.
: "${IODFG_SRCDIR:?run through make check}" "${IODFG_BUILDDIR:?}"
exec sh "$IODFG_SRCDIR/tests/fuzz/run.sh"
