# Shared helpers for the end-to-end tests (sourced). Each test runs in its own temp dir.
set -eu
: "${IODFG_BIN:?run through make check}" "${IODFG_TEST_DATA:?}" "${IODFG_SRCDIR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/iodfg-e2e.XXXXXX")
trap '[ -n "${KEEP_T:-}" ] || rm -rf "$T"' EXIT
PY=/usr/bin/python3
fails=0
ok() { echo "ok - $*"; }
fail() { echo "FAIL - $*"; fails=$((fails + 1)); }
check() { # check DESCRIPTION COMMAND...
  d=$1; shift
  if "$@"; then ok "$d"; else fail "$d"; fi
}
# json FILE EXPR: print a Python expression over the parsed JSON document `j`
json() { "$PY" -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }
finish() { # (with before_finish set: that function first, e.g. the MPI tests' queued jobs)
  [ -z "${before_finish:-}" ] || "$before_finish"
  if [ "$fails" -ne 0 ]; then echo "$fails check(s) failed"; exit 1; fi
  exit 0
}
# ior_real: unpack the IOR runs recorded under strace (tests/data/traces/ior-real.tar.xz: cids
# posixssf, posixfpp, mpiiossf, mpiiofpp, 4 ranks each) into $T/ior-real; exit 77 (skip) without
# tar or xz.
ior_real() {
  [ -d "$T/ior-real" ] && return 0
  if ! command -v tar >/dev/null 2>&1 || ! command -v xz >/dev/null 2>&1; then
    echo "SKIP: tar and xz are needed to unpack the recorded IOR runs"
    exit 77
  fi
  tar -C "$T" -xJf "$IODFG_TEST_DATA/traces/ior-real.tar.xz"
}
